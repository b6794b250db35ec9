"""What a chat socket's URL and headers say about the page that opened it: its language and
its page load (``tab``)."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from django.conf import settings
from django.utils import translation


def scope_language(scope: dict[str, Any]) -> str:
    """The UI language for this socket, as LocaleMiddleware picks it for the page: the page's
    own language sent as ``?lang=`` in the socket URL, else the language cookie, else
    Accept-Language (``zh-CN`` -> ``zh-hans`` via ``get_supported_language_variant``), else
    ``LANGUAGE_CODE``. ``?lang=`` comes first because Chromium's websocket handshake can carry
    a different Accept-Language than the page request (measured: Playwright ``locale=zh-CN``
    pages get zh-CN, the socket en-US), which left a Chinese page with English fragments."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    cookie = scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME, "")
    headers = dict(scope.get("headers") or ())
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    candidates = [*query.get("lang", [])[:1], cookie] + [
        code for code, _q in translation.trans_real.parse_accept_lang_header(accept)
    ]
    for code in candidates:
        if not code or code == "*":
            continue
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


def socket_tab(scope: dict[str, Any]) -> str:
    """The page that opened this socket: ``?tab=`` of the socket URL, rendered once per page
    load (``chat.views.chat_page``), so a socket the browser reopens after a drop keeps it.
    Only letters and digits, at most 32; anything else is no tab (``""``)."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    tab = (query.get("tab") or [""])[0]
    return tab if tab.isalnum() and tab.isascii() and len(tab) <= 32 else ""
