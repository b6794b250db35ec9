"""Top-level URLs: chat pages and API, chunk view, reviewer traces, admin, auth, i18n."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.urls import include, path
from django.views import defaults

from chat.api_errors import api_not_found

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
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
