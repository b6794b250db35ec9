"""What the front ends do about issue 15's items 3 and 6, through the real turn service and
pipeline: per-user limits (websocket alert, API 429 + Retry-After, no model call), fabrication
for staff only, sessions that end, JSON nested too deeply."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import AsyncClient, Client

from chat.auth import api_token_create
from chat.limits import turn_admit_sync
from chat.models import Conversation, Message, Trace
from kbqa.asgi import application
from tests.chat.kb import ANSWER, QUESTION, SHOWN, leave_kb
from tests.chat.support import (
    chat_socket,
    conversation_make,
    limit_clock_fixture,  # noqa: F401  (the fixture)
    oob_targets,
    receive_turn,
    receive_until,
    session_cookie,
    user_make,
)
from tests.chat.test_consumer import HANGING, ask
from tests.fakes.provider import FakeOutput, FakeProvider

__all__ = ["leave_kb"]
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("leave_kb")]

BUSY = (
    "Another answer is still being written in this conversation (in another tab, window or "
    "API call); ask again when it has finished."
)


@pytest.fixture(autouse=True)
def _clock(limit_clock: float) -> None:
    """No one-minute window of chat.limits ends during a test."""


# ------------------------------------------------------------------------- the websocket


async def test_websocket_over_the_minute_limit_gets_an_alert_and_no_answer(
    fake_provider: FakeProvider, settings: Any
) -> None:
    settings.KBQA_QUESTIONS_PER_MINUTE = 2
    fake_provider.add(ANSWER, ANSWER, ANSWER)
    user = await user_make("alice")
    async with chat_socket((await conversation_make(user)).pk, user) as comm:
        for _ in range(2):
            await comm.send_to(text_data=ask(QUESTION))
            await receive_turn(comm)
        await comm.send_to(text_data=ask(QUESTION))
        alert = await comm.receive_from(timeout=5)

    assert oob_targets(alert) == [("true", "composer-alert")]
    assert "You have asked 2 questions in a minute, the most allowed. Try again in" in alert
    assert len(fake_provider.prompts) == 2
    assert await Trace.objects.acount() == 2
    assert await Message.objects.filter(role="user").acount() == 2


@contextlib.asynccontextmanager
async def two_tabs_one_answering() -> AsyncIterator[tuple[Any, Any, str]]:
    """Two sockets on one conversation: the first answering (hanging), the second showing
    that answer as it is written and refused a question while it runs; yields both and the
    second one's alert."""
    user = await user_make("alice")
    conversation = await conversation_make(user)
    async with chat_socket(conversation.pk, user) as first:
        async with chat_socket(conversation.pk, user) as second:
            await first.send_to(text_data=ask(QUESTION))
            await receive_until(first, SHOWN)
            await receive_until(second, SHOWN)  # the first tab's question and its sentence
            await second.send_to(text_data=ask("Second?"))
            yield first, second, await second.receive_from(timeout=5)


async def test_a_second_socket_cannot_start_an_answer_while_one_streams(
    fake_provider: FakeProvider,
) -> None:
    fake_provider.add(HANGING, ANSWER)
    async with two_tabs_one_answering() as (_first, _second, alert):
        pass

    assert BUSY in alert  # the answer runs in the other tab
    assert len(fake_provider.prompts) == 1
    questions = [m.text async for m in Message.objects.filter(role="user")]
    assert questions == [QUESTION]


async def test_the_other_tab_is_told_the_conversation_is_free_when_the_answer_is_stored(
    fake_provider: FakeProvider,
) -> None:
    # a tester's second tab kept "Another answer is still being written" under the answer
    # that had finished meanwhile
    fake_provider.add(HANGING)
    async with two_tabs_one_answering() as (first, second, alert):
        assert BUSY in alert  # asked while the first one runs
        await first.send_to(text_data=json.dumps({"type": "stop"}))
        await receive_turn(first)
        stored = await second.receive_from(timeout=5)

    assert 'data-status="stopped"' in stored  # the finished turn, in the bubble it showed
    assert ("true", "composer-alert") in oob_targets(stored)  # and the notice replaced
    assert BUSY not in stored
    assert "The other answer is finished: you can send your question now." in stored


async def test_a_question_sent_as_another_tab_asks_is_never_lost_without_a_word(
    fake_provider: FakeProvider,
) -> None:
    # a tester pressed Enter in two tabs within 30 ms: the second question was refused as
    # busy, and the alert was cleared half a second later when the fast first answer was
    # stored, so the question seemed to vanish
    release = asyncio.Event()
    fake_provider.add(FakeOutput(deltas=[f"{ANSWER} "], hang=True, release=release))
    user = await user_make("alice")
    conversation = await conversation_make(user)
    async with chat_socket(conversation.pk, user) as first, chat_socket(
        conversation.pk, user
    ) as second:
        await first.send_to(text_data=ask(QUESTION))
        await receive_until(second, QUESTION)  # the other tab's question, shown as asked
        await second.send_to(text_data=ask("Second?"))
        refused = (await receive_until(second, "composer-alert"))[-1]
        release.set()
        stored = (await receive_until(second, 'data-status="answered"'))[-1]

    assert BUSY in refused
    assert "The other answer is finished: you can send your question now." in stored
    assert [m.text async for m in Message.objects.filter(role="user")] == [QUESTION]


