"""A page reloaded, or reconnected after a server restart, while its answer was written: the
"Answering…" bubble ends with the turn's real state, never a spinner left for ever.

A reload does not cancel the answer (the page's socket closes, the answer goes on and is
stored); the page names its running bubbles in a ``sync`` frame (``static/js/chat.js``) and
the consumer replaces each with the stored turn, now or when it ends (``chat.turn_sync``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from chat import turn_records
from chat.models import Message, new_ulid
from chat.turn_sync import sync_parse
from tests.chat.kb import ANSWER, QUESTION, SHOWN, leave_kb
from tests.chat.support import (
    chat_socket,
    conversation_make,
    oob_targets,
    receive_until,
    user_make,
)
from tests.fakes.provider import FakeOutput, FakeProvider

__all__ = ["leave_kb"]


def sync(*turns: tuple[str, int]) -> str:
    return json.dumps({"type": "sync", "turns": [{"key": k, "question": q} for k, q in turns]})


async def stored_status(question_id: int) -> str:
    """The status of the answer stored after question ``question_id``, once it is not
    pending (a detached answer is stored a moment after the model ends)."""
    for _ in range(200):
        answer = await Message.objects.filter(pk__gt=question_id, role="assistant").afirst()
        if answer is not None and answer.status != "pending":
            return answer.status
        await asyncio.sleep(0.05)
    raise AssertionError("the answer was never stored")


@contextlib.asynccontextmanager
async def answer_running(
    fake_provider: FakeProvider, deltas: list[str], *, release: asyncio.Event | None = None,
    tab: str = "page1",
) -> AsyncIterator[tuple[Any, Any, Any]]:
    """A page (``tab``) that asked QUESTION of a model now hanging after ``deltas``; yields
    the user, the conversation and the asking socket (closed on the way out)."""
    fake_provider.add(FakeOutput(deltas=deltas, hang=True, release=release))
    user = await user_make("alice")
    conversation = await conversation_make(user)
    async with chat_socket(conversation.pk, user, query=f"?tab={tab}") as asking:
        await asking.send_to(text_data=json.dumps({"question": QUESTION}))
        await asking.receive_from(timeout=10)
        await fake_provider.streaming.wait()
        yield user, conversation, asking


@pytest.mark.django_db(transaction=True)
async def test_reloading_mid_answer_lets_it_finish_and_the_new_page_shows_it_live(
    fake_provider: FakeProvider, leave_kb: None
) -> None:
    release = asyncio.Event()
    async with answer_running(fake_provider, [f"{ANSWER} "], release=release, tab="first") as (
        user, conversation, _before
    ):
        pass
    # the reload: the page renders the stored turn, still pending, as "m<answer id>"
    question = await Message.objects.aget(role="user")
    pending = await Message.objects.aget(role="assistant")
    page = await sync_to_async(reloaded_page)(user, conversation.pk)
    async with chat_socket(conversation.pk, user, query="?tab=second") as after:
        await after.send_to(text_data=sync((f"m{pending.pk}", question.pk)))
        assert await after.receive_nothing(timeout=0.2)  # still running: nothing to say yet
        release.set()
        live = await after.receive_from(timeout=10)  # the sentence, as soon as it is shown
        replaced = await after.receive_from(timeout=10)

    assert oob_targets(live) == [(f"outerHTML:#turn-m{pending.pk}", f"turn-m{pending.pk}")]
    assert 'data-status="pending"' in live and SHOWN in live and "Leave policy" in live
    assert 'data-status="pending"' in page
    assert "Still writing this answer: its sentences appear here as they are checked." in page
    assert not fake_provider.cancelled  # the reload did not cancel the answer
    assert oob_targets(replaced) == [(f"outerHTML:#turn-m{pending.pk}", f"turn-m{pending.pk}")]
    assert 'data-status="answered"' in replaced and SHOWN in replaced
    assert QUESTION not in replaced  # the page shows the question already: no second copy
    assert await stored_status(question.pk) == "answered"


def reloaded_page(user: Any, conversation_id: int) -> str:
    client = Client()
    client.force_login(user)
    return client.get(f"/c/{conversation_id}/").content.decode()


@pytest.mark.django_db(transaction=True)
async def test_a_page_reconnected_after_a_server_restart_shows_the_turn_interrupted() -> None:
    user = await user_make("alice")
    conversation = await conversation_make(user)
    record = await sync_to_async(turn_records.turn_begin)(
        conversation=conversation, user=user, question="Q?", trace_id=new_ulid()
    )
    turn_records.IN_FLIGHT.discard(record.trace_id)  # the process that ran it is gone
    async with chat_socket(conversation.pk, user, query="?tab=page") as reconnected:
        # the bubble the page streamed before the restart, under its question
        await reconnected.send_to(text_data=sync(("t0123abcd", record.user_message.pk)))
        replaced = await reconnected.receive_from(timeout=10)

    answer = f"turn-m{record.answer_message_id}"
    assert oob_targets(replaced) == [("outerHTML:#turn-t0123abcd", answer)]
    assert 'data-status="interrupted"' in replaced
    assert "The server stopped before this answer was finished." in replaced
    assert "You can ask again." in replaced
    assert "copy-answer" not in replaced  # nothing to copy in an empty bubble


@pytest.mark.parametrize(
    ("frame", "parsed"),
    [
        (sync(("t0a1b", 3), ("m12", 11)), [("t0a1b", 3), ("m12", 11)]),
        (sync(("x<script>", 3), ("m12", "11")), []),  # keys and ids of another shape: left out
        (json.dumps({"type": "stop"}), None),
        (json.dumps({"question": "sync"}), None),
    ],
)
def test_sync_frames_name_bubble_keys_and_question_ids_only(frame: str, parsed: Any) -> None:
    assert sync_parse(frame) == parsed


@pytest.mark.django_db(transaction=True)
async def test_stop_on_a_reconnected_page_stops_the_answer_its_dropped_socket_asked(
    fake_provider: FakeProvider, leave_kb: None
) -> None:
    fake_provider.add(FakeOutput(deltas=[f"{ANSWER} ", "Then "], hang=True))
    user = await user_make("alice")
    conversation = await conversation_make(user)
    async with chat_socket(conversation.pk, user, query="?tab=page1") as dropped:
        await dropped.send_to(text_data=json.dumps({"question": QUESTION}))
        first = await dropped.receive_from(timeout=10)
        await fake_provider.streaming.wait()
    key = first.split('id="turn-', 1)[1].split('"', 1)[0]
    async with chat_socket(conversation.pk, user, query="?tab=page1") as reopened:
        await reopened.send_to(text_data=json.dumps({"type": "stop"}))  # the Stop button
        replaced = await reopened.receive_from(timeout=10)

    assert fake_provider.cancelled
    assert oob_targets(replaced)[0][0] == f"outerHTML:#turn-{key}"
    assert 'data-status="stopped"' in replaced and SHOWN in replaced


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("process", ["this process", "another process"])
async def test_stop_on_a_reloaded_page_or_another_tab_stops_the_running_answer(
    fake_provider: FakeProvider, leave_kb: None, process: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a tester reloaded mid-answer and could no longer stop it; a second tab could not
    # either. Stop names the question whose answer the page shows running; the answer is
    # stopped wherever it runs (another process: through the conversation's group).
    from chat import consumers

    if process == "another process":
        monkeypatch.setattr(consumers, "RUNNING", {})  # the registry of another process
    async with answer_running(fake_provider, [f"{ANSWER} ", "Then "]) as (
        user, conversation, asking
    ):
        question = await Message.objects.aget(role="user")
        async with chat_socket(conversation.pk, user, query="?tab=page2") as other:
            await other.send_to(text_data=json.dumps({"type": "stop", "question": question.pk}))
            stopped = (await receive_until(asking, 'data-status="stopped"'))[-1]
            shown = (await receive_until(other, 'data-status="stopped"'))[-1]

    assert fake_provider.cancelled
    assert "footer" in stopped and SHOWN in shown  # each page shows it stopped
    assert await stored_status(question.pk) == "stopped"


@pytest.mark.django_db(transaction=True)
async def test_stop_names_only_an_answer_of_its_own_conversation(
    fake_provider: FakeProvider, leave_kb: None
) -> None:
    release = asyncio.Event()
    async with answer_running(fake_provider, [f"{ANSWER} "], release=release) as (
        user, _conversation, asking
    ):
        elsewhere = await conversation_make(user)
        question = await Message.objects.aget(role="user")
        async with chat_socket(elsewhere.pk, user) as other:
            await other.send_to(text_data=json.dumps({"type": "stop", "question": question.pk}))
            assert await other.receive_nothing(timeout=0.3)
        release.set()
        await receive_until(asking, 'data-status="answered"')

    assert not fake_provider.cancelled


@pytest.mark.django_db(transaction=True)
async def test_stop_arriving_as_the_answer_ends_leaves_it_answered(
    fake_provider: FakeProvider, leave_kb: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A tester pressed Esc as a 50 ms answer ended: the page still showed it streaming and
    # sent Stop with its question; the turn, done and stored, was cancelled while it sent
    # its last frame, and the bubble said "Stopped" over the whole answer while a reload
    # said "Answered". Past its end, an answer is no longer stopped.
    from chat import consumers

    ending, release = asyncio.Event(), asyncio.Event()
    send_html = consumers.ChatConsumer.send_html

    async def slow_end(self: Any, html: str) -> None:
        if 'data-status="answered"' in html and not release.is_set():
            ending.set()
            await release.wait()  # the moment between "done" and the end of the turn
        await send_html(self, html)

    monkeypatch.setattr(consumers.ChatConsumer, "send_html", slow_end)
    fake_provider.add(FakeOutput(deltas=[f"{ANSWER} "]))
    user = await user_make("alice")
    conversation = await conversation_make(user)
    async with chat_socket(conversation.pk, user, query="?tab=page1") as asking:
        await asking.send_to(text_data=json.dumps({"question": QUESTION}))
        await asyncio.wait_for(ending.wait(), timeout=10)
        question = await Message.objects.aget(role="user")
        async with chat_socket(conversation.pk, user, query="?tab=page2") as other:
            await other.send_to(text_data=json.dumps({"type": "stop", "question": question.pk}))
            await asyncio.sleep(0.2)
            release.set()
            shown = [await asking.receive_from(timeout=5)]
            while not re.search(r'data-status="(?:answered|stopped)"', shown[-1]):
                shown.append(await asking.receive_from(timeout=5))
            assert await asking.receive_nothing(timeout=0.3)
    assert 'data-status="answered"' in shown[-1]
    assert not any('data-status="stopped"' in frame for frame in shown)
    assert await stored_status(question.pk) == "answered"


@pytest.mark.django_db(transaction=True)
async def test_a_turn_whose_server_dies_after_the_sync_is_replaced_soon_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The page reconnects to this process while the server that runs its answer is still
    # stopping (it looks alive): the turn is watched; the server then dies without ever
    # announcing the end. The page must not say "Answering…" until someone reloads it.
    monkeypatch.setattr("chat.turn_relay.RECHECK_SECONDS", 0.05, raising=False)
    user = await user_make("alice")
    conversation = await conversation_make(user)
    record = await sync_to_async(turn_records.turn_begin)(
        conversation=conversation, user=user, question="Q?", trace_id=new_ulid()
    )
    dying = {**turn_records.WORKER, "token": "another-process", "pid": 999_999_999}
    trace = await turn_records.Trace.objects.aget(pk=record.trace_id)
    trace.data = {**trace.data, "worker": dying}
    await trace.asave(update_fields=["data"])
    alive = {"value": True}
    monkeypatch.setattr(turn_records, "_alive", lambda pid: alive["value"])
    async with chat_socket(conversation.pk, user, query="?tab=page") as reconnected:
        await reconnected.send_to(text_data=sync(("t0123abcd", record.user_message.pk)))
        assert await reconnected.receive_nothing(timeout=0.3)  # still running, as it looks
        alive["value"] = False  # the other server is gone now
        replaced = await reconnected.receive_from(timeout=10)
    assert 'data-status="interrupted"' in replaced
    assert "The server stopped before this answer was finished." in replaced


@pytest.mark.skipif(not __import__("os").path.exists("/proc/self/stat"), reason="needs /proc")
def test_a_killed_server_not_yet_reaped_counts_as_dead() -> None:
    import subprocess
    import sys
    import time

    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        assert turn_records._alive(child.pid)
        child.kill()  # not waited for: a zombie until reaped
        for _ in range(100):
            if "Z" in open(f"/proc/{child.pid}/stat").read().rsplit(")", 1)[-1].split()[:1]:
                break
            time.sleep(0.02)
        assert not turn_records._alive(child.pid)
    finally:
        child.kill()
        child.wait()


@pytest.mark.django_db(transaction=True)
async def test_a_shown_sentence_is_written_while_the_model_is_slow_to_the_next(
    fake_provider: FakeProvider, leave_kb: None, settings: Any
) -> None:
    # A server killed now must leave what the user read: before, the shown sentences were
    # written only when the next sentence came (a deployment tester lost one that way).
    settings.KBQA_CHECKPOINT_SECONDS = 0.1
    release = asyncio.Event()
    deltas = [f"{ANSWER} ", "Part-time "]  # the next sentence begun, then a long pause
    async with answer_running(fake_provider, deltas, release=release) as (_u, _c, page):
        await receive_until(page, "Employees get 20 days")
        written: list[Any] = []
        for _ in range(100):
            answer = await Message.objects.filter(role="assistant").afirst()
            written = list(answer.sentences) if answer is not None else []
            if written:
                break
            await asyncio.sleep(0.05)
        assert answer is not None and answer.status == "pending"
        assert [s["text"] for s in written] == [SHOWN]
        release.set()
