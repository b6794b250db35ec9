"""Chat sockets on the Redis channel layer (the production recipe's ``KBQA_REDIS_URL``).

Run by the PostgreSQL + Redis suite (``.ci/services.sh start``, ``make test-postgres``);
skipped without ``KBQA_REDIS_URL``. Every socket waits on the layer with a blocking Redis
pop of ``RedisChannelLayer.brpop_timeout`` seconds: a read timeout no longer than that
closed every socket with 1011 after about 5 s, so slower answers never streamed.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from django.conf import settings

from chat.models import Trace
from tests.chat.kb import ANSWER, QUESTION, SHOWN, leave_kb
from tests.chat.support import chat_socket, conversation_make, receive_turn, user_make
from tests.fakes.provider import FakeOutput, FakeProvider

__all__ = ["leave_kb"]

pytestmark = [
    pytest.mark.skipif(not settings.REDIS_URL, reason="needs KBQA_REDIS_URL (make test-postgres)"),
    pytest.mark.django_db(transaction=True),
]


def past_blocking_receive() -> float:
    """Seconds that outlast two of the layer's blocking pops."""
    from channels_redis.core import RedisChannelLayer

    return 2 * RedisChannelLayer.brpop_timeout + 1


def ask(question: str) -> str:
    return json.dumps({"question": question, "HEADERS": {"HX-Request": "true"}})


async def test_an_idle_socket_still_answers_after_the_blocking_receive_window(
    fake_provider: FakeProvider, leave_kb: None
) -> None:
    fake_provider.add(ANSWER)
    user = await user_make("alice")
    conversation = await conversation_make(user)
    async with chat_socket(conversation.pk, user) as comm:
        await asyncio.sleep(past_blocking_receive())
        assert await comm.receive_nothing(timeout=0.1)  # raises if the consumer crashed
        await comm.send_to(text_data=ask(QUESTION))
        frames = await receive_turn(comm)
    assert SHOWN in "".join(frames)
    assert 'data-status="answered"' in frames[-1]


async def test_an_answer_slower_than_the_window_keeps_streaming_on_its_socket(
    fake_provider: FakeProvider, leave_kb: None
) -> None:
    fake_provider.add(FakeOutput(deltas=[f"{ANSWER} ", "Then "], hang=True))
    user = await user_make("alice")
    conversation = await conversation_make(user)
    async with chat_socket(conversation.pk, user) as comm:
        await comm.send_to(text_data=ask(QUESTION))
        await asyncio.wait_for(fake_provider.streaming.wait(), timeout=10)
        await asyncio.sleep(past_blocking_receive())
        await comm.send_to(text_data=json.dumps({"type": "stop"}))  # same socket, still there
        frames = await receive_turn(comm)
    assert SHOWN in "".join(frames)
    assert 'data-status="stopped"' in frames[-1]
    trace = await Trace.objects.aget()
    assert trace.status == "stopped"
