"""The JSON API's 503 says when to come back (``Retry-After``) only when retrying makes sense.

Driven through the real anthropic SDK against the local fake Messages API.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from chat.auth import api_token_create
from kbqa.core.providers.failures import MSG_ACCOUNT, MSG_OVERLOADED
from tests.chat.kb import QUESTION, leave_kb
from tests.fakes.anthropic_server import FakeAnthropicServer, StatusReply

__all__ = ["leave_kb"]
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("leave_kb")]


@pytest.fixture
def server(settings: Any) -> Iterator[FakeAnthropicServer]:
    with FakeAnthropicServer() as fake:
        settings.KBQA_PROVIDER, settings.ANTHROPIC_API_KEY = "anthropic", "sk-test"
        settings.KBQA_ANTHROPIC_BASE_URL, settings.KBQA_ANTHROPIC_MAX_RETRIES = fake.url, 0
        yield fake


def ask(django_user_model: Any) -> Any:
    user = django_user_model.objects.create_user("bob", password="pw-bob-12345")
    key = api_token_create(user=user, name="cli")[1]
    return Client().post("/api/answer", data={"question": QUESTION},
                         content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {key}")


@pytest.mark.parametrize(
    ("reply", "message", "retry_after"),
    [
        (StatusReply(429, "rate_limit_error", "rate limited", retry_after="75"), MSG_OVERLOADED,
         "75"),
        (StatusReply(529, "overloaded_error", "Overloaded"), MSG_OVERLOADED, "30"),
        (StatusReply(400, "invalid_request_error", "Your credit balance is too low to access "
                     "the Anthropic API."), MSG_ACCOUNT, None),
    ],
)
def test_503_carries_retry_after_when_retrying_makes_sense(
    server: FakeAnthropicServer, django_user_model: Any, reply: StatusReply, message: str,
    retry_after: str | None,
) -> None:
    server.script(reply)
    response = ask(django_user_model)
    assert (response.status_code, response.json()["error"]) == (503, message)
    assert response.headers.get("Retry-After") == retry_after
