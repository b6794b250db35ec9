"""Follow-ups that replace the focus, end to end on the demo knowledge base (issue 12 item 4).

Each conversation runs through the turn service (``chat.turns.answer_turn``: the real
pipeline, the stored KB, the offline reader); the assertions are on what the user sees: the
answer's sentences, its notices, or the refusal.
"""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model

from chat.models import Conversation
from chat.turns import TurnRequest, answer_turn
from kbqa.core.types import Done, Event, Notice, Refusal, Sentence

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo_kb")]


@sync_to_async
def _conversation_new(username: str) -> Conversation:
    owner = get_user_model().objects.create_user(username=username, password="pw-123456")
    return Conversation.objects.create(owner=owner)


def converse(username: str, questions: list[str]) -> list[Event]:
    """The events of the last of ``questions``, asked in order in one conversation."""

    async def run() -> list[Event]:
        conversation = await _conversation_new(username)
        events: list[Event] = []
        for question in questions:
            turn = answer_turn(TurnRequest(question=question, conversation_id=conversation.pk))
            events = [ev async for ev in turn if isinstance(ev, Event)]
            assert isinstance(events[-1], Done)
        return events

    return asyncio.run(run())


def shown(events: list[Event]) -> str:
    return " ".join(ev.text for ev in events if isinstance(ev, Sentence))


def test_a_group_fragment_replaces_the_earlier_group() -> None:
    events = converse("part-timer", ["How many days of annual leave do full-time employees get?",
                                     "and for part-timers?"])
    text = shown(events)
    assert "Part-time employees receive a share in proportion to their contracted hours" in text
    assert "Not covered" not in text


def test_a_chain_takes_the_last_full_question_across_languages() -> None:
    events = converse("chain", ["How long does the recycle bin keep deleted files?",
                                "那管理员呢？", "and version history?"])
    text = shown(events)
    assert "Earlier versions of a file are kept for 180 days" in text
    assert "管理员" not in text and "30 days" not in text


def test_a_year_fragment_asks_that_years_document() -> None:
    events = converse("year", ["How often are laptops replaced?", "and in 2022?"])
    notices = [n for ev in events if isinstance(ev, Notice) for n in ev.notices]
    assert "every 3 years" in shown(events) and "every 4 years" not in shown(events)
    assert any("2022" in notice and "4 years" in notice for notice in notices)


@pytest.mark.parametrize(
    ("lang", "questions"),
    [
        ("en", ["How many days of sick leave do employees get per year?", "and for interns?"]),
        ("zh", ["员工每年有多少天病假？", "那实习生呢？"]),
    ],
)
def test_a_group_the_documents_never_mention_is_refused_in_both_languages(
    lang: str, questions: list[str]
) -> None:
    events = converse(f"interns-{lang}", questions)
    assert [ev.event for ev in events] == ["meta", "refusal", "done"]
    refusal = events[1]
    assert isinstance(refusal, Refusal)
    assert "10" not in refusal.message


@pytest.mark.parametrize("follow_up", ["how many times per year?", "how often?"])
def test_a_follow_up_of_units_alone_asks_about_the_earlier_thing(follow_up: str) -> None:
    # "how many times per year?" names no thing of its own: it was read as a question on
    # its own and answered with annual leave, audit logs and API advice; the declaration's
    # "at most twice per calendar year" (a count said in a word) answers it.
    text = shown(converse(f"times-{len(follow_up)}", ["I lost a receipt, what now?", follow_up]))
    assert "twice per calendar year" in text
    assert "annual leave" not in text


def test_another_action_does_not_keep_the_earlier_actions_rate() -> None:
    # "那吃饭呢？" became "…吃饭每晚能报多少？": per night is the hotel's rate, and the hotel
    # rule came back as the answer; meals have a daily limit of their own.
    text = shown(converse("meal-rate", ["我下个月去上海出差，住酒店每晚能报多少？", "那吃饭呢？"]))
    assert "每天最多报销 150 元" in text


def test_a_consequence_follow_up_is_answered_from_the_topics_passage() -> None:
    # The carried topic's rarest word ("default") is in the passage the answer comes from,
    # not in its sentence: "Calls above the limit…" follows "The default rate limit of the
    # open API is 600 requests per minute…" (a tester's conversation, refused before).
    events = converse("over-limit", ["what's the default rate limit for the open api",
                                     "what happens if we go over?"])
    assert "HTTP 429" in shown(events)
