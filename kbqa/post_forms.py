"""``login_required_post``: the login guard of the POST-only form views (new conversation,
rename, delete, feedback), so a form sent after the session ended leads back to a page.

With ``login_required`` over ``require_POST`` a form sent after signing out in another tab
was redirected to ``/accounts/login/?next=/c/new/``; after logging in the browser did a GET
of that form's URL and got Django's bare 405. Here an anonymous POST goes to the login page
with ``next`` = the page the form was on (the ``Referer``'s path when it is this site's),
else the chat home, and a GET or HEAD of a form's URL (an old ``next``, a bookmark) is
redirected to the chat home: nothing is changed by a GET. Other methods are 405.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlsplit

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme

View = Callable[..., HttpResponse]
HOME = "/"


def referer_page(request: HttpRequest) -> str | None:
    """The ``Referer``'s path and query when it is a page of this site (same host and, on
    HTTPS, scheme), else None."""
    referer = request.headers.get("Referer", "")
    if not referer or not url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return None
    parts = urlsplit(referer)
    return (parts.path + (f"?{parts.query}" if parts.query else "")) or None


def login_required_post(view: View) -> View:
    """``view`` for a logged-in user's POST; an anonymous POST is sent to the login page with
    ``next`` = the form's page (``referer_page``) or ``/``; GET and HEAD are redirected to
    ``/``; any other method is 405 with ``Allow: POST``."""

    @wraps(view)
    def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method in ("GET", "HEAD"):
            return redirect(HOME)
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if not request.user.is_authenticated:
            return redirect_to_login(referer_page(request) or HOME)
        return view(request, *args, **kwargs)

    return guarded
