"""Project middleware: ``?lang=`` picks the page's language.

Django's ``LocaleMiddleware`` reads the language cookie and Accept-Language, not the URL;
a link such as ``/?lang=zh-hans`` (or ``?lang=en`` on a Chinese browser) should still show
the page, and therefore its websocket (whose URL carries the page's language, see
``chat.consumers.scope_language``), in that language. The choice is remembered in the
language cookie, as the language switcher (``set_language``) remembers it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation


def query_language(request: HttpRequest) -> str | None:
    """The supported language code named by ``?lang=`` (``zh-CN`` -> ``zh-hans``), or None."""
    code = request.GET.get("lang", "")
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


class QueryLanguageMiddleware:
    """Activate ``?lang=`` for this request and store it in the language cookie.

    Goes right after ``django.middleware.locale.LocaleMiddleware``, which it overrides.
    Async-capable (Django's "sync and async middleware" pattern): a sync-only middleware
    makes Django's ASGI handler run the whole chain on a thread and the async views through
    ``async_to_sync``, so each ``POST /api/answer`` kept a thread parked for the answer's
    length; when Daphne stopped its loop on SIGTERM that thread waited for ever and the
    interpreter's exit joined it, so the server never exited (2026-12-01).
    """

    async_capable = True
    sync_capable = True

    def __init__(
        self,
        get_response: Callable[[HttpRequest], HttpResponse]
        | Callable[[HttpRequest], Awaitable[HttpResponse]],
    ) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> HttpResponse | Awaitable[HttpResponse]:
        if self.is_async:
            return self._acall(request)
        language = _activate(request)
        return _remember(self.get_response(request), language)

    async def _acall(self, request: HttpRequest) -> HttpResponse:
        language = _activate(request)
        return _remember(await self.get_response(request), language)


def _activate(request: HttpRequest) -> str | None:
    language = query_language(request)
    if language is not None:
        translation.activate(language)
        request.LANGUAGE_CODE = language
    return language


def _remember(response: HttpResponse, language: str | None) -> HttpResponse:
    if language is not None:
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
    return response
