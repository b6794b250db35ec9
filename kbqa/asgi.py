"""ASGI entry point: HTTP through Django, websockets through Channels.

Order follows Channels' own sample project: build the Django ASGI app first (it sets up
apps), then import routing, then wrap websockets in
``AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(...)))``.

HTTP request bodies are bounded before anything buffers them (``kbqa.bodylimit``): the admin
upload page accepts ``KBQA_MAX_REQUEST_MB``, everything else ``DATA_UPLOAD_MAX_MEMORY_SIZE``;
the answer API authenticates its caller before the body is read (``chat.auth.api_precheck``).
An exception before the response starts (that precheck's database read, with the database
unreachable) is answered as Django's ``handler500`` answers one, never with Daphne's HTML
page (``kbqa.servererror``).
Websockets must come from the page's own origin, port included (``kbqa.origin``); under
Daphne a frame over its size limit closes the socket with 1009 and a reason, not a dropped
connection (``kbqa.websocket_close``).
The lifespan protocol's shutdown closes the providers' HTTP clients (``kbqa.lifespan``).
"""

from __future__ import annotations

import gc
import os
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kbqa.settings")
django_asgi_app = get_asgi_application()

from asgiref.sync import sync_to_async  # noqa: E402
from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils.translation import gettext_noop  # noqa: E402

from chat.auth import api_precheck, scope_session_key, session_user  # noqa: E402
from chat.routing import websocket_urlpatterns  # noqa: E402
from kbqa.bodylimit import BodyLimitMiddleware, install_daphne_guard  # noqa: E402
from kbqa.lifespan import lifespan_app  # noqa: E402
from kbqa.origin import SameOriginValidator  # noqa: E402
from kbqa.reasons import reason_phrases_complete  # noqa: E402
from kbqa.servererror import ServerErrorMiddleware  # noqa: E402
from kbqa.staticfiles import StaticFilesHandler  # noqa: E402
from kbqa.websocket_close import install_daphne_close_frames  # noqa: E402
from sources.warm import index_warm  # noqa: E402

index_warm()  # open the retrieval index and load jieba now, not in the first question

MB = 1024 * 1024
GC_YOUNG_THRESHOLD = 10_000  # allocations between young collections (see the end)
STAFF_ONLY = gettext_noop("Log in as staff to upload documents.")  # English in JSON


def upload_path() -> str:
    return reverse("admin:sources_document_upload")


def body_limit(path: str) -> int:
    """The largest request body ``path`` accepts, in bytes."""
    if path == upload_path():
        return int(settings.KBQA_MAX_REQUEST_MB * MB)
    return int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)


async def precheck(scope: dict[str, Any]) -> tuple[int, str] | tuple[int, str, str] | None:
    """Refuse before the body is read: an upload from anyone but logged-in staff (403), an
    answer-API call without valid credentials (``chat.auth.api_precheck``)."""
    if scope.get("method") == "POST" and scope["path"] == upload_path():
        user = await sync_to_async(session_user)(scope_session_key(scope))
        return None if user is not None and user.is_staff else (403, STAFF_ONLY)
    return await api_precheck(scope)


def http_application(*, serve_static: bool) -> ServerErrorMiddleware:
    """The HTTP side: Django behind the body limit and the last catch boundary; with
    ``serve_static`` (``KBQA_SERVE_STATIC``: Daphne serves no static files) Django's static
    handler answers ``/static/`` first (``kbqa.staticfiles``)."""
    app = StaticFilesHandler(django_asgi_app) if serve_static else django_asgi_app
    return ServerErrorMiddleware(BodyLimitMiddleware(app, limit_for=body_limit, precheck=precheck))


install_daphne_guard(body_limit)
install_daphne_close_frames()  # a 3 MB frame: close 1009 with a reason, not a dropped 1006
reason_phrases_complete()  # "429 Too Many Requests", not Twisted's "429 Unknown Status"

application = ProtocolTypeRouter(
    {
        "http": http_application(serve_static=settings.SERVE_STATIC),
        "websocket": SameOriginValidator(
            AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
        ),
        "lifespan": lifespan_app,  # uvicorn's and hypercorn's shutdown closes shared clients
    }
)

# Everything loaded so far (Django, the apps, the retrieval index, jieba's dictionary: about
# 300,000 objects the garbage collector tracks) lives as long as the process. Each full
# collection scanned all of it with the event loop stopped: under bench/load.py (200
# answers at once, 400 in a run) five of them, 180-360 ms of CPU each, 0.2-1 s that every
# stream waited; frozen, 16-60 ms each (2026-12-01). gc.freeze() moves them to the permanent
# generation, which collections skip (Python docs: gc.freeze).
gc.freeze()
# What an answer allocates afterwards (deltas, events, fragments, trace values) dies young,
# nearly all of it by reference counting; at the default thresholds (700, 10, 10) the
# collector still ran about 1,300 young, 120 middle and 8-10 full collections (50-68 ms
# each, the loop stopped, over the caches that fill after start-up) in bench/load.py's 200
# chats and 200 API answers: 1.0-1.1 s of CPU, 2.5-2.8 ms per answer. At (10,000, 10, 10):
# about 90 young (2-3 ms each), 8 middle and at most one full collection, 0.3-0.55 s
# (2-3 runs each, 2026-12-02; at 50,000 young collections took 13 ms each for the same
# total). Peak RSS moved by less than 10 MB. Set after start-up: loading is unchanged.
gc.set_threshold(GC_YOUNG_THRESHOLD, 10, 10)
