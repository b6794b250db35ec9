"""The paced fake model of ``bench/load.py``: ``tests/fakes/anthropic_server.py`` (used as a
library, unchanged) streaming a verified answer one token every ``1 / rate`` seconds, and
the same answer read straight through kbqa's Anthropic provider (the no-pipeline
baseline)."""

from __future__ import annotations

import asyncio
import re
import sys
import time
from typing import Any

BACKLOG = 1024  # listen queue: socketserver's default 5 would drop concurrent connects
QUESTION = "How long does the recycle bin keep deleted files?"
# Four sentences the verifier accepts against block [1] (doc-042#c02) for QUESTION.
ANSWER = (
    "Deleted files and folders remain in the recycle bin for 30 days, and you can put them "
    "back at any time during that period [1]. After that they are purged permanently and "
    "cannot be brought back, not even by support [1]. To restore an item, open Recycle bin "
    "in the left-hand menu, select the item and click Restore [1]. It returns to its "
    "original folder [1]."
)
TOKENS = re.findall(r"\s*\S+", ANSWER)  # one delta per word: about one token each


def serve_fake_model(rate: float) -> None:
    """Subprocess entry: the fake Messages API, pacing each delta to ``rate`` per second."""
    from tests.fakes.anthropic_server import FakeAnthropicServer, StreamReply

    gap = 1.0 / rate
    reply = StreamReply(deltas=TOKENS)

    class Paced(FakeAnthropicServer):
        def next_reply(self):  # type: ignore[no-untyped-def]
            return reply

    with Paced() as server:
        base = server._httpd.RequestHandlerClass  # type: ignore[union-attr]

        class PacedHandler(base):  # type: ignore[misc,valid-type]
            def setup(self) -> None:
                super().setup()
                self.wfile = _PacedWriter(self.wfile, gap)

        server._httpd.RequestHandlerClass = PacedHandler  # type: ignore[union-attr]
        server._httpd.socket.listen(BACKLOG)  # type: ignore[union-attr]
        print(server.url, flush=True)
        sys.stdin.read()  # until the bench closes our stdin


class _PacedWriter:
    """Writes the k-th text delta ``k * gap`` seconds after the response's first delta
    (absolute deadlines: sleeping ``gap`` before each would add every oversleep to the
    model's pace). A kept-alive connection serves several responses with one writer, so the
    count restarts at each response's status line."""

    def __init__(self, raw, gap: float) -> None:  # type: ignore[no-untyped-def]
        self.raw, self.gap, self.sent, self.start = raw, gap, 0, 0.0

    def write(self, data: bytes) -> int:
        if data.startswith(b"HTTP/"):
            self.sent, self.start = 0, 0.0
        if b"content_block_delta" in data:
            self.start = self.start or time.monotonic()
            self.sent += 1
            time.sleep(max(0.0, self.start + self.sent * self.gap - time.monotonic()))
        return self.raw.write(data)

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        return getattr(self.raw, name)


async def model_alone(provider: Any, timeout: float) -> tuple[float, float]:
    """Seconds to the first complete sentence and to the end of the same answer, read
    straight from the fake model through ``provider`` (kbqa's ``AnthropicProvider``: the
    SDK request and the event parsing every answer pays), no pipeline, no server.
    Raises what the provider raises, or TimeoutError after ``timeout`` seconds."""
    from kbqa.core.providers.base import Prompt, ProviderCall

    prompt = Prompt(task="answer", system="", messages=({"role": "user", "content": QUESTION},),
                    max_tokens=200)
    started, first, seen, stop = time.perf_counter(), 0.0, "", ANSWER.index("[1].") + 4
    async with asyncio.timeout(timeout):
        async for delta in provider.stream(prompt, ProviderCall()):
            seen += delta
            if not first and len(seen) >= stop:  # the first sentence is complete
                first = time.perf_counter()
    return first - started, time.perf_counter() - started
