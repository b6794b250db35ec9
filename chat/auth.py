"""Who may call the API and who may review traces.

- API tokens: ``Authorization: Bearer <key>``; only the SHA-256 of the key is stored
  (``ApiToken.key_hash``) plus its first 8 characters (``prefix``) so people can tell tokens
  apart. Keys are 40 URL-safe characters from ``secrets`` (240 bits).
- Session requests to the API are checked for CSRF here (the API views are
  ``csrf_exempt`` because token requests carry no cookie), the way Django REST framework's
  ``SessionAuthentication.enforce_csrf`` does it.
- Reviewers: ``chat.view_trace`` is granted to active staff by ``StaffReviewerBackend``
  (listed in ``AUTHENTICATION_BACKENDS``); anyone else gets it the usual way, through a
  group or a user permission assigned in admin.
- The websocket's session and the API's tokens are read as SQL on every question
  (``chat.credential_reads``), with Django's own rules.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta
from importlib import import_module
from types import SimpleNamespace
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.contrib.auth import get_user
from django.contrib.auth.backends import BaseBackend
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.http import HttpRequest, JsonResponse
from django.http.cookie import parse_cookie
from django.middleware.csrf import CsrfViewMiddleware
from django.utils import timezone

from chat.credential_reads import DB_SESSIONS, session_read, token_read
from chat.models import ApiToken
from kbqa.db import db_async, rows_update, write_retried

KEY_BYTES = 30  # -> 40 URL-safe base64 characters
PREFIX_CHARS = 8
REVIEWER_PERMISSION = "chat.view_trace"
AUTH_REQUIRED = "Authentication required: log in or send 'Authorization: Bearer <token>'."
INVALID_TOKEN = "Invalid API token."
WRONG_SCHEME = (
    "The {scheme} authorization scheme is not accepted: send the API token as "
    "'Authorization: Bearer <token>'."
)
# Every 401 names the scheme to use (RFC 9110 section 11.6.1; RFC 6750 section 3 for Bearer).
CHALLENGE = 'Bearer realm="kbqa"'
CHALLENGE_INVALID = 'Bearer realm="kbqa", error="invalid_token"'


def credentials_error(header: str) -> str:
    """Why an ``Authorization`` header that logs no one in was refused: another scheme than
    Bearer (``Basic`` names itself), or a Bearer token that is unknown or of an inactive
    user. One message for every API endpoint."""
    scheme = header.strip().partition(" ")[0]
    if scheme.lower() != "bearer":
        return WRONG_SCHEME.format(scheme=f"'{scheme[:20]}'" if scheme else "empty")
    return INVALID_TOKEN


def error_code(message: str) -> str:
    """The code of a 401 with ``message``: ``unauthorized`` (no credentials), else
    ``invalid_token`` (a token that logs no one in, or another scheme than Bearer)."""
    return "unauthorized" if message == AUTH_REQUIRED else "invalid_token"


def challenge(message: str) -> str:
    """The ``WWW-Authenticate`` value of a 401 with ``message``."""
    return CHALLENGE if message == AUTH_REQUIRED else CHALLENGE_INVALID
API_ANSWER_PREFIX = "/api/answer"


def token_hash(key: str) -> str:
    """SHA-256 of ``key`` as 64 lowercase hex characters (what ``ApiToken.key_hash`` holds)."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def api_token_create(*, user: AbstractBaseUser, name: str = "") -> tuple[ApiToken, str]:
    """Create a token for ``user``; return it and the full key, which is never stored."""
    key = secrets.token_urlsafe(KEY_BYTES)
    token = ApiToken.objects.create(
        user=user, name=name, prefix=key[:PREFIX_CHARS], key_hash=token_hash(key)
    )
    return token, key


def api_token_fill(token: ApiToken) -> str:
    """Give an unsaved ``token`` (built by a form) a new key; return the full key."""
    key = secrets.token_urlsafe(KEY_BYTES)
    token.prefix, token.key_hash = key[:PREFIX_CHARS], token_hash(key)
    return key


