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
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import Group
from django.db.models import Count, Max

from kbqa.core import types
from kbqa.core.errors import KbqaError
from kbqa.core.retrieval.bm25 import Bm25Index, SearchEngine
from kbqa.db import db_async
from sources.models import Chunk, Document, PurgedChunk

_lock = threading.Lock()
_state: dict[str, Any] = {"signature": None, "engine": None, "builds": 0}


DOCUMENT_ADMIN_PERMISSION = "sources.view_document"


def audience_for(user: Any) -> types.Audience:
    """The retrieval ``Audience`` of ``user`` (README: Who may read what).

    Active superusers and people with ``sources.view_document`` (they can open every
    document in admin anyway) read everything; everyone else reads documents visible to
    everyone plus those limited to one of their groups. None or an anonymous user reads
    documents visible to everyone only.
    """
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return types.EVERYONE
    if user.is_superuser or user.has_perm(DOCUMENT_ADMIN_PERMISSION):
        return types.ADMINISTRATOR
    group_ids = user.groups.values_list("pk", flat=True)
    return types.Audience(labels=frozenset(str(pk) for pk in group_ids))


NO_GROUP = "-"  # the label of a restricted document whose groups were all deleted: nobody holds it


def document_access(document: Document) -> tuple[str, ...]:
    """Access labels of ``document``: its groups' ids as strings, () for everyone."""
    if not document.restricted:
        return ()
    return tuple(sorted(str(g.pk) for g in document.groups.all())) or (NO_GROUP,)


def chunk_readable(*, chunk: Chunk, user: Any) -> bool:
    """Whether ``user`` may read ``chunk`` (its document is visible to them)."""
    return audience_for(user).may_read(document_access(chunk.document))


def chunk_as_core(chunk: Chunk) -> types.Chunk:
    """The core ``Chunk`` value of a stored chunk (document metadata filled in).

    ``updated`` is the document's effective date as ISO ``YYYY-MM-DD`` or ""; ``access``
    its visibility (``document_access``; prefetch ``document__groups`` for many chunks).
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
        access=document_access(doc),
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
        .prefetch_related("document__groups")
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


def chunks_search(
    *, query: str, k: int, audience: types.Audience = types.EVERYONE
) -> list[types.ScoredChunk]:
    """At most ``k`` current chunks ``audience`` may read for ``query``, best first, ties by
    chunk_id ascending.

    Scores are BM25 over the readable chunks only, relevance in [0, 1)
    (``kbqa.core.retrieval.bm25``). Returns [] for an empty knowledge base or a query without
    terms (empty, punctuation only).
    """
    return knowledge_base_engine().search(query, k, audience=audience)


class KnowledgeBaseRetriever:
    """The core ``Retriever`` protocol over the stored knowledge base, for one audience
    (``audience_for(user)``; default: documents visible to everyone)."""

    def __init__(
        self, audience: types.Audience = types.EVERYONE, *, group_names: Sequence[str] = ()
    ) -> None:
        self.audience = audience
        self.group_names = tuple(group_names)  # ask as a member of these groups instead

    async def search(self, query: str, k: int) -> list[types.ScoredChunk]:
        """``chunks_search`` on the database threads (``kbqa.db``)."""
        return await db_async(self._search)(query, k)

    def _search(self, query: str, k: int) -> list[types.ScoredChunk]:
        audience = audience_of_groups(self.group_names) if self.group_names else self.audience
        return chunks_search(query=query, k=k, audience=audience)


def audience_of_groups(names: Sequence[str]) -> types.Audience:
    """The audience of a member of the groups called ``names``. Raises ``KbqaError`` naming
    any group that does not exist (an evaluation case must not silently ask as nobody)."""
    found = dict(Group.objects.filter(name__in=list(names)).values_list("name", "pk"))
    if missing := sorted(set(names) - set(found)):
        raise KbqaError(f"unknown group(s): {', '.join(missing)}")
    return types.Audience(labels=frozenset(str(pk) for pk in found.values()))
