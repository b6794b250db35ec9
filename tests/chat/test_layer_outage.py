"""The chat socket while the channel layer (and the cache) is down: Redis stopped under running
servers (a deployment tester's B5).

The layer is the in-memory one made to fail as channels-redis does with Redis down
(``DownLayer``); the limits' cache, when a test takes it down too, is Django's Redis cache
pointed at a closed loopback port. The rejoin backoff is shortened, never timed.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import InMemoryChannelLayer, channel_layers
from django.test import AsyncClient
from redis.exceptions import ConnectionError as RedisConnectionError

from chat import layer_outage
from chat.auth import api_token_create
from chat.models import Conversation, Message, Trace
from tests.chat.kb import ANSWER, QUESTION, SHOWN, leave_kb
from tests.chat.support import (
    chat_socket,
    conversation_make,
    elements,
    oob_targets,
    receive_turn,
    receive_until,
    user_make,
)
from tests.fakes.provider import FakeOutput, FakeProvider

__all__ = ["leave_kb"]
pytestmark = pytest.mark.django_db(transaction=True)

CLOSED_PORT_CACHE = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:6399/0",  # nothing listens here
    }
}
DOWN = "test.layer.down"
REFUSED = "Error 111 connecting to 127.0.0.1:6399. Connection refused."


class DownLayer(InMemoryChannelLayer):
    """The in-memory layer failing as channels-redis does while Redis is down: with ``down``
    set every call raises redis-py's ConnectionError, and ``go_down`` makes the reads
    already waiting raise too."""

    down = False

    def check(self) -> None:
        if self.down:
            raise RedisConnectionError(REFUSED)

    async def go_down(self) -> None:
        self.down = True
        for channel in list(self.channels):
            await super().send(channel, {"type": DOWN})

    async def receive(self, channel: str) -> dict[str, Any]:
        self.check()
        message: dict[str, Any] = await super().receive(channel)
        if message.get("type") == DOWN:
            raise RedisConnectionError(REFUSED)
        return message

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        self.check()
        await super().send(channel, message)

    async def group_add(self, group: str, channel: str) -> None:
        self.check()
        await super().group_add(group, channel)

    async def group_discard(self, group: str, channel: str) -> None:
        self.check()
        await super().group_discard(group, channel)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        self.check()
        await super().group_send(group, message)


@pytest.fixture(name="layer")
def layer_fixture(monkeypatch: pytest.MonkeyPatch) -> Iterator[DownLayer]:
    """Every socket's channel layer, up until a test takes it down; rejoin attempts come
    within milliseconds; this process has no outage in progress."""
    monkeypatch.setattr(layer_outage, "REJOIN_FIRST_SECONDS", 0.01)
    monkeypatch.setattr(layer_outage, "REJOIN_MAX_SECONDS", 0.05)
    monkeypatch.setattr(layer_outage, "OUTAGE", layer_outage.Outage())
    layer = DownLayer()
    previous = channel_layers.set("default", layer)
    yield layer
    if previous is None:
        channel_layers.backends.pop("default", None)
    else:
        channel_layers.set("default", previous)


def ask(question: str) -> str:
    return json.dumps({"question": question, "HEADERS": {"HX-Request": "true"}})


def alert_of(frame: str) -> tuple[str, bool]:
    """The composer alert's text in ``frame`` and whether it is a notice (the page leaves
    the question box alone) rather than a refusal of the question sent."""
    attrs = [a for _t, a in elements(frame) if a.get("id") == "composer-alert"]
    assert len(attrs) == 1, frame
    text = frame.split('id="composer-alert"', 1)[1].split(">", 1)[1].split("</div>", 1)[0]
    return text.strip(), attrs[0].get("data-notice") == "true"


async def test_a_socket_that_cannot_join_its_group_stays_open_says_so_and_still_answers(
    layer: DownLayer, fake_provider: FakeProvider, leave_kb: None
) -> None:
    layer.down = True
    fake_provider.add(ANSWER)
    user = await user_make("alice")
    conversation = await conversation_make(user)
    async with chat_socket(conversation.pk, user) as comm:  # reads "connected"
        said = await comm.receive_from(timeout=5)
        await comm.send_to(text_data=ask(QUESTION))
        frames = await receive_turn(comm)
        assert await comm.receive_nothing(timeout=0.2)  # still open: no close, no crash
    assert alert_of(said) == (str(layer_outage.LAYER_DOWN), True)
    assert SHOWN in "".join(frames)
    assert 'data-status="answered"' in frames[-1]
    trace = await Trace.objects.aget()
    assert trace.status == "answered"


async def test_the_page_is_told_in_its_own_language(layer: DownLayer) -> None:
    layer.down = True
    user = await user_make("wang")
    conversation = await conversation_make(user)
    async with chat_socket(conversation.pk, user, query="?lang=zh-hans") as comm:
        said = await comm.receive_from(timeout=5)
    assert alert_of(said) == (
        "聊天服务暂时不可用，它会自动重新连接；在此之前，无法回答的问题会保留在输入框中。", True)


async def test_redis_stopping_under_an_open_socket_keeps_it_open_and_it_rejoins(
    layer: DownLayer, fake_provider: FakeProvider, leave_kb: None
) -> None:
    fake_provider.add(ANSWER)
    user = await user_make("alice")
    conversation = await conversation_make(user)
    async with chat_socket(conversation.pk, user) as idle:
        await layer.go_down()
        down = await idle.receive_from(timeout=5)
        layer.down = False
        back = await idle.receive_from(timeout=5)
        async with chat_socket(conversation.pk, user) as other_tab:
            await other_tab.send_to(text_data=ask(QUESTION))
            await receive_turn(other_tab)
        shown = await receive_until(idle, SHOWN)  # the group reaches the idle tab again
    assert alert_of(down) == (str(layer_outage.LAYER_DOWN), True)
    assert ("true", "connection-state") in oob_targets(back)  # the page syncs its bubbles
    assert alert_of(back) == (str(layer_outage.LAYER_BACK), True)
    assert QUESTION in "".join(shown)


async def test_with_redis_down_a_question_is_refused_kept_unstored_then_answered_once_back(
    layer: DownLayer, fake_provider: FakeProvider, leave_kb: None, settings: Any
) -> None:
    fake_provider.add(ANSWER)
    user = await user_make("alice")
    conversation = await conversation_make(user)
    layer.down = True
    settings.CACHES = CLOSED_PORT_CACHE
    async with chat_socket(conversation.pk, user) as comm:
        said = await comm.receive_from(timeout=5)
        await comm.send_to(text_data=ask(QUESTION))
        refused = await comm.receive_from(timeout=5)
        stored_while_down = await Message.objects.acount(), len(fake_provider.prompts)
        settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
        layer.down = False
        back = await comm.receive_from(timeout=5)
        await comm.send_to(text_data=ask(QUESTION))
        frames = await receive_turn(comm)
    assert alert_of(said)[1] is True
    text, notice = alert_of(refused)
    assert "your question was not sent" in text
    assert notice is False  # a refusal: the page puts the question back in the box
    assert stored_while_down == (0, 0)
    assert alert_of(back) == (str(layer_outage.LAYER_BACK), True)
    assert SHOWN in "".join(frames)
    assert await Message.objects.acount() == 2


async def test_an_outage_is_logged_once_in_one_line_and_its_end_once(
    layer: DownLayer, caplog: pytest.LogCaptureFixture
) -> None:
    layer.down = True
    user = await user_make("alice")
    conversation = await conversation_make(user)
    with caplog.at_level(logging.DEBUG, logger="chat"):
        async with chat_socket(conversation.pk, user) as first:
            async with chat_socket(conversation.pk, user) as second:
                for comm in (first, second):
                    await comm.receive_from(timeout=5)  # the page is told
                await asyncio.sleep(0.2)  # some rejoin attempts fail meanwhile
                layer.down = False
                for comm in (first, second):
                    await comm.receive_from(timeout=5)  # back
    records = [r for r in caplog.records if r.name == "chat.layer_outage"]
    loud = [(r.levelname, r.exc_info) for r in records if r.levelno >= logging.INFO]
    assert loud == [("WARNING", None), ("INFO", None)]
    assert "channel layer unavailable (" in records[0].message
    assert f"failed: ConnectionError: {REFUSED})" in records[0].message
    assert "available again" in [r for r in records if r.levelname == "INFO"][0].message
    assert len(records) > 4  # the failed attempts between them, at debug


async def test_an_answer_ends_as_answered_when_redis_stops_while_it_streams(
    fake_provider: FakeProvider, leave_kb: None, settings: Any
) -> None:
    """Its conversation's slot cannot be given back; the answer is stored and shown all the
    same (it ended in an error card before)."""
    release = asyncio.Event()
    fake_provider.add(FakeOutput(deltas=[ANSWER], hang=True, release=release))
    user = await user_make("alice")
    conversation = await conversation_make(user)
    async with chat_socket(conversation.pk, user) as comm:
        await comm.send_to(text_data=ask(QUESTION))
        await asyncio.wait_for(fake_provider.streaming.wait(), timeout=10)
        settings.CACHES = CLOSED_PORT_CACHE
        release.set()
        frames = await receive_turn(comm)
    assert SHOWN in "".join(frames)
    assert 'data-status="answered"' in frames[-1]
    assert "Something went wrong" not in "".join(frames)
    trace = await Trace.objects.aget()
    assert trace.status == "answered"


async def test_the_api_says_the_service_is_unavailable_not_busy(
    fake_provider: FakeProvider, leave_kb: None, settings: Any
) -> None:
    user = await user_make("integrator")
    token = (await sync_to_async(api_token_create)(user=user))[1]
    settings.CACHES = CLOSED_PORT_CACHE
    response = await AsyncClient().post(
        "/api/answer", data=json.dumps({"question": QUESTION}),
        content_type="application/json", headers={"authorization": f"Bearer {token}"},
    )
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response.json() == {
        "error": "The service is temporarily unavailable; please try again shortly.",
        "code": "service_unavailable",
    }
    assert fake_provider.prompts == []
    assert await Conversation.objects.acount() == 0
