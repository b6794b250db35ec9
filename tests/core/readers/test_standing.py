"""A proposal, a suggestion or an open item is no answer to "what is X", and an archived
document answers only with a notice beside it (issue 12 item 3; tester's report: meeting
notes quoted as facts, an archived policy quoted without notice)."""

from __future__ import annotations

import pytest

from kbqa.core.readers.extractive.selection import select
from kbqa.core.readers.extractive.standing import unsettled, with_outcomes
from kbqa.core.readers.extractive.text import candidates
from kbqa.core.types import Block
from tests.fakes import make_block


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It was proposed to raise the taxi limit to EUR 80 per ride.", True),
        ("Ana suggested introducing a gym allowance of EUR 30 per month.", True),
        ("The amount has not yet been decided.", True),
        ("The proposal was rejected.", True),
        ("有同事提议把年度体检预算提高到每人 1500 元。", True),
        ("有人建议把团建预算提高到每人 600 元，但尚未决定。", True),
        ("该提案在会议上被否决。", True),
        ("Myth: interns get 30 days of paid leave per year.", True),
        ("误区：实习生每年有 15 天带薪年假。", True),
        # a fact that merely uses such words, and advice in a manual
        ("Anything bigger is rejected before the upload starts.", False),
        ("Q3 results seem to suggest that demand is falling.", False),
        ("Research suggests that short breaks help.", False),
        ("Taxi rides are reimbursed up to EUR 50 per ride.", False),
        ("建议批量任务分散执行，并在收到 429 后重试。", False),
        ("年度体检预算为每人 800 元。", False),
    ],
)
def test_sentences_reporting_proposals_or_open_items(text: str, expected: bool) -> None:
    assert unsettled(text) is expected


def _texts(question: str, blocks: list[Block]) -> list[str]:
    return [c.text for c in select(question, blocks).chosen]


def test_the_policy_answers_not_the_rejected_proposal() -> None:
    note = make_block(1, "It was proposed to raise the taxi limit to EUR 80 per ride. "
                      "The proposal was rejected.", title="Travel meeting notes",
                      section="Taxis", authority="meeting-note")
    policy = make_block(2, "Taxi rides are reimbursed up to EUR 50 per ride.",
                        title="Travel policy", section="Taxis", authority="policy")
    assert _texts("What is the taxi limit per ride?", [note, policy]) == [
        "Taxi rides are reimbursed up to EUR 50 per ride."]


def test_a_myth_its_document_disowns_is_not_quoted() -> None:
    faq = make_block(1, "Myth: interns get 30 days of paid leave per year. "
                     "Fact: interns get 10 days of paid leave per year.",
                     title="Leave myths", section="Interns", authority="faq")
    assert _texts("How many days of paid leave do interns get per year?", [faq]) == [
        "Fact: interns get 10 days of paid leave per year."]


def test_an_undecided_suggestion_alone_is_no_answer() -> None:
    note = make_block(1, "Ana suggested introducing a gym allowance of EUR 30 per month, "
                      "but this has not yet been decided.", section="Benefits",
                      authority="meeting-note")
    assert select("How much is the gym allowance per month?", [note]).declined


def test_chinese_policy_answers_not_the_meeting_note() -> None:
    note = make_block(1, "有同事提议把年度体检预算提高到每人 1500 元。该提案在会议上被否决。",
                      title="行政会议纪要", section="体检", language="zh",
                      authority="meeting-note")
    policy = make_block(2, "年度体检预算为每人 800 元。", title="员工福利制度",
                        section="体检", language="zh", authority="policy")
    assert _texts("年度体检预算是每人多少？", [note, policy]) == ["年度体检预算为每人 800 元。"]


def test_chinese_open_item_alone_is_no_answer() -> None:
    note = make_block(1, "有人建议把团建预算提高到每人 600 元，但尚未决定。",
                      section="团建", language="zh", authority="meeting-note")
    assert select("团建预算每人多少？", [note]).declined


def test_a_quoted_proposal_takes_its_outcome_along() -> None:
    note = make_block(1, "It was proposed to raise the taxi limit to EUR 80 per ride. "
                      "The proposal was rejected. Lunch followed.", authority="meeting-note")
    pool = candidates([note])
    assert [c.text for c in with_outcomes(pool[:1], pool)] == [
        "It was proposed to raise the taxi limit to EUR 80 per ride.",
        "The proposal was rejected."]
