"""The ASGI lifespan protocol: what the server process shares is closed when it stops.

ASGI servers that speak lifespan (uvicorn, hypercorn; https://asgi.readthedocs.io/en/latest/
specs/lifespan.html) send ``lifespan.startup`` before the first connection and
``lifespan.shutdown`` after the last, on the loop that served them. Startup needs nothing
(``kbqa.asgi`` loads the app and the index when imported); shutdown closes the providers
every turn on that loop shared (``chat.pipeline_settings.providers_shared_close``). Daphne
sends no lifespan events: its loop outlives its reactor, and the providers are closed at
process exit instead (``providers_shared_close_at_exit``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from chat.pipeline_settings import providers_shared_close

log = logging.getLogger(__name__)

Message = dict[str, Any]


async def lifespan_app(
    scope: dict[str, Any],
    receive: Callable[[], Awaitable[Message]],
    send: Callable[[Message], Awaitable[None]],
) -> None:
    """Answer ``lifespan.startup`` at once; on ``lifespan.shutdown`` close the shared
    providers, then report ``lifespan.shutdown.complete`` (or ``.failed`` with the error's
    text, which the server logs)."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            try:
                await providers_shared_close()
            except Exception as exc:  # noqa: BLE001 - reported to the server, which logs it
                log.exception("closing the shared providers failed")
                await send({"type": "lifespan.shutdown.failed", "message": str(exc)})
                return
            await send({"type": "lifespan.shutdown.complete"})
            return
