"""The reader quotes the sentence about the question's focus, not one sharing its incidental
words (issue 12 item 3), and does not decline over a missing verb when the answer is there."""

from __future__ import annotations

import pytest

from kbqa.core.generation.prompt import build_answer_prompt
from kbqa.core.providers.base import ProviderCall
from kbqa.core.readers.extractive.focus import new_answer
from kbqa.core.readers.extractive.question import (
    english_verbs,
    light_terms,
    states,
    unit_terms,
)
from kbqa.core.readers.extractive.reader import ExtractiveProvider
from kbqa.core.types import Block
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


async def _answer(question: str, blocks: tuple[Block, ...]) -> str:
    prompt = build_answer_prompt(question=question, blocks=blocks)
    return "".join([d async for d in ExtractiveProvider().stream(prompt, ProviderCall())])


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
