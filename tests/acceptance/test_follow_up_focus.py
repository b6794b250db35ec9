"""Follow-ups whose answer is about the new focus, end to end on the demo knowledge base
(issue 12 item 4: the natural set's follow-up misses).

Runs through the turn service (``chat.turns.answer_turn``) as ``test_follow_ups`` does; the
assertions are on the answer the user sees for the follow-up.
"""

from __future__ import annotations

import pytest

from kbqa.core.types import Meta
from tests.acceptance.test_follow_ups import converse, shown

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo_kb")]


def test_a_sibling_kind_of_leave_is_answered_not_the_earlier_leave() -> None:
    events = converse("sick-days", ["How many days of annual leave do full-timers get?",
                                    "and sick days?"])
    text = shown(events)
    assert "10 days of fully paid sick leave" in text
    assert "20 days" not in text  # before: the annual-leave sentence


def test_a_new_action_with_its_own_modifiers_replaces_the_earlier_one() -> None:
    events = converse("commute", ["出差在外地打车能报销吗？", "那上下班打车呢？"])
    assert "不予报销" in shown(events)
    assert "出差" not in getattr(events[0], "standalone_query", "")  # not "出差在上下班打车"
    assert "餐费" not in shown(events)  # before: the travel meals sentence


@pytest.mark.parametrize(
    ("lang", "questions"),
    [
        ("en", ["What's the rate limit on the open API?", "and what happens if we go over it?"]),
        ("zh", ["开放 API 的速率限制是多少？", "超过了会怎样？"]),
    ],
)
def test_a_consequence_follow_up_is_answered_with_the_outcome_not_the_limit(
    lang: str, questions: list[str]
) -> None:
    text = shown(converse(f"over-{lang}", questions))
    assert "429" in text
    assert "600" not in text  # before: the limit the first question asked


def test_a_consequence_follow_up_keeps_the_subject_not_the_adverb_before_the_ask() -> None:
    # The earlier question's subject ended at its modal: "回收站里的文件最多" then took
    # "超过了会怎样" ("…文件最多超过了会怎样？"), which no passage answered; the words after
    # its last noun ("最多", how much) are no part of what was exceeded.
    text = shown(converse("over-bin", ["回收站里的文件最多能保留多少天？", "超过了会怎样？"]))
    assert "彻底清除" in text


@pytest.mark.parametrize(
    ("lang", "questions", "never"),
    [
        ("en", ["How often are laptops replaced?", "and monitors?"], "4 years"),
        # the monitors' "27 英寸" is a number, not how often they are replaced
        ("zh", ["笔记本电脑多久更换一次？", "那显示器呢？"], "27"),
    ],
)
def test_a_thing_no_passage_answers_is_refused_not_answered_with_the_earlier_thing(
    lang: str, questions: list[str], never: str
) -> None:
    events = converse(f"monitors-{lang}", questions)
    assert [ev.event for ev in events] == ["meta", "refusal", "done"]
    assert never not in events[1].message


@pytest.mark.parametrize(
    ("questions", "asked", "never"),
    [
        (["What's the hotel limit per night in Paris?", "and London?"], "London", "Paris"),
        (["What's the hotel limit per night in Paris?", "and London?", "and Tokyo?"],
         "Tokyo", "London"),
    ],
)
def test_a_bare_place_replaces_the_earlier_place(
    questions: list[str], asked: str, never: str
) -> None:
    events = converse(f"place-{len(questions)}", questions)
    meta = events[0]
    assert isinstance(meta, Meta)
    assert asked in meta.standalone_query and never not in meta.standalone_query
    assert "EUR 240 per night" in shown(events)


def test_a_three_turn_chain_keeps_the_new_focus_and_replaces_the_group() -> None:
    events = converse("chain-sick", ["How many days of annual leave do full-time employees get?",
                                     "and sick days?", "and for part-timers?"])
    meta = events[0]
    assert isinstance(meta, Meta)
    assert "sick leave" in meta.standalone_query and "annual" not in meta.standalone_query
    assert "10 days of fully paid sick leave" in shown(events)


def test_the_current_section_is_shown_beside_its_archived_version() -> None:
    # the archived 2022 policy fitted "swapped out" better and took the current one's place
    events = converse("swap", ["What laptop will I get on my first day?",
                               "how often do they get swapped out?"])
    meta = events[0]
    assert isinstance(meta, Meta)
    assert "every 3 years" not in shown(events)
    sections = {(b["doc_id"], b["section"]) for b in meta.blocks}
    assert ("doc-070", "Laptops") in sections  # the current policy's section is a source


def test_a_group_the_documents_never_mention_is_not_answered_with_another_groups_rule() -> None:
    events = converse("contractors", ["How many days of annual leave do full-time employees get?",
                                      "and for contractors?"])
    assert [ev.event for ev in events] == ["meta", "refusal", "done"]
    assert "20 days" not in events[1].message  # before: the full-time rule, no caveat




def test_a_noun_phrase_after_a_connector_asks_the_earlier_question_of_it() -> None:
    # "and old versions of a doc?" names a thing no slot of the earlier question takes: it
    # is asked how long, not read as a question of its own ("Old versions of a doc?",
    # refused before).
    text = shown(converse("np-versions", ["how long do deleted files hang around in the "
                                          "recycle bin?", "and old versions of a doc?"]))
    assert "180 days" in text
    assert "30 days" not in text
