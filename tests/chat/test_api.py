"""The HTTP API: auth (session + CSRF, bearer token), the JSON contract, SSE, every error."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.test import AsyncClient, Client
from django.utils.crypto import get_random_string

from chat.auth import api_token_create
from chat.models import ApiToken, Conversation, Message, Trace
from kbqa.core.errors import ProviderError
from tests.chat.kb import (
    ANSWER,
    LAPTOP_ANSWER,
    LAPTOP_DOCS,
    LAPTOP_QUESTION,
    LEAVE_ID,
    LEAVE_TEXT,
    OFF_TOPIC,
    QUESTION,
    SECRET_DROPPED,
    SHOWN,
    claims_json,
    kb_store,
    leave_kb,
)
from tests.chat.support import limit_clock_fixture  # noqa: F401  (the fixture)
from tests.fakes.provider import FakeProvider

__all__ = ["leave_kb"]
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("leave_kb")]
SECRET = SECRET_DROPPED.removesuffix(" [2].")


# What the fake model says, per mode: a sentence [1] supports, one [2] does not (it must
# never reach the client).
# A JSON draft with a failing claim is regenerated once; the second (final) one is shown.
JSON_DRAFT = claims_json((SHOWN, [1]), (SECRET, [2]))
STREAM_DRAFT = f"{ANSWER} {SECRET_DROPPED}"
NOT_FOUND_TAIL = " (it may have been deleted); leave out the conversation to start a new one."


@pytest.fixture
def fake(fake_provider: FakeProvider) -> FakeProvider:
    """The registered fake provider (``KBQA_PROVIDER=fake``), nothing queued yet."""
    return fake_provider


@pytest.fixture
def user(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("alice", password="pw-alice-123")


@pytest.fixture
def token(user: Any) -> str:
    return api_token_create(user=user, name="cli")[1]


def post(client: Client, url: str, body: Any, **extra: Any) -> Any:
    data = body if isinstance(body, str) else json.dumps(body)
    return client.post(url, data=data, content_type="application/json", **extra)


def bearer(key: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {key}"}


def test_json_contract_with_token(fake: FakeProvider, token: str) -> None:
    fake.add(JSON_DRAFT, JSON_DRAFT)
    response = post(
        Client(enforce_csrf_checks=True), "/api/answer", {"question": QUESTION}, **bearer(token)
    )
    body = response.json()
    assert response.status_code == 200
    assert set(body) == {
        "conversation",
        "trace_id",
        "status",
        "answer",
        "sentences",
        "notices",
        "dropped",
        "refusal",
        "sources",
    }
    assert (body["status"], body["answer"], body["refusal"]) == ("answered", SHOWN, None)
    # the conversation in the body and, as the stream gives it, in a header
    assert response["Kbqa-Conversation"] == str(body["conversation"])
    assert body["sentences"] == [
        {"text": SHOWN, "citations": [1], "kind": "claim", "paragraph": False}]
    assert [d["citations"] for d in body["dropped"]] == [[2]]
    assert body["dropped"][0]["reasons"]
    assert body["sources"] == [
        {
            "n": 1,
            "label": 1,
            "chunk_id": LEAVE_ID,
            "title": "Leave policy",
            "section": "Leave policy",
            "updated": "2025-06-30",
            "authority": "policy",
            "url": "http://testserver/chunks/doc-001%23c01/",
            "api_url": "http://testserver/api/chunks/doc-001%23c01",
        }
    ]
    assert SECRET not in response.content.decode()
    trace = Trace.objects.get(pk=body["trace_id"])
    assert (trace.status, trace.user.username, trace.provider) == ("answered", "alice", "fake")
    assert fake.prompts[0].task == "answer_json"


def test_a_bearer_client_can_open_the_api_url_of_a_source(fake: FakeProvider, token: str) -> None:
    """``url`` is the HTML page (login redirect for a token client); ``api_url`` is JSON."""
    fake.add(JSON_DRAFT, JSON_DRAFT)
    client = Client()
    body = post(client, "/api/answer", {"question": QUESTION}, **bearer(token)).json()
    source = body["sources"][0]
    page = client.get(source["url"], **bearer(token))
    chunk = client.get(source["api_url"], **bearer(token))
    assert page.status_code == 302
    assert (chunk.status_code, chunk.json()["text"]) == (200, LEAVE_TEXT)
    assert chunk.json()["url"] == source["url"]  # one absolute URL for the passage page


def test_token_use_is_stamped(fake: FakeProvider, token: str) -> None:
    assert ApiToken.objects.get().last_used_at is None
    post(Client(), "/api/answer", {"question": "q"}, **bearer(token))
    assert ApiToken.objects.get().last_used_at is not None


def test_refusal_in_json(fake: FakeProvider, token: str) -> None:
    body = post(Client(), "/api/answer", {"question": OFF_TOPIC}, **bearer(token)).json()
    assert (body["status"], body["answer"], body["sources"]) == ("refused_low_score", "", [])
    assert body["refusal"]["reason"] == "low_score"
    assert body["refusal"]["message"].startswith("No passage in the knowledge base matched")
    assert fake.prompts == []  # the gate refused before any model call


def csrf_client(user: Any) -> tuple[Client, str]:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    secret = get_random_string(32)
    client.cookies["csrftoken"] = secret
    return client, secret


def test_session_with_csrf_token_is_accepted(fake: FakeProvider, user: Any) -> None:
    client, secret = csrf_client(user)
    response = post(client, "/api/answer", {"question": "q"}, HTTP_X_CSRFTOKEN=secret)
    assert response.status_code == 200


def test_session_without_csrf_token_is_refused(fake: FakeProvider, user: Any) -> None:
    client, _ = csrf_client(user)
    response = post(client, "/api/answer", {"question": QUESTION})
    assert response.status_code == 403
    assert response.json()["error"].startswith("CSRF check failed")
    assert (fake.prompts, Trace.objects.count()) == ([], 0)


NO_WORDS = "The question holds no words, only punctuation or symbols. Type it in words."
ONLY_MARKUP = "The question holds only markup tags, no words. Type it as text."


def input_code(status: int, message: str) -> str:
    """The ``code`` the API gives with each refusal of bad input (README: HTTP API)."""
    if status == 404:
        return "conversation_not_found"
    if status == 413:
        return "question_too_long"
    if message == "The request body must be JSON.":
        return "invalid_json"
    if message == "'question' must be a string.":
        return "invalid_body"
    if message.startswith(("'question'", "The question holds")):
        return "empty_question"
    return "invalid_body"


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ("{not json", 400, "The request body must be JSON."),
        ('["q"]', 400, 'The request body must be a JSON object like {"question": "..."}.'),
        ({}, 400, "'question' is required and must be a non-empty string."),
        ({"question": "   "}, 400, "'question' is required and must be a non-empty string."),
        ({"question": 5}, 400, "'question' must be a string."),
        ({"question": ["q"]}, 400, "'question' must be a string."),
        ({"question": "\x00\x01 "}, 400, "'question' is required and must be a non-empty string."),
        ({"question": " ? "}, 400, NO_WORDS),
        ({"question": "？……"}, 400, NO_WORDS),
        (
            {"question": "<script>alert(1)</script>"},
            400,
            ONLY_MARKUP,
        ),
        (
            {"question": "q", "conversation": "seven"},
            400,
            "'conversation' must be an integer conversation id.",
        ),
        # the id as the Kbqa-Conversation header writes it is the id
        ({"question": "q", "conversation": "999999"}, 404, "Conversation 999999 does not exist"
         + NOT_FOUND_TAIL),
        (
            {"question": "q", "conversation": True},
            400,
            "'conversation' must be an integer conversation id.",
        ),
        ({"question": "q", "fabricate": "yes"}, 400, "'fabricate' must be true or false."),
        (
            {"question": "x" * 2001},
            413,
            "Your question is 2001 characters long; the limit is 2000. "
            "Shorten it and send it again.",
        ),
        ({"question": "q", "conversation": 999999}, 404, "Conversation 999999 does not exist"
         + NOT_FOUND_TAIL),
        # Beyond a 64-bit primary key: the database cannot even look it up.
        ({"question": "q", "conversation": 2**64}, 404,
         f"Conversation {2**64} does not exist" + NOT_FOUND_TAIL),
    ],
)
@pytest.mark.parametrize("url", ["/api/answer", "/api/answer/stream"])
def test_bad_input(
    fake: FakeProvider,
    token: str,
    url: str,
    body: Any,
    status: int,
    message: str,
    settings: Any,
) -> None:
    settings.KBQA_MAX_QUESTION_CHARS = 2000
    response = post(Client(), url, body, **bearer(token))
    assert (response.status_code, response.json()) == (
        status, {"error": message, "code": input_code(status, message)})
    assert response["Content-Type"] == "application/json"


@pytest.mark.parametrize("url", ["/api/answer", "/api/answer/stream"])
@pytest.mark.parametrize(
    ("headers", "message"),
    [
        ({}, "Authentication required: log in or send 'Authorization: Bearer <token>'."),
        ({"HTTP_AUTHORIZATION": "Bearer wrong-key"}, "Invalid API token."),
        ({"HTTP_AUTHORIZATION": "Basic abc"}, "The 'Basic' authorization scheme is not accepted: "
         "send the API token as 'Authorization: Bearer <token>'."),
    ],
)
def test_unauthenticated(
    fake: FakeProvider, token: str, url: str, headers: dict[str, str], message: str
) -> None:
    response = post(Client(), url, {"question": "q"}, **headers)
    code = "unauthorized" if message.startswith("Authentication required") else "invalid_token"
    assert (response.status_code, response.json()) == (401, {"error": message, "code": code})


def test_inactive_users_token_is_refused(fake: FakeProvider, user: Any, token: str) -> None:
    user.is_active = False
    user.save()
    assert post(Client(), "/api/answer", {"question": "q"}, **bearer(token)).status_code == 401


@pytest.mark.parametrize("url", ["/api/answer", "/api/answer/stream"])
def test_get_is_405(token: str, url: str) -> None:
    response = Client().get(url, **bearer(token))
    assert (response.status_code, response.json()) == (
        405, {"error": "Use POST.", "code": "method_not_allowed"})
    assert response["Allow"] == "POST"


def test_someone_elses_conversation_is_not_found(
    fake: FakeProvider, token: str, django_user_model: Any
) -> None:
    """Someone else's conversation answers like a missing one: ids are not disclosed."""
    bob = django_user_model.objects.create_user("bob", password="pw-bob-12345")
    conversation = Conversation.objects.create(owner=bob)
    response = post(
        Client(), "/api/answer", {"question": "q", "conversation": conversation.pk}, **bearer(token)
    )
    assert (response.status_code, response.json()) == (
        404,
        {"error": f"Conversation {conversation.pk} does not exist" + NOT_FOUND_TAIL,
         "code": "conversation_not_found"},
    )
    assert (conversation.messages.count(), Trace.objects.count()) == (0, 0)


