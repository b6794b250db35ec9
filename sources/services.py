"""Writes to the knowledge base: ingesting files into documents and versioned chunks.

Each document is parsed and chunked completely before anything is written, then stored in
one transaction, so a file that fails leaves what is stored untouched.

Chunk ids are stable. Re-ingesting an unchanged document changes nothing. For a changed
document, a new chunk whose ordinal AND fingerprint match a current chunk keeps that chunk
(and its id); one matching an older, superseded version of the same ordinal revives it;
anything else becomes a new version (``doc-010#c02v2``) and the chunk it replaces is kept
with ``is_current = False``, so a citation stored in a trace never points at new text.
A new version number is checked against every chunk id ever stored (current, superseded,
retired, or purged and remembered as a ``PurgedChunk``), so an id never means other text.
Ingesting a retired document's doc_id again restores it (status ``restored``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any

from django.conf import settings
from django.core.files.base import ContentFile, File
from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from kbqa.core.errors import IngestError
from kbqa.core.text.normalise import sha256
from kbqa.db import lock_lost, write_retried
from sources.chunk_terms import PARALLEL_MIN_CHARS, chunks_terms
from sources.chunking import ChunkDraft, chunks_of
from sources.containment import parse_contained
from sources.identity import (
    another_source,
    duplicate_refusal,
    duplicate_warning,
    replace_refusal,
    same_text_document,
)
from sources.indexing import index_documents
from sources.ingest_types import (
    IngestFailure,
    IngestOverrides,
    IngestProgress,
    IngestResult,
    IngestStage,
    IngestStatus,
    IngestSummary,
    instructions_warning,
    with_warnings,
)
from sources.metadata import checked_meta
from sources.models import Document
from sources.parsed import ParsedDocument
from sources.uploads import (
    check_size,
    parse_limits_from_settings,
    read_file,
)
from sources.versioning import chunk_id_for, version_chunks
from sources.visibility import (
    Group,
    document_visibility_set,
    visibility_changed,
    visibility_groups,
)

__all__ = ["chunk_id_for"]  # re-exported: callers used to find it here

#: metadata a new version of a document keeps when neither its file nor the form states it
KEPT_WHEN_UNSTATED = ("authority", "updated", "source_url")


@dataclass(frozen=True)
class _DocumentDraft:
    """Everything to store for one document, computed before any write."""

    fields: dict[str, Any]
    drafts: tuple[ChunkDraft, ...]
    content_hash: str
    doc_id_from_name: bool = False
    groups: tuple[Group, ...] | None = None  # None: visibility not stated (keep what it was)
    warnings: tuple[str, ...] = ()
    terms: tuple[str, ...] = ()  # each draft's index terms (``sources.indexing.joined_terms``)
    visibility: str = ""  # stated visibility not yet resolved to ``groups`` (``groups=False``)
    # metadata neither the file nor the upload form states: a new version keeps the stored
    # value, as it keeps its visibility (a plain-text update had reset a policy to "other")
    unstated: frozenset[str] = frozenset()


def document_ingest(
    *,
    path: str | Path | None = None,
    file: File[Any] | None = None,
    overrides: IngestOverrides | None = None,
    max_tokens: int | None = None,
    replace: bool = False,
    on_progress: IngestProgress | None = None,
) -> IngestResult:
    """Ingest one file given by ``path`` or as an (uploaded) Django ``file``.

    ``max_tokens`` defaults to ``settings.KBQA_CHUNK_TOKENS`` (cl100k tokens per chunk).
    Raises ``IngestError`` (message names the file) when the file is larger than
    ``settings.KBQA_MAX_UPLOAD_MB``, or cannot be read, parsed or stored, or its doc_id is
    a document from another file and not ``replace`` (``sources.identity``); nothing stored
    changes then. A new file with a stored document's text is not added (status
    ``duplicate``, its warning names that document). ``on_progress(stage, fraction)`` is
    told what the ingest is doing (``ingest_types.IngestStage``); a large document's terms
    are found in worker processes (``sources.chunk_terms``).
    """
    if (path is None) == (file is None):
        raise ValueError("pass exactly one of path= or file=")
    check_size(path=path, file=file)
    name, data = read_file(path=path, file=file)
    overrides = overrides or IngestOverrides()
    progress = on_progress or _unreported
    draft = _prepare(
        name, data, overrides, max_tokens or settings.KBQA_CHUNK_TOKENS, processes=0,
        progress=progress,
    )
    progress("storing", 0.0)

    def store() -> tuple[IngestResult, int]:
        with transaction.atomic():
            return _store(name, data, draft, overrides, replace=replace)

    # The same new document uploaded twice at once: on PostgreSQL the second insert of its
    # doc_id breaks the unique constraint; tried again, it finds the first one's document.
    result, doc_key = write_retried(
        store, retry_on=lambda e: lock_lost(e) or isinstance(e, IntegrityError)
    )
    if result.status not in ("unchanged", "duplicate"):
        progress("indexing", 0.0)
        index_documents(doc_keys=[doc_key])
    return with_warnings(result, draft.warnings)


def _unreported(stage: IngestStage, fraction: float) -> None:
    """Progress nobody asked to hear."""


def document_reingest(*, document: Document, max_tokens: int | None = None) -> IngestResult:
    """Ingest ``document`` again from its stored original file, with its stored overrides.

    Raises ``IngestError`` when the document was removed from the knowledge base (restore it
    first), has no stored original, or it no longer parses.
    """
    upload, overrides = reingest_source(document=document)
    return document_ingest(file=upload, overrides=overrides, max_tokens=max_tokens)


def reingest_source(*, document: Document) -> tuple[ContentFile[bytes], IngestOverrides]:
    """What re-ingesting ``document`` ingests: its stored original file (named as it was
    uploaded) and its stored overrides with its doc_id. Raises ``IngestError`` as
    ``document_reingest`` does for a removed document or a missing original."""
    name = document.original_name or document.doc_id
    if document.retired_at is not None:
        raise IngestError(
            gettext("%(name)s: removed from the knowledge base; restore it first")
            % {"name": document.doc_id}
        )
    if not document.original_file:
        raise IngestError(
            gettext("%(name)s: no stored original file to re-ingest") % {"name": name}
        )
    try:
        with document.original_file.open("rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise IngestError(
            gettext("%(name)s: stored original file cannot be read") % {"name": name}
        ) from exc
    stored = {k: v for k, v in document.overrides.items() if k in IngestOverrides.__annotations__}
    overrides = IngestOverrides(**{**stored, "doc_id": document.doc_id})
    return ContentFile(data, name=name), overrides


def documents_ingest_paths(
    *,
    paths: Sequence[str | Path],
    overrides: IngestOverrides | None = None,
    max_tokens: int | None = None,
    on_progress: Callable[[int, int, IngestResult | IngestFailure], None] | None = None,
    processes: int = 0,
    replace: bool = False,
) -> IngestSummary:
    """Ingest files and folders (recursively; hidden files skipped), each file atomically.

    A file that fails, or a path that does not exist, is recorded in ``failures`` (by path)
    and the others go on; so are files of the batch that would be one document
    (``sources.batch_files``). ``on_progress`` is called after each file or missing path,
    in order, with (position from 1, total, outcome). ``processes``: parsing and tokenising
    processes (0: one per CPU); how it goes fast is in ``sources.bulk``. ``replace``: as
    ``document_ingest``'s (without it a file over another file's document fails).
    """
    from sources.batch_files import batch_files  # they build on this module's steps
    from sources.bulk import ingest_entries

    return ingest_entries(
        batch_files(paths),
        overrides=overrides or IngestOverrides(),
        max_tokens=max_tokens or settings.KBQA_CHUNK_TOKENS,
        on_progress=on_progress,
        processes=processes,
        replace=replace,
    )


def _prepare(
    name: str,
    data: bytes,
    overrides: IngestOverrides,
    max_tokens: int,
    *,
    groups: bool = True,
    processes: int = 1,
    progress: IngestProgress = _unreported,
) -> _DocumentDraft:
    """Parse in a limited child process (only the parse is limited), then ``_drafted``."""
    progress("reading", 0.0)
    parsed = parse_contained(name=name, data=data, limits=parse_limits_from_settings())
    return _drafted(name, parsed, overrides, max_tokens, groups=groups, processes=processes,
                    progress=progress)


def _drafted(name: str, parsed: ParsedDocument, overrides: IngestOverrides, max_tokens: int, *,
             groups: bool = True, processes: int = 1,
             progress: IngestProgress = _unreported) -> _DocumentDraft:
    """The parsed file as a document to store: metadata resolved, chunked, each chunk's
    terms; raises IngestError, writes nothing. ``groups=False`` leaves a stated visibility
    unresolved (no database access: ``sources.bulk_workers``). ``processes``:
    for the chunks' terms (``sources.chunk_terms``; 1 in ``sources.bulk_workers``)."""
    meta = {**parsed.meta, **overrides.as_dict()}
    try:
        doc_id, authority, language, updated, source_url = checked_meta(
            name, meta, parsed.text
        )
    except IngestError as exc:  # with the unknown groups, if any: every problem at once
        if not (groups and meta.get("visibility")):
            raise
        try:
            visibility_groups(name, meta["visibility"])
        except IngestError as more:
            raise IngestError.of_all([exc, more]) from None
        raise
    fields = {
        "title": (meta.get("title") or parsed.title_guess or PurePath(name).stem)[:300],
        "source_url": source_url,
        "language": language,
        "updated": updated,
        "authority": authority,
    }
    progress("chunking", 0.0)
    drafts, terms = _chunked(parsed.text, max_tokens, processes, progress)
    if not drafts:
        raise IngestError(gettext("%(name)s: the file contains no text") % {"name": name})
    from_name = not meta.get("doc_id")
    visibility = meta.get("visibility", "")
    found = None
    if groups and visibility:  # a database look-up: ``sources.bulk`` does it while storing
        found, visibility = visibility_groups(name, visibility), ""
    warnings = parsed.warnings + instructions_warning(name, [d.text for d in drafts])
    unstated = frozenset(k for k in KEPT_WHEN_UNSTATED if not meta.get(k))
    return _DocumentDraft({"doc_id": doc_id, **fields}, drafts, sha256(parsed.text), from_name,
                          found, warnings, terms, visibility, unstated)


