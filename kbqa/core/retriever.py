"""What the pipeline needs from a knowledge base: ``Retriever`` ranks chunks for a query;
a ``Speller`` (optional) also corrects a query's misspelled words against its index.
``sources.retriever.KnowledgeBaseRetriever`` implements both over the stored knowledge
base, ``kbqa.core.retrieval.bm25.InMemoryRetriever`` the first over a list of chunks.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from kbqa.core.types import ScoredChunk


class Retriever(Protocol):
    """Anything that can rank chunks for a query (``sources`` implements it over BM25)."""

    async def search(self, query: str, k: int) -> list[ScoredChunk]:
        """Return at most ``k`` hits, best first, ties broken by chunk_id ascending."""
        ...


@runtime_checkable
class Speller(Protocol):
    """A retriever that can correct a query's misspelled words against its index
    (``sources`` implements it; ``kbqa.core.text.spelling``)."""

    async def spell(self, query: str) -> tuple[str, dict[str, str]]:
        """``query`` corrected, and the corrections (word as typed -> index term)."""
        ...


@runtime_checkable
class Holdings(Protocol):
    """A retriever that can tell whether its asker may read any document at all
    (``sources`` implements it), so an empty knowledge base is not called a wording problem."""

    async def holds_documents(self) -> bool:
        """Whether at least one current document is readable by this retriever's audience."""
        ...