def test_conversation_history_used_and_turn_stored(
    fake: FakeProvider, user: Any, token: str
) -> None:
    conversation = Conversation.objects.create(owner=user, title="Leave")
    Message.objects.create(conversation=conversation, role="user", text=QUESTION)
    Message.objects.create(conversation=conversation, role="assistant", text="20 days.")
    fake.supports_rewrite = True  # type: ignore[misc]
    fake.add("How many days of annual leave do part-time employees get?", JSON_DRAFT, JSON_DRAFT)
    response = post(
        Client(),
        "/api/answer",
        {"question": "And for part-timers?", "conversation": conversation.pk},
        **bearer(token),
    )
    assert response.status_code == 200
    assert [(t.role, t.text) for t in fake.prompts[0].history] == [
        ("user", QUESTION),
        ("assistant", "20 days."),
    ]
    rows = list(conversation.messages.values_list("role", "text", "status"))
    assert rows[2:] == [("user", "And for part-timers?", ""), ("assistant", SHOWN, "answered")]
    trace = Trace.objects.get()
    assert trace.conversation_id == conversation.pk
    assert trace.standalone_query == "How many days of annual leave do part-time employees get?"


@pytest.mark.parametrize("url", ["/api/answer", "/api/answer/stream"])
def test_provider_config_error_is_503(token: str, settings: Any, url: str) -> None:
    settings.KBQA_PROVIDER, settings.ANTHROPIC_API_KEY = "anthropic", ""
    response = post(Client(), url, {"question": "q"}, **bearer(token))
    assert (response.status_code, response.json()) == (
        503,
        {
            "error": "The answer provider is unavailable: set ANTHROPIC_API_KEY to use the "
            "anthropic provider",
            "code": "provider_unavailable",
        },
    )
    assert Conversation.objects.count() == 0


