"""Ranking chunks for a query: a small engine interface and its BM25 implementation.

Callers depend on ``SearchEngine`` only, so a faster engine can replace rank-bm25 without
touching them. Pure Python (no Django): evaluation builds per-case indexes with
``InMemoryRetriever``.

Scores. BM25 (Robertson & Zaragoza 2009) with rank-bm25's defaults k1 = 1.5, b = 0.75 and
Lucene's always-positive IDF (see ``LuceneBM25``). Each query term counts once (distinct
terms), so repeating a word in a question does not change the ranking.

Relevance. ``relevance = score / ideal`` with ``ideal = sum over the counted query terms t
of idf(t) * (k1 + 1)``, the counted terms being ``terms.relevance_terms``: every term the
index knows, and the unknown ones only when they are content words (no question or
function words, no segmentation pieces), so how a question is phrased does not decide the
low-score gate. ``ideal`` is the score a chunk would reach if every counted term had an
infinite term frequency in it. A term absent from the index gets the IDF of n = 0, so
content words the knowledge base has never seen lower relevance. Each term's contribution
is below idf(t) * (k1 + 1), so relevance is in [0, 1); the low-score refusal threshold
(``KBQA_MIN_RELEVANCE``) compares against it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
from rank_bm25 import BM25Okapi

from kbqa.core.text.terms import relevance_terms, search_terms
from kbqa.core.types import Audience, Chunk, ScoredChunk

K1 = 1.5  # rank-bm25 BM25Okapi default
B = 0.75  # rank-bm25 BM25Okapi default


def lucene_idf(n: int, total: int) -> float:
    """Lucene BM25Similarity IDF: ``log(1 + (N - n + 0.5) / (n + 0.5))``, always > 0.

    ``n`` is the number of chunks containing the term, ``total`` (N) the number of chunks.
    Source: Apache Lucene ``org.apache.lucene.search.similarities.BM25Similarity.idf``.
    """
    return math.log(1.0 + (total - n + 0.5) / (n + 0.5))


class LuceneBM25(BM25Okapi):  # type: ignore[misc]
    """rank-bm25's BM25Okapi with Lucene's IDF instead of the Robertson-Sparck Jones one.

    BM25Okapi's ``log((N - n + 0.5) / (n + 0.5))`` is zero or negative for a term found in
    half or more of the chunks, which on a 1-3 chunk knowledge base makes a perfect match
    score 0. Lucene's BM25Similarity adds 1 inside the log, so every IDF is positive.
    """

    def _calc_idf(self, nd: dict[str, int]) -> None:
        self.idf = {word: lucene_idf(freq, self.corpus_size) for word, freq in nd.items()}
        self.average_idf = sum(self.idf.values()) / len(self.idf) if self.idf else 0.0

    def get_scores(self, query: Sequence[str]) -> Any:
        """BM25 score per chunk (numpy array), computed over the chunks holding each term.

        Same formula as BM25Okapi.get_scores, which scans every chunk for every term; the
        postings built in ``postings()`` make a query cost proportional to its matches.
        """
        return self.masked_scores(query, None)[0]

    def masked_scores(self, query: Sequence[str], mask: Any) -> tuple[Any, dict[str, float]]:
        """(scores, idf per query term) as if the index held only the chunks where ``mask``
        (a boolean numpy array over chunk positions) is true; ``None`` means all chunks.

        N, document frequencies and the average length are those of the masked set, so the
        scores equal those of an index built from the masked chunks alone (unmasked chunks
        score 0). Cost: one pass over each query term's postings, plus one over the lengths.
        """
        score = np.zeros(self.corpus_size)
        postings = self.postings()
        if mask is None:
            total, avgdl = self.corpus_size, self.avgdl or 1.0
        else:
            total = int(mask.sum())
            avgdl = float(self._doc_len[mask].mean()) if total else 1.0
        idfs: dict[str, float] = {}
        for q in query:
            ids, freqs = postings.get(q, (None, None))
            if ids is not None and mask is not None:
                keep = mask[ids]
                ids, freqs = ids[keep], freqs[keep]
            n = 0 if ids is None else len(ids)
            idfs[q] = float(self.idf[q]) if mask is None and n else lucene_idf(n, total)
            if not n:
                continue
            norm = K1 * (1 - B + B * self._doc_len[ids] / avgdl)
            score[ids] += idfs[q] * (freqs * (K1 + 1) / (freqs + norm))
        return score, idfs

    def postings(self) -> dict[str, tuple[Any, Any]]:
        """term -> (chunk positions, term frequencies), built once on first use."""
        cached: dict[str, tuple[Any, Any]] | None = getattr(self, "_postings", None)
        if cached is None:
            lists: dict[str, tuple[list[int], list[int]]] = {}
            for i, freqs in enumerate(self.doc_freqs):
                for word, tf in freqs.items():
                    ids, tfs = lists.setdefault(word, ([], []))
                    ids.append(i)
                    tfs.append(tf)
            cached = {w: (np.array(i), np.array(t, dtype=float)) for w, (i, t) in lists.items()}
            self._doc_len = np.asarray(self.doc_len, dtype=float)
            self._postings = cached
        return cached


class SearchEngine(Protocol):
    """What the rest of kbqa needs from an index (rank-bm25 today, anything faster later)."""

    def build(self, chunks: Sequence[Chunk]) -> None:
        """Replace the index contents with ``chunks``."""
        ...

    def search(
        self, query: str, k: int, *, audience: Audience | None = None
    ) -> list[ScoredChunk]:
        """At most ``k`` hits with score > 0, best first, ties by chunk_id ascending, among
        the chunks ``audience`` may read (None: all), scored with that set's statistics."""
        ...


