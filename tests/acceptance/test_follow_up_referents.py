"""A follow-up that brings a thing of its own is a new question; one the documents answer
is answered (tester's report on issue 12 item 4), end to end on the demo knowledge base
through the turn service, as ``test_follow_ups``.
"""

from __future__ import annotations

import pytest

from kbqa.core.types import Refusal
from tests.acceptance.test_follow_ups import converse, shown

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo_kb")]

SWAP = "arranges the swap"


@pytest.mark.parametrize(
    "questions",
    [
        ["How often are laptops replaced?", "What if I forget my password?"],
        ["How often are laptops replaced?", "and monitors?", "What if I lose my laptop?"],
    ],
)
def test_a_condition_with_its_own_thing_is_not_asked_of_the_earlier_topic(
    questions: list[str]
) -> None:
    # before: "What if I forget my password (laptops)?" quoted the laptop-swap sentence
    events = converse(f"referent-{len(questions)}", questions)
    query = getattr(events[0], "standalone_query", "")
    assert "(laptops)" not in query and "monitors" not in query
    assert SWAP not in shown(events)


@pytest.mark.parametrize(
    "earlier",
    [["How long does the recycle bin keep deleted files?"],
     ["笔记本电脑多久更换一次？", "那显示器呢？"]],
)
def test_a_question_with_its_own_topic_is_answered_after_any_conversation(
    earlier: list[str]
) -> None:
    events = converse(f"trial-{len(earlier)}", [*earlier, "Is there a free trial?"])
    assert "90 days" in shown(events)
    assert "recycle bin" not in shown(events)


def test_another_city_is_answered_by_the_rule_for_other_cities() -> None:
    # "and in Berlin?" after Paris was answered; "那成都呢？" after Shanghai was refused
    # because 成都 names the Chengdu office elsewhere in the knowledge base
    events = converse("chengdu", ["在上海出差住酒店每晚能报销多少？", "那成都呢？"])
    assert not isinstance(events[1], Refusal)
    assert "500 元" in shown(events)


def test_a_how_to_without_its_object_is_answered_from_the_topic() -> None:
    events = converse("apply-answered", ["How much is the home office allowance?",
                                         "how do I apply?"])
    assert "claimed through the normal expense process" in shown(events)


def test_another_thing_after_a_determined_one_is_asked_in_its_place() -> None:
    # before: "How much can I spend on a hotel, for meals?" was refused
    events = converse("meals", ["How much can I spend on a hotel?", "what about meals?",
                                "and with customers?"])
    assert "EUR 80 per person" in shown(events)
    assert "per night" not in shown(events)


def test_a_chain_with_a_connector_and_a_pronoun_keeps_the_topic() -> None:
    events = converse("trial-end", ["How long is the NimbusDrive free trial?",
                                    "Do they need a credit card for it?",
                                    "and if nobody picks a plan when it runs out?"])
    assert "read-only" in shown(events)
