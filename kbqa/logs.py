"""Logging filters for the server log (``settings.LOGGING``)."""

from __future__ import annotations

import logging


class ClientErrorsWithoutTraceback(logging.Filter):
    """Drops the traceback from ``django.request``'s records of 4xx responses.

    Django logs an ordinary refusal ("Forbidden (Permission denied): /traces/", a staff page
    opened by a user who is not staff) with the ``PermissionDenied`` exception attached, so
    the server log showed a full traceback for a request that went exactly as designed. The
    line itself stays; 5xx records keep their tracebacks.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", 500) < 500:
            record.exc_info = None
            record.exc_text = None
        return True
