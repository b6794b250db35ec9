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

from kbqa.core.text.normalise import fingerprint
from sources.chunking import ChunkDraft
from sources.models import Chunk, Document, PurgedChunk


def version_chunks(doc: Document, drafts: Sequence[ChunkDraft]) -> tuple[int, int, int]:
    """Apply the versioning rule (module docstring); returns (added, kept, superseded)."""
    by_ordinal: dict[int, list[Chunk]] = {}  # every stored chunk, looked up per draft
    for c in doc.chunks.all():
        by_ordinal.setdefault(c.ordinal, []).append(c)
    taken = _taken_chunk_ids(doc.doc_id)
    current = {c.ordinal: c for rows in by_ordinal.values() for c in rows if c.is_current}
    now = timezone.now()
    kept = 0
    keep: set[int] = set()
    new: list[Chunk] = []
    for d in drafts:
        fp = fingerprint(d.text)
        rows = by_ordinal.get(d.ordinal, [])
        match = current.get(d.ordinal)
        if match is None or match.fingerprint != fp:
            match = _revivable(rows, fp)
        if match is not None:
            keep.add(match.pk)
            kept += 1
            _keep(match, d)
            continue
        version = max((c.version for c in rows), default=0) + 1
        while chunk_id_for(doc.doc_id, d.ordinal, version) in taken:
            version += 1
        new.append(
            Chunk(
                chunk_id=chunk_id_for(doc.doc_id, d.ordinal, version),
                document=doc,
                ordinal=d.ordinal,
                version=version,
                section=d.section[:300],
                text=d.text,
                tokens=d.tokens,
                fingerprint=fp,
            )
        )
    Chunk.objects.bulk_create(new)  # one INSERT per batch, not per chunk
    stale = [c.pk for c in current.values() if c.pk not in keep]
    Chunk.objects.filter(pk__in=stale).update(is_current=False, superseded_at=now)
    return len(new), kept, len(stale)


def _taken_chunk_ids(doc_id: str) -> set[str]:
    """Every chunk id of ``doc_id`` ever stored: rows of any document, and purged ids."""
    prefix = f"{doc_id}#"
    rows = Chunk.objects.filter(chunk_id__startswith=prefix).values_list("chunk_id", flat=True)
    purged = PurgedChunk.objects.filter(chunk_id__startswith=prefix)
    return set(rows) | set(purged.values_list("chunk_id", flat=True))


def _revivable(rows: Sequence[Chunk], fp: str) -> Chunk | None:
    """The latest superseded chunk of ``rows`` (one ordinal's) with this fingerprint (a
    reverted edit)."""
    old = [c for c in rows if c.fingerprint == fp and not c.is_current]
    return max(old, key=lambda c: c.version) if old else None


def _keep(chunk: Chunk, draft: ChunkDraft) -> None:
    """Keep an existing chunk current; its text is never rewritten."""
    if not chunk.is_current or chunk.section != draft.section[:300]:
        chunk.is_current = True
        chunk.superseded_at = None
        chunk.section = draft.section[:300]
        chunk.save(update_fields=["is_current", "superseded_at", "section"])


def chunk_id_for(doc_id: str, ordinal: int, version: int = 1) -> str:
    """``doc-010#c02`` for version 1, ``doc-010#c02v2`` for later versions."""
    base = f"{doc_id}#c{ordinal:02d}"
    return base if version == 1 else f"{base}v{version}"
