"""A document's metadata as uploaded (front matter, the upload form): checked together, so
one refusal names every bad value (a tester's file with a bad date and a bad authority
was refused for the date, then for the authority on the next try), with the allowed
values written as a list a person reads.
"""

from __future__ import annotations

import re
from pathlib import PurePath
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.utils.text import slugify
from django.utils.translation import gettext_noop

from kbqa.core.errors import IngestError
from kbqa.core.text.normalise import detect_language, sha256
from sources.front_matter import iso_date
from sources.models import Authority, Language

_DOC_ID_RE = re.compile(r"^\w[\w.-]{0,99}$")


class SourceURLField(forms.URLField):
    """A document's source URL, the one rule for every way in (the upload form, front
    matter, ``ingest --source-url``): an http or https address, at most 500 characters
    (``Document.source_url``); without a scheme, https is assumed."""

    default_validators = [URLValidator(schemes=["http", "https"])]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(assume_scheme="https", max_length=500, **kwargs)


def checked_source_url(name: str, value: str) -> str:
    """``value`` as stored (``SourceURLField``'s rule; "" stays ""). Raises IngestError for a
    ``javascript:`` link, an address that is no URL or one over 500 characters."""
    try:
        return str(SourceURLField(required=False).clean(value))
    except ValidationError:
        raise IngestError(
            gettext_noop("%(name)s: bad source_url %(value)s; use an http:// or https:// address"),
            name=name, value=repr(value[:60])) from None


def checked_meta(name: str, meta: dict[str, str], text: str
                  ) -> tuple[str, str, str, str | None, str]:
    """``(doc_id, authority, language, updated, source_url)`` of a file's metadata;
    IngestError naming every bad value at once (a file with a bad date and a bad authority
    was refused for the date, and for the authority only on the next upload)."""
    problems: list[IngestError] = []
    doc_id = meta.get("doc_id") or derive_doc_id(name)
    if not _DOC_ID_RE.match(doc_id):
        problems.append(IngestError(
            gettext_noop("%(name)s: bad doc_id %(doc_id)s; use letters, digits, - . _"),
            name=name, doc_id=repr(doc_id[:40])))
    authority = meta.get("authority", Authority.OTHER).lower()
    if authority not in Authority.values:
        problems.append(IngestError(
            gettext_noop("%(name)s: unknown authority %(value)s; use %(allowed)s"),
            name=name, value=repr(authority[:40]), allowed=", ".join(Authority.values)))
    language = _language(meta.get("language", "") or detect_language(text))
    if not language:
        problems.append(IngestError(
            gettext_noop("%(name)s: unsupported language %(value)s; use en or zh"),
            name=name, value=repr(meta.get("language", "")[:20])))
    updated = None
    try:
        updated = iso_date(meta["updated"], name=name) if meta.get("updated") else None
    except IngestError as exc:
        problems.append(exc)
    source_url = ""
    try:
        source_url = checked_source_url(name, str(meta.get("source_url") or ""))
    except IngestError as exc:
        problems.append(exc)
    if problems:
        raise IngestError.of_all(problems)
    return doc_id, authority, language, updated, source_url


def _language(value: str) -> str:
    """The language code ``value`` names ("zh-CN" is zh), "" for none kbqa knows."""
    code = value.strip().lower()
    return next((str(lang) for lang in Language.values
                 if code == lang or code.startswith((lang + "-", lang + "_"))), "")


def derive_doc_id(name: str) -> str:
    """A stable doc_id from a file name: ``Travel Policy.md`` -> ``travel-policy``."""
    slug = slugify(PurePath(name).stem, allow_unicode=True)[:100].strip("-_.")
    return slug or "doc-" + sha256(name)[:8]
