"""A database that cannot be reached (PostgreSQL stopped, a wrong password in DATABASE_URL):
an API client gets the API's JSON 503 ``service_busy`` with ``Retry-After`` at every door, a
browser the app's own 500 page, never Daphne's "Exception inside application" page.

Through ``kbqa.asgi.application`` itself, as Daphne calls it. Every query fails as with the
server gone: Django's cursor raises ``OperationalError`` (``database_down``), once the
test's user, token and session are stored.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import OperationalError, connections

from chat.api_errors import DATABASE_UNREACHABLE
from chat.auth import api_token_create
from tests.chat.kb import ANSWER, QUESTION, leave_kb
from tests.chat.support import session_cookie, user_make
from tests.fakes.provider import FakeProvider
from tests.kbqa.asgi_requests import asgi_request

__all__ = ["leave_kb"]
pytestmark = pytest.mark.django_db(transaction=True)
REFUSED = ('connection failed: connection to server at "127.0.0.1", port 5432 failed: '
           "Connection refused")


def database_down(monkeypatch: pytest.MonkeyPatch) -> None:
    """From here on every query on every thread fails as with PostgreSQL stopped (undone
    before the test database is emptied)."""
    monkeypatch.setattr(type(connections["default"]), "_cursor", _refused)


async def credentials(how: str, *, staff: bool = False) -> dict[str, str]:
    """Request headers that log a stored user in: a bearer token or a session cookie."""
    user = await user_make("olga", staff=staff)
    if how == "token":
        key = (await sync_to_async(api_token_create)(user=user))[1]
        return {"Authorization": f"Bearer {key}"}
    return {"Cookie": f"sessionid={await session_cookie(user)}"}


QUESTION_BODY = json.dumps({"question": "How many days of leave?"}).encode()


@pytest.mark.parametrize(
    ("method", "path", "how"),
    [
        # before Django: the body limit's precheck reads the token or the session
        ("POST", "/api/answer", "token"),
        ("POST", "/api/answer", "session"),
        ("POST", "/api/answer/stream", "token"),
        # in Django, outside the view's json_errors: the token middleware, the chunk view
        ("GET", "/api/chunks/doc-001%23c01", "token"),
        ("GET", "/api/chunks/doc-001%23c01", "session"),
        # inside json_errors: the same answer, now saying what is wrong
        ("POST", "/api/feedback/01JF0000000000000000000000", "token"),
    ],
)
async def test_an_api_client_is_told_in_json_to_come_back(
    method: str, path: str, how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    headers = {**await credentials(how), "Content-Type": "application/json"}
    database_down(monkeypatch)
    status, sent, body = await asgi_request(method, path, headers, QUESTION_BODY)
    assert (status, sent["content-type"], sent["retry-after"]) == (503, "application/json", "5")
    assert json.loads(body) == {"error": DATABASE_UNREACHABLE, "code": "service_busy"}


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/admin/sources/document/upload/"),  # the precheck reads the session
        ("GET", "/"),  # Django's handler500
    ],
)
@pytest.mark.parametrize(("language", "title"), [
    ("en", "Something went wrong on our side"), ("zh-CN", "我们这边出了问题"),
])
async def test_a_browser_gets_the_apps_own_error_page(
    method: str, path: str, language: str, title: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    headers = {**await credentials("session", staff=True), "Accept": "text/html",
               "Accept-Language": language}
    database_down(monkeypatch)
    status, sent, body = await asgi_request(method, path, headers)
    page = body.decode()
    assert (status, sent["content-type"]) == (500, "text/html; charset=utf-8")
    assert f'<h1 id="error-title">{title}</h1>' in page and 'data-status="500"' in page
    assert "Exception inside application" not in page


@pytest.mark.usefixtures("leave_kb")
async def test_a_stream_whose_answer_cannot_be_stored_ends_with_error_and_done(
    fake_provider: FakeProvider, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    """The 200 is sent when the database goes: the stream says so and ends, where the
    exception reached Daphne and the client waited on an open connection."""
    settings.KBQA_CHECKPOINT_SECONDS = 0  # the first sentence shown is written at once
    fake_provider.add(ANSWER)
    headers = {**await credentials("token"), "Content-Type": "application/json"}
    # the question is stored; every later write of the turn fails
    monkeypatch.setattr("chat.turn_records.rows_update", _refused)
    body = json.dumps({"question": QUESTION}).encode()
    status, sent, received = await asgi_request("POST", "/api/answer/stream", headers, body)
    frames = [frame.split("\n") for frame in received.decode().strip().split("\n\n")]
    names = [lines[0].removeprefix("event: ") for lines in frames]
    done = json.loads(frames[-1][1].removeprefix("data: "))
    assert (status, sent["content-type"]) == (200, "text/event-stream; charset=utf-8")
    assert names[0] == "meta" and names[-2:] == ["error", "done"]
    assert done["status"] == "error" and done["trace_id"]


def _refused(*args: Any, **kwargs: Any) -> Any:
    raise OperationalError(REFUSED)