def _chunked(
    text: str, max_tokens: int, processes: int, progress: IngestProgress
) -> tuple[tuple[ChunkDraft, ...], tuple[str, ...]]:
    """The text's chunks and each one's index terms. From ``PARALLEL_MIN_CHARS`` characters
    on, the terms are found in ``processes`` worker processes while the text is still being
    cut (``sources.chunk_terms``); ``progress("chunking", share of the text cut)``."""
    drafts: list[ChunkDraft] = []

    def pairs() -> Iterator[tuple[str, str]]:
        cut = 0  # characters of text in the chunks so far
        for draft in chunks_of(text, max_tokens=max_tokens):
            drafts.append(draft)
            cut += len(draft.text)
            progress("chunking", min(1.0, cut / len(text)))
            yield draft.section[:300], draft.text

    parallel = processes if len(text) >= PARALLEL_MIN_CHARS else 1
    terms = chunks_terms(pairs(), processes=parallel)
    return tuple(drafts), tuple(terms)


def _store(
    name: str,
    data: bytes,
    draft: _DocumentDraft,
    overrides: IngestOverrides,
    *,
    replace: bool = False,
) -> tuple[IngestResult, int]:
    """Write one prepared document; returns its result and the document's key. Raises
    IngestError for a document from another file unless ``replace`` (``sources.identity``)."""
    doc_id, title = draft.fields["doc_id"], draft.fields["title"]
    doc = Document.objects.select_for_update().filter(doc_id=doc_id).first()
    if doc is not None:
        draft = dataclasses.replace(draft, fields={**draft.fields, **{
            k: _stored_value(doc, k) for k in draft.unstated}})
    twin = same_text_document(draft.drafts) if doc is None else None
    if twin is not None and draft.doc_id_from_name:
        return _duplicate(name, twin), twin.pk
    if doc is not None and doc.retired_at is None and _unchanged(doc, draft, overrides):
        current = doc.chunks.filter(is_current=True).count()
        return IngestResult(name, doc_id, doc.title, "unchanged", current, 0, current, 0), doc.pk
    replaced = doc is not None and another_source(doc, name=name, title=title)
    if replaced and not replace:
        assert doc is not None
        raise IngestError(replace_refusal(doc, name=name, title=title))
    status: IngestStatus = "added" if doc is None else "updated"
    if doc is not None and doc.retired_at is not None:
        status, doc.retired_at = "restored", None
    if doc is None:
        doc = Document(**draft.fields)
    previous_name = doc.original_name
    previous_title = doc.title if status != "added" and doc.title != title else ""
    authority = draft.fields["authority"]
    authority_change = ((doc.authority, authority)
                        if status != "added" and doc.authority != authority else None)
    for key, value in draft.fields.items():
        setattr(doc, key, value)
    doc.overrides = overrides.stored()
    if doc.content_hash != draft.content_hash or not doc.original_file:
        _replace_original(doc, name, data)
    doc.content_hash = draft.content_hash
    doc.save()
    if draft.groups is not None:
        document_visibility_set(document=doc, groups=draft.groups)
    added, kept, superseded = version_chunks(
        doc, draft.drafts, draft.terms, created=status == "added"
    )
    counts = (added + kept, added, kept, superseded)
    warnings = (duplicate_warning(name, twin),) if twin is not None else ()
    result = IngestResult(
        name, doc_id, doc.title, status, *counts, draft.doc_id_from_name, previous_name,
        warnings, previous_title, replaced, authority_change,
    )
    return result, doc.pk


