"""The last catch boundary of an HTTP request: an exception that escapes the ASGI
application before its response starts is answered as Django's ``handler500`` answers one
(``kbqa.urls.server_error``: the API's JSON 503 ``service_busy`` under ``/api/``, the app's
own 500 page elsewhere), not by the server.

What runs before Django's handler has no Django boundary around it: the body limit's
precheck (``kbqa.asgi.precheck``) reads the API token or the session from the database
before the body is read. With PostgreSQL down or a wrong password in ``DATABASE_URL`` that
read raised ``OperationalError`` there, and Daphne answered ``POST /api/answer`` with its own
page, ``<h1>500 Internal Server Error</h1><p>Exception inside application.</p>`` (a
deployment tester through two Daphne processes behind nginx, 2026-12-06).

An exception after the response started is re-raised: the status is sent and cannot
change. The answer stream ends itself on a failure instead (``chat.api``), since Daphne
leaves such a response open. Starlette's ``ServerErrorMiddleware`` is the same idea.
"""

from __future__ import annotations

import io
import logging

from django.core.handlers.asgi import ASGIRequest
from django.http import HttpResponse
from django.urls import get_resolver
from django.utils import translation

from kbqa.bodylimit import ASGIApp, Message, Receive, Scope, Send

logger = logging.getLogger(__name__)


class ServerErrorMiddleware:
    """ASGI middleware around the HTTP application: an exception raised before
    ``http.response.start`` is logged and answered with ``handler500``'s response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watching_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, watching_send)
        except Exception:
            if started:
                raise
            logger.exception("Request failed before Django answered it: %s", scope["path"])
            await response_send(send, error_response(scope))


def error_response(scope: Scope) -> HttpResponse:
    """The response of the URLconf's ``handler500`` to the request ``scope`` describes, in
    the language of its cookie or ``Accept-Language``. Call it inside the ``except`` for the
    error: the handler reads the error from ``sys.exception()``."""
    request = ASGIRequest(scope, io.BytesIO())
    handler = get_resolver().resolve_error_handler(500)
    with translation.override(translation.get_language_from_request(request)):
        response: HttpResponse = handler(request)
    return response


async def response_send(send: Send, response: HttpResponse) -> None:
    """Send a complete ``response`` (not streaming) as ASGI messages."""
    body = response.content
    headers = [(name.encode("latin-1"), value.encode("latin-1"))
               for name, value in response.items()]
    headers.append((b"content-length", b"%d" % len(body)))
    await send({"type": "http.response.start", "status": response.status_code,
                "headers": headers})
    await send({"type": "http.response.body", "body": body})
