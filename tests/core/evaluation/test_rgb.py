"""RGB records (synthetic, in RGB's shape) become answer, refuse and conflict cases."""

from __future__ import annotations

import json

import pytest

from kbqa.core.evaluation.cases import CaseFormatError
from kbqa.core.evaluation.rgb import read_rgb, rgb_cases

REFINE = {
    "id": 3, "query": "How many lanes does the Foo bridge have?", "answer": ["6 lanes"],
    "positive": ["The Foo bridge has 6 lanes.", "Foo bridge: six lanes, 6 lanes total."],
    "negative": ["The Bar bridge has 4 lanes."],
}
FACT = {
    "id": 0, "query": "香港第九届议会有多少个议席？", "answer": "70", "fakeanswer": "170",
    "positive": ["第九届议会共有70个议席。"], "positive_wrong": ["第九届议会共有170个议席。"],
    "negative": ["第八届议会选举于2012年举行。"],
}


def test_refine_record_gives_answer_and_refuse_cases():
    cases = rgb_cases(REFINE, stem="en_refine", origin="en_refine.json:1")
    assert [(c.id, c.expect) for c in cases] == [
        ("en_refine-3-answer", "answer"), ("en_refine-3-refuse", "refuse")]
    answer, refuse = cases
    assert sorted(d.text for d in answer.documents) == sorted(
        REFINE["positive"] + REFINE["negative"])
    assert [d.text for d in refuse.documents] == REFINE["negative"]
    assert answer.answer_contains == (("6 lanes",),)
    assert refuse.answer_contains == ()
    assert (answer.lang, answer.origin) == ("en", "en_refine.json:1")


def test_documents_are_neutrally_named_and_reproducibly_shuffled():
    first = rgb_cases(REFINE, stem="en_refine")[0].documents
    assert [d.doc_id for d in first] == ["p01", "p02", "p03"]
    assert [d.title for d in first] == ["Passage 1", "Passage 2", "Passage 3"]
    assert first == rgb_cases(REFINE, stem="en_refine")[0].documents


def test_fact_record_with_numbers_adds_a_two_source_conflict_case():
    cases = rgb_cases(FACT, stem="zh_fact")
    assert [c.expect for c in cases] == ["answer", "refuse", "conflict"]
    conflict = cases[2]
    assert conflict.lang == "zh"
    assert conflict.answer_contains == (("70",), ("170",))
    assert sorted((d.source_url.split("/")[2], d.text) for d in conflict.documents) == [
        ("source-a", "第九届议会共有70个议席。"), ("source-b", "第九届议会共有170个议席。")]
    assert {d.authority for d in conflict.documents} == {"other"}


def test_fact_record_without_numbers_has_no_conflict_case():
    record = dict(FACT, answer="Tampa", fakeanswer="Glendale")
    assert [c.expect for c in rgb_cases(record, stem="en_fact")] == ["answer", "refuse"]


@pytest.mark.parametrize(
    ("answer", "groups"),
    [("70", (("70",),)), (["1月3日", "1月12日"], (("1月3日",), ("1月12日",))),
     ([["Norway", "Norwegian"]], (("Norway", "Norwegian"),))],
)
def test_answer_shapes(answer, groups):
    assert rgb_cases(dict(REFINE, answer=answer), stem="x")[0].answer_contains == groups


def test_nested_positive_lists_are_flattened_and_no_negatives_means_no_refuse_case():
    record = dict(REFINE, positive=[["a 6 lanes"], ["b", "c"]], negative=[])
    cases = rgb_cases(record, stem="zh_int")
    assert [c.expect for c in cases] == ["answer"]
    assert sorted(d.text for d in cases[0].documents) == ["a 6 lanes", "b", "c"]


def test_read_rgb_skips_bad_lines_with_their_numbers():
    lines = [json.dumps(REFINE), "nope", json.dumps({"id": 1}), json.dumps(FACT)]
    cases, problems = read_rgb(lines, source="x.json", stem="zh_fact")
    assert len(cases) == 5
    assert [(p.line, p.message) for p in problems] == [
        (2, "invalid JSON (Expecting value)"), (3, "missing 'id' or 'query'")]


def test_bad_answer_raises():
    with pytest.raises(CaseFormatError):
        rgb_cases(dict(REFINE, answer=None), stem="x")
