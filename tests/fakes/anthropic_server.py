"""A local fake of the Anthropic Messages API streaming protocol, for driving the real SDK.

``FakeAnthropicServer`` runs a stdlib ``ThreadingHTTPServer`` on 127.0.0.1 in a thread. Each
``POST /v1/messages`` takes the next scripted reply (or the default ``StreamReply("OK.")``):

- ``StreamReply(deltas)``: ``text/event-stream`` with message_start, content_block_start,
  ping, one content_block_delta (text_delta) per delta, content_block_stop, message_delta
  (stop_reason, usage) and message_stop, as https://docs.anthropic.com/en/api/messages-streaming
  describes. ``error_after=k`` sends ``event: error`` (``overloaded_error``) after k deltas
  instead of finishing; ``hold_after=k`` stalls after k deltas, writing pings until the client
  hangs up (``disconnected`` is then set).
- ``StatusReply(status, error_type)``: an HTTP error with the API's JSON error body
  (529 overloaded_error, 401 authentication_error...). ``retry-after-ms: 1`` keeps the SDK's
  retry back-off near zero.

``requests`` records every request body (parsed JSON) and headers, to assert what was sent.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MODEL_VERSION_SUFFIX = "-20250929"


@dataclass(frozen=True)
class StreamReply:
    deltas: tuple[str, ...] | list[str] = ("OK.",)
    model: str = ""  # reported model version; "" -> the requested model + MODEL_VERSION_SUFFIX
    input_tokens: int = 25
    output_tokens: int = 12
    stop_reason: str = "end_turn"
    error_after: int | None = None
    hold_after: int | None = None


@dataclass(frozen=True)
class StatusReply:
    status: int
    error_type: str
    message: str = "scripted error"


Reply = StreamReply | StatusReply


@dataclass
class RecordedRequest:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


@dataclass
class FakeAnthropicServer:
    """Start with ``with FakeAnthropicServer() as server:``; point the SDK at ``server.url``."""

    replies: deque[Reply] = field(default_factory=deque)
    requests: list[RecordedRequest] = field(default_factory=list)
    disconnected: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    _httpd: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None

    def script(self, *replies: Reply) -> None:
        self.replies.extend(replies)

    @property
    def url(self) -> str:
        assert self._httpd is not None
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def next_reply(self) -> Reply:
        return self.replies.popleft() if self.replies else StreamReply()

    def __enter__(self) -> FakeAnthropicServer:
        handler = type("Handler", (_Handler,), {"fake": self})
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release.set()
        assert self._httpd is not None and self._thread is not None
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)


def _sse(event: str, data: dict[str, Any]) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


def stream_events(reply: StreamReply, model: str) -> list[bytes]:
    """The SSE events of a successful stream, in protocol order."""
    start = {
        "type": "message_start",
        "message": {
            "id": "msg_fake01", "type": "message", "role": "assistant", "content": [],
            "model": reply.model or model + MODEL_VERSION_SUFFIX,
            "stop_reason": None, "stop_sequence": None,
            "usage": {"input_tokens": reply.input_tokens, "output_tokens": 1},
        },
    }
    head = [
        _sse("message_start", start),
        _sse("content_block_start", {"type": "content_block_start", "index": 0,
                                     "content_block": {"type": "text", "text": ""}}),
        _sse("ping", {"type": "ping"}),
    ]
    deltas = [
        _sse("content_block_delta", {"type": "content_block_delta", "index": 0,
                                     "delta": {"type": "text_delta", "text": d}})
        for d in reply.deltas
    ]
    tail = [
        _sse("content_block_stop", {"type": "content_block_stop", "index": 0}),
        _sse("message_delta", {"type": "message_delta",
                               "delta": {"stop_reason": reply.stop_reason, "stop_sequence": None},
                               "usage": {"output_tokens": reply.output_tokens}}),
        _sse("message_stop", {"type": "message_stop"}),
    ]
    return head + deltas + tail


def _error_body(error_type: str, message: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": error_type, "message": message}}


class _Handler(BaseHTTPRequestHandler):
    fake: FakeAnthropicServer

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        """Silence the per-request log lines."""

    def do_POST(self) -> None:  # noqa: N802 - stdlib naming
        length = int(self.headers.get("content-length", "0"))
        body = json.loads(self.rfile.read(length) or b"{}")
        self.fake.requests.append(
            RecordedRequest(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
        )
        reply = self.fake.next_reply()
        if isinstance(reply, StatusReply):
            self._status(reply)
        else:
            self._stream(reply, str(body.get("model", "")))

    def _status(self, reply: StatusReply) -> None:
        payload = json.dumps(_error_body(reply.error_type, reply.message)).encode()
        self.send_response(reply.status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(payload)))
        self.send_header("retry-after-ms", "1")
        self.end_headers()
        self.wfile.write(payload)

    def _stream(self, reply: StreamReply, model: str) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("connection", "close")
        self.end_headers()
        events = stream_events(reply, model)
        n_head = 3
        cut = next((k for k in (reply.error_after, reply.hold_after) if k is not None), None)
        try:
            for i, event in enumerate(events):
                if cut is not None and i == n_head + cut:
                    self._break_off(reply)
                    return
                self.wfile.write(event)
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.fake.disconnected.set()

    def _break_off(self, reply: StreamReply) -> None:
        if reply.error_after is not None:
            self.wfile.write(_sse("error", _error_body("overloaded_error", "Overloaded")))
            self.wfile.flush()
            return
        # Hold the stream open, pinging, until the client hangs up or the test releases it.
        deadline = time.monotonic() + 10
        while not self.fake.release.is_set() and time.monotonic() < deadline:
            self.wfile.write(_sse("ping", {"type": "ping"}))
            self.wfile.flush()
            time.sleep(0.02)
