"""The core ``Retriever``, ``Speller`` and ``Holdings`` protocols (``kbqa.core.retriever``)
over the stored knowledge base: searches, spelling and whether the asker may read any
document, on the database threads (``kbqa.db``), over the index ``sources.selectors`` opens."""

from __future__ import annotations

from collections.abc import Sequence

from kbqa.core import types
from kbqa.core.text import spelling
from kbqa.db import db_async
from sources.selectors import (
    audience_of_groups,
    chunks_search,
    documents_readable,
    index_snapshot,
)


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

    async def holds_documents(self) -> bool:
        """Whether the asker may read any document (``documents_readable``; the core
        ``Holdings`` protocol): the pipeline's refusal for an empty knowledge base."""
        return await db_async(self._holds_documents)()

    def _holds_documents(self) -> bool:
        audience = audience_of_groups(self.group_names) if self.group_names else self.audience
        return documents_readable(audience=audience)

    async def spell(self, query: str) -> tuple[str, dict[str, str]]:
        """``query`` with its misspelled English words corrected against the index
        (``kbqa.core.text.spelling``), and the corrections; unchanged without an index."""
        return await db_async(_spell)(query)


def _spell(query: str) -> tuple[str, dict[str, str]]:
    snapshot = index_snapshot()
    if snapshot is None:
        return query, {}
    return spelling.corrected(query, snapshot.knows, snapshot.words_starting,
                              snapshot.doc_freq)
