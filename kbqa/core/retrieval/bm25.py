"""Ranking chunks for a query: a small engine interface and its in-memory BM25 implementation.

Callers depend on ``SearchEngine`` only. Pure Python (no Django): evaluation builds per-case
indexes with ``InMemoryRetriever``. ``Bm25Index`` is one in-memory segment searched by the
same code as the persisted knowledge-base index (``kbqa.core.retrieval.index``), so both
score alike, visibility included. Formula, constants and relevance:
``kbqa.core.retrieval.scoring``.

``LuceneBM25`` is the reference the design names: rank-bm25's ``BM25Okapi`` with Lucene's
IDF. Tests and ``bench/retrieval.py`` compare every engine here with it.

Terms: chunks and queries go through ``terms.search_terms``; relevance's ideal score counts
``terms.relevance_terms`` (the query terms the index knows, and unknown content words).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from rank_bm25 import BM25Okapi

from kbqa.core.retrieval.cross_language import cross_hits
from kbqa.core.retrieval.index import IndexSnapshot
from kbqa.core.retrieval.scoring import K1, B, ideal_score, lucene_idf
from kbqa.core.retrieval.segment import build_segment
from kbqa.core.text.terms import search_terms
from kbqa.core.types import Audience, Chunk, ScoredChunk

__all__ = ["B", "K1", "ideal_score", "lucene_idf", "Bm25Index", "InMemoryRetriever"]


class LuceneBM25(BM25Okapi):  # type: ignore[misc]
    """rank-bm25's BM25Okapi with Lucene's IDF instead of the Robertson-Sparck Jones one.

    BM25Okapi's ``log((N - n + 0.5) / (n + 0.5))`` is zero or negative for a term found in
    half or more of the chunks, which on a 1-3 chunk knowledge base makes a perfect match
    score 0. Lucene's BM25Similarity adds 1 inside the log, so every IDF is positive.
    ``get_scores`` is rank-bm25's own: it visits every chunk for every query term.
    """

    def _calc_idf(self, nd: dict[str, int]) -> None:
        self.idf = {word: lucene_idf(freq, self.corpus_size) for word, freq in nd.items()}
        self.average_idf = sum(self.idf.values()) / len(self.idf) if self.idf else 0.0


class SearchEngine(Protocol):
    """What the rest of kbqa needs from an index."""

    def build(self, chunks: Sequence[Chunk]) -> None:
        """Replace the index contents with ``chunks``."""
        ...

    def search(self, query: str, k: int, *, audience: Audience | None = None) -> list[ScoredChunk]:
        """At most ``k`` hits with score > 0, best first, ties by chunk_id ascending, among
        the chunks ``audience`` may read (None: all), scored with that set's statistics."""
        ...


def chunk_terms(chunk: Chunk) -> list[str]:
    """Terms a chunk is indexed under: its section heading and its text."""
    return section_text_terms(chunk.section, chunk.text)


def section_text_terms(section: str, text: str) -> list[str]:
    """Terms of a chunk given as its section heading and text (what ingestion stores)."""
    return search_terms(f"{section}\n{text}" if section else text)


class Bm25Index:
    """``SearchEngine`` held in memory: one segment, built from the chunks' text.

    Not thread-safe while ``build`` runs; searching a built index from many threads is safe.
    """

    def __init__(self, chunks: Sequence[Chunk] = ()) -> None:
        self._chunks: dict[str, Chunk] = {}
        self._snapshot = IndexSnapshot([])
        if chunks:
            self.build(chunks)

    def __len__(self) -> int:
        return len(self._chunks)

    def build(self, chunks: Sequence[Chunk]) -> None:
        """Index ``chunks`` (replacing what was there). An empty sequence gives an empty index."""
        self._chunks = {c.chunk_id: c for c in chunks}
        segment = build_segment(
            [c.chunk_id for c in chunks],
            [0] * len(chunks),
            [chunk_terms(c) for c in chunks],
            [c.access for c in chunks],
        )
        self._snapshot = IndexSnapshot([segment])

    def idf(self, term: str) -> float:
        """IDF of ``term`` in this index; a term no chunk contains gets the n = 0 value."""
        return self._snapshot.idf(term)

    def search(self, query: str, k: int, *, audience: Audience | None = None) -> list[ScoredChunk]:
        """Top ``k`` chunks with score > 0 for ``query``, best first, ties by chunk_id,
        among the chunks ``audience`` may read (None: all of them).

        BM25 statistics (N, document frequencies, average length) and the relevance's
        ideal score are those of the readable chunks, so what an audience cannot read
        changes no score, rank or relevance. Returns [] for an empty index, k < 1, or a
        query with no terms (empty, punctuation).
        """
        snapshot = self._snapshot
        hits = cross_hits(snapshot, query, k, audience)
        return [
            ScoredChunk(chunk=self._chunks[h.chunk_id], score=h.score, relevance=h.relevance)
            for h in hits
        ]

    def knows(self, term: str) -> bool:
        """Whether some chunk of this index has ``term``."""
        return self._snapshot.knows(term)


class InMemoryRetriever:
    """The core ``Retriever`` protocol over a fixed list of chunks (temporary knowledge bases).

    Builds its index once, in the constructor.
    """

    def __init__(
        self,
        chunks: Sequence[Chunk],
        *,
        engine: SearchEngine | None = None,
        audience: Audience | None = None,
    ) -> None:
        self.engine: SearchEngine = engine if engine is not None else Bm25Index()
        self.engine.build(chunks)
        self.audience = audience

    async def search(self, query: str, k: int) -> list[ScoredChunk]:
        """Same as ``SearchEngine.search``; never awaits anything (the index is in memory)."""
        return self.engine.search(query, k, audience=self.audience)
