"""Each summary metric on a hand-made set of results whose right values are known."""

from __future__ import annotations

import pytest

from kbqa.core.evaluation.metrics import (
    JSON_SUMMARY_KEYS,
    CaseResult,
    Rate,
    percentile,
    summarise,
    summarise_by_language,
)


def said(text, cites=(1,)):
    return {"index": 0, "text": text, "citations": list(cites)}


def result(case_id, expect, status, *, lang="en", sentences=(), reason="", want=(),
           expected_reason=None, dropped=0, latency=100.0, checked=0, valid=0):
    return CaseResult(
        case_id=case_id, question="q", lang=lang, expect=expect, status=status,
        sentences=tuple(sentences), dropped=dropped, refusal_reason=reason,
        latency_ms=latency, citations_checked=checked, citations_valid=valid,
        answer_contains=want, expected_reason=expected_reason,
    )


RESULTS = [
    # expect=answer: 4 cases, 2 correct, 1 wrong text, 1 wrongly refused.
    result("a1", "answer", "answered", sentences=[said("Keep it 30 days.")], want=(("30",),),
           dropped=1, latency=100, checked=1, valid=1),
    result("a2", "answer", "answered", lang="zh", sentences=[said("保留 30 天。")],
           want=(("30天",),), latency=200, checked=1, valid=1),
    result("a3", "answer", "answered", sentences=[said("Keep it a week.", (1, 2))],
           want=(("30",),), dropped=2, latency=300, checked=2, valid=1),
    result("a4", "answer", "refused_low_score", reason="low_score", want=(("30",),),
           latency=400),
    # expect=refuse: 3 cases, 2 refused (1 with the right reason), 1 hallucinated.
    result("r1", "refuse", "refused_low_score", reason="low_score",
           expected_reason="low_score", latency=500),
    result("r2", "refuse", "refused_no_support", lang="zh", reason="no_support",
           expected_reason="low_score", latency=600),
    result("r3", "refuse", "answered", sentences=[said("Made up.")], latency=700,
           checked=1, valid=1),
    # expect=conflict: refused for conflict, shows both values, shows one value.
    result("c1", "conflict", "refused_conflict", reason="conflict", want=(("10",), ("20",)),
           latency=800),
    result("c2", "conflict", "answered", sentences=[said("Either 10 MB or 20 MB.")],
           want=(("10",), ("20",)), latency=900, checked=1, valid=1),
    result("c3", "conflict", "answered", sentences=[said("It is 10 MB.")],
           want=(("10",), ("20",)), latency=1000, checked=1, valid=1),
    result("e1", "answer", "error", lang="zh", latency=1100),
]


@pytest.mark.parametrize(
    ("metric", "expected"),
    [
        ("cases", 11),
        ("errors", 1),
        ("answer_accuracy", Rate(2, 5)),
        ("wrongful_refusal_rate", Rate(1, 5)),
        ("refusal_recall", Rate(2, 3)),
        ("reason_accuracy", Rate(1, 2)),
        ("unsupported_answer_rate", Rate(1, 3)),
        ("conflict_recall", Rate(2, 3)),
        ("citation_validity", Rate(6, 7)),
        ("dropped_per_answer", 0.5),  # 3 dropped over 6 cases that emitted sentences
        ("latency_ms_p50", 600.0),
        ("latency_ms_p95", 1050.0),
    ],
)
def test_summary_metric(metric, expected):
    assert getattr(summarise(RESULTS), metric) == expected


def test_json_summary_has_exactly_the_documented_keys():
    data = summarise(RESULTS).to_json()
    assert tuple(data) == JSON_SUMMARY_KEYS
    assert data == {
        "cases": 11, "answer_accuracy": 0.4, "wrongful_refusal_rate": 0.2,
        "refusal_recall": 0.6667, "unsupported_answer_rate": 0.3333,
        "conflict_recall": 0.6667, "citation_validity": 0.8571,
        "latency_ms_p50": 600.0, "latency_ms_p95": 1050.0,
    }


def test_empty_denominators_are_none():
    data = summarise([result("a", "answer", "answered", sentences=[said("x")])]).to_json()
    assert (data["refusal_recall"], data["conflict_recall"]) == (None, None)
    assert data["citation_validity"] is None


def test_breakdown_by_language():
    by_lang = summarise_by_language(RESULTS)
    assert list(by_lang) == ["all", "en", "zh"]
    assert (by_lang["en"].cases, by_lang["zh"].cases) == (8, 3)
    assert by_lang["zh"].answer_accuracy == Rate(1, 2)


def test_follow_ups_are_broken_out_when_there_are_some():
    follow_up = CaseResult(case_id="f1", question="and sick days?", lang="en",
                           expect="refuse", status="answered", follow_up=True,
                           sentences=(said("Employees get 20 days."),))
    by_kind = summarise_by_language([*RESULTS, follow_up])
    assert list(by_kind) == ["all", "en", "zh", "follow-up"]
    assert by_kind["follow-up"].cases == 1
    assert by_kind["follow-up"].unsupported_answer_rate == Rate(1, 1)


@pytest.mark.parametrize(
    ("values", "p", "expected"),
    [([5.0], 95, 5.0), ([1.0, 2.0, 3.0, 4.0], 50, 2.5), ([1.0, 2.0, 3.0, 4.0, 5.0], 95, 4.8)],
)
def test_percentile(values, p, expected):
    assert percentile(values, p) == pytest.approx(expected)


def test_percentile_of_nothing_is_none():
    assert percentile([], 50) is None


def test_a_conflict_case_without_values_counts_only_when_the_card_is_shown() -> None:
    # a tester's case file had no answer_contains: its question answered with one side's
    # value was scored as a caught conflict (100%)
    card = result("k1", "conflict", "refused_conflict", reason="conflict")
    one_value = result("k2", "conflict", "answered", lang="zh", sentences=[said("400 欧元。")])
    assert summarise([card, one_value]).conflict_recall == Rate(1, 2)


def test_a_case_is_ok_wrong_or_missed() -> None:
    # results.md said "MISS" both for an answer that was wrong and for a refusal where an
    # answer was expected: a quality lead needs to tell them apart
    def case(expect: str, status: str, text: str = "", **extra: object) -> CaseResult:
        sentences = ({"index": 0, "text": text, "citations": [1]},) if text else ()
        return CaseResult(case_id="c", question="q", lang="en", expect=expect,
                          status=status, sentences=sentences, **extra)  # type: ignore[arg-type]

    wanted = (("30 days",),)
    assert case("answer", "answered", "Kept 30 days.", answer_contains=wanted).verdict == "ok"
    assert case("answer", "answered", "Kept a week.", answer_contains=wanted).verdict == "wrong"
    assert case("answer", "refused_no_support", answer_contains=wanted).verdict == "missed"
    assert case("refuse", "refused_low_score").verdict == "ok"
    assert case("refuse", "answered", "Something.").verdict == "wrong"
