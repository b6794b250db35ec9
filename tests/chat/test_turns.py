"""The turn service itself: what it stores and closes whatever way a turn ends.

Front-end tests (consumer, API, ``ask``, ``evaluate``) render its stream; these check the
promises every front end relies on. The real pipeline runs over ``tests.chat.kb``.
"""

from __future__ import annotations

import asyncio
from contextlib import aclosing
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from chat.models import Conversation, Message, Trace
from chat.services import conversation_history
from chat.turns import TurnOpened, TurnRejected, TurnRequest, answer_turn
from kbqa.core.types import Done, Event, Notice, Sentence
from tests.chat.kb import (
    ANSWER,
    LAPTOP_ANSWER,
    LAPTOP_QUESTION,
    QUESTION,
    SHOWN,
    laptop_kb,
    leave_kb,
)
from tests.fakes.provider import FakeOutput, FakeProvider

__all__ = ["laptop_kb", "leave_kb"]
pytestmark = pytest.mark.django_db(transaction=True)


async def run(request: TurnRequest) -> list[TurnOpened | Event]:
    async with aclosing(answer_turn(request)) as items:
        return [item async for item in items]


@sync_to_async
def conversation_new(django_user_model: Any, username: str = "alice") -> Conversation:
    owner = django_user_model.objects.create_user(username, password="pw-123456")
    return Conversation.objects.create(owner=owner)


async def test_a_turn_opens_then_yields_core_events_and_stores_everything(
    fake_provider: FakeProvider, leave_kb: None, django_user_model: Any
) -> None:
    fake_provider.add(ANSWER)
    conversation = await conversation_new(django_user_model)
    items = await run(TurnRequest(question=QUESTION, user=conversation.owner,
                                  conversation_id=conversation.pk))
    assert isinstance(items[0], TurnOpened) and items[0].message is not None
    assert [i.event for i in items[1:]] == ["meta", "sentence", "done"]  # type: ignore[union-attr]
    roles = [m.role async for m in Message.objects.filter(conversation=conversation)]
    trace = await Trace.objects.aget()
    assert (roles, trace.status, trace.conversation_id) == (
        ["user", "assistant"], "answered", conversation.pk)
    assert not fake_provider.closed  # the loop's shared provider: the next turn uses it


async def test_a_borrowed_provider_stays_open_for_its_owner(leave_kb: None) -> None:
    given = FakeProvider([ANSWER])
    items = await run(TurnRequest(question=QUESTION, provider=given))
    assert isinstance(items[-1], Done) and items[-1].status == "answered"
    assert not given.closed


async def test_someone_elses_conversation_is_not_found_and_nothing_is_stored(
    fake_provider: FakeProvider, django_user_model: Any
) -> None:
    conversation = await conversation_new(django_user_model)
    bob = await sync_to_async(django_user_model.objects.create_user)("bob", password="pw-123")
    with pytest.raises(TurnRejected) as rejected:
        await run(TurnRequest(question=QUESTION, user=bob, conversation_id=conversation.pk))
    assert rejected.value.reason == "not_found"
    assert str(rejected.value) == (
        f"Conversation {conversation.pk} does not exist (it may have been deleted); "
        "leave out the conversation to start a new one."
    )
    assert (await Message.objects.acount(), await Trace.objects.acount()) == (0, 0)


