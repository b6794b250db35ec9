"""A local fake of the Anthropic Messages API, for driving the real SDK (no network).

``FakeAnthropicServer`` answers ``POST /v1/messages`` with the next scripted reply (default
``StreamReply()``: "OK."), over HTTP/1.1 with chunked transfer and a ``request-id`` header on
every response, as the API does (https://docs.anthropic.com/en/api/messages-streaming,
https://docs.anthropic.com/en/api/errors):

- ``StreamReply``: ``message_start`` (the dated model id that answered; ``usage`` with
  ``input_tokens`` and the cache fields), ``content_block_start``, ``ping``, one
  ``content_block_delta``/``text_delta`` per delta (a ``ping`` every ``ping_every``
  deltas), ``content_block_stop``, ``message_delta`` (``stop_reason``: ``end_turn``,
  ``max_tokens``, ``refusal``...; cumulative ``usage``) and ``message_stop``. ``fault``
  breaks the stream after ``after`` deltas: "error" (an ``event: error``,
  ``overloaded_error``, as the API sends under load), "error_text" (an ``event: error``
  whose data is plain text, as a proxy in between may send), "abort" (connection dropped mid-body),
  "stall" (silence), "hold" (pings only), "end" (a few pings, then the body ends cleanly
  without ``message_stop``).
- ``StatusReply``: an HTTP error with the API's JSON error body and, when given, a
  ``retry-after`` header in whole seconds, as the API sends it.

A model id the API does not offer gets 404 ``not_found_error``; aliases report the dated id.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Literal

from tests.fakes.http_server import FakeServer, StreamingHandler, request_id, sse

# Aliases resolve to the dated id the API reports in ``message.model``.
MODELS = {
    "claude-sonnet-4-5": "claude-sonnet-4-5-20250929",
    "claude-sonnet-4-5-20250929": "claude-sonnet-4-5-20250929",
    "claude-haiku-4-5": "claude-haiku-4-5-20251001",
    "claude-haiku-4-5-20251001": "claude-haiku-4-5-20251001",
    "claude-sonnet-4-6": "claude-sonnet-4-6",
    "claude-sonnet-5-5": "claude-sonnet-5-5",
    "claude-opus-4-6": "claude-opus-4-6",
}
Fault = Literal["error", "error_text", "abort", "stall", "hold", "end"]


@dataclass(frozen=True)
class StreamReply:
    deltas: tuple[str, ...] | list[str] = ("OK.",)
    input_tokens: int = 25
    output_tokens: int = 12
    cache_read_input_tokens: int = 0
    cache_creation_input_tokens: int = 0
    stop_reason: str = "end_turn"
    ping_every: int = 0
    fault: Fault | None = None
    after: int = 0
    delay: float = 0.0  # seconds before each delta: a slow model that still finishes


@dataclass(frozen=True)
class StatusReply:
    status: int
    error_type: str
    message: str = "scripted error"
    retry_after: str | None = None


Reply = StreamReply | StatusReply
OVERLOADED = StatusReply(529, "overloaded_error", "Overloaded")


def error_body(error_type: str, message: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": error_type, "message": message},
            "request_id": request_id("req_011CV")}


def stream_events(reply: StreamReply, model: str) -> tuple[list[bytes], list[bytes], list[bytes]]:
    """Head, one event per delta (pings included), tail: the stream in protocol order."""
    usage = {
        "input_tokens": reply.input_tokens,
        "cache_creation_input_tokens": reply.cache_creation_input_tokens,
        "cache_read_input_tokens": reply.cache_read_input_tokens,
        "output_tokens": 1,
    }
    start = {"type": "message_start", "message": {
        "id": "msg_01XFDUDYJgAACzvnptvVoYEL", "type": "message", "role": "assistant",
        "content": [], "model": model, "stop_reason": None, "stop_sequence": None,
        "usage": usage}}
    head = [
        sse(start, "message_start"),
        sse({"type": "content_block_start", "index": 0,
             "content_block": {"type": "text", "text": ""}}, "content_block_start"),
        sse({"type": "ping"}, "ping"),
    ]
    body = []
    for i, d in enumerate(reply.deltas, start=1):
        body.append(sse({"type": "content_block_delta", "index": 0,
                         "delta": {"type": "text_delta", "text": d}}, "content_block_delta"))
        if reply.ping_every and i % reply.ping_every == 0:
            body.append(sse({"type": "ping"}, "ping"))
    tail = [
        sse({"type": "content_block_stop", "index": 0}, "content_block_stop"),
        sse({"type": "message_delta",
             "delta": {"stop_reason": reply.stop_reason, "stop_sequence": None},
             "usage": {**usage, "output_tokens": reply.output_tokens}}, "message_delta"),
        sse({"type": "message_stop"}, "message_stop"),
    ]
    return head, body, tail


class _Handler(StreamingHandler):
    def respond(self, reply: Any, body: dict[str, Any]) -> None:
        requested = str(body.get("model", ""))
        if requested not in MODELS:
            reply = StatusReply(404, "not_found_error", f"model: {requested}")
        if isinstance(reply, StatusReply):
            headers = {"retry-after": reply.retry_after} if reply.retry_after else {}
            if reply.status in (429, 529):
                headers["x-should-retry"] = "true"
            self.send_json(reply.status, error_body(reply.error_type, reply.message), headers)
            return
        try:
            self._stream(reply, MODELS[requested])
        except (BrokenPipeError, ConnectionResetError):
            return

    def _stream(self, reply: StreamReply, model: str) -> None:
        head, body, tail = stream_events(reply, model)
        self.start_stream()
        for event in head:
            self.chunk(event)
        deltas = 0
        for event in body:
            if reply.fault is not None and deltas == reply.after:
                self._fault(reply.fault)
                return
            if reply.delay and b"content_block_delta" in event:
                time.sleep(reply.delay)
            self.chunk(event)
            deltas += b"content_block_delta" in event
        if reply.fault is not None:
            self._fault(reply.fault)
            return
        for event in tail:
            self.chunk(event)
        self.end_stream()

    def _fault(self, fault: Fault) -> None:
        ping = sse({"type": "ping"}, "ping")
        if fault == "error":
            self.chunk(sse(error_body("overloaded_error", "Overloaded"), "error"))
            self.end_stream()
        elif fault == "error_text":
            self.chunk(b"event: error\ndata: upstream connect error\n\n")
            self.end_stream()
        elif fault == "abort":
            self.abort()
        elif fault == "stall":
            self.stall()
        elif fault == "hold":
            self.stall(ping)
        else:  # "end": the body ends cleanly, message_stop never came
            for _ in range(3):
                self.chunk(ping)
            self.end_stream()


class FakeAnthropicServer(FakeServer):
    """The fake Messages API; ``script(...)`` replies, ``requests`` records what was sent."""

    handler = _Handler

    def default_reply(self) -> Reply:
        return StreamReply()

    def __enter__(self) -> FakeAnthropicServer:
        super().__enter__()
        return self
