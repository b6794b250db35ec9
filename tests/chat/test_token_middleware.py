"""API clients read the passages their answers cite with the same token they asked with."""

from __future__ import annotations

import pytest
from django.test import Client

from chat.auth import api_token_create
from sources.services import document_ingest

pytestmark = pytest.mark.django_db


@pytest.fixture
def chunk_id(tmp_path) -> str:
    path = tmp_path / "leave.md"
    path.write_text("---\ndoc_id: doc-700\ntitle: Leave\n---\nEmployees get 25 days of leave.\n")
    document_ingest(path=path)
    return "doc-700#c01"


@pytest.mark.parametrize(
    ("header", "status"),
    [
        ("valid", 200),
        ("Bearer not-a-token", 401),
        (None, 401),
    ],
)
def test_chunk_json_accepts_an_api_token(django_user_model, chunk_id, header, status) -> None:
    user = django_user_model.objects.create_user("api-client", password="x")
    _token, key = api_token_create(user=user)
    headers = {}
    if header == "valid":
        headers["Authorization"] = f"Bearer {key}"
    elif header:
        headers["Authorization"] = header
    response = Client().get(f"/api/chunks/{chunk_id.replace('#', '%23')}", headers=headers)
    assert response.status_code == status
    if status == 200:
        assert response.json()["text"].startswith("Employees get 25 days")
    else:
        assert response["WWW-Authenticate"].startswith('Bearer realm="kbqa"')


@pytest.mark.parametrize(
    ("header", "message", "challenge"),
    [
        (None, "Authentication required: log in or send 'Authorization: Bearer <token>'.",
         'Bearer realm="kbqa"'),
        ("Bearer not-a-token", "Invalid API token.",
         'Bearer realm="kbqa", error="invalid_token"'),
        ("Basic YWxpY2U6cHc=", "The 'Basic' authorization scheme is not accepted: send the "
         "API token as 'Authorization: Bearer <token>'.",
         'Bearer realm="kbqa", error="invalid_token"'),
    ],
    ids=["none", "unknown-token", "basic"],
)
def test_chunks_and_answers_refuse_credentials_in_the_same_words(
    chunk_id, header, message, challenge
) -> None:
    headers = {"Authorization": header} if header else {}
    chunk = Client().get(f"/api/chunks/{chunk_id.replace('#', '%23')}", headers=headers)
    answer = Client().post(
        "/api/answer", data={"question": "x"}, content_type="application/json", headers=headers
    )

    for response in (chunk, answer):
        assert response.status_code == 401
        code = "unauthorized" if message.startswith("Authentication required") else (
            "invalid_token")
        assert response.json() == {"error": message, "code": code}
        assert response["WWW-Authenticate"] == challenge


def test_token_does_not_open_pages(django_user_model, chunk_id) -> None:
    user = django_user_model.objects.create_user("api-client", password="x")
    _token, key = api_token_create(user=user)
    response = Client().get("/", headers={"Authorization": f"Bearer {key}"})
    assert response.status_code == 302  # still the login redirect: tokens are for the API