def _stored_value(doc: Document, key: str) -> Any:
    """``doc``'s stored ``key`` as a draft field holds it (a date as ISO text)."""
    value = getattr(doc, key)
    if key == "updated":
        return value.isoformat() if value else None
    return value


def _duplicate(name: str, twin: Document) -> IngestResult:
    current = twin.chunks.filter(is_current=True).count()
    refusal = duplicate_refusal(name, twin)
    return IngestResult(name, twin.doc_id, twin.title, "duplicate", current, warnings=(refusal,))


def _unchanged(doc: Document, draft: _DocumentDraft, overrides: IngestOverrides) -> bool:
    if doc.content_hash != draft.content_hash or doc.overrides != overrides.stored():
        return False
    if visibility_changed(doc, draft.groups):
        return False
    if any(getattr(doc, k) != v for k, v in draft.fields.items() if k != "updated"):
        return False
    if (doc.updated.isoformat() if doc.updated else None) != draft.fields["updated"]:
        return False
    stored = list(doc.chunks.filter(is_current=True).values_list("ordinal", "fingerprint"))
    return sorted(stored) == [(d.ordinal, d.fingerprint) for d in draft.drafts]


def _replace_original(doc: Document, name: str, data: bytes) -> None:
    old = doc.original_file.name if doc.original_file else ""
    doc.original_file.save(name, ContentFile(data), save=False)
    doc.original_name = name
    if old and old != doc.original_file.name:
        storage = doc.original_file.storage
        transaction.on_commit(lambda: storage.delete(old))
