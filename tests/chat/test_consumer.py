"""The chat websocket through the real ASGI router, turn service and pipeline.

The model is the registered fake provider; the knowledge base is stored (``tests.chat.kb``).
Every socket is opened with ``chat_socket``, which disconnects whatever happens.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings

from chat.frames import frame_limit
from chat.models import Conversation, Message, Trace
from kbqa.asgi import application
from sources.claim_links import claim_signature
from tests.chat.kb import (
    ANSWER,
    LAPTOP_ANSWER,
    LAPTOP_QUESTION,
    OFF_TOPIC,
    QUESTION,
    REFUND_QUESTION,
    SECRET_DROPPED,
    SHOWN,
    laptop_kb,
    leave_kb,
    refund_kb,
)
from tests.chat.support import (
    chat_socket,
    conversation_make,
    elements,
    oob_targets,
    receive_turn,
    receive_until,
    session_cookie,
    user_make,
)
from tests.fakes.provider import FakeOutput, FakeProvider

__all__ = ["laptop_kb", "leave_kb", "refund_kb"]
pytestmark = pytest.mark.django_db(transaction=True)
SECRET = SECRET_DROPPED.removesuffix(" [2].")
UNSUPPORTED = "Bananas grow in tropical countries [1]."

REFUSAL_TITLES = {
    "low_score": "No passage matched the words of this question closely",
    "conflict": "The sources disagree",
    "no_support": "No answer could be verified against the sources",
}


@asynccontextmanager
async def owner_socket(
    language: str = "", staff: bool = False
) -> AsyncIterator[tuple[Any, Conversation, WebsocketCommunicator]]:
    """Alice's socket on her own new conversation (disconnected on the way out)."""
    user = await user_make("alice", staff=staff)
    conversation = await conversation_make(user)
    async with chat_socket(conversation.pk, user, language) as comm:
        yield user, conversation, comm


def ask(question: str, **extra: object) -> str:
    return json.dumps({"question": question, "HEADERS": {"HX-Request": "true"}, **extra})


def turn_key(frame: str) -> str:
    ids = [a["id"] for _t, a in elements(frame) if a.get("id", "").startswith("answer-")]
    assert len(ids) == 1
    return ids[0].removeprefix("answer-")


# ------------------------------------------------------------------------- refusing sockets


async def test_anonymous_socket_is_closed_with_4401() -> None:
    user = await user_make("bob")
    conversation = await conversation_make(user)
    async with chat_socket(conversation.pk) as comm:
        alert = await comm.receive_output(timeout=5)
        closing = await comm.receive_output(timeout=5)
    assert "Log in again" in alert["text"]
    assert f'href="/accounts/login/?next=%2Fc%2F{conversation.pk}%2F">Log in</a>' in alert["text"]
    assert closing["type"] == "websocket.close" and closing["code"] == 4401


@pytest.mark.parametrize("path", ["/ws/chat/abc/", "/ws/chat/", "/ws/chat/82", "/ws/nothing/",
                                  "/", "/api/answer"])
async def test_a_socket_on_a_path_without_a_route_is_refused_not_an_error(
        path: str, caplog: pytest.LogCaptureFixture) -> None:
    # Channels' router raised ValueError ("No route found"): HTTP 500 and a traceback per probe
    user = await user_make("bob")
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"),
               (b"cookie", f"sessionid={await session_cookie(user)}".encode())]
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await comm.connect()
    assert not connected
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


@pytest.mark.parametrize("whose", ["other user's", "missing"])
async def test_conversation_of_someone_else_is_closed_with_4403(whose: str) -> None:
    owner = await user_make("bob")
    conversation = await conversation_make(owner)
    intruder = await user_make("mallory")
    target = conversation.pk if whose == "other user's" else conversation.pk + 999
    async with chat_socket(target, intruder, admitted=False) as comm:
        alert = await comm.receive_output(timeout=5)
        closing = await comm.receive_output(timeout=5)
    assert "not available" in alert["text"]
    assert closing["type"] == "websocket.close" and closing["code"] == 4403


