"""The reader quotes the sentence about the question's focus, not one sharing its incidental
words (issue 12 item 3), and does not decline over a missing verb when the answer is there."""

from __future__ import annotations

import pytest

from kbqa.core.readers.extractive.focus import (
    ask_clause,
    ask_kind,
    new_answer,
)
from kbqa.core.readers.extractive.identifiers import shares_more_than_names
from kbqa.core.readers.extractive.question import (
    light_terms,
    states,
    unit_terms,
)
from kbqa.core.readers.extractive.question_verbs import english_verbs
from kbqa.core.types import Block
from tests.core.readers.reading import extractive_answer as _answer
from tests.fakes import make_block

MEETING = make_block(1, "Next meeting: Monday 14 July, same time. Tomás will send the agenda "
                        "the Friday before.", title="Weekly product meeting notes")
SICK = make_block(2, "Tell your manager before the start of your working day. When an illness "
                     "lasts more than 3 consecutive days, a doctor's note is required.",
                  title="Sick leave policy")
TOKENS = make_block(1, "Send the client ID and secret to POST /oauth/token, and you receive a "
                       "bearer token. An access token stays valid for 1 hour; request a new one "
                       "when the old one expires.", title="Open API: authentication")
WEBHOOKS = make_block(2, "If a delivery fails, NimbusDrive tries it again up to 5 more times.",
                      title="Webhooks")




@pytest.mark.parametrize(
    ("question", "blocks", "expected"),
    [
        ("Been off with the flu since Monday and it's Friday now. Do I need something from a "
         "doctor?", (MEETING, SICK),
         "When an illness lasts more than 3 consecutive days, a doctor's note is required. [2]"),
        ("How long can I keep reusing the bearer token before I need to fetch a new one?",
         (TOKENS, WEBHOOKS),
         "An access token stays valid for 1 hour; request a new one when the old one "
         "expires. [1]\nSend the client ID and secret to POST /oauth/token, and you receive a "
         "bearer token. [1]"),
    ],
)
async def test_the_focus_decides_not_incidental_words(
    question: str, blocks: tuple[Block, ...], expected: str
) -> None:
    assert await _answer(question, blocks) == expected


def test_light_terms_are_stop_list_time_and_scene_words() -> None:
    assert {"monday", "again"} <= light_terms("Since Monday it fails again. Why?")
    assert "doctor" not in light_terms("Do I need a note from a doctor?")
    # "a bunch of times" says how often, not what is asked about; "password" is the focus
    typed = light_terms("Mistyped my password a bunch of times. How long till I can try again?")
    assert "time" in typed and "password" not in typed
    assert "谁" in light_terms("除了我老板还要谁批？")
    assert unit_terms("How many days of sick leave do I get?") == {"day"}
    assert unit_terms("我们一年有多少天病假？") == {"天"}


def test_a_word_after_to_or_a_modal_is_a_verb() -> None:
    verbs = english_verbs("How long can I keep reusing the token before I need to fetch one?")
    assert {"keep", "fetch"} <= verbs
    assert "token" not in verbs


@pytest.mark.parametrize(
    ("kind", "text", "expected"),
    [
        ("time", "Company laptops are replaced every 4 years.", True),
        ("time", "Employees may buy their laptop at its remaining book value.", False),
        ("time", "Complete the course within 14 days of your start date.", True),
        ("time", "入职 14 天内完成安全培训。", True),
        ("time", "The meeting moved to 7 July.", True),
    ],
)
def test_a_time_relative_to_an_event_answers_when(kind: str, text: str, expected: bool) -> None:
    assert new_answer(kind, text, "When is my laptop due?") is expected  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Later filing needs the finance director's written approval.", True),
        ("单笔金额超过 5000 元的，还需部门负责人审批。", True),
        ("“编辑者”和“所有者”可以恢复历史版本。", True),
        ("The policy applies to every employee.", False),
    ],
)
def test_a_role_answers_who(text: str, expected: bool) -> None:
    assert states("person", text) is expected


@pytest.mark.parametrize(
    ("question", "ask"),
    [
        # Two questions in one sentence are both asked.
        ("Is Nimbus Works listed on the stock exchange, and what's the share price?",
         "Is Nimbus Works listed on the stock exchange, and what's the share price?"),
        # An initial does not end a clause.
        ("Who won the men's singles U.S. Open in 2020?",
         "Who won the men's singles U.S. Open in 2020?"),
    ],
)
def test_the_ask_clause_keeps_questions_and_initials(question: str, ask: str) -> None:
    assert ask_clause(question) == ask


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("Someone said laptops get swapped every 3 years. Is that still how it works?",
         "quantity"),
        ("Is that still how it works?", "other"),
        ("Who is the director of the film?", "person"),
    ],
)
def test_a_question_with_its_own_amount_asks_for_the_sources_amount(
    question: str, kind: str
) -> None:
    assert ask_kind(question) == kind


def test_a_digit_inside_an_identifier_is_no_quantity() -> None:
    assert not states("quantity", "Each push carries an HMAC-SHA256 signature.")
    assert states("quantity", "Tokens stay valid for 1 hour.")


def test_a_role_the_question_names_is_no_answer_to_who() -> None:
    question = "Who is the director of the movie?"
    assert not new_answer("person", "The director's cut runs longer.", question)
    assert new_answer("person", "Later filing needs the finance director's approval.",
                      "Who must approve a late claim?")


def test_a_sentence_sharing_only_a_name_or_its_pieces_is_not_about_the_question() -> None:
    # 肯尼 is a piece of the name 肯尼迪; 《踏冰逐梦》 is a title, a name.
    assert not shares_more_than_names(
        "谁暗杀了肯尼迪？", frozenset({"暗杀", "肯尼", "肯尼迪"}), frozenset({"肯尼", "肯尼迪"}))
    assert not shares_more_than_names(
        "《踏冰逐梦》的主演是谁", frozenset({"踏冰", "逐梦", "主演"}), frozenset({"踏冰", "逐梦"}))
    assert shares_more_than_names(
        "《踏冰逐梦》的主演是谁", frozenset({"踏冰", "逐梦", "主演"}), frozenset({"主演"}))
