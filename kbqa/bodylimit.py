"""Request bodies are bounded before anything buffers them.

Two layers, one rule (``body_limit``: the largest body a path accepts, in bytes):

- ``BodyLimitMiddleware`` (ASGI, any server): a declared ``Content-Length`` over the limit is
  refused at once with 413 JSON, before Django reads a byte; without one, bytes are counted
  as they arrive and the request is cut off with 413 at the limit. An optional ``precheck``
  runs before the body is read and may refuse the request (the answer API authenticates
  there, so an anonymous caller is refused without its body ever being read).
- ``install_daphne_guard`` (Daphne only): Daphne's Twisted layer receives the whole body and
  parses multipart forms into memory before the ASGI application is called, then queues the
  whole body for it (measured 2026-11-30 on main: a 200 MB multipart body to ``/api/answer``
  peaked at 2.5 GB RSS and took 14.5 s to be refused with 401). The guard swaps Daphne's
  request class for one that refuses over-limit bodies from the headers (or counts chunked
  ones), never parses forms itself (Django does), and closes the connection after the 413,
  as Twisted itself does for a bad request.
"""

from __future__ import annotations

import io
import json
from collections.abc import Awaitable, Callable
from typing import Any

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
# (scope) -> None to go on, or (status, message) to refuse before the body is read.
# (status, message) or (status, message, WWW-Authenticate challenge), None to go on
Refusal = tuple[int, str] | tuple[int, str, str]
Precheck = Callable[[Scope], Awaitable[Refusal | None]]

TOO_LARGE = "The request body is too large (limit {limit})."


def size_text(limit: int) -> str:
    """``limit`` bytes for people: ``1 MB``, ``100 MB``, ``512 KB``."""
    mb = 1024 * 1024
    if limit >= mb:
        return f"{limit / mb:g} MB"
    return f"{max(1, limit // 1024)} KB"


def json_error(status: int, message: str) -> bytes:
    return json.dumps({"error": message}).encode("utf-8")


def content_length(headers: list[tuple[bytes, bytes]]) -> int | None:
    """The declared body size in bytes, None when absent or not a number."""
    for name, value in headers:
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _respond(send: Send, status: int, message: str, challenge: str = "") -> None:
    body = json_error(status, message)
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    if challenge:  # a 401 names the scheme to use (RFC 9110 section 11.6.1)
        headers.append((b"www-authenticate", challenge.encode("latin-1")))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class _TooLarge(Exception):
    pass


class BodyLimitMiddleware:
    """ASGI middleware: bound HTTP request bodies by ``limit_for(path)`` bytes (413 JSON)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        limit_for: Callable[[str], int],
        precheck: Precheck | None = None,
    ) -> None:
        self.app, self.limit_for, self.precheck = app, limit_for, precheck

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope["path"])
        declared = content_length(scope.get("headers") or [])
        if declared is not None and declared > limit:
            await _respond(send, 413, TOO_LARGE.format(limit=size_text(limit)))
            return
        if self.precheck is not None and (refusal := await self.precheck(scope)) is not None:
            await _respond(send, *refusal)
            return
        await self._counted(scope, receive, send, limit)

    async def _counted(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        received, started, over = 0, False, False

        async def counting_receive() -> Message:
            nonlocal received, over
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    over = True
                    # Django treats a disconnect while reading as an aborted request and
                    # sends nothing; the 413 is sent below.
                    return {"type": "http.disconnect"}
            return message

        async def watching_send(message: Message) -> None:
            nonlocal started
            if over and not started:
                raise _TooLarge
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counting_receive, watching_send)
        except _TooLarge:
            pass
        if over and not started:
            await _respond(send, 413, TOO_LARGE.format(limit=size_text(limit)))


def install_daphne_guard(limit_for: Callable[[str], int]) -> None:
    """Make Daphne's HTTP requests refuse bodies over ``limit_for(path)`` bytes as they arrive.

    Rebinds ``daphne.http_protocol.WebRequest`` (what Daphne's ``HTTPFactory.buildProtocol``
    builds each request from) to a subclass; calling it again is harmless.
    """
    from daphne import http_protocol

    base = getattr(http_protocol.WebRequest, "kbqa_base", http_protocol.WebRequest)

    class BoundedWebRequest(base):  # type: ignore[misc,valid-type]
        kbqa_base = base

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            # Django parses forms (streaming files to disk); Twisted's parser holds them in memory.
            kwargs["parsePOSTFormSubmission"] = False
            super().__init__(*args, **kwargs)
            self.kbqa_limit, self.kbqa_received, self.kbqa_refused = 0, 0, False

        def gotLength(self, length: int | None) -> None:  # noqa: N802 (Twisted's name)
            path = (getattr(self.channel, "_path", b"") or b"/").split(b"?", 1)[0]
            self.kbqa_limit = limit_for(path.decode("latin-1"))
            if length is not None and length > self.kbqa_limit:
                self.kbqa_refuse()
                return
            super().gotLength(length)

        def handleContentChunk(self, data: bytes) -> None:  # noqa: N802
            if self.kbqa_refused:
                return
            self.kbqa_received += len(data)
            if self.kbqa_received > self.kbqa_limit:
                self.kbqa_refuse()
                return
            super().handleContentChunk(data)

        def requestReceived(self, command: bytes, path: bytes, version: bytes) -> None:  # noqa: N802
            if not self.kbqa_refused:  # a refused request never reaches the application
                super().requestReceived(command, path, version)

        def kbqa_refuse(self) -> None:
            self.kbqa_refused = True
            self.content = io.BytesIO()  # nothing more is kept
            self.requestHeaders.removeHeader(b"Expect")  # no "100 Continue" after the 413
            body = json_error(413, TOO_LARGE.format(limit=size_text(self.kbqa_limit)))
            self.channel.transport.write(
                b"HTTP/1.1 413 Content Too Large\r\nContent-Type: application/json\r\n"
                b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body)
            )
            self.channel.loseConnection()

    http_protocol.WebRequest = BoundedWebRequest
