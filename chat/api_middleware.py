"""Django's own middleware, run on the event loop for the answer API.

Under ASGI, Django runs each ``MiddlewareMixin`` hook (``process_request``,
``process_response``) through ``sync_to_async``: a hand-over to a thread and back. A
``POST /api/answer/stream`` made 20 of them, 16 for middleware whose hooks only read
headers and cookies and set response headers; under ``bench/load.py`` (200 SSE answers at
once, 2026-12-01) each hand-over cost the event loop and the thread about 0.3 ms of CPU.
Seven are gone: the locale, common, authentication and messages middleware.

The classes below are Django's, unchanged, except that on ``/api/answer*`` their hooks run
inline on the event loop. They do no I/O there: the locale is read from headers and the
cookie, the user is only made lazy (``request.auser`` reads it on a thread), and the API
never uses messages. ``SessionMiddleware`` is left as Django ships it (its response hook
may save the session), and so are the security, CSRF and clickjacking middleware (``check
--deploy`` looks for their names), and every other path (pages and admin may use messages
stored in the session).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import middleware as auth
from django.contrib.messages import middleware as messages
from django.http import HttpRequest, HttpResponseBase
from django.middleware import common, locale

from chat.auth import API_ANSWER_PREFIX


class InlineOnAnswerApi:
    """Mixin before a ``MiddlewareMixin`` subclass: hooks inline on the answer API."""

    get_response: Any

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        if not request.path.startswith(API_ANSWER_PREFIX):
            return await super().__acall__(request)  # type: ignore[misc, no-any-return]
        response = None
        if hasattr(self, "process_request"):
            response = self.process_request(request)
        response = response or await self.get_response(request)
        if hasattr(self, "process_response"):
            response = self.process_response(request, response)
        return response  # type: ignore[no-any-return]


class LocaleMiddleware(InlineOnAnswerApi, locale.LocaleMiddleware):
    pass


class CommonMiddleware(InlineOnAnswerApi, common.CommonMiddleware):
    pass


class AuthenticationMiddleware(InlineOnAnswerApi, auth.AuthenticationMiddleware):
    pass


class MessageMiddleware(InlineOnAnswerApi, messages.MessageMiddleware):
    pass