def test_provider_error_event_is_503_in_json(fake: FakeProvider, token: str) -> None:
    fake.add(ProviderError("The model provider is overloaded; try again.", retryable=True))
    response = post(Client(), "/api/answer", {"question": QUESTION}, **bearer(token))
    body = response.json()
    assert response.status_code == 503
    assert body == {
        "error": "The model provider is overloaded; try again.",
        "code": "provider_error",
        "trace_id": Trace.objects.get().pk,
        "conversation": Conversation.objects.get().pk,
    }


# ----------------------------------------------------------------------------- SSE


def sse(headers: dict[str, str], body: dict[str, Any]) -> tuple[Any, str]:
    """POST to the stream endpoint with the async client and read the whole stream."""

    async def go() -> tuple[Any, str]:
        client = AsyncClient()
        response = await client.post(
            "/api/answer/stream", data=body, content_type="application/json", headers=headers
        )
        chunks = [c async for c in response.streaming_content]
        return response, b"".join(
            c if isinstance(c, bytes) else c.encode() for c in chunks
        ).decode()

    # async_to_sync keeps the views' database work on this thread (the test's transaction).
    return async_to_sync(go)()


def parse_frames(text: str) -> list[tuple[str, dict[str, Any]]]:
    assert text.endswith("\n\n")
    frames = []
    for frame in text[:-2].split("\n\n"):
        event_line, data_line = frame.split("\n")
        assert event_line.startswith("event: ") and data_line.startswith("data: ")
        frames.append((event_line[len("event: ") :], json.loads(data_line[len("data: ") :])))
    return frames


