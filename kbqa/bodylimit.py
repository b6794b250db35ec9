"""Request bodies are bounded before anything buffers them.

Two layers, one rule (``body_limit``: the largest body a path accepts, in bytes):

- ``BodyLimitMiddleware`` (ASGI, any server): a declared ``Content-Length`` over the limit is
  refused at once with 413 JSON, before Django reads a byte; without one, bytes are counted
  as they arrive and the request is cut off with 413 at the limit. An optional ``precheck``
  runs before the body is read and may refuse the request (the answer API authenticates
  there, so an anonymous caller is refused without its body ever being read).
- A ``Content-Length`` that is no whole number of bytes (``abc``, ``-5``) is refused with 400
  JSON ``invalid_content_length`` by both layers (Twisted answered an empty 400).
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
from collections.abc import Awaitable, Callable, Mapping
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from django.http import HttpRequest
from django.http.cookie import parse_cookie
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_noop

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
# (scope) -> None to go on, or (status, message) to refuse before the body is read.
# (status, message) or (status, message, WWW-Authenticate challenge), None to go on
Refusal = tuple[int, str] | tuple[int, str, str]
Precheck = Callable[[Scope], Awaitable[Refusal | None]]

# Messages are English in JSON (the API's contract); a browser's page shows them translated.
TOO_LARGE = gettext_noop("The request body is too large (limit %(limit)s).")
BAD_LENGTH = gettext_noop(
    "The Content-Length header %(value)s is not a size in bytes (a whole number, 0 or more)."
)


def size_text(limit: int) -> str:
    """``limit`` bytes for people: ``1 MB``, ``100 MB``, ``512 KB``."""
    mb = 1024 * 1024
    if limit >= mb:
        return f"{limit / mb:g} MB"
    return f"{max(1, limit // 1024)} KB"


def json_error(status: int, message: str, challenge: str = "") -> bytes:
    """``{"error": message, "code": ...}``, the answer API's codes (README: HTTP API):
    ``body_too_large`` for a 413; for a 401 ``invalid_token`` when its ``challenge`` says
    so (RFC 6750 section 3.1), else ``unauthorized``; ``forbidden`` for a 403;
    ``invalid_content_length`` for a 400 (``BAD_LENGTH``, the only one made here);
    ``request_refused`` otherwise."""
    if status == 413:
        code = "body_too_large"
    elif status == 400:
        code = "invalid_content_length"
    elif status == 401:
        code = "invalid_token" if 'error="invalid_token"' in challenge else "unauthorized"
    else:
        code = "forbidden" if status == 403 else "request_refused"
    return json.dumps({"error": message, "code": code}).encode("utf-8")


def limit_params(limit: int) -> dict[str, str]:
    """``TOO_LARGE``'s parameters for a ``limit`` in bytes."""
    return {"limit": size_text(limit)}


def error_body(
    status: int, message: str, headers: Mapping[bytes, bytes], params: Mapping[str, str],
    challenge: str = "", *, path: str = "/",
) -> tuple[bytes, bytes]:
    """``(content type, body)`` of a refusal made before Django sees the request to ``path``.

    ``message`` is an English template (``TOO_LARGE``, a precheck's message) filled with
    ``params``. The API (``/api/``), scripts and anything that does not rank ``text/html``
    above JSON in its ``Accept`` get ``{"error": message}`` JSON, in English (the API's
    contract); a browser posting a form (the admin's upload) gets a small page in the site's
    language with a link back (``html_error``), instead of raw JSON in place of the admin.
    """
    request = _request_of(headers)
    if path.startswith("/api/") or not prefers_html(request):
        return b"application/json", json_error(status, _filled(message, params), challenge)
    return b"text/html; charset=utf-8", html_error(status, message, request, params, path=path)


def prefers_html(request: HttpRequest) -> bool:
    """True when the request's ``Accept`` ranks ``text/html`` above ``application/json`` (a
    browser's page or form); False for ``*/*``, no ``Accept``, or JSON first."""
    return request.get_preferred_type(["application/json", "text/html"]) == "text/html"


