"""The chat websocket, driven through the real ASGI router with a scripted pipeline."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings

from chat.consumers import frame_limit
from chat.models import Message, Trace
from kbqa.core.providers.base import Prompt, Provider, ProviderCall
from kbqa.core.types import (
    Conflict,
    ConflictSide,
    DocumentRef,
    Done,
    Dropped,
    Error,
    Event,
    Meta,
    Refusal,
    Sentence,
    TraceRecorder,
)
from tests.chat.support import (
    conversation_make,
    elements,
    oob_targets,
    receive_turn,
    receive_until,
    scripted_pipeline_fixture,  # noqa: F401  (the fixture)
    socket_open,
    user_make,
)

pytestmark = pytest.mark.django_db(transaction=True)

BLOCKS = (
    {
        "n": 1,
        "chunk_id": "doc-010#c02",
        "doc_id": "doc-010",
        "title": "Refund policy",
        "section": "",
        "updated": "2025-06-30",
        "source_url": "",
        "authority": "policy",
        "score": 3.2,
    },
    {
        "n": 2,
        "chunk_id": "doc-011#c01",
        "doc_id": "doc-011",
        "title": "Finance FAQ",
        "section": "",
        "updated": "2024-01-10",
        "source_url": "",
        "authority": "faq",
        "score": 2.1,
    },
)


def meta(trace: TraceRecorder, notices: tuple[str, ...] = ()) -> Meta:
    return Meta(
        trace_id=trace.trace_id,
        question="q",
        standalone_query="q",
        language="en",
        blocks=BLOCKS,
        context_tokens=120,
        provider="fake",
        model="fake-model",
        notices=notices,
    )


async def answered(trace: TraceRecorder, provider: Provider) -> AsyncIterator[Event]:
    yield meta(trace, notices=("The FAQ is older than the policy; the policy is cited.",))
    yield Sentence(index=0, text="Refunds take 14 days.", citations=(1,))
    yield Sentence(index=1, text="Finance handles exceptions.", citations=(1, 2))
    trace.status = "answered"
    yield Done(status="answered", emitted=2, dropped=0, trace_id=trace.trace_id)


async def fabricated(trace: TraceRecorder, provider: Provider) -> AsyncIterator[Event]:
    yield meta(trace)
    yield Sentence(index=0, text="Refunds take 14 days.", citations=(1,))
    yield Dropped(
        index=1,
        text="The moon is made of cheese.",
        citations=(2,),
        reasons=("cited block 2 does not support it",),
    )
    trace.status = "answered"
    yield Done(status="answered", emitted=1, dropped=1, trace_id=trace.trace_id)


async def hanging(trace: TraceRecorder, provider: Provider) -> AsyncIterator[Event]:
    yield meta(trace)
    yield Sentence(index=0, text="Refunds take 14 days.", citations=(1,))
    async for _delta in provider.stream(
        Prompt(task="answer", system="", messages=()), ProviderCall()
    ):
        pass


async def broken(trace: TraceRecorder, provider: Provider) -> AsyncIterator[Event]:
    yield meta(trace)
    yield Sentence(index=0, text="Refunds take 14 days.", citations=(1,))
    trace.status = "error"
    yield Error(message="The model provider stopped responding.")
    yield Done(status="error", emitted=1, dropped=0, trace_id=trace.trace_id)


CONFLICT = Conflict(
    unit="day",
    sides=(
        ConflictSide(
            n=1,
            chunk_id="doc-010#c02",
            doc_id="doc-010",
            title="Refund policy",
            updated="2025-06-30",
            authority="policy",
            value_text="14 days",
        ),
        ConflictSide(
            n=2,
            chunk_id="doc-011#c01",
            doc_id="doc-011",
            title="Finance FAQ",
            updated="2024-01-10",
            authority="faq",
            value_text="30 days",
        ),
    ),
    context=("refund",),
)
REFUSALS = {
    "low_score": Refusal(
        reason="low_score",
        message="Nothing on this; ask HR.",
        documents=(DocumentRef(doc_id="doc-020", title="HR handbook", chunk_id="doc-020#c01"),),
    ),
    "conflict": Refusal(
        reason="conflict", message="Two documents disagree; ask finance.", conflict=CONFLICT
    ),
    "no_support": Refusal(reason="no_support", message="Could not verify; rephrase."),
}
REFUSAL_TITLES = {
    "low_score": "The knowledge base has nothing close enough to this question",
    "conflict": "The sources disagree",
    "no_support": "No answer could be verified against the sources",
}


def refusing(reason: str):  # type: ignore[no-untyped-def]
    async def script(trace: TraceRecorder, provider: Provider) -> AsyncIterator[Event]:
        yield meta(trace)
        trace.status = f"refused_{reason}"
        trace.refusal_reason = reason
        yield REFUSALS[reason]
        yield Done(status=f"refused_{reason}", emitted=0, dropped=0, trace_id=trace.trace_id)  # type: ignore[arg-type]

    return script


async def owner_socket(language: str = "", staff: bool = False):  # type: ignore[no-untyped-def]
    user = await user_make("alice", staff=staff)
    conversation = await conversation_make(user)
    return user, conversation, await socket_open(conversation.pk, user, language)


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
    comm = await socket_open(conversation.pk)
    alert = await comm.receive_output(timeout=5)
    closing = await comm.receive_output(timeout=5)
    assert "Log in again" in alert["text"]
    assert closing["type"] == "websocket.close" and closing["code"] == 4401
    await comm.disconnect()


@pytest.mark.parametrize("whose", ["other user's", "missing"])
async def test_conversation_of_someone_else_is_closed_with_4403(whose: str) -> None:
    owner = await user_make("bob")
    conversation = await conversation_make(owner)
    intruder = await user_make("mallory")
    target = conversation.pk if whose == "other user's" else conversation.pk + 999
    comm = await socket_open(target, intruder, admitted=False)
    alert = await comm.receive_output(timeout=5)
    closing = await comm.receive_output(timeout=5)
    assert "not available" in alert["text"]
    assert closing["type"] == "websocket.close" and closing["code"] == 4403
    await comm.disconnect()


@pytest.mark.parametrize("who", ["anonymous", "someone else"])
async def test_frames_on_a_refused_socket_are_ignored_quietly(
    scripted_pipeline, caplog: pytest.LogCaptureFixture, who: str
) -> None:
    owner = await user_make("bob")
    conversation = await conversation_make(owner)
    intruder = None if who == "anonymous" else await user_make("mallory")
    comm = await socket_open(conversation.pk, intruder, admitted=False)
    alert = await comm.receive_output(timeout=5)
    closing = await comm.receive_output(timeout=5)
    await comm.send_to(text_data=json.dumps({"question": "What is Bob's salary?"}))

    assert await comm.receive_nothing(timeout=0.3)
    assert "connection-state" not in alert["text"]  # never "connected"
    assert closing["type"] == "websocket.close"
    assert scripted_pipeline.requests == []
    assert await sync_to_async(Message.objects.count)() == 0
    assert await sync_to_async(Trace.objects.count)() == 0
    assert [r.getMessage() for r in caplog.records if r.levelname in ("ERROR", "WARNING")] == []
    await comm.disconnect()


async def test_connected_is_said_only_once_the_conversation_is_admitted() -> None:
    owner = await user_make("bob")
    conversation = await conversation_make(owner)
    comm = await socket_open(conversation.pk, owner, admitted=False)
    ready = await comm.receive_from(timeout=5)
    await comm.disconnect()
    state = [a for t, a in elements(ready) if a.get("id") == "connection-state"]
    assert [(s["data-state"], s["hx-swap-oob"]) for s in state] == [("open", "true")]
    assert ">connected</span>" in ready


# ------------------------------------------------------------------------------ answering


async def test_answered_turn_streams_bubbles_sentences_chips_and_done(scripted_pipeline) -> None:
    scripted_pipeline.script = answered
    _user, conversation, comm = await owner_socket()
    await comm.send_to(text_data=ask("How long do refunds take?"))
    frames = await receive_turn(comm)
    await comm.disconnect()

    key = turn_key(frames[0])
    assert ("beforeend:#messages", "") in oob_targets(frames[0])
    assert "How long do refunds take?" in frames[0]
    # the first question becomes the conversation's title in the sidebar, without a reload
    assert ("true", f"conversation-link-{conversation.pk}") in oob_targets(frames[0])
    first, second, done = frames[1:]
    # the authority notice arrives with the first verified sentence, not before it
    assert oob_targets(first) == [("true", f"notices-{key}"), (f"beforeend:#answer-{key}", "")]
    assert "The FAQ is older than the policy" in first
    chips = [a for t, a in elements(second) if "chip" in a.get("class", "").split()]
    assert [(c["data-n"], c["hx-get"], c["hx-target"]) for c in chips] == [
        ("1", "/chunks/doc-010%23c02/", "#citation-body"),
        ("2", "/chunks/doc-011%23c01/", "#citation-body"),
    ]
    trace = await sync_to_async(Trace.objects.get)()
    assert oob_targets(done) == [("true", f"footer-{key}")]
    assert f'<code class="trace-id">{trace.pk}</code>' in done and "Answered" in done
    stored = await sync_to_async(list)(
        Message.objects.filter(conversation=conversation).values_list("role", "text", "trace_id")
    )
    assert stored == [
        ("user", "How long do refunds take?", None),
        ("assistant", "Refunds take 14 days. Finance handles exceptions.", trace.pk),
    ]


@pytest.mark.parametrize("reason", ["low_score", "conflict", "no_support"])
async def test_each_refusal_renders_its_own_card(scripted_pipeline, reason: str) -> None:
    scripted_pipeline.script = refusing(reason)
    _user, _conversation, comm = await owner_socket()
    await comm.send_to(text_data=ask("What is the refund period?"))
    frames = await receive_turn(comm)
    await comm.disconnect()

    key = turn_key(frames[0])
    card = next(f for f in frames[1:] if f"refusal-{key}" in f)
    tag, attrs = elements(card)[0]
    assert (tag, attrs["class"], attrs["hx-swap-oob"]) == (
        "section",
        f"refusal refusal-{reason}",
        "true",
    )
    assert REFUSAL_TITLES[reason] in card
    assert REFUSALS[reason].message in card
    others = [t for r, t in REFUSAL_TITLES.items() if r != reason]
    assert not any(t in card for t in others)
    if reason == "conflict":
        for value, title, date, href in [
            ("14 days", "Refund policy", "2025-06-30", "/chunks/doc-010%23c02/"),
            ("30 days", "Finance FAQ", "2024-01-10", "/chunks/doc-011%23c01/"),
        ]:
            assert value in card and title in card and f"updated {date}" in card and href in card
    if reason == "low_score":
        assert 'href="/chunks/doc-020%23c01/"' in card and "HR handbook" in card


async def test_fabricated_sentence_is_withheld_and_never_sent(scripted_pipeline) -> None:
    scripted_pipeline.script = fabricated
    _user, _conversation, comm = await owner_socket(staff=True)
    await comm.send_to(text_data=ask("Refunds?", fabricate="1"))
    frames = await receive_turn(comm)
    await comm.disconnect()

    key = turn_key(frames[0])
    assert not any("cheese" in f for f in frames)
    withheld = next(f for f in frames[1:] if f"withheld-{key}" in f)
    assert oob_targets(withheld) == [("true", f"withheld-{key}")]
    assert "1 sentence withheld: its citation could not be verified." in withheld
    assert [r.fabricate for r in scripted_pipeline.requests] == [True]
    stored = await sync_to_async(Message.objects.get)(role="assistant")
    assert "cheese" not in json.dumps([stored.text, stored.sentences, stored.citations])


@pytest.mark.parametrize(("staff", "honoured"), [(False, False), (True, True)])
async def test_fabricate_is_honoured_only_for_staff_outside_debug(
    scripted_pipeline, staff: bool, honoured: bool
) -> None:
    assert not settings.DEBUG and not settings.KBQA_FABRICATE
    scripted_pipeline.script = answered
    _user, _conversation, comm = await owner_socket(staff=staff)
    await comm.send_to(text_data=ask("Refunds?", fabricate="1"))
    await receive_turn(comm)
    await comm.disconnect()
    assert [r.fabricate for r in scripted_pipeline.requests] == [honoured]


async def test_error_keeps_verified_sentences_and_shows_error(scripted_pipeline) -> None:
    scripted_pipeline.script = broken
    _user, _conversation, comm = await owner_socket()
    await comm.send_to(text_data=ask("Refunds?"))
    frames = await receive_turn(comm)
    await comm.disconnect()

    key = turn_key(frames[0])
    error = next(f for f in frames[1:] if f"error-{key}" in f)
    assert oob_targets(error) == [("true", f"error-{key}")]
    assert "The model provider stopped responding." in error
    assert 'data-status="error"' in frames[-1]
    stored = await sync_to_async(Message.objects.get)(role="assistant")
    assert (stored.status, stored.text) == ("error", "Refunds take 14 days.")


# ------------------------------------------------------------- cancellation and concurrency


async def test_disconnect_mid_answer_cancels_provider_and_saves_trace(scripted_pipeline) -> None:
    scripted_pipeline.script = hanging
    provider = scripted_pipeline.provider
    _user, _conversation, comm = await owner_socket()
    await comm.send_to(text_data=ask("Refunds?"))
    await receive_until(comm, "Refunds take 14 days.")
    await asyncio.wait_for(provider.started.wait(), timeout=5)
    await comm.disconnect()

    assert (provider.cancelled, provider.finished) == (True, True)
    trace = await sync_to_async(Trace.objects.get)()
    assert trace.status == "cancelled"
    stored = await sync_to_async(Message.objects.get)(role="assistant")
    assert (stored.status, stored.text, stored.trace_id) == (
        "cancelled",
        "Refunds take 14 days.",
        trace.pk,
    )


async def test_second_question_while_streaming_is_refused(scripted_pipeline) -> None:
    scripted_pipeline.script = hanging
    _user, _conversation, comm = await owner_socket()
    await comm.send_to(text_data=ask("First?"))
    await receive_until(comm, "Refunds take 14 days.")
    await comm.send_to(text_data=ask("Second?"))
    alert = await comm.receive_from(timeout=5)
    await comm.disconnect()

    assert oob_targets(alert) == [("true", "composer-alert")]
    assert "Please wait for the current answer to finish before asking again." in alert
    questions = await sync_to_async(list)(
        Message.objects.filter(role="user").values_list("text", flat=True)
    )
    assert questions == ["First?"]
    assert len(scripted_pipeline.requests) == 1


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
        ("x" * (frame_limit() + 1), "This message is too large to read."),
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
        "oversized-frame",
        "too-long",
    ],
)
async def test_malformed_input_gets_an_alert_and_the_socket_stays_open(
    scripted_pipeline, frame: str, message: str
) -> None:
    scripted_pipeline.script = answered
    _user, _conversation, comm = await owner_socket()
    await comm.send_to(text_data=frame)
    alert = await comm.receive_from(timeout=5)
    await comm.send_to(text_data=ask("Refunds?"))
    frames = await receive_turn(comm)
    await comm.disconnect()

    assert oob_targets(alert) == [("true", "composer-alert")]
    assert message in alert
    assert 'data-status="answered"' in frames[-1]
    assert await sync_to_async(Message.objects.filter(role="user").count)() == 1


async def test_control_characters_are_stripped_before_the_question_is_stored(
    scripted_pipeline,
) -> None:
    scripted_pipeline.script = answered
    _user, _conversation, comm = await owner_socket()
    await comm.send_to(text_data=ask("Refunds\x00 take how long?\x7f"))
    frames = await receive_turn(comm)
    await comm.disconnect()

    assert "Refunds take how long?" in frames[0]
    assert [r.question for r in scripted_pipeline.requests] == ["Refunds take how long?"]
    stored = await sync_to_async(Message.objects.get)(role="user")
    assert stored.text == "Refunds take how long?"


async def test_unexpected_failure_renders_an_alert_not_a_dropped_socket(scripted_pipeline) -> None:
    async def exploding(trace: TraceRecorder, provider: Provider) -> AsyncIterator[Event]:
        raise RuntimeError("bug")
        yield  # pragma: no cover

    scripted_pipeline.script = exploding
    _user, _conversation, comm = await owner_socket()
    await comm.send_to(text_data=ask("Refunds?"))
    frames = await receive_turn(comm)
    scripted_pipeline.script = answered
    await comm.send_to(text_data=ask("Again?"))
    again = await receive_turn(comm)
    await comm.disconnect()

    assert "The answer could not be produced." in frames[-1]
    assert 'data-status="error"' in frames[-1]
    assert 'data-status="answered"' in again[-1]


# ------------------------------------------------------------ the real pipeline, end to end


@sync_to_async
def knowledge_base_load(*names: str) -> None:
    from django.conf import settings as django_settings

    from sources.services import documents_ingest_paths

    docs = django_settings.BASE_DIR / "sources" / "demo" / "docs"
    summary = documents_ingest_paths(paths=[docs / name for name in names])
    assert summary.failures == ()


async def test_real_pipeline_streams_verified_sentence_and_withholds_fabrication(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.fakes.provider import FakeProvider

    await knowledge_base_load("doc-010-upload-files-manual.md")
    provider = FakeProvider(
        [
            "The maximum size of a single uploaded file is 200 MB [1]. "
            "The moon is made of green cheese [1]."
        ]
    )
    monkeypatch.setattr("chat.services.provider_from_settings", lambda name=None: provider)
    _user, _conversation, comm = await owner_socket()
    await comm.send_to(text_data=ask("What is the maximum size of an uploaded file?"))
    frames = await receive_turn(comm)
    await comm.disconnect()

    key = turn_key(frames[0])
    html = "".join(frames)
    assert "The maximum size of a single uploaded file is 200 MB." in html
    assert "cheese" not in html
    chips = [a for _t, a in elements(html) if "chip" in a.get("class", "").split()]
    assert chips and all(c["href"].startswith("/chunks/doc-010%23") for c in chips)
    assert "1 sentence withheld: its citation could not be verified." in html
    assert oob_targets(frames[-1]) == [("true", f"footer-{key}")]
    assert 'data-status="answered"' in frames[-1]
