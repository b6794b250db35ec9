"""Project middleware: ``?lang=`` picks the page's language.

Django's ``LocaleMiddleware`` reads the language cookie and Accept-Language, not the URL;
a link such as ``/?lang=zh-hans`` (or ``?lang=en`` on a Chinese browser) should still show
the page, and therefore its websocket (whose URL carries the page's language, see
``chat.consumers.scope_language``), in that language. The choice is remembered in the
language cookie, as the language switcher (``set_language``) remembers it.
"""

from __future__ import annotations

from collections.abc import Callable

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
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = query_language(request)
        if language is not None:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        response = self.get_response(request)
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
