"""The chunk view: page, htmx partial, JSON; links with %23, escaping, login, 404."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from sources.claim_links import claim_signature
from sources.models import Chunk, Document

pytestmark = pytest.mark.django_db


@pytest.fixture
def chunk() -> Chunk:
    doc = Document.objects.create(
        doc_id="doc-010",
        title="Travel <Policy>",
        updated="2025-06-30",
        authority="policy",
        source_url="https://intranet.example.com/travel",
    )
    return Chunk.objects.create(
        chunk_id="doc-010#c02",
        document=doc,
        ordinal=2,
        section="Hotels",
        text="Up to 200 USD. <script>alert(1)</script>",
        tokens=9,
        fingerprint="f" * 40,
    )


@pytest.fixture
def client_in(client: Client) -> Client:
    client.force_login(User.objects.create_user("ann", password="pw-123456789"))
    return client


def test_reverse_percent_encodes_the_hash() -> None:
    assert reverse("sources:chunk-detail", args=["doc-010#c02"]) == "/chunks/doc-010%23c02/"
    assert reverse("sources:chunk-api", args=["doc-010#c02"]) == "/api/chunks/doc-010%23c02"


def test_page_shows_the_chunk_with_its_document(client_in: Client, chunk: Chunk) -> None:
    response = client_in.get("/chunks/doc-010%23c02/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "<!doctype html>" in html
    assert "Travel &lt;Policy&gt;" in html
    assert "Hotels" in html
    assert '<time datetime="2025-06-30">2025-06-30</time>' in html
    assert 'href="https://intranet.example.com/travel"' in html
    assert 'href="/chunks/doc-010%23c02/"' in html  # the permalink works
    assert "Superseded" not in html


def test_document_text_is_escaped(client_in: Client, chunk: Chunk) -> None:
    html = client_in.get("/chunks/doc-010%23c02/").content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<script>alert(1)" not in html


def test_the_passage_date_reads_in_chinese(client_in: Client, chunk: Chunk) -> None:
    html = client_in.get("/chunks/doc-010%23c02/?lang=zh-hans").content.decode()
    assert '<span class="chunk-updated">更新日期：' in html


def test_htmx_request_gets_only_the_partial(client_in: Client, chunk: Chunk) -> None:
    response = client_in.get("/chunks/doc-010%23c02/", headers={"HX-Request": "true"})
    html = response.content.decode().strip()
    assert response.status_code == 200
    assert html.startswith('<article id="chunk-view"')
    assert "<!doctype html>" not in html


def test_superseded_chunk_is_readable_and_marked(client_in: Client, chunk: Chunk) -> None:
    """The old text is not shown under the newer version's title and date as if it were
    theirs (a reviewer read a 2025 passage as the 2026 guide's): it says whose earlier
    version it is and when it was in the knowledge base."""
    from django.utils import timezone

    Chunk.objects.filter(pk=chunk.pk).update(is_current=False, superseded_at=timezone.now())
    html = client_in.get("/chunks/doc-010%23c02/").content.decode()
    title = re.search(r'<h2 class="chunk-title">(.*?)</h2>', html, re.S).group(1)
    assert "Superseded: this passage was replaced" in html
    assert "Up to 200 USD." in html
    assert title.startswith("An earlier version of the document now titled")
    assert "In the knowledge base from " in html and 'class="chunk-updated"' not in html


def test_the_json_of_a_superseded_chunk_gives_no_newer_version_s_date(
    client_in: Client, chunk: Chunk
) -> None:
    from django.utils import timezone

    current = client_in.get("/api/chunks/doc-010%23c02").json()
    assert (current["updated"], current["superseded"], current["superseded_at"]) == (
        "2025-06-30", False, None)
    Chunk.objects.filter(pk=chunk.pk).update(is_current=False, superseded_at=timezone.now())
    old = client_in.get("/api/chunks/doc-010%23c02").json()
    today = timezone.localdate().isoformat()
    assert old["text"] == "Up to 200 USD. <script>alert(1)</script>"
    assert (old["updated"], old["superseded"]) == (None, True)
    assert (old["stored_from"], old["superseded_at"]) == (today, today)


@pytest.mark.parametrize("htmx", [False, True])
def test_unknown_id_is_a_404_with_a_clear_message(client_in: Client, htmx: bool) -> None:
    headers = {"HX-Request": "true"} if htmx else {}
    response = client_in.get("/chunks/doc-999%23c01/", headers=headers)
    assert response.status_code == 404
    assert "“doc-999#c01” is not available to you" in response.content.decode()


def test_unsafe_source_url_is_not_a_link(client_in: Client, chunk: Chunk) -> None:
    Document.objects.filter(pk=chunk.document_id).update(source_url="javascript:alert(1)")
    html = client_in.get("/chunks/doc-010%23c02/").content.decode()
    assert 'href="javascript:' not in html
    assert "Source: javascript:alert(1)" in html


def test_page_requires_login(client: Client, chunk: Chunk) -> None:
    response = client.get("/chunks/doc-010%23c02/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/chunks/doc-010%2523c02/"


def test_api_returns_json(client_in: Client, chunk: Chunk) -> None:
    response = client_in.get("/api/chunks/doc-010%23c02")
    assert response.status_code == 200
    assert response.json() == {
        "chunk_id": "doc-010#c02",
        "doc_id": "doc-010",
        "title": "Travel <Policy>",
        "text": "Up to 200 USD. <script>alert(1)</script>",
        "section": "Hotels",
        "updated": "2025-06-30",
        "source_url": "https://intranet.example.com/travel",
        "authority": "policy",
        "language": "en",
        "superseded": False,
        "stored_from": chunk.created_at.date().isoformat(),
        "superseded_at": None,
        "is_current": True,
        "retired_at": None,
        "url": "http://testserver/chunks/doc-010%23c02/",  # absolute, as in answer sources
    }


@pytest.mark.parametrize(
    ("path", "status", "key"),
    [
        ("/api/chunks/doc-010%23c02/", 200, "text"),
        ("/api/chunks/nope/", 404, "error"),
    ],
)
def test_api_accepts_a_trailing_slash_and_answers_json(
    client_in: Client, chunk: Chunk, path: str, status: int, key: str
) -> None:
    response = client_in.get(path)
    assert (response.status_code, response["Content-Type"]) == (status, "application/json")
    assert key in response.json()


def test_a_chip_after_the_session_ended_sends_the_page_to_the_login(
    client: Client, chunk: Chunk
) -> None:
    # htmx followed the redirect itself and showed the login page inside the citation
    # dialog; the whole page now goes to the login, and back to the chat after it
    response = client.get("/chunks/doc-010%23c02/?partial=1", HTTP_HX_REQUEST="true",
                          HTTP_HX_CURRENT_URL="http://testserver/c/7/?lang=zh-hans")
    assert response.status_code == 200
    assert response["HX-Redirect"] == "/accounts/login/?next=%2Fc%2F7%2F%3Flang%3Dzh-hans"
    assert response.content == b""
    # a page of another site is no place to come back to
    response = client.get("/chunks/doc-010%23c02/", HTTP_HX_REQUEST="true",
                          HTTP_HX_CURRENT_URL="https://evil.example/phish")
    assert response["HX-Redirect"] == "/accounts/login/?next=%2F"


def test_api_without_login_is_401_json(client: Client, chunk: Chunk) -> None:
    response = client.get("/api/chunks/doc-010%23c02")
    assert response.status_code == 401
    assert response.json() == {
        "error": "Authentication required: log in or send 'Authorization: Bearer <token>'.",
        "code": "unauthorized",
    }


def test_api_unknown_id_is_404_json(client_in: Client) -> None:
    response = client_in.get("/api/chunks/nope")
    assert response.status_code == 404
    assert response.json() == {"error": "No source passage with id 'nope'. A passage id has the"
                               " form doc-id#c01; in a URL write its # as %23"
                               " (/api/chunks/doc-042%23c02).", "code": "chunk_not_found"}
    # a whole id that is not there needs no hint
    missing = client_in.get("/api/chunks/nope%23c01").json()
    assert missing == {"error": "No source passage with id 'nope#c01'.", "code": "chunk_not_found"}


@pytest.mark.parametrize("htmx", [False, True])
def test_chunk_of_a_removed_document_stays_readable_with_a_note(
    client_in: Client, chunk: Chunk, htmx: bool
) -> None:
    from sources.lifecycle import document_retire

    document_retire(document=chunk.document)
    Document.objects.filter(pk=chunk.document_id).update(retired_at="2025-07-01T09:00:00Z")
    headers = {"HX-Request": "true"} if htmx else {}
    response = client_in.get("/chunks/doc-010%23c02/", headers=headers)
    html = response.content.decode()
    assert response.status_code == 200
    assert "This document was removed from the knowledge base on 2025-07-01." in html
    assert "Up to 200 USD." in html
    api = client_in.get("/api/chunks/doc-010%23c02").json()
    assert (api["is_current"], api["retired_at"], api["text"]) == (
        False,
        "2025-07-01T09:00:00+00:00",
        "Up to 200 USD. <script>alert(1)</script>",
    )


def test_retired_note_does_not_claim_the_chunk_was_superseded(
    client_in: Client, chunk: Chunk
) -> None:
    from sources.lifecycle import document_retire

    document_retire(document=chunk.document)
    html = client_in.get("/chunks/doc-010%23c02/").content.decode()
    assert "removed from the knowledge base" in html
    assert "Superseded" not in html


@pytest.mark.parametrize("htmx", [False, True])
def test_purged_chunk_says_no_longer_available(
    client_in: Client, chunk: Chunk, htmx: bool
) -> None:
    from sources.lifecycle import document_purge
    from sources.models import PurgedChunk

    document_purge(document=chunk.document)
    PurgedChunk.objects.update(purged_at="2025-08-02T10:00:00Z")
    headers = {"HX-Request": "true"} if htmx else {}
    response = client_in.get("/chunks/doc-010%23c02/", headers=headers)
    assert response.status_code == 410
    assert (
        "The source passage “doc-010#c02” is no longer available: it was purged from the "
        "knowledge base on 2025-08-02." in response.content.decode()
    )
    api = client_in.get("/api/chunks/doc-010%23c02")
    assert (api.status_code, api.json()) == (
        410,
        {"error": "Source passage 'doc-010#c02' is no longer available: it was purged on "
         "2025-08-02.", "code": "chunk_purged"},
    )


READABLE = [
    (
        "Instead of polling, register a webhook under **Integrations → Webhooks** in the\n"
        "admin console. Retry after a `429` answer.\n\n"
        "- Economy class for flights\n  under six hours.\n- Business class <b>above</b>.",
        '<div class="chunk-text"><p class="chunk-para">Instead of polling, register a webhook '
        "under <strong>Integrations → Webhooks</strong> in the admin console. Retry after a "
        '<code>429</code> answer.</p><ul class="chunk-list"><li>Economy class for flights under '
        "six hours.</li><li>Business class &lt;b&gt;above&lt;/b&gt;.</li></ul></div>",
    ),
    (
        "访客车辆应停放在\nB2层，每次最多\n停放两小时。\n1. 登记车牌\n2. 领取停车卡",
        '<div class="chunk-text"><p class="chunk-para">访客车辆应停放在B2层，每次最多停放两小时。'
        '</p><ul class="chunk-list chunk-list-ordered"><li>1. 登记车牌</li><li>2. 领取停车卡</li>'
        "</ul></div>",
    ),
    (
        "| Plan | Price |\n|---|---|\n| Team | 8 USD |",
        '<div class="chunk-text"><p class="chunk-rows">Plan | Price<br>Team | 8 USD</p></div>',
    ),
]


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize(("text", "shown"), READABLE, ids=["en-markdown", "zh-wrapped", "table"])
def test_passage_is_shown_readably_from_the_unchanged_text(
    client_in: Client, chunk: Chunk, text: str, shown: str, htmx: bool
) -> None:
    import re

    Chunk.objects.filter(pk=chunk.pk).update(text=text)
    headers = {"HX-Request": "true"} if htmx else {}
    html = client_in.get("/chunks/doc-010%23c02/", headers=headers).content.decode()
    body = re.search(r'<div class="chunk-text">.*?</div>', html, re.S)
    assert body is not None
    assert re.sub(r">\s+<", "><", body.group(0)) == shown
    assert client_in.get("/api/chunks/doc-010%23c02").json()["text"] == text  # kept as stored


def test_claim_highlights_the_supporting_sentence_in_the_passage(client_in: Client) -> None:
    doc = Document.objects.create(doc_id="doc-020", title="Recycle bin", updated="2025-01-02")
    Chunk.objects.create(
        chunk_id="doc-020#c01",
        document=doc,
        ordinal=1,
        text="Files go to the bin first.\nDeleted files stay in the recycle bin for **30 days**. "
        "Admins can restore them.",
        tokens=20,
        fingerprint="e" * 40,
    )
    claim = "The recycle bin keeps deleted files for 30 days."
    link = {"claim": claim, "sig": claim_signature("doc-020#c01", claim)}
    html = client_in.get("/chunks/doc-020%23c01/", link).content.decode()
    plain = client_in.get("/chunks/doc-020%23c01/").content.decode()
    made_up = "The recycle bin keeps deleted files for 999 days."
    forged = client_in.get("/chunks/doc-020%23c01/", {**link, "claim": made_up}).content.decode()

    marks = html.split('<mark class="support">')[1:]
    assert [m.split("</mark>")[0] for m in marks] == [
        "Deleted files stay in the recycle bin for ",
        "<strong>30 days</strong>",
        ".",
    ]
    assert 'id="support"' in html and "Highlighted:" in html
    assert "<mark" not in plain and 'id="support"' not in plain
    # a hand-made link (its claim never passed the verifier) is not presented as support
    assert "<mark" not in forged and "Highlighted:" not in forged
    assert "did not come from a checked answer" in forged


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete", "options"])
@pytest.mark.parametrize("logged_in", [False, True])
def test_api_answers_a_wrong_method_with_json_405(
    chunk: Chunk, method: str, logged_in: bool
) -> None:
    # a POST without a session got Django's HTML "CSRF verification failed" page, and with
    # one every other method an empty text/html 405
    client = Client(enforce_csrf_checks=True)
    if logged_in:
        client.force_login(User.objects.create_user("bob", password="pw-123456789"))
    response = getattr(client, method)("/api/chunks/doc-010%23c02")
    assert response.status_code == 405
    assert response["Content-Type"] == "application/json"
    assert response["Allow"] == "GET"
    assert response.json()["code"] == "method_not_allowed"
    assert response.json()["error"].endswith("Use GET.")