@pytest.mark.parametrize("who", ["anonymous", "someone else"])
async def test_frames_on_a_refused_socket_are_ignored_quietly(
    fake_provider: FakeProvider, caplog: pytest.LogCaptureFixture, who: str
) -> None:
    owner = await user_make("bob")
    conversation = await conversation_make(owner)
    intruder = None if who == "anonymous" else await user_make("mallory")
    async with chat_socket(conversation.pk, intruder, admitted=False) as comm:
        alert = await comm.receive_output(timeout=5)
        closing = await comm.receive_output(timeout=5)
        await comm.send_to(text_data=json.dumps({"question": "What is Bob's salary?"}))
        assert await comm.receive_nothing(timeout=0.3)

    assert "connection-state" not in alert["text"]  # never "connected"
    assert closing["type"] == "websocket.close"
    assert fake_provider.prompts == []
    assert await Message.objects.acount() == 0
    assert await Trace.objects.acount() == 0
    assert [r.getMessage() for r in caplog.records if r.levelname in ("ERROR", "WARNING")] == []


async def test_connected_is_said_only_once_the_conversation_is_admitted() -> None:
    owner = await user_make("bob")
    conversation = await conversation_make(owner)
    async with chat_socket(conversation.pk, owner, admitted=False) as comm:
        ready = await comm.receive_from(timeout=5)
    state = [a for t, a in elements(ready) if a.get("id") == "connection-state"]
    assert [(s["data-state"], s["hx-swap-oob"]) for s in state] == [("open", "true")]
    assert ">connected</span>" in ready


# ------------------------------------------------------------------------------ answering


async def test_answered_turn_streams_bubbles_notice_sentence_chips_and_done(
    fake_provider: FakeProvider, laptop_kb: None
) -> None:
    fake_provider.add(LAPTOP_ANSWER)
    async with owner_socket() as (_user, conversation, comm):
        await comm.send_to(text_data=ask(LAPTOP_QUESTION))
        frames = await receive_turn(comm)

    key = turn_key(frames[0])
    assert ("beforeend:#messages", "") in oob_targets(frames[0])
    assert LAPTOP_QUESTION in frames[0]
    # the first question becomes the conversation's title in the sidebar, without a reload
    assert ("true", f"conversation-link-{conversation.pk}") in oob_targets(frames[0])
    writing, notice, sentence, done = frames[1:]
    # from the question to the first sentence, the bubble says what is happening
    assert oob_targets(writing) == [("true", f"progress-{key}")]
    assert "Writing the answer…" in writing
    # the pipeline's Notice comes right before the first verified sentence
    assert oob_targets(notice) == [("true", f"notices-{key}")]
    assert "Equipment policy (2022)" in notice
    # the first sentence opens a paragraph, and its source starts the source list
    assert oob_targets(sentence) == [
        (f"beforeend:#answer-{key}", ""),
        ("true", f"sources-{key}"),
    ]
    chips = [a for t, a in elements(sentence) if "chip" in a.get("class", "").split()]
    claim = "?claim=Company+laptops+are+replaced+every+4+years.&sig=" + claim_signature(
        "doc-070#c01", "Company laptops are replaced every 4 years."
    )
    assert [(c["data-n"], c["hx-get"], c["hx-target"]) for c in chips] == [
        ("1", f"/chunks/doc-070%23c01/{claim}", "#citation-body"),
    ]
    trace = await Trace.objects.aget()
    assert oob_targets(done) == [("true", f"footer-{key}")]
    assert f'<code class="trace-id">{trace.pk}</code>' in done and "Answered" in done
    stored = await sync_to_async(list)(
        Message.objects.filter(conversation=conversation).values_list("role", "text", "trace_id")
    )
    assert stored == [
        ("user", LAPTOP_QUESTION, None),
        ("assistant", "Company laptops are replaced every 4 years.", trace.pk),
    ]


