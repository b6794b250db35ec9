"""Long answers keep the SSE connection visibly alive without disturbing the events."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from chat.api import KEEPALIVE_FRAME, with_keepalive


class Slow:
    """Yields frames with pauses; records whether it was closed early."""

    def __init__(self, frames: list[str], pause: float) -> None:
        self.frames, self.pause = frames, pause
        self.closed = False

    async def gen(self) -> AsyncIterator[str]:
        try:
            for frame in self.frames:
                await asyncio.sleep(self.pause)
                yield frame
        finally:
            self.closed = True


async def test_silence_gets_keepalive_comments_and_every_event_arrives_in_order() -> None:
    source = Slow(["event: meta\n\n", "event: done\n\n"], pause=0.05)
    out = [frame async for frame in with_keepalive(source.gen(), every=0.01)]
    events = [f for f in out if f != KEEPALIVE_FRAME]
    assert events == ["event: meta\n\n", "event: done\n\n"]
    assert out.count(KEEPALIVE_FRAME) >= 2
    assert out[0] == KEEPALIVE_FRAME


async def test_a_fast_stream_gets_no_comments() -> None:
    source = Slow(["a", "b", "c"], pause=0)
    assert [f async for f in with_keepalive(source.gen(), every=5)] == ["a", "b", "c"]


async def test_client_going_away_closes_the_answer() -> None:
    source = Slow(["a", "b"], pause=10)
    stream = with_keepalive(source.gen(), every=0.01)
    assert await anext(stream) == KEEPALIVE_FRAME
    await stream.aclose()
    assert source.closed
