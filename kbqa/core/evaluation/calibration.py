"""Pre-generation retrieval signals and the low-score threshold that best separates them.

The low-score gate refuses when the top hit's normalised relevance (``ScoredChunk.relevance``:
BM25 score / the query's ideal BM25 score in that index, in [0, 1]) is below
``KBQA_MIN_RELEVANCE``. Calibration measures that relevance on answerable (expect=answer)
and unanswerable (expect=refuse) questions and picks the threshold that refuses the most
unanswerable questions while wrongful refusals stay at or under a chosen rate.

Rule (``recommend_threshold``): over candidate thresholds t (a grid of 0.00..1.00 in steps
of 0.01 for relevance, so the setting prints as ``0.xx``), refuse when ``value < t``; keep
those with wrongful refusal rate <= the limit; take the highest refusal recall, then the
lowest wrongful refusal rate; among the thresholds still tied, the middle one (lower middle
for an even count), which leaves the widest margin on both sides.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kbqa.core.text.terms import term_set
from kbqa.core.types import ScoredChunk

RELEVANCE_GRID: tuple[float, ...] = tuple(round(i / 100, 2) for i in range(101))
SIGNALS: tuple[str, ...] = ("relevance", "bm25", "gap", "term_share")


@dataclass(frozen=True)
class Signals:
    """Pre-generation signals of one question against one knowledge base.

    ``relevance`` top hit's normalised relevance [0, 1]; ``bm25`` its raw BM25 score;
    ``gap`` top relevance minus the second's (0 with fewer than two hits); ``term_share``
    share of the query's distinct terms found in the top hit's title or text [0, 1];
    ``similarity`` the best cosine of a hit with the question (semantic recall, else 0).
    "Top" is the hit of highest relevance: with semantic recall hits are ranked by fusion.
    All 0.0 when there are no hits.
    """

    case_id: str
    expect: str
    lang: str
    relevance: float
    bm25: float
    gap: float
    term_share: float
    hits: int
    source: str = ""
    similarity: float = 0.0  # best cosine among the hits (0.0 without semantic recall)
    agreed: bool = False  # BM25 and dense search put one document first

    def value(self, signal: str) -> float:
        return float(getattr(self, signal))


def signals_from_hits(
    query: str, hits: Sequence[ScoredChunk], *, case_id: str, expect: str, lang: str,
    source: str = "",
) -> Signals:
    """Compute Signals from a retriever's hits for ``query`` (best first)."""
    if not hits:
        return Signals(case_id, expect, lang, 0.0, 0.0, 0.0, 0.0, 0, source)
    by_relevance = sorted(hits, key=lambda h: -h.relevance)
    top = by_relevance[0]
    second = by_relevance[1].relevance if len(hits) > 1 else 0.0
    query_terms = term_set(query)
    found = term_set(f"{top.chunk.title}\n{top.chunk.text}")
    share = len(query_terms & found) / len(query_terms) if query_terms else 0.0
    return Signals(
        case_id, expect, lang, top.relevance, top.score, top.relevance - second, share,
        len(hits), source, max(h.similarity for h in hits), any(h.agreed for h in hits),
    )


@dataclass(frozen=True)
class Recommendation:
    """The chosen threshold and what it does on the measured questions.

    ``refused_answerable``/``refused_unanswerable`` count questions with value < threshold;
    ``tied`` is (lowest, highest) candidate threshold that performs identically.
    """

    threshold: float
    refused_answerable: int
    answerable: int
    refused_unanswerable: int
    unanswerable: int
    tied: tuple[float, float]

    @property
    def wrongful_refusal_rate(self) -> float:
        return self.refused_answerable / self.answerable if self.answerable else 0.0

    @property
    def refusal_recall(self) -> float:
        return self.refused_unanswerable / self.unanswerable if self.unanswerable else 0.0


