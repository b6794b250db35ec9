"""Writes that take documents out of the knowledge base: retire, restore, purge.

Retiring is what "delete" means in the admin: the document and its chunks stay stored, the
chunks leave retrieval (``is_current = False``) and the chunk view marks them as removed, so
every citation stored in a trace stays readable. Restoring undoes it exactly. Purging is for
content that must go: it deletes the rows and the stored original file and keeps only a
``PurgedChunk`` tombstone (id and date, no text) per chunk, so the id is never reused and a
cited purged chunk reads "no longer available". Purging also sends ``document_purged``
(inside its transaction) with the chunks' ids and texts, so the chat app can remove that text
from stored traces and answers (``chat.redaction``; sources must not import chat).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.db import DatabaseError, connection, transaction
from django.dispatch import Signal
from django.utils import timezone

from sources.indexing import index_documents
from sources.models import Document, PurgedChunk
from sources.selectors import document_access

logger = logging.getLogger(__name__)

# Sent by ``document_purge`` before the rows go: ``doc_id`` (str) and ``chunks`` (chunk id ->
# text, every version the document ever had).
document_purged = Signal()


@dataclass(frozen=True)
class PurgeResult:
    """What a purge removed: the document, its chunk rows, and whether a file was deleted."""

    doc_id: str
    chunks: int
    original_file: str  # storage name of the deleted original, "" if there was none


def document_retire(*, document: Document) -> int:
    """Remove ``document`` from the knowledge base, keeping its chunks readable.

    Its current chunks become not current with ``superseded_at`` equal to the new
    ``retired_at`` (that is how ``document_restore`` finds them). Returns how many chunks
    left retrieval; 0 and no change if it was already retired.
    """
    if document.retired_at is not None:
        return 0
    now = timezone.now()
    with transaction.atomic():
        count = document.chunks.filter(is_current=True).update(is_current=False, superseded_at=now)
        document.retired_at = now
        document.save(update_fields=["retired_at", "updated_at"])
    index_documents(doc_keys=[document.pk])
    return count


def document_restore(*, document: Document) -> int:
    """Put a retired ``document`` back: the chunks that were current when it was retired
    become current again. Returns how many; 0 and no change if it was not retired."""
    if document.retired_at is None:
        return 0
    with transaction.atomic():
        count = document.chunks.filter(superseded_at=document.retired_at).update(
            is_current=True, superseded_at=None
        )
        document.retired_at = None
        document.save(update_fields=["retired_at", "updated_at"])
    index_documents(doc_keys=[document.pk])
    return count


def document_purge(*, document: Document) -> PurgeResult:
    """Delete ``document``, all its chunk rows and its stored original file, for good, and
    (through ``document_purged``) its text from stored traces and answers.

    Each chunk id is remembered as a ``PurgedChunk`` (no text), so a citation of it shows
    "no longer available" and a later document with the same doc_id gets new ids. The file
    is deleted after the transaction commits. The retrieval index is then merged, so the
    document's terms leave the index files before this returns (seconds on a large index).
    """
    now = timezone.now()
    doc_key = document.pk
    file_name = document.original_file.name if document.original_file else ""
    storage = document.original_file.storage
    with transaction.atomic():
        chunks = dict(document.chunks.values_list("chunk_id", "text"))
        ids = list(chunks)
        document_purged.send(sender=Document, doc_id=document.doc_id, chunks=chunks)
        access = list(document_access(document))
        PurgedChunk.objects.bulk_create(
            [
                PurgedChunk(chunk_id=i, doc_id=document.doc_id, purged_at=now, access=access)
                for i in ids
            ],
            ignore_conflicts=True,
        )
        document.chunks.all().delete()
        document.delete()
        if file_name:
            transaction.on_commit(lambda: storage.delete(file_name))
    index_documents(doc_keys=[doc_key], merge="now")  # its terms leave the index files too
    _wal_flushed()
    return PurgeResult(document.doc_id, len(ids), file_name)


def _wal_flushed() -> None:
    """On SQLite, copy the write-ahead log into the database file and empty it, so the
    purged text's old pages do not linger in ``*.sqlite3-wal`` (with ``secure_delete`` on,
    the database file's freed pages are zeroed). Other databases: nothing to do."""
    if connection.vendor != "sqlite" or connection.in_atomic_block:
        return  # inside a caller's transaction the log cannot be emptied yet
    try:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except DatabaseError as exc:  # busy readers: the next checkpoint empties it
        logger.warning("purge: the SQLite write-ahead log was not emptied: %s", exc)
