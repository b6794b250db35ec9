"""A re-ingest that changes a document's authority says so, old -> new, wherever its outcome
is told (the ``ingest`` command's line, the admin's upload message)."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client

from sources.ingest_types import IngestOverrides
from sources.models import Document
from sources.services import document_ingest

pytestmark = pytest.mark.django_db
FAQ = b"---\ndoc_id: rb-faq\nauthority: manual\n---\n# FAQ\n\nAsk the service desk.\n"


@pytest.fixture
def archived() -> Document:
    """The FAQ as an admin archived it: uploaded with the form's authority set to archived."""
    document_ingest(file=SimpleUploadedFile("faq.md", FAQ),
                    overrides=IngestOverrides(authority="archived"))
    return Document.objects.get(doc_id="rb-faq", authority="archived")


def test_the_ingest_command_names_the_authority_change(archived: Document, tmp_path: Path) -> None:
    (tmp_path / "faq.md").write_bytes(FAQ)
    out = StringIO()
    call_command("ingest", str(tmp_path / "faq.md"), stdout=out, skip_checks=True)
    assert out.getvalue().splitlines()[0] == (
        f"[1/1] updated   rb-faq ({tmp_path / 'faq.md'}): 1 chunk, 0 new, 0 superseded; "
        "authority archived -> manual")
    assert Document.objects.get(doc_id="rb-faq").authority == "manual"


def test_the_admin_upload_message_names_the_authority_change(
    archived: Document, client: Client
) -> None:
    client.force_login(User.objects.create_superuser("root", "root@example.com", "pw-1234567"))
    response = client.post("/admin/sources/document/upload/",
                           {"files": [SimpleUploadedFile("faq.md", FAQ)]}, follow=True)
    assert [str(m) for m in response.context["messages"]] == [
        "faq.md: updated rb-faq (1 chunk, 0 new, 0 superseded); authority archived -> manual"]