def recommend_threshold(
    answerable: Sequence[float],
    unanswerable: Sequence[float],
    *,
    max_wrongful_refusal: float,
    candidates: Sequence[float] = RELEVANCE_GRID,
) -> Recommendation:
    """Apply the module's rule. Raises ValueError when ``candidates`` is empty.

    Threshold 0 is always a candidate-equivalent (refuses nothing), so a feasible choice
    exists whenever the grid starts at 0.
    """
    if not candidates:
        raise ValueError("no candidate thresholds")
    scored = []
    for t in sorted(set(candidates)):
        wrong = sum(1 for v in answerable if v < t)
        right = sum(1 for v in unanswerable if v < t)
        if not answerable or wrong <= max_wrongful_refusal * len(answerable) + 1e-9:
            scored.append((t, wrong, right))
    if not scored:
        t = min(candidates)
        scored = [(t, sum(1 for v in answerable if v < t), sum(1 for v in unanswerable if v < t))]
    best_right = max(s[2] for s in scored)
    best_wrong = min(s[1] for s in scored if s[2] == best_right)
    tied = [s for s in scored if s[2] == best_right and s[1] == best_wrong]
    chosen = tied[(len(tied) - 1) // 2]
    return Recommendation(
        threshold=chosen[0], refused_answerable=chosen[1], answerable=len(answerable),
        refused_unanswerable=chosen[2], unanswerable=len(unanswerable),
        tied=(tied[0][0], tied[-1][0]),
    )


SIMILARITY_GRID: tuple[float, ...] = (0.0, *(round(i / 100, 2) for i in range(50, 101)))


def recommend_similarity(
    answerable: Sequence[tuple[float, float]],
    unanswerable: Sequence[tuple[float, float]],
    *,
    min_relevance: float,
) -> Recommendation:
    """``KBQA_MIN_SIMILARITY`` for the joint gate that refuses when relevance <
    ``min_relevance`` AND similarity < the threshold (0 = relevance alone). Values are
    (relevance, similarity) pairs.

    Rule: among ``SIMILARITY_GRID`` (0, then 0.50..1.00 in steps of 0.01), keep the
    thresholds that refuse as many unanswerable questions as relevance alone does (refusal
    recall is never traded), take those that wrongly refuse the fewest answerable ones, and
    the middle of the tie (as ``recommend_threshold``). 0 when no threshold rescues any.
    """

    def refused(pairs: Sequence[tuple[float, float]], t: float) -> int:
        return sum(1 for r, s in pairs if r < min_relevance and (t <= 0 or s < t))

    keep = refused(unanswerable, 0.0)
    scored = [(t, refused(answerable, t)) for t in SIMILARITY_GRID
              if refused(unanswerable, t) >= keep]
    best = min(w for _, w in scored)
    tied = [t for t, w in scored if w == best]
    chosen = 0.0 if 0.0 in tied else tied[(len(tied) - 1) // 2]
    return Recommendation(
        threshold=chosen, refused_answerable=best, answerable=len(answerable),
        refused_unanswerable=keep, unanswerable=len(unanswerable), tied=(tied[0], tied[-1]),
    )


def observed_candidates(values: Sequence[float]) -> list[float]:
    """Thresholds for an unbounded signal (raw BM25): 0, every observed value, and the
    midpoints between neighbouring values (so a tie can be broken away from both sides)."""
    ordered = sorted({0.0, *values})
    return sorted({*ordered, *((a + b) / 2 for a, b in zip(ordered, ordered[1:], strict=False))})


def separation(answerable: Sequence[float], unanswerable: Sequence[float]) -> float | None:
    """ROC AUC: P(answerable value > unanswerable value), ties counting half; None if empty.

    1.0 means the signal separates the two sets perfectly; 0.5 means not at all.
    """
    if not answerable or not unanswerable:
        return None
    wins = 0.0
    for a in answerable:
        for u in unanswerable:
            wins += 1.0 if a > u else 0.5 if a == u else 0.0
    return wins / (len(answerable) * len(unanswerable))


def histogram(values: Sequence[float], *, bins: int = 10) -> list[int]:
    """Counts of values in [0, 1] per equal bin (value 1.0 lands in the last bin)."""
    counts = [0] * bins
    for v in values:
        counts[min(bins - 1, max(0, int(v * bins)))] += 1
    return counts