@pytest.mark.parametrize(
    ("reason", "question", "drafts"),
    [
        ("low_score", OFF_TOPIC, ()),
        ("conflict", REFUND_QUESTION, ()),
        ("no_support", QUESTION, (UNSUPPORTED, UNSUPPORTED)),
    ],
)
async def test_each_refusal_renders_its_own_card(
    fake_provider: FakeProvider,
    refund_kb: None,
    settings: Any,
    reason: str,
    question: str,
    drafts: tuple[str],
) -> None:
    # Four short documents give modest BM25 relevance; the gate only has to stop "no hit".
    settings.KBQA_MIN_RELEVANCE = 0.05
    fake_provider.add(*drafts)
    async with owner_socket() as (_user, _conversation, comm):
        await comm.send_to(text_data=ask(question))
        frames = await receive_turn(comm)

    key = turn_key(frames[0])
    card = next(f for f in frames[1:] if f"refusal-{key}" in f)
    tag, attrs = elements(card)[0]
    assert (tag, attrs["class"], attrs["hx-swap-oob"]) == (
        "section",
        f"refusal refusal-{reason}",
        "true",
    )
    assert REFUSAL_TITLES[reason] in card
    others = [t for r, t in REFUSAL_TITLES.items() if r != reason]
    assert not any(t in card for t in others)
    # notices never stand above a refusal
    assert not any(i.startswith("notices-") for f in frames[1:] for _s, i in oob_targets(f))
    if reason == "conflict":
        for value, title, date, href in [
            ("14 days", "Refund policy", "2025-06-30", "/chunks/doc-010%23c01/"),
            ("30 days", "Finance policy", "2024-01-10", "/chunks/doc-011%23c01/"),
        ]:
            assert value in card and title in card and f"updated {date}" in card and href in card
    if reason == "no_support":
        assert 'href="/chunks/doc-001%23c01/"' in card and "Leave policy" in card


async def test_conflict_card_shows_a_document_retrieval_left_out(
    fake_provider: FakeProvider, refund_kb: None, settings: Any
) -> None:
    # One block: the second refund policy never reaches the blocks, the conflict gate's own
    # search finds it, and the card shows both values with their sources.
    settings.KBQA_MIN_RELEVANCE = 0.05
    settings.KBQA_MAX_BLOCKS = 1
    async with owner_socket() as (_user, _conversation, comm):
        await comm.send_to(text_data=ask(REFUND_QUESTION))
        frames = await receive_turn(comm)

    key = turn_key(frames[0])
    card = next(f for f in frames[1:] if f"refusal-{key}" in f)
    assert REFUSAL_TITLES["conflict"] in card
    for value, title, date, href in [
        ("14 days", "Refund policy", "2025-06-30", "/chunks/doc-010%23c01/"),
        ("30 days", "Finance policy", "2024-01-10", "/chunks/doc-011%23c01/"),
    ]:
        assert value in card and title in card and f"updated {date}" in card and href in card


async def test_fabricated_sentences_are_withheld_and_never_sent(
    fake_provider: FakeProvider, leave_kb: None
) -> None:
    fake_provider.add(f"{ANSWER} {SECRET_DROPPED}")
    async with owner_socket() as (_user, _conversation, comm):
        await comm.send_to(text_data=ask(QUESTION))
        frames = await receive_turn(comm)

    key = turn_key(frames[0])
    assert not any(SECRET in f for f in frames)
    withheld = next(f for f in frames[1:] if f"withheld-{key}" in f)
    assert oob_targets(withheld) == [("true", f"withheld-{key}")]
    assert "1 sentence withheld: its citation could not be verified." in withheld
    stored = await Message.objects.aget(role="assistant")
    assert SECRET not in json.dumps([stored.text, stored.sentences, stored.citations])


@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize(("staff", "honoured"), [(False, False), (True, True)])
async def test_fabricate_is_honoured_only_for_staff(
    fake_provider: FakeProvider, leave_kb: None, staff: bool, honoured: bool, debug: bool,
    settings: Any,
) -> None:
    settings.DEBUG = debug
    assert not settings.KBQA_FABRICATE
    fake_provider.add(ANSWER)
    async with owner_socket(staff=staff) as (_user, _conversation, comm):
        await comm.send_to(text_data=ask(QUESTION, fabricate="1"))
        frames = await receive_turn(comm)
    withheld = "2 sentences withheld: their citations could not be verified."
    assert (withheld in "".join(frames)) == honoured