def test_sse_events_in_order(fake: FakeProvider, token: str) -> None:
    fake.add(STREAM_DRAFT)
    response, text = sse({"Authorization": f"Bearer {token}"}, {"question": QUESTION})
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"
    frames = parse_frames(text)
    assert [name for name, _ in frames] == ["meta", "sentence", "dropped", "done"]
    assert frames[1][1] == {
        "index": 1, "text": SHOWN, "citations": [1], "kind": "claim", "paragraph": False
    }
    assert set(frames[2][1]) == {"index", "citations", "reasons"}
    assert frames[2][1]["citations"] == [2]
    assert frames[3][1]["status"] == "answered"
    assert frames[0][1]["trace_id"] == frames[3][1]["trace_id"] == Trace.objects.get().pk
    assert SECRET not in text
    assert SECRET in json.dumps(Trace.objects.get().data["dropped"])  # for reviewers only
    assert fake.prompts[0].task == "answer"


@pytest.mark.parametrize(("question", "language"), [
    ("回收站会把文件保留多久？", "zh-Hans"), (QUESTION, "en")])
def test_the_stream_names_the_language_of_the_question(
    fake: FakeProvider, token: str, question: str, language: str
) -> None:
    # a tester's Chinese stream came with the request's "Content-Language: en"
    fake.add(STREAM_DRAFT)
    response, _ = sse({"Authorization": f"Bearer {token}", "Accept-Language": "en"},
                      {"question": question})
    assert response["Content-Language"] == language


def test_sse_provider_error_streams_error_then_done(fake: FakeProvider, token: str) -> None:
    fake.add(ProviderError("The model provider is overloaded; try again.", retryable=True))
    response, text = sse({"Authorization": f"Bearer {token}"}, {"question": QUESTION})
    frames = parse_frames(text)
    assert [name for name, _ in frames] == ["meta", "error", "done"]
    assert frames[1][1] == {
        "message": "The model provider is overloaded; try again.",
        "retryable": True,
    }
    assert frames[2][1]["status"] == "error"
    assert Trace.objects.get().status == "error"


def test_sse_stores_the_turn(fake: FakeProvider, user: Any, token: str) -> None:
    fake.add(STREAM_DRAFT)
    conversation = Conversation.objects.create(owner=user)
    sse(
        {"Authorization": f"Bearer {token}"},
        {"question": QUESTION, "conversation": conversation.pk},
    )
    assert list(conversation.messages.values_list("role", "status")) == [
        ("user", ""),
        ("assistant", "answered"),
    ]


# ------------------------------------------------------------------- continuing a conversation


