"""Reads from the knowledge base: BM25 search over current chunks, single chunk look-up.

The index is built from the database on first search and rebuilt only when the knowledge
base changes. Change is detected by a cheap signature (two aggregate queries: documents'
count and latest ``updated_at``, current chunks' count and highest primary key), so it also
notices writes made by another process (``manage.py ingest`` while the server runs, admin
deletes). Every ingest that changes chunks saves its document, moving ``updated_at``.
"""

from __future__ import annotations

import datetime as dt
import threading
from typing import Any

from asgiref.sync import sync_to_async
from django.db.models import Count, Max

from kbqa.core import types
from kbqa.core.retrieval.bm25 import Bm25Index, SearchEngine
from sources.models import Chunk, Document, PurgedChunk

_lock = threading.Lock()
_state: dict[str, Any] = {"signature": None, "engine": None, "builds": 0}


def chunk_as_core(chunk: Chunk) -> types.Chunk:
    """The core ``Chunk`` value of a stored chunk (document metadata filled in).

    ``updated`` is the document's effective date as ISO ``YYYY-MM-DD`` or "".
    """
    doc = chunk.document
    return types.Chunk(
        chunk_id=chunk.chunk_id,
        doc_id=doc.doc_id,
        title=doc.title,
        text=chunk.text,
        section=chunk.section,
        updated=doc.updated.isoformat() if doc.updated else "",
        source_url=doc.source_url,
        authority=doc.authority,
        language=doc.language,
    )


def chunk_get(*, chunk_id: str) -> Chunk | None:
    """The stored chunk with this id (current or superseded) with its document, or None."""
    return Chunk.objects.select_related("document").filter(chunk_id=chunk_id).first()


def chunk_purged_at(*, chunk_id: str) -> dt.datetime | None:
    """When the chunk with this id was purged (``sources.lifecycle.document_purge``), or None
    if it never was (it is stored, or the id is unknown)."""
    return (
        PurgedChunk.objects.filter(chunk_id=chunk_id).values_list("purged_at", flat=True).first()
    )


def current_chunks() -> list[types.Chunk]:
    """Every current chunk of a document in the knowledge base (not retired) as a core
    ``Chunk``, in chunk_id order."""
    rows = (
        Chunk.objects.select_related("document")
        .filter(is_current=True, document__retired_at__isnull=True)
        .order_by("chunk_id")
    )
    return [chunk_as_core(c) for c in rows]


def knowledge_base_signature() -> tuple[Any, ...]:
    """Changes whenever a document or the set of current chunks changes."""
    docs = Document.objects.aggregate(n=Count("id"), last=Max("updated_at"))
    chunks = Chunk.objects.filter(is_current=True).aggregate(n=Count("id"), last=Max("id"))
    return (docs["n"], docs["last"], chunks["n"], chunks["last"])


def knowledge_base_engine() -> SearchEngine:
    """The search engine over current chunks, rebuilt only if the signature moved."""
    signature = knowledge_base_signature()
    with _lock:
        if _state["engine"] is None or _state["signature"] != signature:
            _state["engine"] = Bm25Index(current_chunks())
            _state["signature"] = signature
            _state["builds"] += 1
        engine: SearchEngine = _state["engine"]
    return engine


def index_builds() -> int:
    """How many times this process built the index (tests and the admin show it)."""
    return int(_state["builds"])


def chunks_search(*, query: str, k: int) -> list[types.ScoredChunk]:
    """At most ``k`` current chunks for ``query``, best first, ties by chunk_id ascending.

    Scores are BM25, relevance in [0, 1) (``kbqa.core.retrieval.bm25``). Returns [] for an empty
    knowledge base or a query without terms (empty, punctuation only).
    """
    return knowledge_base_engine().search(query, k)


class KnowledgeBaseRetriever:
    """The core ``Retriever`` protocol over the stored knowledge base."""

    async def search(self, query: str, k: int) -> list[types.ScoredChunk]:
        """``chunks_search`` run in Django's sync thread (database access)."""
        return await sync_to_async(chunks_search)(query=query, k=k)
