"""The answer API's middleware on the event loop (``chat.api_middleware``) answers exactly as
Django's own classes do: same status, same headers (security, locale, Vary), same body."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.core.handlers.asgi import ASGIHandler
from django.test import override_settings

from chat.auth import api_token_create
from tests.chat.kb import ANSWER, QUESTION, SHOWN, leave_kb
from tests.fakes.provider import FakeProvider
from tests.kbqa.asgi_requests import asgi_request

__all__ = ["leave_kb"]
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("leave_kb")]

DJANGO_OWN = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "kbqa.middleware.QueryLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "chat.auth.BearerTokenMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]


async def post(
    path: str, body: bytes, headers: list[tuple[bytes, bytes]]
) -> tuple[int, dict[str, str], bytes]:
    """``path`` through a Django ASGI handler built with the MIDDLEWARE in force."""
    named = {k.decode(): v.decode() for k, v in [(b"content-type", b"application/json"),
                                                   *headers]}
    return await asgi_request("POST", path, named, body, application=ASGIHandler())


@pytest.mark.parametrize(
    ("path", "question", "language"),
    [
        ("/api/answer", QUESTION, b"zh-CN,zh;q=0.9"),
        ("/api/answer/stream", QUESTION, b"en"),
        ("/api/answer", "", b"zh-CN"),  # a 400: the error path through the same middleware
    ],
)
async def test_the_answer_api_answers_as_with_djangos_own_middleware(
    fake_provider: FakeProvider, path: str, question: str, language: bytes
) -> None:
    user = await sync_to_async(get_user_model().objects.create_user)("api")
    key = (await sync_to_async(api_token_create)(user=user, name="t"))[1]
    headers = [(b"authorization", f"Bearer {key}".encode()), (b"accept-language", language)]
    body = json.dumps({"question": question}).encode()
    seen: list[Any] = []
    for middleware in (None, DJANGO_OWN):
        fake_provider.add(ANSWER)
        if middleware is None:
            seen.append(await post(path, body, headers))
        else:
            with override_settings(MIDDLEWARE=middleware):
                seen.append(await post(path, body, headers))
    (status, ours, text), (own_status, own, own_text) = seen
    ours.pop("kbqa-conversation", None), own.pop("kbqa-conversation", None)  # a new one each
    assert (status, ours) == (own_status, own)
    assert "x-frame-options" in ours and "content-language" in ours and "vary" in ours
    assert (SHOWN.encode() in text) == (SHOWN.encode() in own_text) == (status == 200)