def html_error(
    status: int, message: str, request: HttpRequest, params: Mapping[str, str], *, path: str
) -> bytes:
    """The refusal as a page in the site's language (the language cookie, else
    ``Accept-Language``, as ``LocaleMiddleware`` picks it), linking back (``back_link``)."""
    from django.utils import translation
    from django.utils.html import escape
    from django.utils.translation import gettext as _

    with translation.override(translation.get_language_from_request(request)):
        title = _("The request was not accepted")
        text = _filled(_(message), params)
        advice = _("Go back and send fewer or smaller files at a time.") if status == 413 else ""
        back = _("Go back")
        lang = translation.get_language() or "en"
    return (
        f'<!doctype html><html lang="{escape(lang)}"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title></head><body><h1>{escape(title)}</h1>"
        f"<p>{escape(text)}</p>" + (f"<p>{escape(advice)}</p>" if advice else "")
        + f'<p><a href="{escape(back_link(request, path))}">{escape(back)}</a></p></body></html>'
    ).encode("utf-8")


def back_link(request: HttpRequest, path: str) -> str:
    """Where the refusal page links: the page the form was on (its ``Referer``, only on the
    request's own host and port), else ``/admin/`` for an admin page, else ``/``."""
    referer = request.META.get("HTTP_REFERER", "")
    host = request.META.get("HTTP_HOST", "")
    if referer and host and url_has_allowed_host_and_scheme(referer, allowed_hosts={host}):
        page = urlsplit(referer)
        return urlunsplit(("", "", page.path or "/", page.query, ""))
    return "/admin/" if path.startswith("/admin/") else "/"


def _filled(template: str, params: Mapping[str, str]) -> str:
    return template % params if params else template  # a bare "%" needs no escaping then


def _request_of(headers: Mapping[bytes, bytes]) -> HttpRequest:
    """A bare ``HttpRequest`` with the headers a refusal reads (Accept, Accept-Language,
    Referer, Host, the language cookie), so its type and language are chosen as Django
    chooses them for a page."""
    request = HttpRequest()
    for name in (b"accept", b"accept-language", b"referer", b"host"):
        if name in headers:
            key = "HTTP_" + name.decode("ascii").upper().replace("-", "_")
            request.META[key] = headers[name].decode("latin-1")
    request.COOKIES = parse_cookie(headers.get(b"cookie", b"").decode("latin-1"))
    return request


class InvalidLength(ValueError):
    """A ``Content-Length`` that is no whole number of bytes; ``params`` fill ``BAD_LENGTH``."""

    def __init__(self, value: bytes) -> None:
        super().__init__(value)
        shown = value.decode("latin-1")
        self.params = {"value": repr(shown[:40] + ("..." if len(shown) > 40 else ""))}


def content_length(headers: list[tuple[bytes, bytes]]) -> int | None:
    """The declared body size in bytes, None when absent. Raises ``InvalidLength`` for a
    value that is not ASCII digits (RFC 9110 section 8.6: ``1*DIGIT``), as Twisted does."""
    for name, value in headers:
        if name.lower() == b"content-length":
            if not value.strip(b" \t").isdigit():
                raise InvalidLength(value)
            return int(value)
    return None


async def _respond(
    send: Send,
    status: int,
    message: str,
    challenge: str = "",
    *,
    scope: Scope,
    params: Mapping[str, str] | None = None,
) -> None:
    headers_in = dict(scope.get("headers") or [])
    content_type, body = error_body(
        status, message, headers_in, params or {}, challenge, path=scope["path"]
    )
    headers = [(b"content-type", content_type), (b"content-length", b"%d" % len(body))]
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
        try:
            declared = content_length(scope.get("headers") or [])
        except InvalidLength as exc:
            await _respond(send, 400, BAD_LENGTH, scope=scope, params=exc.params)
            return
        if declared is not None and declared > limit:
            await _respond(send, 413, TOO_LARGE, scope=scope, params=limit_params(limit))
            return
        if self.precheck is not None and (refusal := await self.precheck(scope)) is not None:
            await _respond(send, *refusal, scope=scope)
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
            await _respond(send, 413, TOO_LARGE, scope=scope, params=limit_params(limit))


