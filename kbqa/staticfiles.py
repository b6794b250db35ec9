"""Static files for local runs (``KBQA_SERVE_STATIC``, ``make run``): Django's ASGI static
handler, except that a path climbing out of the static folders is a missing file.

Django's ``serve`` raises ``SuspiciousFileOperation`` for ``/static/..%2fvar%2fdemo-login.txt``
(its finders refuse a path outside their roots) and ``ASGIStaticFilesHandler`` catches only
``Http404``, so the exception reached ``kbqa.servererror``: a trial got the 500 page and the
log a traceback for a probe that was refused as designed. Such a path names no static file:
it is answered as a missing one is (404, the app's own page) and logged as one line.
"""

from __future__ import annotations

import logging

from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.exceptions import SuspiciousFileOperation
from django.http import Http404, HttpRequest
from django.http.response import HttpResponseBase

# where Django logs every other suspicious operation, so one filter serves them all
logger = logging.getLogger("django.security.SuspiciousFileOperation")


class StaticFilesHandler(ASGIStaticFilesHandler):
    """``ASGIStaticFilesHandler`` answering a path outside the static folders with 404."""

    def serve(self, request: HttpRequest) -> HttpResponseBase:
        try:
            response: HttpResponseBase = super().serve(request)
        except SuspiciousFileOperation as exc:
            logger.warning("Static file outside the static folders refused: %s (%s)",
                           request.path, exc)
            raise Http404("no such static file") from None
        return response