async def test_cancel_mid_answer_stores_the_trace(
    fake_provider: FakeProvider, leave_kb: None, django_user_model: Any
) -> None:
    started = asyncio.Event()

    fake_provider.add(FakeOutput(deltas=["Employees get "]))
    conversation = await conversation_new(django_user_model)

    async def consume() -> None:
        request = TurnRequest(question=QUESTION, user=conversation.owner,
                              conversation_id=conversation.pk)
        async with aclosing(answer_turn(request)) as items:
            async for item in items:
                if not isinstance(item, TurnOpened):
                    started.set()
                    await asyncio.Event().wait()  # the client stops reading, then goes away

    task = asyncio.create_task(consume())
    await asyncio.wait_for(started.wait(), 5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    trace = await Trace.objects.aget()
    answer = await Message.objects.aget(role="assistant")
    assert (trace.status, answer.status, answer.trace_id) == ("cancelled", "cancelled", trace.pk)


async def test_a_turn_cancelled_while_its_question_is_stored_ends_cancelled_and_frees_the_chat(
    fake_provider: FakeProvider, leave_kb: None, django_user_model: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Stop (or a client gone) while the database thread stores the question: the thread
    finishes, and the turn it stored is closed "cancelled", never left pending with its
    conversation busy ("Another answer is still being written") for ten minutes."""
    import threading

    from chat import turns
    from chat.limits import TurnSlot, turn_admit_sync

    entered, go = threading.Event(), threading.Event()
    real_begin = turns.turn_begin

    def slow_begin(**kwargs: Any) -> Any:
        entered.set()
        go.wait(10)
        return real_begin(**kwargs)

    monkeypatch.setattr(turns, "turn_begin", slow_begin)
    fake_provider.add(ANSWER)
    conversation = await conversation_new(django_user_model)
    request = TurnRequest(question=QUESTION, user=conversation.owner,
                          conversation_id=conversation.pk, limited=True)
    task = asyncio.create_task(run(request))
    assert await asyncio.to_thread(entered.wait, 10)
    task.cancel()
    await asyncio.sleep(0.05)
    go.set()
    with pytest.raises(asyncio.CancelledError):
        await task
    trace = await Trace.objects.aget()
    answer = await Message.objects.aget(role="assistant")
    assert (trace.status, answer.status) == ("cancelled", "cancelled")
    slot = await sync_to_async(turn_admit_sync)(
        user_id=conversation.owner.pk, conversation_id=conversation.pk)
    assert isinstance(slot, TurnSlot)  # the conversation can be asked again at once


async def test_a_stopped_turn_is_stored_as_stopped(
    fake_provider: FakeProvider, leave_kb: None, django_user_model: Any
) -> None:
    started, stop = asyncio.Event(), asyncio.Event()
    fake_provider.add(FakeOutput(deltas=[f"{ANSWER} ", "Then "], hang=True))
    conversation = await conversation_new(django_user_model)
    request = TurnRequest(
        question=QUESTION, user=conversation.owner, conversation_id=conversation.pk, stop=stop
    )

    async def consume() -> None:
        async with aclosing(answer_turn(request)) as items:
            async for item in items:
                if isinstance(item, Sentence):
                    started.set()

    task = asyncio.create_task(consume())
    await asyncio.wait_for(started.wait(), 5)
    stop.set()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    trace = await Trace.objects.aget()
    answer = await Message.objects.aget(role="assistant")
    assert (trace.status, answer.status, answer.text) == ("stopped", "stopped", SHOWN)


async def test_the_answer_is_stored_before_done_reaches_the_front_end(
    fake_provider: FakeProvider, leave_kb: None, django_user_model: Any
) -> None:
    fake_provider.add(ANSWER)
    conversation = await conversation_new(django_user_model)
    request = TurnRequest(question=QUESTION, user=conversation.owner,
                          conversation_id=conversation.pk)
    stored_at_done = None
    async with aclosing(answer_turn(request)) as items:
        async for item in items:
            if isinstance(item, Done):
                stored_at_done = await Message.objects.filter(role="assistant").acount()
    assert stored_at_done == 1
    assert await Message.objects.filter(role="assistant").acount() == 1  # stored once


async def test_notice_comes_right_before_the_first_sentence(
    fake_provider: FakeProvider, laptop_kb: None
) -> None:
    fake_provider.add(LAPTOP_ANSWER)
    items = await run(TurnRequest(question=LAPTOP_QUESTION))
    events = [i for i in items if not isinstance(i, TurnOpened)]
    assert [e.event for e in events] == ["meta", "notice", "sentence", "done"]
    notice, sentence = events[1], events[2]
    assert isinstance(notice, Notice) and isinstance(sentence, Sentence)
    assert "Equipment policy (2022)" in notice.notices[0]


def test_history_gives_earlier_follow_ups_in_their_standalone_form(django_user_model) -> None:
    owner = django_user_model.objects.create_user("hist", password="x")
    conversation = Conversation.objects.create(owner=owner)
    topic = "How long does the recycle bin keep items?"
    rows = [
        ("user", topic, topic),
        ("user", "and for admins?", "How long does the recycle bin keep items for admins?"),
    ]
    for role, text, standalone in rows:
        Message.objects.create(conversation=conversation, role=role, text=text)
        trace = Trace.objects.create(question=text, standalone_query=standalone)
        Message.objects.create(conversation=conversation, role="assistant", text="30 days.",
                               trace=trace)
    history = conversation_history(conversation=conversation)
    assert [(t.role, t.text) for t in history] == [
        ("user", "How long does the recycle bin keep items?"),
        ("assistant", "30 days."),
        ("user", "How long does the recycle bin keep items for admins?"),
        ("assistant", "30 days."),
    ]


def test_history_marks_a_turn_the_documents_did_not_cover(django_user_model) -> None:
    owner = django_user_model.objects.create_user("uncovered", password="x")
    conversation = Conversation.objects.create(owner=owner)
    for question, answer, status in [
        ("How often are laptops replaced?", "Every 4 years.", "answered"),
        ("and monitors?", "", "refused_no_support"),
        ("and in 2021?", "", "refused_low_score"),
        ("What's the upload limit?", "", "refused_conflict"),
    ]:
        Message.objects.create(conversation=conversation, role="user", text=question)
        Message.objects.create(conversation=conversation, role="assistant", text=answer,
                               status=status)
    history = conversation_history(conversation=conversation, limit=8)
    assert [(t.text, t.uncovered) for t in history if t.role == "user"] == [
        ("How often are laptops replaced?", False),
        ("and monitors?", True),
        ("and in 2021?", True),
        ("What's the upload limit?", False),  # a conflict: covered, twice over
    ]
