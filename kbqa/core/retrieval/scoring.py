"""The BM25 formula's constants and the two small functions every engine here shares.

Scores. BM25 (Robertson & Zaragoza 2009) with rank-bm25's defaults k1 = 1.5, b = 0.75 and
Lucene's always-positive IDF. Each query term counts once (distinct terms), so repeating a
word in a question does not change the ranking.

Relevance. ``relevance = score * length_allowance(norm) / ideal_score(...)``: the share of
the score a chunk would reach if every counted query term had an infinite term frequency in
it, with a chunk longer than the average given back what BM25's length normalisation took
from it (``length_allowance``). The low-score refusal threshold (``KBQA_MIN_RELEVANCE``)
compares against it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

K1 = 1.5  # rank-bm25 BM25Okapi default
B = 0.75  # rank-bm25 BM25Okapi default


def lucene_idf(n: int, total: int) -> float:
    """Lucene BM25Similarity IDF: ``log(1 + (N - n + 0.5) / (n + 0.5))``, always > 0.

    ``n`` is the number of chunks containing the term, ``total`` (N) the number of chunks.
    Source: Apache Lucene ``org.apache.lucene.search.similarities.BM25Similarity.idf``.
    """
    return math.log(1.0 + (total - n + 0.5) / (n + 0.5))


def ideal_score(query_terms: Iterable[str], idf: Callable[[str], float]) -> float:
    """The relevance denominator: ``sum over distinct query terms t of idf(t) * (k1 + 1)``.

    Each term's BM25 contribution is below ``idf(t) * (k1 + 1)``, so relevance stays in
    [0, 1). A term absent from the index gets the IDF of n = 0, so words the knowledge base
    has never seen lower relevance. Which query terms count is decided here, in one place.
    """
    return sum(idf(t) for t in dict.fromkeys(query_terms)) * (K1 + 1)


def length_allowance(norm: float) -> float:
    """What a chunk's relevance is multiplied by: ``(1 + max(norm, k1)) / (1 + k1)``, where
    ``norm = k1 * (1 - b + b * dl / avgdl)`` is BM25's length normalisation of the chunk.

    A chunk of average length or shorter gets 1 (relevance as BM25 scores it); a longer one
    gets back what the normalisation took from a term found once in it (at tf = 1 a term
    contributes ``idf * (k1 + 1) / (1 + norm)``), so its relevance says how much of the
    question it holds, not how long it is beside the others. Without it relevance moved
    with what else the knowledge base holds: a 6,000-section manual of one-line sections
    (measured 2026-12-05) cut the average chunk length, and with it every policy chunk's
    relevance, so the demo questions' calibrated threshold fell from 0.14 to 0.06 and the
    nine demo sets lost 63 right answers to the low-score refusal; with it the threshold
    moved from 0.21 to 0.25 and they lost none (README, Calibration). Source: BM25's
    term-frequency saturation at tf = 1 (Robertson & Zaragoza 2009, "The Probabilistic
    Relevance Framework: BM25 and Beyond").
    """
    return (1.0 + max(norm, K1)) / (1.0 + K1)
