"""Top-level URLs: chat pages and API, chunk view, reviewer traces, admin, auth, i18n; the
404 and 500 handlers, which answer JSON under ``/api/`` and the app's own pages elsewhere."""

from __future__ import annotations

import sys
from typing import Any

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.urls import include, path
from django.views import defaults

from chat.api_errors import api_not_found, service_unavailable
from kbqa.logout import LogoutView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("sources.urls")),
    path("", include("chat.urls")),
]


def page_not_found(request: HttpRequest, exception: Any) -> HttpResponse:
    """404s: JSON under ``/api/`` (``chat.api_errors.api_not_found``), the app's own page
    elsewhere."""
    if request.path.startswith("/api/"):
        return api_not_found(request)
    return defaults.page_not_found(request, exception)


handler404 = page_not_found


def server_error(request: HttpRequest) -> HttpResponse:
    """Unhandled errors (DEBUG off): under ``/api/`` the API's JSON 503 ``service_busy`` with
    ``Retry-After`` (``chat.api_errors.service_unavailable``), the app's own 500 page
    elsewhere. Django calls it inside its ``except`` for the error (on the same thread or
    one ``sync_to_async`` re-raised it in), so ``sys.exception()`` is the error.

    It answers what fails outside the API views' own boundary (``json_errors``): the token
    lookup of ``chat.auth.BearerTokenMiddleware`` and the chunk JSON of ``/api/chunks/``, a
    session saved on the way out. Without it a database that could not be reached gave an
    API client Django's HTML 500 page."""
    if request.path.startswith("/api/"):
        return service_unavailable(sys.exception())
    return defaults.server_error(request)


handler500 = server_error
