"""The BM25 formula's constants and the two small functions every engine here shares.

Scores. BM25 (Robertson & Zaragoza 2009) with rank-bm25's defaults k1 = 1.5, b = 0.75 and
Lucene's always-positive IDF. Each query term counts once (distinct terms), so repeating a
word in a question does not change the ranking.

Relevance. ``relevance = score / ideal_score(...)``: the score a chunk would reach if every
counted query term had an infinite term frequency in it. The low-score refusal threshold
(``KBQA_MIN_RELEVANCE``) compares against it.
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
