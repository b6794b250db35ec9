"""HTTP reason phrases for the status codes Twisted's table lacks.

Daphne sets a response's status line with Twisted's ``Request.setResponseCode(status)``,
which looks the phrase up in ``twisted.web.http.RESPONSES`` and writes "Unknown Status" for a
code it does not list: the API's 429 (RFC 6585) went out as ``HTTP/1.1 429 Unknown Status``.
ASGI carries no reason phrase, so the table is completed from the standard library's
``http.HTTPStatus`` (the phrases of RFC 9110 and its successors) when the server starts.
"""

from __future__ import annotations

from http import HTTPStatus


def reason_phrases_complete() -> list[int]:
    """Add every ``HTTPStatus`` phrase missing from Twisted's table; return the codes added
    (``[]`` without Twisted, e.g. under another ASGI server)."""
    try:
        from twisted.web import http
    except ImportError:
        return []
    added = [int(s) for s in HTTPStatus if int(s) not in http.RESPONSES]
    for code in added:
        http.RESPONSES[code] = HTTPStatus(code).phrase.encode("ascii")
    return added