def chunk_terms(chunk: Chunk) -> list[str]:
    """Terms a chunk is indexed under: its section heading and its text."""
    return search_terms(f"{chunk.section}\n{chunk.text}" if chunk.section else chunk.text)


class Bm25Index:
    """``SearchEngine`` over rank-bm25 and ``kbqa.core.text.terms.search_terms``.

    Not thread-safe while ``build`` runs; searching a built index from many threads is safe.
    """

    def __init__(self, chunks: Sequence[Chunk] = ()) -> None:
        self._chunks: tuple[Chunk, ...] = ()
        self._bm25: LuceneBM25 | None = None
        self._access_classes: tuple[tuple[str, ...], ...] = ()
        self._access_class_of: Any = None
        if chunks:
            self.build(chunks)

    def __len__(self) -> int:
        return len(self._chunks)

    def build(self, chunks: Sequence[Chunk]) -> None:
        """Index ``chunks`` (replacing what was there). An empty sequence gives an empty index."""
        self._chunks = tuple(chunks)
        classes: dict[tuple[str, ...], int] = {}
        of = [classes.setdefault(tuple(sorted(c.access)), len(classes)) for c in self._chunks]
        self._access_classes = tuple(classes)
        self._access_class_of = np.asarray(of, dtype=np.int32)
        if not self._chunks:
            self._bm25 = None
            return
        bm25 = LuceneBM25([chunk_terms(c) for c in self._chunks], k1=K1, b=B)
        bm25.postings()
        self._bm25 = bm25

    def idf(self, term: str) -> float:
        """IDF of ``term`` in this index; a term no chunk contains gets the n = 0 value."""
        total = len(self._chunks)
        if self._bm25 is not None and term in self._bm25.idf:
            return float(self._bm25.idf[term])
        return lucene_idf(0, total)

    def readable_mask(self, audience: Audience | None) -> Any:
        """Boolean numpy array over chunk positions that ``audience`` may read; ``None`` when
        it may read every chunk (no filtering needed)."""
        if audience is None or audience.everything:
            return None
        readable = [i for i, acc in enumerate(self._access_classes) if audience.may_read(acc)]
        if len(readable) == len(self._access_classes):
            return None
        return np.isin(self._access_class_of, np.asarray(readable, dtype=np.int32))

    def knows(self, term: str) -> bool:
        """Whether some chunk of this index has ``term``."""
        return self._bm25 is not None and term in self._bm25.idf

    def search(
        self, query: str, k: int, *, audience: Audience | None = None
    ) -> list[ScoredChunk]:
        """Top ``k`` chunks with score > 0 for ``query``, best first, ties by chunk_id,
        among the chunks ``audience`` may read (None: all of them).

        BM25 statistics (N, document frequencies, average length) and the relevance's
        ideal score are those of the readable chunks, so what an audience cannot read
        changes no score, rank or relevance. Returns [] for an empty index, k < 1, or a
        query with no terms (empty, punctuation).
        """
        query_terms = list(dict.fromkeys(search_terms(query)))
        if self._bm25 is None or k < 1 or not query_terms:
            return []
        mask = self.readable_mask(audience)
        if mask is not None and not mask.any():
            return []
        scores, idfs = self._bm25.masked_scores(query_terms, mask)  # only known terms score
        ideal = sum(idfs[t] for t in relevance_terms(query, self.knows)) * (K1 + 1)
        hits = _top(scores, k)
        hits.sort(key=lambda i: (-scores[i], self._chunks[i].chunk_id))
        return [
            ScoredChunk(
                chunk=self._chunks[i],
                score=float(scores[i]),
                relevance=min(float(scores[i]) / ideal, 1.0) if ideal > 0 else 0.0,
            )
            for i in hits[:k]
        ]


def _top(scores: Any, k: int) -> list[int]:
    """Positions with score > 0 that could be in the top k, ties at the cut-off included."""
    pos = np.flatnonzero(scores > 0)
    if len(pos) > k:
        best = pos[np.argpartition(-scores[pos], k - 1)[:k]]
        pos = pos[scores[pos] >= scores[best].min()]
    return [int(i) for i in pos]


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
