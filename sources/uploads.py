"""An ingested file's bytes within the limits, and how a failed ingest is told.

``check_size`` refuses a file over ``KBQA_MAX_UPLOAD_MB`` before its bytes are read (the
upload form says the same with ``upload_size_problem``, and refuses a type no parser reads
with ``upload_type_problem``), ``read_file`` reads a path or an
uploaded ``File``, ``parse_limits_from_settings`` gives the parsing child its limits
(``sources.containment``), and ``ingest_failure_reason`` words any failure for the person
who ingested, in their language (``IngestError.template`` is translated here: the parsing
child has no Django settings to translate with).
"""

from __future__ import annotations

import logging
import math
from pathlib import Path, PurePath
from typing import Any

from django.conf import settings
from django.core.files.base import File
from django.utils.translation import gettext, pgettext

from kbqa.core.errors import IngestError
from sources.containment import ParseLimits
from sources.parsers import check_type

logger = logging.getLogger("sources.services")  # where ingest failures were always logged


def ingest_failure_reason(name: str, exc: Exception) -> str:
    """A message safe to show, in the active language: the IngestError's own (its template
    translated, ``IngestError.template``), or a generic one (logged in full)."""
    if isinstance(exc, IngestError):
        return pgettext("between problems of one file", "; ").join(
            _translated(e) for e in (exc, *exc.more))
    logger.exception("unexpected error ingesting %s", name)
    return gettext("%(name)s: unexpected error (%(error)s)") % {
        "name": name,
        "error": type(exc).__name__,
    }


def _translated(exc: IngestError) -> str:
    """One problem's message in the active language (its template translated)."""
    if not exc.params:
        return exc.args[0] if exc.args else exc.template
    return gettext(exc.template) % exc.params


MB = 1024 * 1024  # the unit of KBQA_MAX_UPLOAD_MB (as Django's upload settings count it)


def upload_size_problem(*, name: str, size: int) -> str:
    """ "" when a file of ``size`` bytes may be ingested, else why not (safe to show): the file
    name, its size in MB (rounded up to 0.1, so it never reads as within the limit) and the
    limit ``settings.KBQA_MAX_UPLOAD_MB``."""
    limit = settings.KBQA_MAX_UPLOAD_MB
    if size <= limit * MB:
        return ""
    size_mb = math.ceil(size * 10 / MB) / 10
    return gettext(
        "%(name)s: %(size)s MB is over the upload limit of %(limit)s MB; split the file, or ask "
        "an administrator to raise KBQA_MAX_UPLOAD_MB"
    ) % {"name": name, "size": f"{size_mb:.1f}", "limit": limit}


def upload_type_problem(*, name: str) -> str:
    """ "" when ``sources.parsers`` reads a file called ``name`` (by its extension), else why
    not, naming the types it reads (safe to show, in the active language)."""
    try:
        check_type(name)
    except IngestError as exc:
        return ingest_failure_reason(name, exc)
    return ""


def check_size(*, path: str | Path | None, file: File[Any] | None) -> None:
    """Raise IngestError for a file over the limit, before its bytes are read."""
    if path is not None:
        try:
            name, size = Path(path).name, Path(path).stat().st_size
        except OSError:
            return  # read_file names the problem
    else:
        assert file is not None
        name, size = PurePath(file.name or "upload").name, file.size
    if problem := upload_size_problem(name=name, size=size):
        raise IngestError(problem)


def read_file(*, path: str | Path | None, file: File[Any] | None) -> tuple[str, bytes]:
    if path is not None:
        try:
            return Path(path).name, Path(path).read_bytes()
        except OSError as exc:
            raise IngestError(
                gettext("%(name)s: cannot be read (%(error)s)")
                % {"name": Path(path).name, "error": exc.strerror}
            ) from exc
    assert file is not None
    name = PurePath(file.name or "upload").name
    file.seek(0)
    data = file.read()
    return name, data if isinstance(data, bytes) else data.encode("utf-8")


def parse_limits_from_settings() -> ParseLimits:
    """``KBQA_PARSE_SECONDS``, ``KBQA_PARSE_MEMORY_MB`` and ``KBQA_MAX_UNZIPPED_MB``."""
    return ParseLimits(
        seconds=settings.KBQA_PARSE_SECONDS,
        memory_mb=settings.KBQA_PARSE_MEMORY_MB,
        unzipped_mb=settings.KBQA_MAX_UNZIPPED_MB,
    )
