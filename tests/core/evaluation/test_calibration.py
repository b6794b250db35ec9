"""Calibration signals and the threshold rule, checked against hand computations."""

from __future__ import annotations

import pytest

from kbqa.core.evaluation.calibration import (
    histogram,
    observed_candidates,
    recommend_threshold,
    separation,
    signals_from_hits,
)
from kbqa.core.types import Chunk, ScoredChunk

ANSWERABLE = [0.62, 0.55, 0.48, 0.35, 0.21, 0.90, 0.71, 0.66, 0.58, 0.80]
UNANSWERABLE = [0.05, 0.12, 0.18, 0.30, 0.40, 0.0]


def test_threshold_matches_hand_computation():
    # 10 answerable, limit 10% -> at most one may be refused: t <= 0.35 (only 0.21 below).
    # Unanswerable below t: t in 0.31..0.35 refuses 5 of 6 (0.40 stays), the most possible;
    # all five refuse 0.21 too, so they tie; the middle of 0.31..0.35 is 0.33.
    rec = recommend_threshold(ANSWERABLE, UNANSWERABLE, max_wrongful_refusal=0.10)
    assert (rec.threshold, rec.tied) == (0.33, (0.31, 0.35))
    assert (rec.refused_unanswerable, rec.unanswerable) == (5, 6)
    assert (rec.refused_answerable, rec.answerable) == (1, 10)


def test_zero_tolerance_keeps_every_answerable_question():
    # No wrongful refusal: t <= 0.21. Unanswerable below: 0.0, 0.05, 0.12, 0.18 for
    # t in 0.19..0.21 -> 4 refused; middle 0.20.
    rec = recommend_threshold(ANSWERABLE, UNANSWERABLE, max_wrongful_refusal=0.0)
    assert (rec.threshold, rec.refused_unanswerable, rec.refused_answerable) == (0.20, 4, 0)


def test_raw_scores_use_observed_values_as_candidates():
    rec = recommend_threshold(
        [7.5, 9.0, 12.0], [1.0, 3.0, 8.0], max_wrongful_refusal=0.0,
        candidates=observed_candidates([7.5, 9.0, 12.0, 1.0, 3.0, 8.0]),
    )
    # Candidates: 0, the six values and their midpoints. Up to 7.5 no answerable question is
    # refused; 1.0 and 3.0 are refused from t = 5.25 (midpoint of 3 and 7.5) on, so 5.25 and
    # 7.5 tie and the lower middle of the two, 5.25, is chosen.
    assert (rec.threshold, rec.refused_unanswerable, rec.tied) == (5.25, 2, (5.25, 7.5))


@pytest.mark.parametrize(
    ("answerable", "unanswerable", "expected"),
    [([0.9, 0.8], [0.1, 0.2], 1.0), ([0.5], [0.5], 0.5), ([0.1, 0.9], [0.5], 0.5), ([], [1], None)],
)
def test_separation(answerable, unanswerable, expected):
    assert separation(answerable, unanswerable) == expected


def test_histogram_puts_one_in_the_last_bin():
    assert histogram([0.0, 0.05, 0.1, 0.99, 1.0]) == [2, 1, 0, 0, 0, 0, 0, 0, 0, 2]


def hit(text, score, relevance, title="Leave"):
    return ScoredChunk(Chunk(chunk_id=f"d#{score}", doc_id="d", title=title, text=text),
                       score=score, relevance=relevance)


def test_signals_from_hits():
    hits = [hit("Annual leave is 20 days.", 6.0, 0.75), hit("Sick leave policy.", 2.0, 0.25)]
    s = signals_from_hits("How many days of annual leave?", hits, case_id="c", expect="answer",
                          lang="en")
    # query terms {many, day, annual, leave}; top chunk has day, annual, leave -> 3/4
    assert (s.relevance, s.bm25, s.gap, s.term_share, s.hits) == (0.75, 6.0, 0.5, 0.75, 2)


def test_signals_without_hits_are_zero():
    s = signals_from_hits("anything", [], case_id="c", expect="refuse", lang="en")
    assert (s.relevance, s.bm25, s.gap, s.term_share, s.hits) == (0.0, 0.0, 0.0, 0.0, 0)