def bearer_key(request: HttpRequest) -> str | None:
    """The key of an ``Authorization: Bearer <key>`` header, "" if malformed, None if absent."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, key = header.strip().partition(" ")
    return key.strip() if scheme.lower() == "bearer" else ""


# ``last_used_at`` is written when it is older than this: to the minute, a write per minute
# per token instead of one per request (each write takes SQLite's one write lock).
LAST_USED_STEP = timedelta(minutes=1)
# Where ``api_precheck`` leaves the token it found, for ``api_authenticate`` in the same request.
SCOPE_TOKEN = "kbqa.api_token"


def token_lookup(key: str) -> ApiToken | None:
    """The token ``key`` of an active user (``last_used_at`` stamped to the minute), or None.
    One statement (``credential_reads.token_read``), two when the stamp is due."""
    if not key:
        return None
    token = token_read(token_hash(key))
    if token is None or not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_STEP:
        # retried like the turn's writes when it loses SQLite's lock to them (200 fresh tokens
        # stamped at once: a quarter of the database threads' samples, bench/load.py)
        stamp = {"last_used_at": now}
        write_retried(lambda: rows_update(ApiToken, stamp, where={"id": token.pk}))
        token.last_used_at = now
    return token


def token_user(key: str) -> AbstractBaseUser | None:
    """The active user owning ``key`` (and stamp ``last_used_at``), or None."""
    token = token_lookup(key)
    return token.user if token is not None else None


class BearerTokenMiddleware:
    """Lets API clients read cited passages (``GET /api/chunks/<id>``) with their token.

    The answer API authenticates tokens itself (``api_authenticate``); the chunk JSON lives in
    ``sources``, which must not import ``chat``, so this middleware sets ``request.user`` for
    a valid ``Authorization: Bearer`` header on that read-only path. Goes after Django's
    AuthenticationMiddleware.

    Sync and async capable: a sync-only middleware makes Django run the whole async stack
    below it through ``async_to_sync`` from its one thread-sensitive thread, which held
    every ``POST /api/answer`` for its whole answer, one request at a time.

    A token that logs no one in is answered here with the answer API's 401 (the same
    message and ``WWW-Authenticate``), so both endpoints say the same thing.
    """

    PATH_PREFIX = "/api/chunks/"
    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self.__acall__(request)
        key = self._key(request)
        user = token_user(key) if key else None
        if key is not None and user is None:
            return self._refused(request)
        if user is not None:
            request.user = user
        return self.get_response(request)

    async def __acall__(self, request: HttpRequest) -> Any:
        key = self._key(request)
        user = await db_async(token_user)(key) if key else None
        if key is not None and user is None:
            return self._refused(request)
        if user is not None:
            request.user = user
        return await self.get_response(request)

    def _refused(self, request: HttpRequest) -> JsonResponse:
        return unauthorized(credentials_error(request.headers.get("Authorization", "")))

    def _key(self, request: HttpRequest) -> str | None:
        if request.method in ("GET", "HEAD") and request.path.startswith(self.PATH_PREFIX):
            return bearer_key(request)
        return None


class _CsrfCheck(CsrfViewMiddleware):
    def _reject(self, request: HttpRequest, reason: str) -> str:  # type: ignore[override]
        return reason


def _csrf_failure(request: HttpRequest) -> str | None:
    check = _CsrfCheck(lambda req: None)  # type: ignore[arg-type,return-value]
    check.process_request(request)
    reason = check.process_view(request, lambda req: None, (), {})  # type: ignore[arg-type]
    return reason if isinstance(reason, str) else None


@dataclass(frozen=True)
class ApiAuth:
    """Result of authenticating an API request: a user, or the status and message to return."""

    user: AbstractBaseUser | None
    status: int = 200
    error: str = ""
    token_id: int | None = None  # the ApiToken used, None for a session
    code: str = ""  # the error's code for programs (``error_code``)


async def api_authenticate(request: HttpRequest) -> ApiAuth:
    """Bearer token first (CSRF-exempt), else the session (CSRF enforced).

    Returns ``ApiAuth(user)`` or ``ApiAuth(None, 401|403, message)``.
    """
    key = bearer_key(request)
    if key is not None:
        found = getattr(request, "scope", {}).get(SCOPE_TOKEN)
        if found is not None and found[0] == key:  # looked up by ``api_precheck`` just now
            token = found[1]
        else:
            token = await db_async(token_lookup)(key)
        if token is None:
            message = credentials_error(request.headers["Authorization"])
            return ApiAuth(None, 401, message, code=error_code(message))
        return ApiAuth(token.user, token_id=token.pk)
    user = await request.auser()
    if isinstance(user, AnonymousUser) or not user.is_authenticated:
        return ApiAuth(None, 401, AUTH_REQUIRED, code=error_code(AUTH_REQUIRED))
    reason = _csrf_failure(request)
    if reason:
        return ApiAuth(None, 403, f"CSRF check failed: {reason}", code="csrf_failed")
    return ApiAuth(user)


def unauthorized(message: str) -> JsonResponse:
    """A 401 ``{"error": message, "code": ...}`` with the ``WWW-Authenticate`` challenge to
    answer it."""
    response = JsonResponse({"error": message, "code": error_code(message)}, status=401)
    response["WWW-Authenticate"] = challenge(message)
    return response


def session_user(session_key: str) -> AbstractBaseUser | None:
    """The active user logged in under ``session_key``, as Django's auth middleware finds them
    (session hash checked), or None: no such session (logged out), password changed, inactive.
    """
    if not session_key:
        return None
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    user = get_user(SimpleNamespace(session=store))  # type: ignore[arg-type]
    return user if user.is_authenticated and user.is_active else None  # type: ignore[return-value]


def session_logs_in(session_key: str, user: AbstractBaseUser) -> bool:
    """Whether the session ``session_key`` still logs in ``user``: what ``session_user``
    finds (a live session naming ``user`` and a backend still listed, ``user`` active, the
    session's hash of the password current), read fresh on every call.

    With Django's database sessions and ``ModelBackend`` (this project's) it is one SQL
    statement (the session and the user's password and status) and the session's signature
    checked in Python: through ``session_user`` (the session store and ``get_user``, two
    ORM queries) it cost 0.60 ms of CPU per websocket question, against 0.08 ms (in process,
    2026-12-01). Anything else (another engine or backend, a hash that only a fallback
    secret verifies, which Django answers by rotating the session or flushing it) goes
    through ``session_user``, so the outcome is Django's."""
    if not session_key:
        return False
    verdict = session_read(session_key, user) if settings.SESSION_ENGINE == DB_SESSIONS else None
    if verdict is None:
        found = session_user(session_key)
        return found is not None and found.pk == user.pk
    return verdict


async def api_precheck(scope: dict[str, Any]) -> tuple[int, str, str] | None:
    """For ``kbqa.bodylimit``: refuse an answer-API POST without valid credentials (a bearer
    token, or a logged-in session cookie) before its body is read; None lets it through.

    Returns ``(401, message, WWW-Authenticate challenge)`` with the message
    ``api_authenticate`` would give. CSRF is left to
    ``api_authenticate``, which runs again in the view.
    """
    if scope.get("method") != "POST" or not scope["path"].startswith(API_ANSWER_PREFIX):
        return None
    headers = dict(scope.get("headers") or ())
    authorization = headers.get(b"authorization")
    if authorization is not None:
        header = authorization.decode("latin-1")
        scheme, _, key = header.strip().partition(" ")
        key = key.strip() if scheme.lower() == "bearer" else ""
        token = await db_async(token_lookup)(key)
        if token is None:
            message = credentials_error(header)
            return 401, message, challenge(message)
        scope[SCOPE_TOKEN] = (key, token)  # ``api_authenticate`` uses it: one lookup, not two
        return None
    user = await db_async(session_user)(scope_session_key(scope))
    return None if user is not None else (401, AUTH_REQUIRED, CHALLENGE)


def scope_session_key(scope: dict[str, Any]) -> str:
    """The session cookie's value in an ASGI ``scope``'s headers, "" without one."""
    headers = dict(scope.get("headers") or ())
    cookies = parse_cookie(headers.get(b"cookie", b"").decode("latin-1"))
    return cookies.get(settings.SESSION_COOKIE_NAME, "")


class StaffReviewerBackend(BaseBackend):
    """Grants ``chat.view_trace`` to active staff, so every staff member can review traces."""

    def has_perm(
        self, user_obj: AbstractBaseUser | AnonymousUser, perm: str, obj: object = None
    ) -> bool:
        return perm == REVIEWER_PERMISSION and _active_staff(user_obj)

    def has_module_perms(self, user_obj: AbstractBaseUser | AnonymousUser, app_label: str) -> bool:
        """Lets admin list the chat app (and only the Trace model, via ``has_perm``)."""
        return app_label == REVIEWER_PERMISSION.split(".")[0] and _active_staff(user_obj)


def _active_staff(user_obj: AbstractBaseUser | AnonymousUser) -> bool:
    return bool(getattr(user_obj, "is_active", False)) and bool(
        getattr(user_obj, "is_staff", False)
    )


def fabricate_allowed(user: Any) -> bool:
    """Whether ``user`` may switch on the fabrication demo (two fabricated sentences in the
    first draft): staff only, on every front end (``KBQA_FABRICATE`` turns it on for every
    answer server-wide, so then the switch changes nothing)."""
    return bool(settings.KBQA_FABRICATE or getattr(user, "is_staff", False))
