"""Front matter values: YAML read as python-frontmatter's handler reads it, each key checked
and turned into text (``META_KEYS``; ``updated`` as an ISO date, never after tomorrow). Every
failure raises ``IngestError`` naming the file and the key or value (``sources.parsers``
reads the front matter block itself)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from kbqa.core.errors import IngestError, gettext_noop

EVERYONE_WORD = "everyone"  # visibility: everyone (the default), or group names
META_KEYS = ("doc_id", "title", "updated", "source_url", "authority", "language", "visibility")


def yaml_load(handler: Any, raw_meta: str) -> Any:
    """The front matter as YAML values; when a value fails to construct (PyYAML raises a bare
    ``ValueError`` for ``updated: 2026-02-30``, naming no key) it is read again with every value
    as text, so the field's own check (``iso_date``) names the key and the value."""
    import yaml

    try:
        return handler.load(raw_meta)
    except ValueError:
        return handler.load(raw_meta, Loader=yaml.BaseLoader)


def yaml_problem(exc: Exception, lines_before: int = 0) -> str:
    """PyYAML's own words and the file line (1-based), else the type. The line is where the
    faulty construct began (PyYAML's context mark: an unclosed ``[`` is noticed only at the
    end of the YAML, on the closing ``---``), else where PyYAML stopped. PyYAML counts lines
    from the front matter's start, ``lines_before`` lines into the file."""
    problem = getattr(exc, "problem", None) or type(exc).__name__
    mark = getattr(exc, "context_mark", None) or getattr(exc, "problem_mark", None)
    if mark is None:
        return str(problem)
    return f"{problem} on line {mark.line + lines_before + 1}"


def clean_meta(name: str, raw: dict[str, Any]) -> dict[str, str]:
    """Front matter values as strings; ``updated`` (or ``effective``) as an ISO date."""
    meta: dict[str, str] = {}
    if "updated" not in raw and "effective" in raw:
        raw = {**raw, "updated": raw["effective"]}
    for key in META_KEYS:
        value = raw.get(key)
        if value is None or value == "":
            continue
        if key == "updated":
            try:
                meta[key] = iso_date(value, name=name)
            except IngestError:
                meta[key] = str(value).strip()  # refused with the file's other problems
        elif key == "visibility" and isinstance(value, list):
            if not all(isinstance(v, str | int) for v in value):
                raise IngestError(
                    gettext_noop("%(name)s: bad front matter (visibility lists group names)"),
                    name=name,
                )
            meta[key] = ",".join(str(v).strip() for v in value) or EVERYONE_WORD
        elif isinstance(value, str | int | float):
            meta[key] = str(value).strip()
        else:
            raise IngestError(
                gettext_noop("%(name)s: bad front matter (%(key)s must be text)"),
                name=name,
                key=key,
            )
    return meta


def iso_date(value: Any, *, name: str) -> str:
    """``value`` (a date, datetime or ISO string) as ``YYYY-MM-DD``; IngestError otherwise,
    and for a day after tomorrow: a future 'updated' would win every conflict on recency."""
    if isinstance(value, dt.datetime):
        day = value.date()
    elif isinstance(value, dt.date):
        day = value
    else:
        day = _date_text(value, name=name)
    if after_tomorrow(day):
        raise IngestError(
            gettext_noop("%(name)s: the date %(value)s in 'updated' is in the future; give the"
                         " day the document last changed (YYYY-MM-DD)"),
            name=name, value=day.isoformat(),
        )
    return day.isoformat()


def after_tomorrow(day: dt.date) -> bool:
    """Whether ``day`` is later than tomorrow: in the future, with a day of slack for time
    zones. No document can have been changed then."""
    return day > dt.date.today() + dt.timedelta(days=1)


def _date_text(value: Any, *, name: str) -> dt.date:
    """An ISO date written as text; IngestError naming the value otherwise."""
    try:
        return dt.date.fromisoformat(str(value).strip()[:10])
    except ValueError as exc:
        # "2026-02-30" has the form but is no day: say why ("day is out of range for month").
        why = "" if str(exc).startswith("Invalid isoformat") else f" ({exc})"
        raise IngestError(
            gettext_noop("%(name)s: bad date %(value)s in 'updated'%(why)s; use YYYY-MM-DD"),
            name=name,
            value=repr(str(value)[:40]),
            why=why,
        ) from exc
