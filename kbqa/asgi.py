"""ASGI entry point: HTTP through Django, websockets through Channels.

Order follows Channels' own sample project: build the Django ASGI app first (it sets up
apps), then import routing, then wrap websockets in
``AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(...)))``.
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

from chat.routing import websocket_urlpatterns  # noqa: E402

http_app = django_asgi_app
if settings.SERVE_STATIC:
    # Daphne serves no static files; Django's handler does it for local runs (KBQA_SERVE_STATIC).
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    http_app = ASGIStaticFilesHandler(django_asgi_app)

application = ProtocolTypeRouter(
    {
        "http": http_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