def test_an_answer_without_conversation_starts_one_to_continue(
    fake: FakeProvider, user: Any, token: str
) -> None:
    fake.supports_rewrite = True  # type: ignore[misc]
    fake.add(JSON_DRAFT, JSON_DRAFT, "How many days of annual leave do part-timers get?")
    fake.add(JSON_DRAFT, JSON_DRAFT)
    first = post(Client(), "/api/answer", {"question": QUESTION}, **bearer(token)).json()
    conversation = Conversation.objects.get()
    follow_up = post(
        Client(),
        "/api/answer",
        {"question": "And for part-timers?", "conversation": first["conversation"]},
        **bearer(token),
    ).json()

    assert first["conversation"] == follow_up["conversation"] == conversation.pk
    assert (conversation.owner, conversation.title) == (user, QUESTION)
    assert fake.prompts[2].task == "rewrite"
    assert [(t.role, t.text) for t in fake.prompts[2].history] == [
        ("user", QUESTION),
        ("assistant", SHOWN),
    ]
    assert list(conversation.messages.values_list("role", flat=True)) == [
        "user",
        "assistant",
        "user",
        "assistant",
    ]
    assert set(Trace.objects.values_list("conversation_id", flat=True)) == {conversation.pk}


def test_conversations_the_api_started_are_listed_apart_in_the_chat_sidebar(
    fake: FakeProvider, user: Any, token: str
) -> None:
    fake.add(JSON_DRAFT, JSON_DRAFT)
    started = post(Client(), "/api/answer", {"question": QUESTION}, **bearer(token)).json()
    browser = Client()
    browser.force_login(user)
    page = browser.get("/").content.decode()  # opens (creates) a browser conversation
    own, api = page.split('id="api-conversation-list"')

    link = f'id="conversation-link-{started["conversation"]}"'
    assert Conversation.objects.get(pk=started["conversation"]).via_api
    assert link in api and link not in own
    assert "Started through the API (1)" in own
    # the chat opens the browser's own latest conversation, not the API's
    assert '<h1 id="chat-title" class="chat-title">New conversation</h1>' in page


def test_a_capped_conversation_list_says_how_many_there_are(user: Any) -> None:
    """The sidebar lists the 50 most recent; its count said "(50)" for a tester's 100."""
    Conversation.objects.bulk_create(
        Conversation(owner=user, title=f"API {i}", via_api=True) for i in range(53))
    browser = Client()
    browser.force_login(user)
    page = browser.get("/").content.decode()
    assert "Started through the API (50 most recent of 53)" in page
    assert page.split('id="api-conversation-list"')[1].count('class="conversation-link"') == 50


def test_sse_names_the_conversation_in_meta_done_and_a_header(
    fake: FakeProvider, token: str
) -> None:
    fake.add(STREAM_DRAFT)
    response, text = sse({"Authorization": f"Bearer {token}"}, {"question": QUESTION})
    frames = dict(parse_frames(text))
    conversation = Conversation.objects.get().pk
    assert response["Kbqa-Conversation"] == str(conversation)
    assert frames["meta"]["conversation"] == frames["done"]["conversation"] == conversation
    assert "conversation" not in frames["sentence"]
    # ...and sending that header's value back continues the conversation
    fake.add(STREAM_DRAFT)
    again, _ = sse({"Authorization": f"Bearer {token}"},
                   {"question": QUESTION, "conversation": response["Kbqa-Conversation"]})
    assert again.status_code == 200 and again["Kbqa-Conversation"] == str(conversation)
    assert Conversation.objects.count() == 1


@pytest.mark.parametrize("body", [{}, {"question": "q", "conversation": 999999}])
def test_a_refused_request_starts_no_conversation(
    fake: FakeProvider, token: str, body: dict[str, Any]
) -> None:
    assert post(Client(), "/api/answer", body, **bearer(token)).status_code in (400, 404)
    assert Conversation.objects.count() == 0


