"""ASGI entry point: HTTP through Django, websockets through Channels.

Order follows Channels' own sample project: build the Django ASGI app first (it sets up
apps), then import routing, then wrap websockets in
``AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(...)))``.

HTTP request bodies are bounded before anything buffers them (``kbqa.bodylimit``): the admin
upload page accepts ``KBQA_MAX_REQUEST_MB``, everything else ``DATA_UPLOAD_MAX_MEMORY_SIZE``;
the answer API authenticates its caller before the body is read (``chat.auth.api_precheck``).
Websockets must come from the page's own origin, port included (``kbqa.origin``).
"""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kbqa.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import reverse  # noqa: E402

from chat.auth import api_precheck  # noqa: E402
from chat.routing import websocket_urlpatterns  # noqa: E402
from kbqa.bodylimit import BodyLimitMiddleware, install_daphne_guard  # noqa: E402
from kbqa.origin import SameOriginValidator  # noqa: E402

MB = 1024 * 1024


def body_limit(path: str) -> int:
    """The largest request body ``path`` accepts, in bytes."""
    if path == reverse("admin:sources_document_upload"):
        return int(settings.KBQA_MAX_REQUEST_MB * MB)
    return int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)


install_daphne_guard(body_limit)
http_app = django_asgi_app
if settings.SERVE_STATIC:
    # Daphne serves no static files; Django's handler does it for local runs (KBQA_SERVE_STATIC).
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    http_app = ASGIStaticFilesHandler(django_asgi_app)

application = ProtocolTypeRouter(
    {
        "http": BodyLimitMiddleware(http_app, limit_for=body_limit, precheck=api_precheck),
        "websocket": SameOriginValidator(
            AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
        ),
    }
)