def install_daphne_guard(limit_for: Callable[[str], int]) -> None:
    """Make Daphne's HTTP requests refuse bodies over ``limit_for(path)`` bytes as they arrive.

    Rebinds ``daphne.http_protocol.WebRequest`` (what Daphne's ``HTTPFactory.buildProtocol``
    builds each request from) to a subclass; calling it again is harmless.
    """
    from daphne import http_protocol
    from twisted.web import http

    # Twisted's reason phrase for 413 is RFC 7231's "Request Entity Too Large"; the refusal
    # written above says RFC 9110's "Content Too Large", and the application's own 413s
    # (the API's too-long question, a refusal from Content-Length) go out with Twisted's:
    # one status, one phrase.
    http.RESPONSES[413] = b"Content Too Large"
    base = getattr(http_protocol.WebRequest, "kbqa_base", http_protocol.WebRequest)

    class BoundedWebRequest(base):  # type: ignore[misc,valid-type]
        kbqa_base = base

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            # Django parses forms (streaming files to disk); Twisted's parser holds them in memory.
            kwargs["parsePOSTFormSubmission"] = False
            super().__init__(*args, **kwargs)
            self.kbqa_limit, self.kbqa_received, self.kbqa_refused = 0, 0, False
            self.kbqa_path = "/"

        def gotLength(self, length: int | None) -> None:  # noqa: N802 (Twisted's name)
            path = (getattr(self.channel, "_path", b"") or b"/").split(b"?", 1)[0]
            self.kbqa_path = path.decode("latin-1")
            self.kbqa_limit = limit_for(self.kbqa_path)
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
            content_type, body = error_body(
                413, TOO_LARGE, _first_values(self.requestHeaders),
                limit_params(self.kbqa_limit), path=self.kbqa_path,
            )
            response = _raw_response(b"413 Content Too Large", content_type, body)
            self.channel.transport.write(response)
            self.channel.loseConnection()

    class BoundedChannel(http.HTTPChannel):  # type: ignore[misc]
        """Twisted's channel, refusing a ``Content-Length`` that is no number as
        ``BodyLimitMiddleware`` does (Twisted wrote a bare ``400 Bad Request``, no body)."""

        def _maybeChooseTransferDecoder(self, header: bytes, data: bytes) -> bool:  # noqa: N802
            if header != b"Content-Length" or data.isdigit():
                return bool(super()._maybeChooseTransferDecoder(header, data))
            path = (getattr(self, "_path", b"") or b"/").split(b"?", 1)[0].decode("latin-1")
            content_type, body = error_body(
                400, BAD_LENGTH, _first_values(self.requests[-1].requestHeaders),
                InvalidLength(data).params, path=path,
            )
            self.transport.write(_raw_response(b"400 Bad Request", content_type, body))
            self.loseConnection()
            self.length = None
            return False

    def channel_protocol(factory: Any) -> Any:  # Twisted's _genericHTTPChannelProtocolFactory
        return http._GenericHTTPChannelProtocol(BoundedChannel())

    http_protocol.WebRequest = BoundedWebRequest
    # Twisted's private channel API (Twisted 26.10 here): without it, a future
    # Twisted keeps its own bare 400 for such a header rather than failing every connection
    if hasattr(http, "_GenericHTTPChannelProtocol") and hasattr(
            http.HTTPChannel, "_maybeChooseTransferDecoder"):
        http_protocol.HTTPFactory.protocol = channel_protocol


def _first_values(headers: Any) -> dict[bytes, bytes]:
    """Twisted ``Headers`` as ``{lower-case name: first value}``."""
    return {name.lower(): values[0] for name, values in headers.getAllRawHeaders() if values}


def _raw_response(status: bytes, content_type: bytes, body: bytes) -> bytes:
    """A whole HTTP/1.1 response that closes the connection, written before Daphne's request
    exists (or instead of it)."""
    return (b"HTTP/1.1 %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n"
            b"Connection: close\r\n\r\n%s" % (status, content_type, len(body), body))
