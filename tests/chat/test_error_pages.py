"""403, 404 and 500 pages (DEBUG off, as in production): a clear message and a way back."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(django_user_model: Any) -> Client:
    assert not settings.DEBUG  # Django shows these templates only with DEBUG off
    client = Client(raise_request_exception=False)
    client.force_login(django_user_model.objects.create_user("olga", password="pw-123456"))
    return client


def broken(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("bug")


@pytest.mark.parametrize(
    ("url", "status", "title", "message"),
    [
        ("/traces/", 403, "No access · kbqa", "You do not have access to this page"),
        ("/c/999999/", 404, "Page not found · kbqa", "This page does not exist"),
        ("/no-such-page/", 404, "Page not found · kbqa", "This page does not exist"),
        ("/", 500, "Server error · kbqa", "Something went wrong on our side"),
    ],
)
def test_error_pages_say_what_happened_and_lead_back(
    client: Client,
    monkeypatch: pytest.MonkeyPatch,
    url: str,
    status: int,
    title: str,
    message: str,
) -> None:
    monkeypatch.setattr("chat.views.messages_view", broken)
    response = client.get(url)
    html = response.content.decode()
    assert response.status_code == status
    assert f"<title>{title}</title>" in html
    assert f'<h1 id="error-title">{message}</h1>' in html
    assert '<a class="button-primary" href="/">Back to the chat</a>' in html
    assert 'id="language-form"' in html  # the page keeps the site's frame


def test_error_page_in_chinese(client: Client) -> None:
    html = client.get("/traces/", headers={"accept-language": "zh-hans"}).content.decode()
    assert "Back to the chat" not in html and '<html lang="zh-hans">' in html
