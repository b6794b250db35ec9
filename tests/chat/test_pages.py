"""The chat page and conversation views, as a logged-in (or anonymous) browser sees them."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from chat.models import Conversation, Message, Trace
from sources.claim_links import claim_signature

pytestmark = pytest.mark.django_db


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))


def tags(html: str) -> list[tuple[str, dict[str, str]]]:
    parser = _Ids()
    parser.feed(html)
    return parser.tags


def by_class(html: str, name: str) -> list[dict[str, str]]:
    return [a for _t, a in tags(html) if name in a.get("class", "").split()]


@pytest.fixture
def alice() -> object:
    return get_user_model().objects.create_user(username="alice", password="pw-123456")


@pytest.fixture
def client_alice(alice: object) -> Client:
    client = Client()
    client.force_login(alice)  # type: ignore[arg-type]
    return client


@pytest.mark.parametrize("url", ["/", "/c/1/"])
def test_chat_pages_require_login(client: Client, url: str) -> None:
    response = client.get(url)
    assert (response.status_code, response["Location"]) == (302, f"/accounts/login/?next={url}")


def test_login_page_matches_the_site(client: Client) -> None:
    html = client.get("/accounts/login/").content.decode()
    assert 'class="login-card"' in html and 'id="language-select"' in html
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html


def test_first_visit_opens_a_conversation_with_the_message_box(
    client_alice: Client, alice: object
) -> None:
    html = client_alice.get("/").content.decode()
    conversation = Conversation.objects.get(owner=alice)
    ws = [a for _t, a in tags(html) if "ws-connect" in a]
    assert [(a["id"], a["ws-connect"].split("&tab=")[0], a["hx-ext"]) for a in ws] == [
        ("chat", f"/ws/chat/{conversation.pk}/?lang=en", "ws")  # the page language rides along
    ]
    composer = [a for t, a in tags(html) if a.get("id") == "composer"]
    assert composer and "ws-send" in composer[0]
    assert '<textarea id="question" name="question"' in html
    assert '<dialog id="citation-dialog"' in html and 'id="citation-body"' in html


def test_only_own_conversations_are_listed(client_alice: Client, alice: object) -> None:
    other = get_user_model().objects.create_user(username="bob", password="pw-123456")
    Conversation.objects.create(owner=other, title="Bob's salary question")
    mine = Conversation.objects.create(owner=alice, title="Refund period")  # type: ignore[misc]
    html = client_alice.get("/").content.decode()
    links = by_class(html, "conversation-link")
    assert [a["href"] for a in links] == [f"/c/{mine.pk}/"]
    assert "Refund period" in html and "Bob&#x27;s salary question" not in html
    assert client_alice.get(f"/c/{Conversation.objects.get(owner=other).pk}/").status_code == 404


def test_status_line_names_the_provider(client_alice: Client, settings: Any) -> None:
    settings.KBQA_PROVIDER = "extractive"
    html = client_alice.get("/").content.decode()
    assert '<span class="provider-label">offline extractive</span>' in html


def test_phone_viewport_meta_is_present(client_alice: Client) -> None:
    html = client_alice.get("/").content.decode()
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html


def test_scripts_come_from_static_files_with_one_htmx_major(client_alice: Client) -> None:
    html = client_alice.get("/").content.decode()
    scripts = [a for t, a in tags(html) if t == "script" and "src" in a]
    # All deferred: run in document order, so htmx is defined before its ws extension.
    assert all("defer" in a for a in scripts)
    assert [a["src"] for a in scripts] == [
        "/static/django_htmx/htmx-2.min.js",
        "/static/vendor/htmx-ext-ws/ws.js",
        "/static/js/chat.js",
        "/static/js/answer-actions.js",
    ]


def test_stored_messages_are_escaped(client_alice: Client, alice: object) -> None:
    conversation = Conversation.objects.create(owner=alice)  # type: ignore[misc]
    Message.objects.create(conversation=conversation, role="user", text="<script>alert(1)</script>")
    Message.objects.create(
        conversation=conversation,
        role="assistant",
        status="answered",
        text="<script>alert(2)</script>",
        sentences=[
            {"index": 0, "text": "<script>alert(2)</script>", "citations": [1], "kind": "claim"}
        ],
        citations=[{"n": 1, "chunk_id": "doc-1#c01", "title": "<b>T</b>", "updated": ""}],
    )
    html = client_alice.get(f"/c/{conversation.pk}/").content.decode()
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in html
    assert "<b>T</b>" not in html


def test_past_turns_render_sentences_chips_withheld_and_trace(
    client_alice: Client, alice: object
) -> None:
    conversation = Conversation.objects.create(owner=alice)  # type: ignore[misc]
    trace = Trace.objects.create(
        question="q",
        status="answered",
        data={"dropped": [{"index": 1, "text": "The moon is cheese."}]},
    )
    Message.objects.create(conversation=conversation, role="user", text="Refunds?")
    answer = Message.objects.create(
        conversation=conversation,
        role="assistant",
        status="answered",
        trace=trace,
        text="Refunds take 14 days.",
        sentences=[
            {"index": 0, "text": "Refunds take 14 days.", "citations": [1], "kind": "claim"}
        ],
        citations=[
            {"n": 1, "chunk_id": "doc-010#c02", "title": "Refund policy", "updated": "2025-06-30"}
        ],
    )
    html = client_alice.get(f"/c/{conversation.pk}/").content.decode()
    key = f"m{answer.pk}"
    assert [a["href"] for a in by_class(html, "chip")] == [
        "/chunks/doc-010%23c02/?claim=Refunds+take+14+days.&sig="
        + claim_signature("doc-010#c02", "Refunds take 14 days.")
    ]
    assert f'id="answer-{key}"' in html and f'id="footer-{key}"' in html
    assert f'<code class="trace-id">{trace.pk}</code>' in html
    assert "1 sentence withheld: its citation could not be verified." in html
    assert "moon" not in html


def test_stored_refusal_renders_its_card(client_alice: Client, alice: object) -> None:
    conversation = Conversation.objects.create(owner=alice)  # type: ignore[misc]
    Message.objects.create(
        conversation=conversation,
        role="assistant",
        status="refused_low_score",
        refusal={"reason": "low_score", "message": "Ask HR.", "conflict": None, "documents": []},
    )
    html = client_alice.get(f"/c/{conversation.pk}/").content.decode()
    assert [a["class"] for a in by_class(html, "refusal")] == ["refusal refusal-low_score"]
    assert "Ask HR." in html


def test_new_conversation_reuses_an_empty_one(client_alice: Client, alice: object) -> None:
    first = client_alice.post("/c/new/")
    conversation = Conversation.objects.get(owner=alice)
    Message.objects.create(conversation=conversation, role="user", text="hi")
    second = client_alice.post("/c/new/")
    newest = Conversation.objects.filter(owner=alice).first()
    assert first["Location"] == f"/c/{conversation.pk}/"
    assert second["Location"] == f"/c/{newest.pk}/" and newest.pk != conversation.pk
    assert client_alice.get("/c/new/")["Location"] == "/"  # a GET starts nothing


def test_empty_conversations_do_not_pile_up_in_the_list(
        client_alice: Client, alice: object) -> None:
    # a tester's sidebar filled with empty "New conversation" entries
    older = Conversation.objects.create(owner=alice)  # type: ignore[misc]
    asked = Conversation.objects.create(owner=alice)  # type: ignore[misc]
    Message.objects.create(conversation=asked, role="user", text="How many leave days?")
    # "New conversation" opens the empty one there is, not another
    assert client_alice.post("/c/new/")["Location"] == f"/c/{older.pk}/"
    assert Conversation.objects.filter(owner=alice).count() == 2
    html = client_alice.get(f"/c/{asked.pk}/").content.decode()
    assert f'id="conversation-link-{asked.pk}"' in html
    assert f'id="conversation-link-{older.pk}"' not in html  # empty and not open: unlisted
    opened = client_alice.get(f"/c/{older.pk}/").content.decode()
    assert f'id="conversation-link-{older.pk}"' in opened


def text_of(html: str, element_id: str) -> str:
    """The text of the element with ``element_id`` (first level only: enough for spans)."""
    start = html.index(f'id="{element_id}"')
    return html[html.index(">", start) + 1 : html.index("<", start)].strip()


def test_connection_state_says_connecting_until_the_server_admits_the_socket(
    client_alice: Client,
) -> None:
    html = client_alice.get("/").content.decode()
    state = [a for _t, a in tags(html) if a.get("id") == "connection-state"]
    assert [a["data-state"] for a in state] == ["connecting"]
    assert text_of(html, "connection-state") == "connecting…"
    assert ">connected<" not in html and '"connected"' not in html


def test_composer_knows_what_to_say_when_the_socket_is_down(client_alice: Client) -> None:
    html = client_alice.get("/").content.decode()
    composer = [a for _t, a in tags(html) if a.get("id") == "composer"][0]
    assert composer["data-offline-message"] == (
        "Not connected — reconnecting…; your question is kept."
    )
    assert composer["data-ended-message"] == "Not connected. Reload the page to continue."


def test_fabrication_label_counts_the_sentences_it_adds(
    client_alice: Client, settings: object
) -> None:
    from kbqa.core.generation.fabricate import FABRICATED

    settings.KBQA_FABRICATE = True  # type: ignore[attr-defined]
    html = client_alice.get("/").content.decode()
    label = html[html.index('id="fabricate"') :].split("</label>")[0]
    assert len(FABRICATED["en"]) == 2
    assert "add two unsupported sentences (they must be withheld)" in label
    assert "an unsupported sentence" not in html


def test_every_page_links_the_favicon_and_the_old_path_redirects_to_it(
    client: Client, client_alice: Client
) -> None:
    from django.contrib.staticfiles import finders

    for html in (
        client.get("/accounts/login/").content.decode(),
        client_alice.get("/").content.decode(),
    ):
        icons = [a for t, a in tags(html) if t == "link" and a.get("rel") == "icon"]
        assert [(a["href"], a["type"]) for a in icons] == [("/static/favicon.svg", "image/svg+xml")]
    response = client.get("/favicon.ico")
    assert (response.status_code, response["Location"]) == (301, "/static/favicon.svg")
    svg = Path(finders.find("favicon.svg")).read_text(encoding="utf-8")
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"') and len(svg) < 1000


def test_only_reviewers_get_the_trace_link_pattern(client_alice: Client, alice: Any) -> None:
    # answer-actions.js turns each footer's trace id into a link when #messages names the
    # trace page; an employee who may not open traces gets the id as text only
    messages = [a for t, a in tags(client_alice.get("/", follow=True).content.decode())
                if a.get("id") == "messages"]
    assert "data-trace-url" not in messages[0]
    alice.is_staff = True  # active staff review traces (chat.auth.StaffReviewerBackend)
    alice.save()
    messages = [a for t, a in tags(client_alice.get("/", follow=True).content.decode())
                if a.get("id") == "messages"]
    assert messages[0]["data-trace-url"] == "/traces/TRACE_ID/"
