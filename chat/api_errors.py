"""The API's errors: ``{"error": "<message>", "code": "<code>"}`` JSON, never an HTML page.

``ApiError`` is a refusal a view raises; ``error_response`` renders one (with ``Allow``,
``WWW-Authenticate`` or ``Retry-After`` as the status asks); ``json_errors`` is every API
view's catch boundary; ``api_not_found`` answers a path under ``/api/`` that names no
endpoint. The codes are listed in ``chat.api``'s docstring and in README (HTTP API).
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse

from chat.auth import ApiAuth, api_authenticate, challenge
from kbqa.db import database_unreachable

log = logging.getLogger(__name__)


class ApiError(Exception):
    """A request the API refuses; ``status`` is the HTTP status, the message is shown as is,
    ``code`` names the error for programs (README: HTTP API, error codes)."""

    def __init__(self, status: int, message: str, *, code: str,
                 retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.retry_after = retry_after

    def response(self) -> JsonResponse:
        """This refusal as the client gets it (``error_response``)."""
        return error_response(self.status, str(self), code=self.code,
                              retry_after=self.retry_after)


# Seconds a client should wait before asking again after a 503 (RFC 9110 section 10.2.3).
RETRY_AFTER_SECONDS = 5
BUSY = "The service is busy and could not take this question; please try again shortly."
UNAVAILABLE = "The service is temporarily unavailable; please try again shortly."
DATABASE_UNREACHABLE = (
    "The service cannot reach its database right now; please try again shortly."
)


def error_response(
    status: int, message: str, *, code: str, retry_after: int | None = None, **extra: Any
) -> JsonResponse:
    """``{"error": message, "code": code, **extra}`` with HTTP ``status``; a 405 names POST
    in ``Allow``, a 401 the Bearer scheme in ``WWW-Authenticate``, a 429 or 503 the seconds
    to wait in ``Retry-After`` (when given). ``message`` is for people and may change;
    ``code`` is for programs and does not."""
    response = JsonResponse({"error": message, "code": code, **extra}, status=status)
    if status == 405:
        response["Allow"] = "POST"
    if status == 401:
        response["WWW-Authenticate"] = challenge(message)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


async def api_caller(request: HttpRequest) -> ApiAuth:
    """Who makes an API ``request``: a POST with credentials (``chat.auth.api_authenticate``:
    a bearer token, or a session with its CSRF token). Raises ``ApiError`` 405 for another
    method, 401 or 403 for missing or refused credentials."""
    if request.method != "POST":
        raise ApiError(405, "Use POST.", code="method_not_allowed")
    auth = await api_authenticate(request)
    if auth.user is None:
        raise ApiError(auth.status, auth.error, code=auth.code)
    return auth


def json_object(body: bytes, example: str) -> dict[str, Any]:
    """A request ``body`` as a JSON object. Raises ``ApiError`` 400 ``invalid_json`` (not
    JSON, or nested too deeply to read) or ``invalid_body`` (another JSON value; the
    message shows ``example``, a valid body)."""
    try:
        payload = json.loads(body or b"")
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "The request body must be JSON.", code="invalid_json") from None
    except RecursionError:
        raise ApiError(400, "The request body is JSON nested too deeply.",
                       code="invalid_json") from None
    if not isinstance(payload, dict):
        raise ApiError(400, f"The request body must be a JSON object like {example}.",
                       code="invalid_body")
    return payload


def failure_message(exc: BaseException | None) -> str:
    """What a client is told of a failure on the server's side: ``DATABASE_UNREACHABLE`` when
    ``exc`` is a database that cannot be reached (``kbqa.db.database_unreachable``), else
    ``BUSY`` (a lock held past the retries, a bug)."""
    return DATABASE_UNREACHABLE if database_unreachable(exc) else BUSY


def service_unavailable(exc: BaseException | None) -> JsonResponse:
    """The API's answer to a request that failed on the server's side (``exc``, logged by
    the caller): 503 ``{"error": failure_message(exc), "code": "service_busy"}`` with
    ``Retry-After: RETRY_AFTER_SECONDS``. One code whatever the cause: a client waits and
    asks again either way."""
    return error_response(503, failure_message(exc), code="service_busy",
                          retry_after=RETRY_AFTER_SECONDS)


def json_errors(view: Callable[..., Awaitable[HttpResponse]]) -> Any:
    """The API's catch boundary: anything unexpected before the response starts (the
    database stayed locked or unreachable after retries, a bug) is ``service_unavailable``,
    a JSON 503 with ``Retry-After``, never Django's HTML 500. Logged in full."""

    @functools.wraps(view)
    async def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return await view(request, *args, **kwargs)
        except Exception as exc:
            log.exception("API request failed")
            return service_unavailable(exc)

    return guarded


API_ENDPOINTS = ("POST /api/answer, POST /api/answer/stream, POST /api/feedback/<trace_id>, "
                 "GET /api/chunks/<chunk_id>")


def api_not_found(request: HttpRequest) -> JsonResponse:
    """The JSON 404 for a path under ``/api/`` that names no endpoint (a trailing slash, a
    missing chunk id): an API client never gets an HTML page. Shape: ``{"error": str}``
    naming the endpoints."""
    return error_response(
        404, f"No API endpoint at {request.path}; the endpoints are {API_ENDPOINTS}.",
        code="no_endpoint",
    )
