"""The HTTP/1.1 side of the fake model servers: chunked streaming bodies and the faults a real
network produces.

A real API streams ``text/event-stream`` over HTTP/1.1 with ``Transfer-Encoding: chunked``
(RFC 9112 section 7.1), so the client can tell a body that ended (the zero-length last
chunk) from a connection that died part-way (httpx raises ``RemoteProtocolError``:
incomplete chunked read). ``StreamingHandler`` writes such bodies and can fail them the ways
a network does: ``abort`` (connection dropped mid-body), ``stall`` (nothing more, not even
pings, until the client gives up), ``hold`` (pings only), or a clean end after which the
protocol's own terminator never came.

``FakeServer`` runs a stdlib ``ThreadingHTTPServer`` on 127.0.0.1 in a thread, takes
scripted replies in order and records every request (``requests``).
"""

from __future__ import annotations

import itertools
import json
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

STALL_LIMIT = 10.0  # seconds a stall or hold lasts at most, so a broken test cannot hang


@dataclass
class RecordedRequest:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


@dataclass
class FakeServer:
    """Start with ``with Server() as server:``; point the SDK at ``server.url``."""

    replies: deque[Any] = field(default_factory=deque)
    requests: list[RecordedRequest] = field(default_factory=list)
    disconnected: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    _httpd: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None
    handler: ClassVar[type[StreamingHandler]]

    def script(self, *replies: Any) -> None:
        self.replies.extend(replies)

    @property
    def url(self) -> str:
        assert self._httpd is not None
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def next_reply(self) -> Any:
        return self.replies.popleft() if self.replies else self.default_reply()

    def default_reply(self) -> Any:
        raise NotImplementedError

    def __enter__(self) -> FakeServer:
        handler = type("Handler", (self.handler,), {"fake": self})
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


_request_ids = itertools.count(1)


def request_id(prefix: str) -> str:
    """A unique id shaped like the provider's (``req_011CV...``)."""
    return f"{prefix}{next(_request_ids):016d}"


class StreamingHandler(BaseHTTPRequestHandler):
    """HTTP/1.1 handler: JSON errors with Content-Length, streams with chunked transfer."""

    protocol_version = "HTTP/1.1"
    fake: FakeServer
    request_id_header: ClassVar[str] = "request-id"
    request_id_prefix: ClassVar[str] = "req_011CV"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        """Silence the per-request log lines."""

    def do_POST(self) -> None:  # noqa: N802 - stdlib naming
        length = int(self.headers.get("content-length", "0"))
        body = json.loads(self.rfile.read(length) or b"{}")
        self.fake.requests.append(
            RecordedRequest(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
        )
        self.respond(self.fake.next_reply(), body)

    def respond(self, reply: Any, body: dict[str, Any]) -> None:
        raise NotImplementedError

    def send_json(self, status: int, payload: dict[str, Any], headers: dict[str, str]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.send_header(self.request_id_header, request_id(self.request_id_prefix))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def start_stream(self) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/event-stream; charset=utf-8")
        self.send_header("cache-control", "no-cache")
        self.send_header("transfer-encoding", "chunked")
        self.send_header(self.request_id_header, request_id(self.request_id_prefix))
        self.end_headers()

    def chunk(self, data: bytes) -> None:
        """One chunk of the body; a client hang-up sets ``fake.disconnected`` and raises."""
        try:
            self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.fake.disconnected.set()
            raise

    def end_stream(self) -> None:
        """The zero-length last chunk: the body ended properly (whatever it contained)."""
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def abort(self) -> None:
        """Drop the connection mid-body: no last chunk, as when a proxy or the network dies."""
        self.close_connection = True
        self.connection.shutdown(socket.SHUT_RDWR)

    def stall(self, ping: bytes | None = None) -> None:
        """Send nothing (or only ``ping`` every 20 ms) until the client hangs up, the test
        releases the server, or ``STALL_LIMIT`` passes; then drop the connection."""
        deadline = time.monotonic() + STALL_LIMIT
        while not self.fake.release.is_set() and time.monotonic() < deadline:
            if ping is not None:
                self.chunk(ping)
            elif _peer_closed(self.connection):
                self.fake.disconnected.set()
                return
            time.sleep(0.02)
        self.abort()


def _peer_closed(conn: socket.socket) -> bool:
    """True when the client has closed its side (a read would return b"")."""
    conn.setblocking(False)
    try:
        return conn.recv(1, socket.MSG_PEEK) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True
    finally:
        conn.setblocking(True)


def sse(data: dict[str, Any] | str, event: str | None = None) -> bytes:
    """One server-sent event (``event:`` line optional, ``data:`` JSON or raw text)."""
    payload = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {payload}\n\n".encode()
