"""Follow-ups that are not: a question with a subject of its own starts a new topic, end to
end on the demo knowledge base (issue 12 item 4, tester's report).

Runs through the turn service (``chat.turns.answer_turn``) as ``test_follow_ups`` does; the
assertions are on what the user sees.
"""

from __future__ import annotations

import pytest

from kbqa.core.types import Refusal
from tests.acceptance.test_follow_ups import converse, shown

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo_kb")]


@pytest.mark.parametrize(
    ("question", "never"),
    [
        ("团建预算是多少？", "笔记本电脑"),  # the laptop sentence answered a budget question
        ("报销怎么提交？", "笔记本电脑"),
        ("审批需要多久？", "笔记本电脑"),
    ],
)
def test_a_new_subject_after_a_laptop_question_is_not_asked_of_laptops(
    question: str, never: str
) -> None:
    events = converse(f"new-{question}", ["笔记本电脑多久更换一次？", question])
    meta = events[0]
    assert never not in getattr(meta, "standalone_query", "")
    assert "4 年" not in shown(events) and "每 4 年" not in shown(events)


def test_an_expense_question_after_a_laptop_question_is_answered_from_the_expense_policy(
) -> None:
    events = converse("expense-zh", ["笔记本电脑多久更换一次？", "报销需要在多少天内提交？"])
    assert not isinstance(events[1], Refusal)
    assert "60" in shown(events) or "天" in shown(events)


def test_an_elided_subject_still_leans_on_the_earlier_question() -> None:
    events = converse("elided-zh", ["开放 API 的速率限制是多少？", "超过了会怎样？"])
    assert "429" in shown(events)


@pytest.mark.parametrize("follow_up", ["What about the parking fee?",
                                       "what about the gym membership?"])
def test_a_thing_the_documents_do_not_cover_is_refused_not_answered_with_laptops(
    follow_up: str
) -> None:
    events = converse(f"other-{follow_up}", ["How often are laptops replaced?", follow_up])
    assert [ev.event for ev in events] == ["meta", "refusal", "done"]
    assert "4 years" not in events[1].message


@pytest.mark.parametrize(
    ("lang", "questions"),
    [
        ("en-admins", ["How long does the recycle bin keep deleted files?", "and for admins?"]),
        ("zh-admins", ["回收站里的文件能保留多久？", "那管理员呢？"]),
        ("across", ["How long does the recycle bin keep deleted files?", "那管理员呢？"]),
        ("en-interns", ["How long does the recycle bin keep deleted files?",
                        "and for interns?"]),
    ],
)
def test_a_group_the_quoted_passage_does_not_mention_is_refused(
    lang: str, questions: list[str]
) -> None:
    # before: "and for admins?" was answered with the general 30 days, read as the admins'
    events = converse(f"narrow-{lang}", questions)
    assert [ev.event for ev in events] == ["meta", "refusal", "done"]
    assert "30" not in events[1].message


def test_a_group_acting_in_a_question_is_still_answered_from_the_general_rule() -> None:
    events = converse("acting", ["Can administrators change the API rate limit to any value?"])
    assert "600" in shown(events)


def test_a_follow_up_to_a_topic_the_documents_lack_is_refused_too() -> None:
    # 团建 is in no document; the follow-up carries it as its topic and once met the
    # client-meal limit through 每人 (per person) alone.
    events = converse("teambuilding-zh", ["团建每人多少钱？", "超了怎么办？"])
    assert [ev.event for ev in events] == ["meta", "refusal", "done"]
    assert "300" not in shown(events)


def test_what_if_mine_breaks_gets_the_repair_rule() -> None:
    # "mine" is a pronoun, not a thing the documents lack; "as long as" states a condition
    # and "at once" does not: the admin console's "Changes apply to new links at once;
    # existing links that break the new rules…" led the answer before.
    events = converse("mine-breaks", ["How often do we get new laptops?",
                                      "what if mine breaks before that?"])
    text = shown(events)
    assert text.startswith("A laptop that breaks earlier is repaired or replaced")
    assert "mine" not in text


def test_a_follow_up_to_a_refused_question_is_not_answered_about_another_kind() -> None:
    # "vacation" is a word no document uses; the follow-up once became "What if I don't use
    # the vacation days all?" and was answered with sick-leave sentences.
    events = converse("vacation-rest", ["how many vacation days do i get as a full timer?",
                                        "what if I don't use them all?"])
    assert [ev.event for ev in events] == ["meta", "refusal", "done"]
