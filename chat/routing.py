"""Websocket routes; asgi.py wraps them in AllowedHostsOriginValidator(AuthMiddlewareStack()).

A socket opened on any other path is refused at the handshake (HTTP 403, as Daphne answers
a consumer that closes before accepting): Channels' router raises ``ValueError`` for a path
it has no route for, which Daphne answered with HTTP 500 and a traceback in the log for
each probe (a tester's report).
"""

from __future__ import annotations

import logging

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import URLPattern, path, re_path

from chat.consumers import ChatConsumer

log = logging.getLogger(__name__)


class NoRouteConsumer(AsyncWebsocketConsumer):
    """Refuses a socket on a path no route serves, without a traceback."""

    async def connect(self) -> None:
        log.info("websocket refused: no route for %s", self.scope.get("path", ""))
        await self.close()


websocket_urlpatterns: list[URLPattern] = [
    path("ws/chat/<int:conversation_id>/", ChatConsumer.as_asgi(), name="ws_chat"),
    re_path(r"", NoRouteConsumer.as_asgi()),  # last: every other path
]
