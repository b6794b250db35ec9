"""What an API client does around an answer: rate it by its trace id, and open the passages
a refusal names."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from chat.auth import api_token_create
from chat.models import Feedback
from tests.chat.kb import QUESTION, REFUND_QUESTION, SHOWN, claims_json, refund_kb
from tests.chat.test_api import parse_frames, sse
from tests.fakes.provider import FakeProvider

__all__ = ["refund_kb"]
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("refund_kb")]


@pytest.fixture
def token(django_user_model: Any) -> str:
    user = django_user_model.objects.create_user("bot", password="pw-bot-123")
    return api_token_create(user=user, name="slack")[1]


def post(url: str, body: Any, key: str) -> Any:
    data = body if isinstance(body, str) else json.dumps(body)
    return Client(enforce_csrf_checks=True).post(
        url, data=data, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {key}"
    )


def asked(fake: FakeProvider, token: str) -> str:
    fake.add(claims_json((SHOWN, [1])))
    body = post("/api/answer", {"question": QUESTION}, token).json()
    assert body["status"] == "answered"
    return str(body["trace_id"])


def test_a_client_rates_an_answer_by_its_trace_id_and_reviewers_see_it(
    fake_provider: FakeProvider, token: str
) -> None:
    trace_id = asked(fake_provider, token)
    first = post(f"/api/feedback/{trace_id}", {"rating": "down", "comment": " stale "}, token)
    again = post(f"/api/feedback/{trace_id}", {"rating": "up"}, token)
    assert first.json() == {"trace_id": trace_id, "rating": "down", "comment": "stale"}
    assert again.status_code == 200
    feedback = Feedback.objects.get(trace_id=trace_id)  # the later opinion replaces the first
    assert (feedback.rating, feedback.comment, feedback.user.username) == ("up", "", "bot")


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ("{", 400, "invalid_json"),
        ([1], 400, "invalid_body"),
        ({"rating": "meh"}, 400, "invalid_rating"),
        ({"rating": "up", "comment": 3}, 400, "invalid_body"),
        # a long comment was cut to 2,000 characters without a word: now refused whole
        ({"rating": "down", "comment": "x" * 2001}, 400, "comment_too_long"),
    ],
)
def test_bad_feedback_is_a_json_400_and_stores_nothing(
    fake_provider: FakeProvider, token: str, body: Any, status: int, code: str
) -> None:
    trace_id = asked(fake_provider, token)
    response = post(f"/api/feedback/{trace_id}", body, token)
    assert (response.status_code, response.json()["code"]) == (status, code)
    assert not Feedback.objects.exists()


def test_someone_elses_or_an_unknown_trace_is_not_found(
    fake_provider: FakeProvider, token: str, django_user_model: Any
) -> None:
    trace_id = asked(fake_provider, token)
    other = django_user_model.objects.create_user("eve", password="pw-eve-123")
    other_key = api_token_create(user=other, name="eve")[1]
    for key, tid in ((other_key, trace_id), (token, "01NOSUCHTRACE0000000000000")):
        response = post(f"/api/feedback/{tid}", {"rating": "down"}, key)
        assert (response.status_code, response.json()["code"]) == (404, "trace_not_found")
    assert not Feedback.objects.exists()
    response = post(f"/api/feedback/{trace_id}", {"rating": "up"}, "not-a-token")
    assert (response.status_code, response.json()["code"]) == (401, "invalid_token")
    got = Client().get(f"/api/feedback/{trace_id}", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert (got.status_code, got["Allow"]) == (405, "POST")


def test_a_conflict_refusal_links_each_side_to_its_passage(
    fake_provider: FakeProvider, token: str
) -> None:
    body = post("/api/answer", {"question": REFUND_QUESTION}, token).json()
    assert body["status"] == "refused_conflict"
    sides = body["refusal"]["conflict"]["sides"]
    assert [s["chunk_id"] for s in sides] == ["doc-010#c01", "doc-011#c01"]
    for side in sides:
        assert side["url"] == f"http://testserver/chunks/{side['chunk_id'].replace('#', '%23')}/"
        passage = Client().get(side["api_url"], HTTP_AUTHORIZATION=f"Bearer {token}").json()
        assert side["value_text"] in passage["text"]
    assert fake_provider.prompts == []  # refused before any model call


def test_a_no_support_refusal_links_the_closest_documents(
    fake_provider: FakeProvider, token: str
) -> None:
    fake_provider.add(claims_json(), claims_json())  # the model finds nothing to claim
    body = post("/api/answer", {"question": QUESTION}, token).json()
    assert body["status"] == "refused_no_support"
    documents = body["refusal"]["documents"]
    assert documents and all(d["api_url"].startswith("http://testserver/api/chunks/")
                             for d in documents)


@pytest.mark.parametrize(("question", "where"), [
    (REFUND_QUESTION, "sides"), (QUESTION, "documents")])
def test_the_stream_s_refusal_links_its_passages_as_the_json_answer_does(
    fake_provider: FakeProvider, token: str, question: str, where: str
) -> None:
    # the stream's refusal lacked url and api_url, which /api/answer's carries
    fake_provider.add(claims_json(), claims_json(), claims_json(), claims_json())
    answer = post("/api/answer", {"question": question}, token).json()["refusal"]
    _, text = sse({"Authorization": f"Bearer {token}"}, {"question": question})
    streamed = dict(parse_frames(text))["refusal"]
    if where == "sides":
        answer, streamed = answer["conflict"], streamed["conflict"]
    assert answer[where] and streamed[where] == answer[where]
    assert all(item["api_url"].startswith("http://testserver/api/chunks/")
               and item["url"].startswith("http://testserver/chunks/") for item in streamed[where])
