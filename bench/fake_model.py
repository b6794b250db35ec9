"""The paced fake model of ``bench/load.py``, and the same answer read straight through kbqa's
Anthropic provider (the no-pipeline baseline).

The fake speaks what ``tests/fakes/anthropic_server.py`` speaks, built from its own pieces
(``stream_events``: the real event sequence and shapes; ``MODELS``: the real model ids, 404
``not_found_error`` for any other; ``error_body``: the API's error JSON; ``StreamReply``'s
faults: an ``overloaded_error`` event, a plain-text error event, a dropped connection, a
stall, pings only, a clean end without ``message_stop``; ``StatusReply``: an HTTP error),
over HTTP/1.1 with chunked transfer and keep-alive, but cheaply enough to share 2 cores with
the server under test and 200 clients:

- one asyncio loop instead of a thread per connection (the stdlib ``ThreadingHTTPServer``
  with a ``time.sleep`` per delta: 200 threads taking turns on the GIL);
- every chunk encoded once per model id (its chunked framing included), not per response;
- one timer wheel for all streams: a single task wakes every ``TICK`` seconds and writes the
  deltas that fell due into their sockets, instead of one timer per stream per delta. Each
  delta is due at an absolute time (the response's start plus its tokens so far divided by
  the rate), so ticks never add up; a delta is late by at most one ``TICK``.

Text deltas carry several tokens each, as the real API's do: in streams recorded from the
Messages API (github.com/RavenStorm-bit/claude-code-api-logger, responses-analysis-clean.md,
claude-3-7-sonnet and claude-3-5-haiku, 2025-05-22) 32 output tokens came in 17 text deltas
and 10 in 4, about 2 tokens per delta; ``DELTA_TOKENS`` = 2 words (about a token each) per
delta, the pace per token unchanged.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from tests.fakes.anthropic_server import MODELS, StatusReply, StreamReply, error_body, stream_events
from tests.fakes.http_server import STALL_LIMIT, request_id, sse

BACKLOG = 1024  # listen queue: a small one would drop 200 concurrent connects
TICK = 0.005  # seconds between the wheel's turns: a delta is late by at most this
DELTA_TOKENS = 2  # tokens per text delta, as the real API sends them (module docstring)
QUESTION = "How long does the recycle bin keep deleted files?"
# Four sentences the verifier accepts against block [1] (doc-042#c02) for QUESTION.
ANSWER = (
    "Deleted files and folders remain in the recycle bin for 30 days, and you can put them "
    "back at any time during that period [1]. After that they are purged permanently and "
    "cannot be brought back, not even by support [1]. To restore an item, open Recycle bin "
    "in the left-hand menu, select the item and click Restore [1]. It returns to its "
    "original folder [1]."
)
TOKENS = re.findall(r"\s*\S+", ANSWER)  # one word each: about one token
DELTAS = tuple("".join(TOKENS[i:i + DELTA_TOKENS]) for i in range(0, len(TOKENS), DELTA_TOKENS))


def chunk(data: bytes) -> bytes:
    """``data`` framed as one HTTP/1.1 chunk (RFC 9112 section 7.1)."""
    return f"{len(data):x}\r\n".encode() + data + b"\r\n"


LAST_CHUNK = b"0\r\n\r\n"
PING = chunk(sse({"type": "ping"}, "ping"))


@dataclass
class Encoded:
    """A reply's stream, framed once: ``head`` at once, ``steps[k]`` (a delta and the pings
    after it) when ``due[k]`` seconds have passed, then ``tail`` (ending with the last chunk)."""

    head: bytes
    steps: list[bytes]
    due: list[float]
    tail: bytes


def encode(reply: StreamReply, model: str, rate: float) -> Encoded:
    head, body, tail = stream_events(reply, model)
    steps: list[bytes] = []
    due: list[float] = []
    tokens = 0
    for event in body:
        if b"content_block_delta" in event or not steps:
            text = json.loads(event.split(b"data: ", 1)[1])["delta"]["text"]
            tokens += max(1, len(text.split()))
            steps.append(b"")
            due.append(tokens / rate)
        steps[-1] += chunk(event)
    return Encoded(b"".join(map(chunk, head)), steps, due,
                   b"".join(map(chunk, tail)) + LAST_CHUNK)


@dataclass
class Stream:
    """One response on the wheel: its socket, its encoded reply, the next step to write."""

    writer: asyncio.StreamWriter
    encoded: Encoded
    stop_at: int  # the step at which the reply's fault (if any) strikes, else len(steps)
    started: float
    done: asyncio.Future[None]
    fault: bool = False  # the reply breaks at ``stop_at`` instead of ending with its tail
    next: int = 0


@dataclass
class PacedModel:
    """The fake Messages API on 127.0.0.1, every response ``reply`` paced at ``rate`` tokens
    per second. ``serve()`` starts it and returns its URL."""

    rate: float
    reply: StreamReply | StatusReply = field(default_factory=lambda: StreamReply(deltas=DELTAS))
    wheel: defaultdict[int, list[Stream]] = field(default_factory=lambda: defaultdict(list))
    encoded: dict[str, Encoded] = field(default_factory=dict)
    ticker: asyncio.Task[None] | None = None
    last: int = 0  # the last slot the wheel turned past

    async def serve(self) -> str:
        server = await asyncio.start_server(self.connection, "127.0.0.1", 0, backlog=BACKLOG)
        port = server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    async def connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Serve requests on one kept-alive connection until the client closes it."""
        try:
            while await self.request(reader, writer):
                pass
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    async def request(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        """Read one request, answer it; False when the connection must close."""
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").lower()
        length = re.search(r"content-length:\s*(\d+)", head)
        body = json.loads(await reader.readexactly(int(length.group(1)) if length else 0) or b"{}")
        model = str(body.get("model", ""))
        if model not in MODELS:
            return respond_json(writer, StatusReply(404, "not_found_error", f"model: {model}"))
        if isinstance(self.reply, StatusReply):
            return respond_json(writer, self.reply)
        return await self.stream(writer, self.reply, MODELS[model])

    async def stream(self, writer: asyncio.StreamWriter, reply: StreamReply, model: str) -> bool:
        encoded = self.encoded.get(model) or self.encoded.setdefault(
            model, encode(reply, model, self.rate))
        writer.write(stream_head() + encoded.head)
        steps = len(encoded.steps)
        stream = Stream(writer, encoded, steps if reply.fault is None else min(reply.after, steps),
                        time.monotonic(), asyncio.get_running_loop().create_future(),
                        fault=reply.fault is not None)
        self.schedule(stream)
        await stream.done  # ConnectionResetError when the client hung up
        return True if reply.fault is None else await fault(writer, reply.fault)

    def schedule(self, stream: Stream) -> None:
        """Put ``stream`` in the slot of its next step; at its end write the tail (no fault)
        or hand it back to ``stream()`` for the fault."""
        if stream.next >= stream.stop_at:
            if not stream.fault:
                stream.writer.write(stream.encoded.tail)
            stream.done.set_result(None)
            return
        at = stream.started + stream.encoded.due[stream.next]
        self.wheel[max(int(at / TICK) + 1, self.last + 1)].append(stream)
        if self.ticker is None or self.ticker.done():
            self.ticker = asyncio.get_running_loop().create_task(self.turn())

    async def turn(self) -> None:
        """The wheel: every TICK, write the steps of every slot that came due."""
        self.last = min(self.wheel) - 1
        while self.wheel:
            await asyncio.sleep(TICK)
            now = int(time.monotonic() / TICK)
            while self.last < now:
                self.last += 1
                for stream in self.wheel.pop(self.last, ()):
                    self.step(stream)

    def step(self, stream: Stream) -> None:
        if stream.writer.is_closing():
            stream.done.set_exception(ConnectionResetError())
            return
        stream.writer.write(stream.encoded.steps[stream.next])
        stream.next += 1
        self.schedule(stream)


def stream_head() -> bytes:
    return (
        "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream; charset=utf-8\r\n"
        f"cache-control: no-cache\r\ntransfer-encoding: chunked\r\n"
        f"request-id: {request_id('req_011CV')}\r\n\r\n"
    ).encode()


def respond_json(writer: asyncio.StreamWriter, reply: StatusReply) -> bool:
    """An HTTP error with the API's JSON body (and ``retry-after``, ``x-should-retry``)."""
    data = json.dumps(error_body(reply.error_type, reply.message)).encode()
    extra = f"retry-after: {reply.retry_after}\r\n" if reply.retry_after else ""
    if reply.status in (429, 529):
        extra += "x-should-retry: true\r\n"
    writer.write(
        f"HTTP/1.1 {reply.status} Error\r\ncontent-type: application/json\r\n"
        f"content-length: {len(data)}\r\nrequest-id: {request_id('req_011CV')}\r\n{extra}\r\n"
        .encode() + data
    )
    return True


async def fault(writer: asyncio.StreamWriter, kind: str) -> bool:
    """Break the stream as ``StreamReply.fault`` says (``tests/fakes/anthropic_server.py``);
    False when the connection is gone or must close."""
    if kind == "error":
        writer.write(chunk(sse(error_body("overloaded_error", "Overloaded"), "error")) + LAST_CHUNK)
    elif kind == "error_text":
        writer.write(chunk(b"event: error\ndata: upstream connect error\n\n") + LAST_CHUNK)
    elif kind == "end":  # the body ends cleanly, message_stop never came
        writer.write(PING * 3 + LAST_CHUNK)
    elif kind in ("stall", "hold"):
        deadline = time.monotonic() + STALL_LIMIT
        while time.monotonic() < deadline and not writer.is_closing():
            if kind == "hold":
                writer.write(PING)
            await asyncio.sleep(0.02)
        writer.transport.abort()
        return False
    else:  # "abort": the connection dropped mid-body
        writer.transport.abort()
        return False
    return True


def serve_fake_model(rate: float) -> None:
    """Subprocess entry: serve until the bench closes our stdin; prints the URL first."""

    async def main() -> None:
        print(await PacedModel(rate).serve(), flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)

    asyncio.run(main())


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
