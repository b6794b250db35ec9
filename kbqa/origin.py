"""Websockets are accepted only from the page's own origin, port included.

Channels' ``AllowedHostsOriginValidator`` compares the Origin's host with ``ALLOWED_HOSTS``
and ignores the port, so a page served by another program on the same host (any port) could
open a chat socket with the user's cookies. ``SameOriginValidator`` also requires the Origin's
host and port to be those the socket was opened to (its ``Host`` header, as Django's CSRF
origin check compares them), unless the origin is listed in ``CSRF_TRUSTED_ORIGINS`` (a page
served from another origin on purpose, behind a proxy).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings


def same_origin(headers: list[tuple[bytes, bytes]]) -> bool:
    """True when the Origin header's ``host[:port]`` equals the Host header's (either being
    absent is False), or the origin is one of ``settings.CSRF_TRUSTED_ORIGINS``."""
    values = {name.lower(): value.decode("latin-1") for name, value in headers}
    origin, host = values.get(b"origin", ""), values.get(b"host", "")
    if not origin or not host:
        return False
    if origin.rstrip("/") in settings.CSRF_TRUSTED_ORIGINS:
        return True
    return urlsplit(origin).netloc.lower() == host.lower()


class SameOriginValidator:
    """ASGI middleware for websockets: deny (close before accept) a cross-origin handshake."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if same_origin(scope.get("headers") or []):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
