"""Chunk versioning: which stored chunks a re-ingested document keeps, revives or supersedes.

The rule (also in ``sources.services``): a new chunk whose ordinal AND fingerprint match a
current chunk keeps that chunk (and its id); one matching an older, superseded version of the
same ordinal revives it; anything else becomes a new version (``doc-010#c02v2``) and the chunk
it replaces is kept with ``is_current = False``. A new version number is checked against every
chunk id ever stored (rows and ``PurgedChunk`` tombstones), so an id never means other text.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils import timezone

from kbqa.core.text.terms import TERMS_VERSION
from sources.chunking import ChunkDraft
from sources.indexing import joined_terms
from sources.models import Chunk, Document, PurgedChunk


def version_chunks(
    doc: Document, drafts: Sequence[ChunkDraft], terms: Sequence[str] = (), *, created: bool = False
) -> tuple[int, int, int]:
    """Apply the versioning rule (module docstring); returns (added, kept, superseded).

    ``terms`` are the drafts' index terms (``sources.indexing.joined_terms``), stored with
    new chunks and with kept ones whose section or terms version changed; computed here
    when not given. ``created``: ``doc`` was inserted just now, so it has no chunks yet.
    """
    terms = list(terms) or [joined_terms(d.section[:300], d.text) for d in drafts]
    by_ordinal: dict[int, list[Chunk]] = {}  # every stored chunk, looked up per draft
    for c in doc.chunks.all() if not created else ():
        by_ordinal.setdefault(c.ordinal, []).append(c)
    taken = _taken_chunk_ids(doc, by_ordinal)
    current = {c.ordinal: c for rows in by_ordinal.values() for c in rows if c.is_current}
    now = timezone.now()
    kept = 0
    keep: set[int] = set()
    new: list[Chunk] = []
    for d, d_terms in zip(drafts, terms, strict=True):
        fp = d.fingerprint
        rows = by_ordinal.get(d.ordinal, [])
        match = current.get(d.ordinal)
        if match is None or match.fingerprint != fp:
            match = _revivable(rows, fp)
        if match is not None:
            keep.add(match.pk)
            kept += 1
            _keep(match, d, d_terms)
            continue
        version = max((c.version for c in rows), default=0) + 1
        new.append(chunk_row(doc, d, d_terms, version, fp))
    _number(doc, new, taken)
    Chunk.objects.bulk_create(new)  # one INSERT per batch, not per chunk
    stale = [c.pk for c in current.values() if c.pk not in keep]
    Chunk.objects.filter(pk__in=stale).update(is_current=False, superseded_at=now)
    return len(new), kept, len(stale)


def _taken_chunk_ids(doc: Document, by_ordinal: dict[int, list[Chunk]]) -> set[str]:
    """Chunk ids of ``doc.doc_id`` known to be stored: this document's rows and the ids
    purged under its doc_id (``_number`` checks the rest by exact id)."""
    rows = {c.chunk_id for cs in by_ordinal.values() for c in cs}
    purged = PurgedChunk.objects.filter(doc_id=doc.doc_id).values_list("chunk_id", flat=True)
    return rows | set(purged)


def _number(doc: Document, new: list[Chunk], taken: set[str]) -> None:
    """Give each new chunk the first free version from its own, and its id: free means not
    in ``taken`` (this document's rows and tombstones) nor in any other document's row
    (looked up by exact id in the unique index; possible only after a doc_id rename)."""
    while True:
        for c in new:
            while chunk_id_for(doc.doc_id, c.ordinal, c.version) in taken:
                c.version += 1
            c.chunk_id = chunk_id_for(doc.doc_id, c.ordinal, c.version)
        ids = [c.chunk_id for c in new]
        clash = set(Chunk.objects.filter(chunk_id__in=ids).values_list("chunk_id", flat=True))
        if not clash:
            return
        taken |= clash


def _revivable(rows: Sequence[Chunk], fp: str) -> Chunk | None:
    """The latest superseded chunk of ``rows`` (one ordinal's) with this fingerprint (a
    reverted edit)."""
    old = [c for c in rows if c.fingerprint == fp and not c.is_current]
    return max(old, key=lambda c: c.version) if old else None


def _keep(chunk: Chunk, draft: ChunkDraft, terms: str) -> None:
    """Keep an existing chunk current; its text is never rewritten (its terms may be)."""
    stale = chunk.terms_version != TERMS_VERSION or chunk.terms != terms
    if not chunk.is_current or chunk.section != draft.section[:300] or stale:
        chunk.is_current = True
        chunk.superseded_at = None
        chunk.section = draft.section[:300]
        chunk.terms, chunk.terms_version = terms, TERMS_VERSION
        fields = ["is_current", "superseded_at", "section", "terms", "terms_version"]
        chunk.save(update_fields=fields)


def chunk_row(
    doc: Document, draft: ChunkDraft, terms: str, version: int, fp: str = ""
) -> Chunk:
    """An unsaved chunk row of ``doc`` for ``draft`` at ``version`` with its stored index
    ``terms`` and fingerprint ``fp`` (computed when not given); ``chunk_id`` is left to the
    caller (``chunk_id_for``) or to ``_number``."""
    return Chunk(
        document=doc,
        ordinal=draft.ordinal,
        version=version,
        section=draft.section[:300],
        text=draft.text,
        tokens=draft.tokens,
        fingerprint=fp or draft.fingerprint,
        terms=terms,
        terms_version=TERMS_VERSION,
    )


def chunk_id_for(doc_id: str, ordinal: int, version: int = 1) -> str:
    """``doc-010#c02`` for version 1, ``doc-010#c02v2`` for later versions."""
    base = f"{doc_id}#c{ordinal:02d}"
    return base if version == 1 else f"{base}v{version}"