async def test_error_keeps_verified_sentences_and_shows_error(
    fake_provider: FakeProvider, leave_kb: None
) -> None:
    from kbqa.core.errors import ProviderError

    fake_provider.add(
        FakeOutput(
            deltas=[f"{ANSWER} ", "Then "], error=ProviderError("The model stopped responding.")
        )
    )
    async with owner_socket() as (_user, _conversation, comm):
        await comm.send_to(text_data=ask(QUESTION))
        frames = await receive_turn(comm)

    key = turn_key(frames[0])
    error = next(f for f in frames[1:] if f"error-{key}" in f)
    assert oob_targets(error) == [("true", f"error-{key}")]
    assert "The model stopped responding." in error
    assert 'data-status="error"' in frames[-1]
    stored = await Message.objects.aget(role="assistant")
    assert (stored.status, stored.text) == ("error", SHOWN)


# ------------------------------------------------------------- cancellation and concurrency


HANGING = FakeOutput(deltas=[f"{ANSWER} ", "Then "], hang=True)


async def test_disconnect_mid_answer_lets_the_answer_finish_and_saves_it(
    fake_provider: FakeProvider, leave_kb: None
) -> None:
    """A reload or a dropped connection must not lose the answer the reader asked for: it is
    written to its end and stored (the reloaded page gets it: tests/chat/test_turn_sync.py)."""
    release = asyncio.Event()
    fake_provider.add(FakeOutput(deltas=[f"{ANSWER} ", "Then "], hang=True, release=release))
    async with owner_socket() as (_user, _conversation, comm):
        await comm.send_to(text_data=ask(QUESTION))
        await receive_until(comm, SHOWN)
        await asyncio.wait_for(fake_provider.streaming.wait(), timeout=5)
    release.set()
    for _ in range(200):
        stored = await Message.objects.aget(role="assistant")
        if stored.status != "pending":
            break
        await asyncio.sleep(0.05)

    assert not fake_provider.cancelled
    trace = await Trace.objects.aget()
    assert trace.status == "answered"
    assert (stored.status, stored.text, stored.trace_id) == ("answered", SHOWN, trace.pk)


async def test_stop_cancels_the_provider_keeps_the_sentences_and_says_stopped(
    fake_provider: FakeProvider, leave_kb: None
) -> None:
    fake_provider.add(HANGING, ANSWER)
    async with owner_socket() as (_user, conversation, comm):
        await comm.send_to(text_data=ask(QUESTION))
        frames = await receive_until(comm, SHOWN)
        await asyncio.wait_for(fake_provider.streaming.wait(), timeout=5)
        await comm.send_to(text_data=json.dumps({"type": "stop"}))
        footer = (await receive_turn(comm))[-1]
        await comm.send_to(text_data=ask(QUESTION))  # the socket still answers
        next_turn = await receive_turn(comm)

    key = turn_key(frames[0])
    assert fake_provider.cancelled  # the model call; the loop's shared provider stays open
    assert oob_targets(footer) == [("true", f"footer-{key}")]
    assert 'data-status="stopped"' in footer and "Stopped: you stopped this answer" in footer
    trace = await Trace.objects.order_by("created_at").afirst()
    assert trace is not None and trace.status == "stopped"
    stored = await Message.objects.aget(role="assistant", trace_id=trace.pk)
    assert (stored.status, stored.text) == ("stopped", SHOWN)
    assert 'data-status="answered"' in next_turn[-1]


async def test_stop_with_nothing_streaming_is_ignored() -> None:
    async with owner_socket() as (_user, _conversation, comm):
        await comm.send_to(text_data=json.dumps({"type": "stop"}))
        assert await comm.receive_nothing(timeout=0.3)


