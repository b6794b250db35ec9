"""Admin: multi-file upload with overrides, chunk inline, re-ingest action, errors as messages."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from sources.models import Chunk, Document
from sources.services import document_ingest
from tests.sources.conftest import pdf_bytes

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.sources.urls")]
UPLOAD_URL = "/admin/sources/document/upload/"
CHANGELIST = "/admin/sources/document/"
TRAVEL = b"---\ndoc_id: doc-010\ntitle: Travel\n---\n# Hotels\n\nUp to 200 USD per night.\n"


@pytest.fixture
def admin_client(client: Client) -> Client:
    client.force_login(User.objects.create_superuser("root", "root@example.com", "pw-123456789"))
    return client


def messages_of(response: object) -> list[str]:
    return [str(m) for m in response.context["messages"]]  # type: ignore[attr-defined]


def test_changelist_links_to_upload(admin_client: Client) -> None:
    html = admin_client.get(CHANGELIST).content.decode()
    assert f'href="{UPLOAD_URL}"' in html


def test_upload_form_accepts_several_files(admin_client: Client) -> None:
    html = admin_client.get(UPLOAD_URL).content.decode()
    assert 'type="file" name="files"' in html and "multiple" in html


def test_upload_many_files_with_overrides_and_one_bad_file(admin_client: Client) -> None:
    document_ingest(file=SimpleUploadedFile("travel.md", TRAVEL))
    before = list(Chunk.objects.values_list("chunk_id", "text"))
    files = [
        SimpleUploadedFile("travel.md", b"---\ndoc_id: doc-010\ntitle: [broken\n---\nx"),
        SimpleUploadedFile("memo.pdf", pdf_bytes(["Lunch is served at noon."])),
        SimpleUploadedFile("faq.txt", b"Ask the service desk."),
    ]
    response = admin_client.post(
        UPLOAD_URL,
        {
            "files": files,
            "authority": "faq",
            "language": "",
            "updated": "2025-01-31",
            "source_url": "https://intranet.example.com/x",
        },
        follow=True,
    )
    assert response.status_code == 200
    assert messages_of(response) == [
        "travel.md: bad front matter (did not find expected ',' or ']' on line 4)",
        "memo.pdf: added memo (1 chunks, 1 new, 0 superseded)",
        "faq.txt: added faq (1 chunks, 1 new, 0 superseded)",
    ]
    assert (
        list(Chunk.objects.filter(document__doc_id="doc-010").values_list("chunk_id", "text"))
        == before
    )
    memo = Document.objects.get(doc_id="memo")
    assert (memo.authority, memo.updated.isoformat(), memo.source_url) == (
        "faq",
        "2025-01-31",
        "https://intranet.example.com/x",
    )


def test_upload_without_files_shows_the_form_error(admin_client: Client) -> None:
    response = admin_client.post(UPLOAD_URL, {"authority": ""})
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()


def test_document_page_shows_chunks_read_only(admin_client: Client) -> None:
    document_ingest(file=SimpleUploadedFile("travel.md", TRAVEL))
    doc = Document.objects.get(doc_id="doc-010")
    html = admin_client.get(f"{CHANGELIST}{doc.pk}/change/").content.decode()
    assert "doc-010#c01" in html
    assert "Up to 200 USD per night." in html
    assert 'name="chunks-0-text"' not in html  # not editable


def test_reingest_action_and_its_errors(admin_client: Client) -> None:
    document_ingest(file=SimpleUploadedFile("travel.md", TRAVEL))
    good = Document.objects.get(doc_id="doc-010")
    bare = Document.objects.create(doc_id="bare", title="No file")
    response = admin_client.post(
        CHANGELIST,
        {"action": "reingest", "_selected_action": [bare.pk, good.pk]},
        follow=True,
    )
    assert response.status_code == 200
    assert messages_of(response) == [
        "bare: no stored original file to re-ingest",
        "doc-010: unchanged (1 chunks)",
    ]


def test_delete_removes_the_document_and_its_chunks(admin_client: Client) -> None:
    document_ingest(file=SimpleUploadedFile("travel.md", TRAVEL))
    doc = Document.objects.get(doc_id="doc-010")
    response = admin_client.post(f"{CHANGELIST}{doc.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert (Document.objects.count(), Chunk.objects.count()) == (0, 0)


def test_upload_needs_staff(client: Client) -> None:
    response = client.get(UPLOAD_URL)
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")
