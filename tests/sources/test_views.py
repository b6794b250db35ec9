"""The chunk view: page, htmx partial, JSON; links with %23, escaping, login, 404."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from sources.models import Chunk, Document

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.sources.urls")]


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


def test_htmx_request_gets_only_the_partial(client_in: Client, chunk: Chunk) -> None:
    response = client_in.get("/chunks/doc-010%23c02/", headers={"HX-Request": "true"})
    html = response.content.decode().strip()
    assert response.status_code == 200
    assert html.startswith('<article id="chunk-view"')
    assert "<!doctype html>" not in html


def test_superseded_chunk_is_readable_and_marked(client_in: Client, chunk: Chunk) -> None:
    Chunk.objects.filter(pk=chunk.pk).update(is_current=False)
    html = client_in.get("/chunks/doc-010%23c02/").content.decode()
    assert "Superseded: this passage was replaced" in html
    assert "Up to 200 USD." in html


@pytest.mark.parametrize("htmx", [False, True])
def test_unknown_id_is_a_404_with_a_clear_message(client_in: Client, htmx: bool) -> None:
    headers = {"HX-Request": "true"} if htmx else {}
    response = client_in.get("/chunks/doc-999%23c01/", headers=headers)
    assert response.status_code == 404
    assert "No source passage with id “doc-999#c01”" in response.content.decode()


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
        "is_current": True,
        "url": "/chunks/doc-010%23c02/",
    }


def test_api_without_login_is_401_json(client: Client, chunk: Chunk) -> None:
    response = client.get("/api/chunks/doc-010%23c02")
    assert response.status_code == 401
    assert response.json() == {"error": "Log in to read sources."}


def test_api_unknown_id_is_404_json(client_in: Client) -> None:
    response = client_in.get("/api/chunks/nope")
    assert response.status_code == 404
    assert response.json() == {"error": "No source passage with id 'nope'."}
