"""Many users at once, and a server that dies mid-answer.

The first three tests run ``tests/chat/turn_scenarios.py`` in subprocesses with the
production settings on a SQLite file (WAL, IMMEDIATE transactions, database thread pool):
the suite's own database lives inside per-test transactions and cannot show lock contention.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import OperationalError
from django.test import Client
from django.utils import timezone

from chat import turn_records
from chat.auth import api_token_create
from chat.models import Conversation, Message, Trace, new_ulid
from tests.chat import turn_scenarios
from tests.chat.kb import ANSWER, QUESTION, SHOWN, leave_kb
from tests.chat.support import (
    chat_socket,
    conversation_make,
    oob_targets,
    receive_turn,
    receive_until,
    user_make,
)
from tests.fakes.provider import FakeOutput, FakeProvider

ROOT = Path(__file__).resolve().parents[2]
__all__ = ["leave_kb"]


def scenario(data_dir: Path, *args: str, timeout: float = 400) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "tests.chat.turn_scenarios", *args],
        cwd=ROOT, env=scenario_env(data_dir), capture_output=True, text=True, timeout=timeout,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def scenario_env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "KBQA_REDIS_URL"}}
    return {**env, "KBQA_DATA_DIR": str(data_dir), "KBQA_SECRET_KEY": "scenario-only",
            "KBQA_DEBUG": "0", "KBQA_ALLOWED_HOSTS": "127.0.0.1,testserver",
            "KBQA_LOG_LEVEL": "ERROR", "KBQA_DB_THREADS": "16"}


@pytest.fixture
def production_db(tmp_path: Path) -> Path:
    scenario(tmp_path, "setup")
    return tmp_path


def test_concurrent_turns_on_sqlite_leave_every_trace_and_message(production_db: Path) -> None:
    n = 25  # websocket chats, and as many JSON answers, all at once
    result = scenario(production_db, "concurrent", str(n))
    assert (result["errors"], result["http"], result["chat_done"]) == ([], [200], ["answered"])
    assert result["traces"] == {"answered": 2 * n}
    assert (result["user_messages"], result["answers"]) == (2 * n, {"answered": 2 * n})


def test_identical_uploads_at_once_both_resolve(production_db: Path) -> None:
    assert scenario(production_db, "uploads") == {"outcomes": ["added", "unchanged"]}


def test_server_killed_mid_answer_shows_the_turn_interrupted_after_restart(
    production_db: Path,
) -> None:
    # every shown sentence is written at once here (the default waits 2 s between writes)
    env = {**scenario_env(production_db), "KBQA_CHECKPOINT_SECONDS": "0"}
    server = subprocess.Popen(
        [sys.executable, "-m", "tests.chat.turn_scenarios", "stall"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert server.stdout is not None and server.stdout.readline().strip() == "streaming"
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=30)
    shown = scenario(production_db, "read")
    assert shown == {
        "page_status": 1,  # the bubble's footer says the answer was interrupted
        # the verified sentence shown before the kill is still there, under the note
        # (before: only the note; the sentence was written at the turn's end, never reached)
        "page_error": "The server stopped before this answer was finished. Only the sentences "
                      "above were verified. You can ask again.",
        "page_sentence": True,
        "trace_model": True,  # stored when the turn began
        "trace": "interrupted",
        "note": turn_records.INTERRUPTED_NOTE,
        "message": "interrupted",
        "message_trace": True,
        "trace_shown": True,  # before: "Sentences shown to the user: None"
        "trace_hits": True,  # before: "Not recorded"
    }


# ------------------------------------------------- in the suite's database (SQLite or PG)


@pytest.mark.django_db(transaction=True)
def test_identical_uploads_in_two_threads_both_resolve() -> None:
    # the same two racing uploads as the production scenario, in the suite's own database
    assert turn_scenarios.uploads()["outcomes"] == ["added", "unchanged"]


def begin(owner: Any, *, worker: dict[str, Any], age: timedelta = timedelta()) -> str:
    conversation = Conversation.objects.create(owner=owner)
    record = turn_records.turn_begin(
        conversation=conversation, user=owner, question="Q?", trace_id=new_ulid()
    )
    turn_records.IN_FLIGHT.discard(record.trace_id)
    trace = Trace.objects.get(id=record.trace_id)
    trace.data = {**trace.data, "worker": worker}
    trace.save(update_fields=["data"])
    Trace.objects.filter(id=trace.id).update(created_at=timezone.now() - age)
    return trace.id


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("worker", "age", "in_flight", "interrupted"),
    [
        ({}, timedelta(), True, False),  # this process, still answering
        ({}, timedelta(), False, True),  # this process, the turn ended without finishing
        ({"host": "elsewhere", "pid": 7, "token": "x"}, timedelta(minutes=1), False, False),
        ({"host": "elsewhere", "pid": 7, "token": "x"}, timedelta(minutes=20), False, True),
        ({"pid": "same", "token": "old"}, timedelta(), False, True),  # restarted with our pid
    ],
)
def test_only_left_over_pending_turns_are_marked_interrupted(
    django_user_model: Any, worker: dict[str, Any], age: timedelta, in_flight: bool,
    interrupted: bool,
) -> None:
    owner = django_user_model.objects.create_user("owner")
    worker = {**turn_records.WORKER, **worker}
    if worker["pid"] == "same":
        worker["pid"] = os.getpid()
    trace_id = begin(owner, worker=worker, age=age)
    if in_flight:
        turn_records.IN_FLIGHT.add(trace_id)
    try:
        conversation = Trace.objects.get(id=trace_id).conversation
        assert conversation is not None
        marked = turn_records.turns_interrupted_close(conversation=conversation)
    finally:
        turn_records.IN_FLIGHT.discard(trace_id)
    status = "interrupted" if interrupted else "pending"
    answer = Message.objects.get(trace_id=trace_id)
    assert (marked, Trace.objects.get(id=trace_id).status, answer.status) == (
        int(interrupted), status, status
    )


@pytest.mark.django_db
def test_an_interrupted_turn_says_so_once_and_its_trace_says_when_and_which_model(
    django_user_model: Any,
) -> None:
    owner = django_user_model.objects.create_user("owner", password="pw-123456", is_staff=True)
    conversation = Conversation.objects.create(owner=owner)
    record = turn_records.turn_begin(
        conversation=conversation, user=owner, question="Q?", trace_id=new_ulid(),
        provider="anthropic", model="claude-sonnet-5-5",
    )  # the server dies here: its process was this one, and it no longer runs the turn
    turn_records.IN_FLIGHT.discard(record.trace_id)
    client = Client()
    client.force_login(owner)
    page = client.get(f"/c/{conversation.pk}/").content.decode()
    trace_page = client.get(f"/traces/{record.trace_id}/").content.decode()

    assert page.count('data-status="interrupted"') == 1
    assert page.count("The server stopped") == 1
    assert "The answer stopped before it was complete" not in page
    assert "Only the sentences above" not in page  # none were stored: no claim there are any
    found = Trace.objects.get(id=record.trace_id).data["interrupted"]["found_at"]
    assert f"found at {found[:10]} {found[11:19]}" in trace_page
    assert '<dd id="provider">anthropic</dd>' in trace_page and "claude-sonnet-5-5" in trace_page
    # What the turn did before the server stopped was never saved: say so, not "not asked".
    assert trace_page.count("Not recorded: the server stopped before") == 4
    # ...nor that no sentence was shown: one may have been, before the first checkpoint
    assert "Not recorded: the server stopped before it saved what was shown" in trace_page
    assert "The model was not asked" not in trace_page and "No hits." not in trace_page
    assert f"it ran in the server process <code>{socket.gethostname()}</code>" in trace_page


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/api/answer", "/api/answer/stream"])
def test_database_still_locked_is_a_json_503_with_retry_after(
    django_user_model: Any, monkeypatch: pytest.MonkeyPatch, url: str
) -> None:
    def locked(**kwargs: Any) -> None:
        raise OperationalError("database is locked")

    monkeypatch.setattr("chat.turns.turn_begin", locked)
    _, key = api_token_create(user=django_user_model.objects.create_user("api"))
    response = Client().post(url, {"question": "Anything?"}, content_type="application/json",
                             HTTP_AUTHORIZATION=f"Bearer {key}")
    assert (response.status_code, response["Content-Type"], response["Retry-After"]) == (
        503, "application/json", "5"
    )
    assert "try again" in response.json()["error"]


# -------------------------------------------------- tabs on one conversation, any process


@pytest.mark.django_db(transaction=True)
async def test_a_turn_asked_in_one_tab_appears_in_the_other_as_it_is_written(
    fake_provider: FakeProvider, leave_kb: None
) -> None:
    """Through the configured channel layer: Redis in the PostgreSQL + Redis CI run, where
    the two sockets could as well be served by two server processes. The other tab shows
    the question at once, each checked sentence while the model is still writing, and the
    stored turn when it ends."""
    release = asyncio.Event()
    fake_provider.add(FakeOutput(deltas=[f"{ANSWER} ", "Full"], hang=True, release=release))
    user = await user_make("alice")
    conversation = await conversation_make(user)
    async with chat_socket(conversation.pk, user) as asking, chat_socket(
        conversation.pk, user
    ) as watching:
        await asking.send_to(text_data=json.dumps({"question": QUESTION}))
        opened = await watching.receive_from(timeout=10)
        live = await watching.receive_from(timeout=10)
        assert not fake_provider.cancelled and not release.is_set()  # still being written
        release.set()
        await receive_turn(asking)
        stored = live
        while 'data-status="answered"' not in stored:  # the withheld "Full" first, then stored
            stored = await watching.receive_from(timeout=10)
    answer = await Message.objects.aget(role="assistant")
    assert oob_targets(opened) == [("beforeend:#messages", ""),
                                   ("true", f"conversation-link-{conversation.pk}")]
    assert QUESTION in opened and 'data-status="pending"' in opened and SHOWN not in opened
    assert f">{QUESTION}</a>" in opened  # the first question names it on every tab
    bubble = [(f"outerHTML:#turn-m{answer.pk}", f"turn-m{answer.pk}")]
    assert oob_targets(live) == bubble
    assert SHOWN in live and 'data-status="pending"' in live
    assert oob_targets(stored) == bubble
    assert SHOWN in stored and 'data-status="answered"' in stored and QUESTION not in stored


@pytest.mark.django_db(transaction=True)
async def test_a_page_that_reconnected_mid_answer_gets_the_answer_once_in_its_bubble(
    fake_provider: FakeProvider, leave_kb: None
) -> None:
    """The page's socket dropped while its answer streamed and the browser reopened it (same
    page, same ``tab``): the stored answer replaces the bubble left streaming; the question
    and answer are not appended a second time. Another page gets the question when it is
    asked and the answer in its place."""
    fake_provider.add(ANSWER)
    user = await user_make("alice")
    conversation = await conversation_make(user)
    async with chat_socket(conversation.pk, user, query="?tab=page1") as asking, chat_socket(
        conversation.pk, user, query="?tab=page1"
    ) as reopened, chat_socket(conversation.pk, user, query="?tab=page2") as other_page:
        await asking.send_to(text_data=json.dumps({"question": QUESTION}))
        frames = await receive_turn(asking)
        replaced = await reopened.receive_from(timeout=10)
        appended = ended = await other_page.receive_from(timeout=10)
        while 'data-status="answered"' not in ended:
            ended = await other_page.receive_from(timeout=10)
    footer = next(i for _s, i in oob_targets(frames[-1]) if i.startswith("footer-"))
    key = footer.removeprefix("footer-")
    [(swap, _id)] = oob_targets(replaced)
    assert swap == f"outerHTML:#turn-{key}"
    assert QUESTION not in replaced and SHOWN in replaced
    assert 'data-status="answered"' in replaced
    assert oob_targets(appended)[0] == ("beforeend:#messages", "")
    assert QUESTION in appended and SHOWN in ended and QUESTION not in ended


def test_the_chat_page_names_its_socket_with_a_tab_of_its_own(
    client: Client, django_user_model: Any
) -> None:
    user = django_user_model.objects.create_user(username="alice", password="pw-123456")
    conversation = Conversation.objects.create(owner=user)
    client.force_login(user)
    pages = [client.get(f"/c/{conversation.pk}/").content.decode() for _ in range(2)]
    tabs = [page.split("&amp;tab=")[1].split('"')[0] for page in pages]
    assert all(len(tab) == 32 for tab in tabs) and tabs[0] != tabs[1]


@pytest.mark.django_db(transaction=True)
async def test_a_page_that_reconnected_before_its_old_socket_closed_sees_the_answer_end(
    fake_provider: FakeProvider, leave_kb: None
) -> None:
    """The old socket's close reaches the server after the page reopened one: the answer it
    was streaming goes on to its end (a dropped socket does not cancel it), and the reopened
    socket ends the bubble with it instead of leaving it "writing" for ever."""
    release = asyncio.Event()
    fake_provider.add(FakeOutput(deltas=[f"{ANSWER} ", "Then "], hang=True, release=release))
    user = await user_make("alice")
    conversation = await conversation_make(user)
    async with chat_socket(conversation.pk, user, query="?tab=page1") as reopened:
        async with chat_socket(conversation.pk, user, query="?tab=page1") as dropped:
            await dropped.send_to(text_data=json.dumps({"question": QUESTION}))
            first = await dropped.receive_from(timeout=10)
            await fake_provider.streaming.wait()
        release.set()  # the model goes on after the page's socket closed
        replaced = await reopened.receive_from(timeout=10)
    streamed = re.search(r'id="turn-(t[0-9a-f]+)"', first)
    assert streamed is not None
    [(swap, _id)] = oob_targets(replaced)
    assert swap == f"outerHTML:#turn-{streamed.group(1)}"
    assert 'data-status="answered"' in replaced
    assert SHOWN in replaced and QUESTION not in replaced
    assert not fake_provider.cancelled


@pytest.mark.django_db(transaction=True)
async def test_a_rename_or_delete_in_one_tab_reaches_the_others(
    fake_provider: FakeProvider, leave_kb: None
) -> None:
    """A tester renamed a conversation in one tab and the other kept the old title; deleted
    it and the other tab's running answer finished "answered" into a conversation gone."""
    fake_provider.add(FakeOutput(deltas=[f"{ANSWER} ", "Then "], hang=True))
    user = await user_make("alice")
    conversation = await conversation_make(user)
    client = Client()
    await sync_to_async(client.force_login)(user)
    async with chat_socket(conversation.pk, user) as other:
        await sync_to_async(client.post)(f"/c/{conversation.pk}/rename/", {"title": "Leave Qs"})
        renamed = await other.receive_from(timeout=5)
        await other.send_to(text_data=json.dumps({"question": QUESTION}))
        await receive_until(other, SHOWN)
        await fake_provider.streaming.wait()
        await sync_to_async(client.post)(f"/c/{conversation.pk}/delete/")
        told = "".join(await receive_until(other, "has been deleted"))
        for _ in range(100):
            if fake_provider.cancelled:
                break
            await asyncio.sleep(0.05)

    assert oob_targets(renamed) == [("true", f"conversation-link-{conversation.pk}")]
    assert ">Leave Qs<" in renamed
    assert ("true", "composer-alert") in oob_targets(told)
    # the bubble ends (no "Answering…" for ever, no Stop left that stops nothing), and the
    # conversation leaves the list
    assert 'data-status="cancelled"' in told
    assert "The conversation was deleted before this answer was finished." in told
    assert ("delete", f"conversation-link-{conversation.pk}") in oob_targets(told)
    assert fake_provider.cancelled  # the answer into a deleted conversation ended
    assert not await Message.objects.filter(status="answered").aexists()
