"""What a request refused by Django's CSRF check gets (``settings.CSRF_FAILURE_VIEW``).

Django's own failure view is a bare "Forbidden (403) CSRF verification failed" page that
speaks of cookies and referers. Its usual cause here is ordinary: a page left open until its
token went stale, or a sign-in or sign-out in another tab (which rotates the token), so a
login form in a second tab fails. The app's own 403 page says that in plain words and links
back to where the form was; under ``/api/`` the API's JSON 403 ``csrf_failed``.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from chat.api_errors import error_response
from kbqa.post_forms import referer_page

TEMPLATE = "403_csrf.html"


def csrf_back_url(request: HttpRequest) -> str:
    """Where the refused form was: the ``Referer``'s path and query when it is this site's
    page, else the login page for a refused login, else ``/``."""
    page = referer_page(request)
    if page is not None:
        return page
    if request.path == reverse("login"):
        return request.get_full_path()
    return "/"


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """403 for a request that failed the CSRF check: the API's JSON ``csrf_failed`` (in the
    words of ``chat.auth``) under ``/api/``, else the app's page ``403_csrf.html``."""
    if request.path.startswith("/api/"):
        return error_response(403, f"CSRF check failed: {reason}", code="csrf_failed")
    context = {"back_url": csrf_back_url(request)}
    return render(request, TEMPLATE, context, status=403)