@pytest.mark.parametrize("how", ["json", "sse"])
def test_control_characters_are_stripped_before_anything_is_stored(
    fake: FakeProvider, token: str, how: str
) -> None:
    # one between two words separates them, as a space would: "much leave", not "muchleave"
    body = {"question": "How\x00 much\x00leave?\x07"}
    fake.add(*((JSON_DRAFT, JSON_DRAFT) if how == "json" else (STREAM_DRAFT,)))
    if how == "json":
        assert post(Client(), "/api/answer", body, **bearer(token)).status_code == 200
    else:
        assert sse({"Authorization": f"Bearer {token}"}, body)[0].status_code == 200
    trace = Trace.objects.get()
    assert (trace.question, trace.status) == ("How much leave?", "answered")
    assert fake.prompts[0].question == "How much leave?"
    assert list(Message.objects.filter(role="user").values_list("text", flat=True)) == [
        "How much leave?"
    ]


def test_the_json_answer_carries_the_authority_notices_sse_sends_before_the_sentence(
    fake: FakeProvider, token: str, tmp_path: Any
) -> None:
    kb_store(tmp_path, LAPTOP_DOCS)  # two policies disagree; the newer, stronger one wins
    shown = LAPTOP_ANSWER.removesuffix(" [1].") + "."
    fake.add(claims_json((shown, [1])), LAPTOP_ANSWER)
    body = post(Client(), "/api/answer", {"question": LAPTOP_QUESTION}, **bearer(token)).json()
    _response, text = sse({"Authorization": f"Bearer {token}"}, {"question": LAPTOP_QUESTION})
    frames = parse_frames(text)
    assert [name for name, _ in frames][:3] == ["meta", "notice", "sentence"]
    assert body["answer"] == shown
    assert len(body["notices"]) == 1 and "Equipment policy (2022)" in body["notices"][0]
    assert body["notices"] == frames[1][1]["notices"]


@pytest.mark.parametrize(
    "path", ["/api/answer/", "/api/answer/stream/", "/api/chunks/", "/api/nothing"]
)
def test_a_path_under_api_that_names_no_endpoint_is_a_json_404(token: str, path: str) -> None:
    """An API client mistyping a path (a trailing slash, no chunk id) gets JSON naming the
    endpoints, never the HTML page a browser gets."""
    response = Client().post(path, "{}", content_type="application/json",
                             HTTP_AUTHORIZATION=f"Bearer {token}")
    body = response.json()

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert path in body["error"] and "POST /api/answer/stream" in body["error"]


def test_a_missing_page_outside_the_api_is_still_the_apps_html_404(user: Any) -> None:
    response = Client().get("/no-such-page/")

    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_the_json_answer_names_the_language_of_the_question(
    fake: FakeProvider, token: str
) -> None:
    # a tester's Chinese answer came with the request's "Content-Language: en"
    fake.add(JSON_DRAFT, JSON_DRAFT)
    response = post(Client(), "/api/answer", {"question": "回收站会把文件保留多久？"},
                    **bearer(token))
    assert response.status_code == 200
    assert response["Content-Language"] == "zh-Hans"


@pytest.mark.parametrize("url", ["/api/answer", "/api/answer/stream"])
def test_errors_are_english_with_a_code_whatever_the_client_language(
    fake: FakeProvider, token: str, settings: Any, url: str, limit_clock: float
) -> None:
    # An integrator's report: with Accept-Language: zh-CN the 413 and 429 messages came in
    # Chinese, the 400/401/404 in English, and only the prose told two 429s apart.
    # The clock is stopped: a one-minute window ending between the two questions let the
    # second through (CI, once); the first answer is read whole, as a client would.
    settings.KBQA_MAX_QUESTION_CHARS, settings.KBQA_TOKEN_QUESTIONS_PER_MINUTE = 50, 1
    chinese = {**bearer(token), "HTTP_ACCEPT_LANGUAGE": "zh-CN"}
    too_long = post(Client(), url, {"question": "x" * 51}, **chinese)
    assert (too_long.status_code, too_long.json()) == (413, {
        "error": "Your question is 51 characters long; the limit is 50. "
                 "Shorten it and send it again.",
        "code": "question_too_long"})
    fake.add(JSON_DRAFT, JSON_DRAFT)
    if url.endswith("stream"):
        sse({"Authorization": f"Bearer {token}", "Accept-Language": "zh-CN"},
            {"question": QUESTION})
    else:
        post(Client(), url, {"question": QUESTION}, **chinese)
    limited = post(Client(), url, {"question": QUESTION}, **chinese)
    assert limited.status_code == 429 and limited.json()["code"] == "rate_limited"
    assert limited.json()["error"].startswith("You have asked 1 question")
