"""The evaluation case format: parsing, alias lists, bad lines, answer matching."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kbqa.core.evaluation.cases import (
    CaseDocument,
    CaseFormatError,
    alias_groups,
    answer_matches,
    parse_case,
    read_cases,
)


@pytest.mark.parametrize(
    ("raw", "groups"),
    [
        ("30", (("30",),)),
        (["30"], (("30",),)),
        (["30", "recycle"], (("30",), ("recycle",))),
        ([["30 days", "30 天"], ["recycle"]], (("30 days", "30 天"), ("recycle",))),
        ([" 30 ", ["a", "b"]], (("30",), ("a", "b"))),
    ],
)
def test_alias_groups_shapes(raw, groups):
    assert alias_groups(raw) == groups


@pytest.mark.parametrize("raw", [5, [""], [[]], [["ok", 3]], {"a": 1}])
def test_alias_groups_rejects(raw):
    with pytest.raises(CaseFormatError):
        alias_groups(raw)


@pytest.mark.parametrize(
    ("text", "groups", "lang", "expected"),
    [
        ("Files stay in the Recycle Bin for 30 days.", (("30 days", "30 天"), ("recycle",)),
         "en", True),
        ("Files stay for 30 days.", (("30 days",), ("recycle",)), "en", False),
        ("文件在回收站保留 30 天。", (("30天",), ("回收站",)), "zh", True),
        ("文件在回收站保留 30 天。", (("30天",),), "en", False),
        ("ＡＰＩ limit", (("api",),), "en", True),
        ("anything", (), "en", True),
        ("", (), "en", False),
    ],
)
def test_answer_matches(text, groups, lang, expected):
    assert answer_matches(text, groups, lang=lang) is expected


def test_parse_full_case_with_documents():
    case = parse_case(
        {
            "id": "q-017", "question": "How long?", "lang": "en", "expect": "answer",
            "documents": [{"doc_id": "d1", "text": "Thirty days.", "updated": "2025-06-30",
                           "authority": "policy", "source_url": "https://x/1"}],
            "answer_contains": [["30 days", "thirty days"]],
            "note": "unknown keys are ignored",
        },
        origin="f.jsonl:3",
    )
    assert case.documents == (
        CaseDocument("d1", "d1", "Thirty days.", "2025-06-30", "policy", "https://x/1"),
    )
    assert case.answer_contains == (("30 days", "thirty days"),)
    assert (case.id, case.expect, case.origin, case.refusal_reason) == (
        "q-017", "answer", "f.jsonl:3", None)


@pytest.mark.parametrize(
    ("raw", "lang", "documents"),
    [
        ({"id": 7, "question": "退款要多久？", "expect": "refuse"}, "zh", None),
        ({"id": "a", "question": "Refund time?", "expect": "refuse", "documents": []}, "en", ()),
    ],
)
def test_optional_fields_default(raw, lang, documents):
    case = parse_case(raw)
    assert (case.lang, case.documents, case.answer_contains) == (lang, documents, ())


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"question": "q", "expect": "answer"}, "missing or empty 'id'"),
        ({"id": "a", "expect": "answer"}, "missing or empty 'question'"),
        ({"id": "a", "question": "q"}, "'expect' must be one of"),
        ({"id": "a", "question": "q", "expect": "maybe"}, "'expect' must be one of"),
        ({"id": "a", "question": "q", "expect": "answer", "lang": "fr"}, "'lang' must be"),
        ({"id": "a", "question": "q", "expect": "refuse", "refusal_reason": "conflict"},
         "'refusal_reason' must be one of"),
        ({"id": "a", "question": "q", "expect": "refuse", "documents": [{"doc_id": "d"}]},
         "documents[0]: missing or empty 'text'"),
        ({"id": "a", "question": "q", "expect": "refuse",
          "documents": [{"doc_id": "d", "text": "t", "authority": "boss"}]},
         "documents[0]: authority must be one of"),
        ({"id": "a", "question": "q", "expect": "refuse",
          "documents": [{"doc_id": "d", "text": "t"}, {"doc_id": "d", "text": "u"}]},
         "documents: doc_id values must be unique"),
    ],
)
def test_parse_case_errors(raw, message):
    with pytest.raises(CaseFormatError) as info:
        parse_case(raw)
    assert str(info.value).startswith(message)


def test_read_cases_reports_bad_lines_by_number_and_keeps_the_rest():
    lines = [
        json.dumps({"id": "a", "question": "Q1?", "expect": "answer", "answer_contains": "x"}),
        "",
        "{not json",
        json.dumps({"id": "b", "question": "Q2?"}),
        json.dumps({"id": "a", "question": "Q3?", "expect": "refuse"}),
        json.dumps({"id": "c", "question": "Q4?", "expect": "refuse"}),
    ]
    cases, problems = read_cases(lines, source="cases.jsonl")
    assert [c.id for c in cases] == ["a", "c"]
    assert [c.origin for c in cases] == ["cases.jsonl:1", "cases.jsonl:6"]
    assert [(p.line, p.message) for p in problems] == [
        (3, "invalid JSON (Expecting property name enclosed in double quotes)"),
        (4, "'expect' must be one of ('answer', 'refuse', 'conflict'), got None"),
        (5, "duplicate id 'a'"),
    ]
    assert str(problems[0]).startswith("cases.jsonl:3: invalid JSON")


def test_history_holds_the_earlier_user_questions_in_order():
    case = parse_case({"id": "f1", "question": "and sick days?", "expect": "answer",
                       "answer_contains": "days",
                       "history": ["How many days of annual leave?", " and for part-timers? "]})
    assert case.history == ("How many days of annual leave?", "and for part-timers?")
    assert parse_case({"id": "f2", "question": "q?", "expect": "refuse"}).history == ()


@pytest.mark.parametrize("history", ["one question", [""], [1]])
def test_history_must_be_a_list_of_questions(history):
    with pytest.raises(CaseFormatError, match="history"):
        parse_case({"id": "f3", "question": "q?", "expect": "refuse", "history": history})


@pytest.mark.parametrize(
    "path",
    sorted((Path(__file__).resolve().parents[3] / "sources").glob("*/*.jsonl")),
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_every_shipped_case_set_reads_without_problems(path: Path) -> None:
    # a bad line is skipped by `evaluate` with a warning: the shipped sets must have none
    cases, problems = read_cases(path.read_text(encoding="utf-8").splitlines(),
                                 source=path.name)
    assert cases
    assert problems == []


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        # a misspelt field was ignored, and the case then scored any answer as right
        ({"id": "a", "question": "Q?", "expect": "answer", "answer_contain": [["30"]]},
         "unknown field 'answer_contain'"),
        ({"id": "a", "question": "Q?", "expect": "answer", "answer_contains": []},
         "case 'a': an answer case needs 'answer_contains' with at least one string"),
        # left out, it was taken as "anything will do" (README: an answer case needs one)
        ({"id": "a", "question": "Q?", "expect": "answer"},
         "case 'a': an answer case needs 'answer_contains' with at least one string"),
    ],
)
def test_a_case_that_would_score_any_answer_right_is_refused(raw: dict, message: str) -> None:
    with pytest.raises(CaseFormatError, match=message):
        parse_case(raw)
    # a refusal case may leave the list empty: there is nothing to match
    assert parse_case({"id": "r", "question": "Q?", "expect": "refuse",
                       "answer_contains": [], "note": "not covered"}).answer_contains == ()
    # calibrate scores no answer: it reads the question and what is expected only
    assert parse_case({"id": "a", "question": "Q?", "expect": "answer"},
                      scored=False).answer_contains == ()


def test_an_answer_case_without_answer_contains_is_skipped_by_line_and_id() -> None:
    lines = [json.dumps({"id": "q-1", "question": "Q1?", "expect": "answer",
                         "answer_contains": "30"}),
             json.dumps({"id": "q-2", "question": "Q2?", "expect": "answer"})]
    cases, problems = read_cases(lines, source="cases.jsonl")
    assert [c.id for c in cases] == ["q-1"]
    assert [str(p) for p in problems] == [
        "cases.jsonl:2: case 'q-2': an answer case needs 'answer_contains' with at least one "
        "string (what a right answer says)"]