async def test_second_question_while_streaming_is_refused(
    fake_provider: FakeProvider, leave_kb: None
) -> None:
    fake_provider.add(HANGING)
    async with owner_socket() as (_user, _conversation, comm):
        await comm.send_to(text_data=ask(QUESTION))
        await receive_until(comm, SHOWN)
        await comm.send_to(text_data=ask("Second?"))
        alert = await comm.receive_from(timeout=5)

    assert oob_targets(alert) == [("true", "composer-alert")]
    assert "Please wait for the current answer to finish before asking again." in alert
    questions = await sync_to_async(list)(
        Message.objects.filter(role="user").values_list("text", flat=True)
    )
    assert questions == [QUESTION]
    assert len(fake_provider.prompts) == 1


# ------------------------------------------------------------------------ malformed input


@pytest.mark.parametrize(
    ("frame", "message"),
    [
        ("not json", "The message could not be read. Reload the page and try again."),
        (json.dumps(["question"]), "Type a question before sending."),
        (json.dumps({"HEADERS": {}}), "Type a question before sending."),
        (json.dumps({"question": 5}), "Type a question before sending."),
        (json.dumps({"question": "   "}), "Type a question before sending."),
        (json.dumps({"question": "\x00\x08 "}), "Type a question before sending."),
        (json.dumps({"question": "?"}),
         "The question holds no words, only punctuation or symbols. Type it in words."),
        (json.dumps({"question": "<script>alert(1)</script>"}),
         "The question holds only markup tags, no words. Type it as text."),
        ("x" * (frame_limit() + 1),
         f"Your question is longer than the limit of {settings.KBQA_MAX_QUESTION_CHARS} "
         "characters. Shorten it and send it again."),
        (
            json.dumps({"question": "x" * (settings.KBQA_MAX_QUESTION_CHARS + 1)}),
            f"Your question is {settings.KBQA_MAX_QUESTION_CHARS + 1} characters long; "
            f"the limit is {settings.KBQA_MAX_QUESTION_CHARS}. Shorten it and send it again.",
        ),
    ],
    ids=[
        "not-json",
        "list",
        "missing",
        "not-string",
        "blank",
        "controls-only",
        "punctuation-only",
        "markup-only",
        "oversized-frame",
        "too-long",
    ],
)
async def test_malformed_input_gets_an_alert_and_the_socket_stays_open(
    fake_provider: FakeProvider, leave_kb: None, frame: str, message: str
) -> None:
    fake_provider.add(ANSWER)
    async with owner_socket() as (_user, _conversation, comm):
        await comm.send_to(text_data=frame)
        alert = await comm.receive_from(timeout=5)
        await comm.send_to(text_data=ask(QUESTION))
        frames = await receive_turn(comm)

    assert oob_targets(alert) == [("true", "composer-alert")]
    assert message in alert
    assert 'data-status="answered"' in frames[-1]
    assert await Message.objects.filter(role="user").acount() == 1


async def test_control_characters_are_stripped_before_the_question_is_stored(
    fake_provider: FakeProvider, leave_kb: None
) -> None:
    fake_provider.add(ANSWER)
    async with owner_socket() as (_user, _conversation, comm):
        await comm.send_to(text_data=ask("How much\x00annual leave?\x7f"))
        frames = await receive_turn(comm)

    assert "How much annual leave?" in frames[0]
    assert fake_provider.prompts[0].question == "How much annual leave?"
    stored = await Message.objects.aget(role="user")
    assert stored.text == "How much annual leave?"


async def test_unexpected_failure_renders_an_error_not_a_dropped_socket(
    fake_provider: FakeProvider, leave_kb: None
) -> None:
    fake_provider.add(RuntimeError("bug"), ANSWER)
    async with owner_socket() as (_user, _conversation, comm):
        await comm.send_to(text_data=ask(QUESTION))
        frames = await receive_turn(comm)
        await comm.send_to(text_data=ask(QUESTION))
        again = await receive_turn(comm)

    assert "The answer stopped because of an internal error." in "".join(frames)
    assert 'data-status="error"' in frames[-1]
    assert 'data-status="answered"' in again[-1]
    # the second question, sent right after the first footer, waited for the first answer
    # to be stored: the conversation reads in order
    roles = [m.role async for m in Message.objects.order_by("created_at", "id")]
    assert roles == ["user", "assistant", "user", "assistant"]