async def test_a_socket_is_closed_with_4401_at_the_next_message_after_logout(
    fake_provider: FakeProvider,
) -> None:
    fake_provider.add(ANSWER, ANSWER)
    user = await user_make("alice")
    conversation = await conversation_make(user)
    cookie = await session_cookie(user)
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"),
               (b"cookie", f"sessionid={cookie}".encode())]
    comm = WebsocketCommunicator(application, f"/ws/chat/{conversation.pk}/", headers=headers)
    try:
        assert (await comm.connect())[0]
        await comm.receive_from(timeout=5)  # "connected"
        await comm.send_to(text_data=ask(QUESTION))
        await receive_turn(comm)

        browser = Client()
        browser.cookies["sessionid"] = cookie
        await sync_to_async(browser.post)("/accounts/logout/")
        await comm.send_to(text_data=ask(QUESTION))
        alert = await comm.receive_output(timeout=5)
        closing = await comm.receive_output(timeout=5)
    finally:
        await comm.disconnect()

    assert "Your session has ended. Log in again to keep asking." in alert["text"]
    # the way back in, to this conversation once logged in
    login = f'href="/accounts/login/?next=%2Fc%2F{conversation.pk}%2F">Log in</a>'
    assert login in alert["text"]
    assert (closing["type"], closing["code"]) == ("websocket.close", 4401)
    assert len(fake_provider.prompts) == 1


async def test_a_frame_nested_too_deeply_gets_the_unreadable_alert(
    fake_provider: FakeProvider,
) -> None:
    user = await user_make("alice")
    async with chat_socket((await conversation_make(user)).pk, user) as comm:
        await comm.send_to(text_data="[" * 5000 + "]" * 5000)
        alert = await comm.receive_from(timeout=5)
    assert "The message could not be read. Reload the page and try again." in alert
    assert fake_provider.prompts == []


# ---------------------------------------------------------------------------- the HTTP API


def post(body: Any, key: str, url: str = "/api/answer") -> Any:
    """POST with a bearer token; a stream is read to its end (the answer runs as it is read)."""
    data = body if isinstance(body, str) else json.dumps(body)

    async def go() -> Any:
        headers = {"Authorization": f"Bearer {key}"}
        response = await AsyncClient().post(
            url, data=data, content_type="application/json", headers=headers
        )
        if response.streaming:
            _ = [chunk async for chunk in response.streaming_content]
        return response

    return async_to_sync(go)()


@pytest.fixture
def alice(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("alice", password="pw-alice-123")


@pytest.mark.parametrize("url", ["/api/answer", "/api/answer/stream"])
def test_api_over_the_minute_limit_is_429_with_retry_after_and_no_model_call(
    fake_provider: FakeProvider, alice: Any, settings: Any, url: str
) -> None:
    settings.KBQA_QUESTIONS_PER_MINUTE = 2
    fake_provider.add(*[ANSWER] * 6)
    _token, key = api_token_create(user=alice)
    statuses = [post({"question": QUESTION}, key, url).status_code for _ in range(2)]
    refused = post({"question": QUESTION}, key, url)

    assert statuses == [200, 200]
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert refused.json()["error"].startswith(
        "You have asked 2 questions in a minute, the most allowed. Try again in"
    )
    assert Trace.objects.count() == 2
    assert Conversation.objects.count() == 2  # the refused request started none


def test_each_api_token_has_its_own_limit(
    fake_provider: FakeProvider, alice: Any, settings: Any
) -> None:
    settings.KBQA_TOKEN_QUESTIONS_PER_MINUTE = 1
    fake_provider.add(*[ANSWER] * 6)
    first, second = (api_token_create(user=alice, name=n)[1] for n in ("a", "b"))
    statuses = [post({"question": QUESTION}, k).status_code for k in (first, first, second)]
    assert statuses == [200, 429, 200]


def test_api_refuses_a_second_answer_in_the_same_conversation(
    fake_provider: FakeProvider, alice: Any
) -> None:
    _token, key = api_token_create(user=alice)
    conversation = Conversation.objects.create(owner=alice)
    turn_admit_sync(user_id=alice.pk, conversation_id=conversation.pk)  # an answer runs
    refused = post({"question": QUESTION, "conversation": conversation.pk}, key)
    assert (refused.status_code, refused["Retry-After"]) == (429, "5")
    assert refused.json() == {"error": BUSY, "code": "conversation_busy"}
    assert fake_provider.prompts == []
    assert not Message.objects.exists()


def test_api_fabrication_is_for_staff_only(
    fake_provider: FakeProvider, django_user_model: Any
) -> None:
    """Staff see the two fabricated sentences withheld; anyone else is told no (403), not
    silently given an ordinary answer."""
    fake_provider.add(ANSWER, ANSWER)
    staff = django_user_model.objects.create_user("pat", password="pw-pat-12345", is_staff=True)
    other = django_user_model.objects.create_user("sam", password="pw-sam-12345")
    refused = post({"question": QUESTION, "fabricate": True}, api_token_create(user=other)[1],
                   "/api/answer/stream")
    assert (refused.status_code, refused.json()["code"]) == (403, "fabricate_not_allowed")
    assert not Trace.objects.exists()
    response = post({"question": QUESTION, "fabricate": True}, api_token_create(user=staff)[1],
                    "/api/answer/stream")
    assert response.status_code == 200
    assert len(Trace.objects.get().data["dropped"]) == 2


def test_api_json_nested_100000_deep_is_a_400_json_error(alice: Any) -> None:
    _token, key = api_token_create(user=alice)
    response = post("[" * 100_000 + "]" * 100_000, key)
    assert (response.status_code, response.json()) == (
        400, {"error": "The request body is JSON nested too deeply.", "code": "invalid_json"}
    )
