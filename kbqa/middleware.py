"""Project middleware: ``?lang=`` picks the page's language; an htmx request that meets the
login page sends the whole page there (``HtmxLoginMiddleware``).

Django's ``LocaleMiddleware`` reads the language cookie and Accept-Language, not the URL;
a link such as ``/?lang=zh-hans`` (or ``?lang=en`` on a Chinese browser) should still show
the page, and therefore its websocket (whose URL carries the page's language, see
``chat.consumers.scope_language``), in that language. The choice is remembered in the
language cookie, as the language switcher (``set_language``) remembers it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from urllib.parse import urlencode, urlsplit

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django_htmx.http import HttpResponseClientRedirect


def query_language(request: HttpRequest) -> str | None:
    """The supported language code named by ``?lang=`` (``zh-CN`` -> ``zh-hans``), or None."""
    code = request.GET.get("lang", "")
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


class AsyncCapableMiddleware:
    """Django's "sync and async middleware" pattern, once: ``before`` the view (its result
    handed to ``after``) and ``after`` it. A sync-only middleware makes Django's ASGI
    handler run the whole chain on a thread and the async views through ``async_to_sync``,
    so each ``POST /api/answer`` kept a thread parked for the answer's length; when Daphne
    stopped its loop on SIGTERM that thread waited for ever and the interpreter's exit
    joined it, so the server never exited (2026-12-01)."""

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
        state = self.before(request)
        return self.after(request, self.get_response(request), state)

    async def _acall(self, request: HttpRequest) -> HttpResponse:
        state = self.before(request)
        return self.after(request, await self.get_response(request), state)

    def before(self, request: HttpRequest) -> str | None:
        return None

    def after(self, request: HttpRequest, response: HttpResponse, state: str | None
              ) -> HttpResponse:
        return response


class QueryLanguageMiddleware(AsyncCapableMiddleware):
    """Activate ``?lang=`` for this request and store it in the language cookie.

    Goes right after ``django.middleware.locale.LocaleMiddleware``, which it overrides.
    """

    def before(self, request: HttpRequest) -> str | None:
        return _activate(request)

    def after(self, request: HttpRequest, response: HttpResponse, state: str | None
              ) -> HttpResponse:
        return _remember(response, state)


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


class HtmxLoginMiddleware(AsyncCapableMiddleware):
    """An htmx request (a citation chip, the feedback form, a rename) whose answer is the
    redirect to the login page, because the session ended (logged out in another tab,
    expired), sends the whole page to the login page, back to the page it was on after
    logging in (``HX-Redirect``, django-htmx's ``HttpResponseClientRedirect``). htmx
    otherwise followed the redirect itself and swapped the login page into the citation
    dialog or the footer (a tester, 2026-12-06)."""

    def after(self, request: HttpRequest, response: HttpResponse, state: str | None
              ) -> HttpResponse:
        return login_for_htmx(request, response)


def login_for_htmx(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """``response``, or for an htmx request redirected to the login page a client redirect
    there whose ``next`` is the page the request came from (``HX-Current-URL``, when it is
    this site's; else the start page)."""
    if request.headers.get("HX-Request") != "true" or response.status_code not in (301, 302):
        return response
    login = resolve_url(settings.LOGIN_URL)
    if urlsplit(response.get("Location", "")).path != login:
        return response
    current = request.headers.get("HX-Current-URL", "")
    page = urlsplit(current)
    here = url_has_allowed_host_and_scheme(current, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure())
    back = (page.path + (f"?{page.query}" if page.query else "")) if here and page.path else "/"
    return HttpResponseClientRedirect(f"{login}?{urlencode({'next': back})}")
