"""``/accounts/logout/``: Django's ``LogoutView`` (POST only since Django 5), plus a page for
GET. A bookmarked or typed logout link got a 405 with an empty page; it now shows a page with
a "Log out" button (a POST form with its CSRF token). A GET never logs anyone out: a link or
an image on another site must not be able to sign a user out."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

TEMPLATE = "registration/logout_confirm.html"


class LogoutView(auth_views.LogoutView):
    """POST logs out (Django's); GET shows ``TEMPLATE``: the button when signed in, else
    that the user is signed out with a link to the login page."""

    http_method_names = ["get", "post", "options"]

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return render(request, TEMPLATE)
