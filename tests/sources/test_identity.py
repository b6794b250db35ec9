"""An upload never replaces or repeats a stored document unnoticed (``sources.identity``).

A tester uploaded ``override.md`` with front matter ``doc_id: doc-063`` and the title "My
leave notes": it silently replaced the annual leave policy, and the leave question then
answered from it. The same text uploaded under another file name became a second document.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client

from sources.ingest_types import IngestOverrides
from sources.models import Document
from sources.services import document_ingest, documents_ingest_paths
from tests.sources.test_admin import UPLOAD_URL, messages_of

pytestmark = pytest.mark.django_db

POLICY = (
    b"---\ndoc_id: doc-063\ntitle: Annual leave policy\nauthority: policy\n---\n"
    b"# Annual leave\n\nFull-time employees get 20 days of annual leave per year.\n"
)
OVERRIDE = (
    b"---\ndoc_id: doc-063\ntitle: My leave notes\n---\n"
    b"I think we get 30 days of annual leave.\n"
)
REFUSAL = (
    "override.md: not ingested; its doc_id doc-063 belongs to “Annual leave policy” from "
    "annual-leave.md. Nothing was changed. To replace that document with “My leave notes”, "
    "upload again with “Replace existing documents” ticked (manage.py ingest --replace), or "
    "give this file its own doc_id"
)


@pytest.fixture
def admin_client(client: Client) -> Client:
    client.force_login(User.objects.create_superuser("root", "root@example.com", "pw-123456789"))
    return client


@pytest.fixture
def policy() -> Document:
    document_ingest(file=SimpleUploadedFile("annual-leave.md", POLICY))
    return Document.objects.get(doc_id="doc-063")


def current_texts(doc_id: str) -> list[str]:
    document = Document.objects.get(doc_id=doc_id)
    return list(document.chunks.filter(is_current=True).values_list("text", flat=True))


def test_an_upload_over_another_files_document_is_refused_and_changes_nothing(
    admin_client: Client, policy: Document
) -> None:
    before = current_texts("doc-063")
    response = admin_client.post(
        UPLOAD_URL, {"files": [SimpleUploadedFile("override.md", OVERRIDE)]}, follow=True
    )
    assert messages_of(response) == [REFUSAL]
    policy.refresh_from_db()
    assert (policy.title, policy.original_name) == ("Annual leave policy", "annual-leave.md")
    assert current_texts("doc-063") == before


def test_ticking_replace_replaces_it_and_names_the_old_and_new_title(
    admin_client: Client, policy: Document
) -> None:
    response = admin_client.post(
        UPLOAD_URL,
        {"files": [SimpleUploadedFile("override.md", OVERRIDE)], "replace": "on"},
        follow=True,
    )
    assert messages_of(response) == [
        "override.md: updated doc-063 (1 chunk, 1 new, 1 superseded); replaced “Annual leave "
        "policy” (from annual-leave.md) -> “My leave notes”"
    ]
    assert current_texts("doc-063") == ["I think we get 30 days of annual leave."]


def test_the_upload_form_offers_the_replace_box(admin_client: Client) -> None:
    html = admin_client.get(UPLOAD_URL).content.decode()
    assert 'name="replace"' in html and "Replace existing documents" in html


def test_the_same_file_again_updates_its_document_and_names_a_changed_title(
    admin_client: Client, policy: Document
) -> None:
    revised = POLICY.replace(b"Annual leave policy", b"Leave policy 2026")
    response = admin_client.post(
        UPLOAD_URL, {"files": [SimpleUploadedFile("annual-leave.md", revised)]}, follow=True
    )
    assert messages_of(response) == [
        "annual-leave.md: updated doc-063 (1 chunk, 0 new, 0 superseded); title “Annual leave "
        "policy” -> “Leave policy 2026”"
    ]


def ingest(*args: str, fails: bool = False) -> tuple[str, str]:
    """The command's output; ``fails``: it exits 1 (no file could be ingested)."""
    out, err = io.StringIO(), io.StringIO()
    if fails:
        with pytest.raises(CommandError, match="none was ingested"):
            call_command("ingest", *args, stdout=out, stderr=err)
    else:
        call_command("ingest", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_the_ingest_command_refuses_the_same_and_replaces_with_replace(
    policy: Document, tmp_path: Path
) -> None:
    path = tmp_path / "override.md"
    path.write_bytes(OVERRIDE)
    out, err = ingest(str(path), fails=True)
    assert f"FAILED {tmp_path}/{REFUSAL}" in err  # the file as given
    assert "documents: 0 added, 0 updated, 0 unchanged, 1 failed" in out
    assert current_texts("doc-063") != ["I think we get 30 days of annual leave."]
    out, _ = ingest(str(path), "--replace")
    assert (
        f"updated   doc-063 ({path}): 1 chunk, 1 new, 1 superseded; replaced “Annual leave "
        "policy” (from annual-leave.md) -> “My leave notes”" in out
    )


LEAVE = "# Annual leave\n\nFull-time employees get 20 days of annual leave per year.\n"


def test_the_same_text_under_another_file_name_is_not_a_second_document(
    admin_client: Client,
) -> None:
    document_ingest(file=SimpleUploadedFile("leave.md", LEAVE.encode()))
    copy = LEAVE.replace("per year.", "per  year .").encode()  # spacing aside, the same
    response = admin_client.post(
        UPLOAD_URL, {"files": [SimpleUploadedFile("leave-copy.md", copy)]}, follow=True
    )
    assert messages_of(response) == [
        "leave-copy.md: not added; leave “Annual leave” (from leave.md) has the same text. To "
        "update it, upload the file under that document's name; to keep a separate copy, give "
        "the file its own doc_id in its front matter"
    ]
    assert list(Document.objects.values_list("doc_id", flat=True)) == ["leave"]


def test_a_copy_with_its_own_doc_id_is_kept_with_a_warning(admin_client: Client) -> None:
    document_ingest(file=SimpleUploadedFile("leave.md", LEAVE.encode()))
    copy = f"---\ndoc_id: leave-hr\n---\n{LEAVE}".encode()
    response = admin_client.post(
        UPLOAD_URL, {"files": [SimpleUploadedFile("hr-leave.md", copy)]}, follow=True
    )
    assert messages_of(response) == [
        "hr-leave.md: added leave-hr (1 chunk, 1 new, 0 superseded)",
        "hr-leave.md: same text as leave “Annual leave” from leave.md; both are kept, and an "
        "update to one will not change the other",
    ]


def test_a_folder_with_copies_stores_each_text_once(tmp_path: Path) -> None:
    for name in ("a.md", "b.md", "c.md"):
        (tmp_path / name).write_text(LEAVE, "utf-8")
    for i in range(8):  # 8 files or more are parsed in worker processes and bulk-inserted
        (tmp_path / f"other{i}.md").write_text(f"# Note {i}\n\nRule {i}.", "utf-8")
    summary = documents_ingest_paths(paths=[tmp_path], processes=2)
    assert [(r.name, r.status, r.doc_id) for r in summary.results[:3]] == [
        ("a.md", "added", "a"),
        ("b.md", "duplicate", "a"),
        ("c.md", "duplicate", "a"),
    ]
    assert "2 duplicate" in summary.line()
    assert Document.objects.count() == 9


def test_the_same_document_from_a_renamed_file_is_unchanged_not_refused(
    policy: Document, tmp_path: Path
) -> None:
    path = tmp_path / "annual-leave-copy.md"
    path.write_bytes(POLICY)
    out, err = ingest(str(path))
    assert f"unchanged doc-063 ({path})" in out and err == ""


def test_a_new_version_without_metadata_keeps_the_stored_metadata() -> None:
    # a tester uploaded an edited plain-text file over a policy: it became "other", undated
    overrides = IngestOverrides(authority="policy", updated="2025-08-01",
                                source_url="https://intranet.example/wifi")
    document_ingest(file=SimpleUploadedFile("wifi.txt", b"Guests use the Guest network."),
                    overrides=overrides)
    result = document_ingest(file=SimpleUploadedFile(
        "wifi.txt", b"Guests use the Guest network. Staff use Corp."))
    doc = Document.objects.get(doc_id="wifi")
    assert result.status == "updated"
    assert (doc.authority, doc.updated.isoformat(), doc.source_url) == (
        "policy", "2025-08-01", "https://intranet.example/wifi")
    # what the new version states still wins
    document_ingest(file=SimpleUploadedFile("wifi.txt", b"Guests use Guest."),
                    overrides=IngestOverrides(authority="faq"))
    doc.refresh_from_db()
    assert (doc.authority, doc.updated.isoformat()) == ("faq", "2025-08-01")


@pytest.mark.parametrize("notes", [0, 8], ids=["read-here", "read-in-workers"])
def test_files_of_one_ingest_that_would_be_one_document_are_refused_by_path(
    tmp_path: Path, notes: int
) -> None:
    """A trial's folder held a/parking-policy.md and b/parking-policy.md (doc_id from the
    file name): they became one document, updated in path order, each line naming only
    parking-policy.md. Both are refused by path, and the stored document keeps its text."""
    stored = tmp_path / "parking-policy.md"
    stored.write_text("# Parking\n\nThe allowance is 37 EUR per day.\n", "utf-8")
    ingest(str(stored))
    docs = tmp_path / "docs"
    a, b, a_index, b_index = (docs / d / f for f in ("parking-policy.md", "index.md")
                              for d in ("a", "b"))
    for path, text in ((a, "is 45 EUR"), (b, "is 50 EUR"),
                       (a_index, "---\ndoc_id: a-index\n---\nRoom A"),
                       (b_index, "---\ndoc_id: b-index\n---\nRoom B")):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"{text}.\n", "utf-8")
    (docs / "x.md").write_text("---\ndoc_id: shared\n---\nFirst.\n", "utf-8")
    (docs / "y.md").write_text("---\ndoc_id: shared\n---\nSecond.\n", "utf-8")
    for i in range(notes):  # 8 files or more are read in worker processes
        (docs / f"note-{i}.md").write_text(f"# Note {i}\n\nRule {i}.\n", "utf-8")
    out, err = ingest(str(docs), str(a))  # a file named twice is no clash with itself
    assert f"FAILED {a}: not ingested; {b} in this ingest has the same doc_id parking-policy " \
           "(a file without one in its front matter takes it from its name), and both would " \
           "be one document. Rename one of the two, or give one its own doc_id in its front " \
           "matter, and ingest again" in err
    assert f"FAILED {b}: not ingested; {a} in this ingest has the same doc_id" in err
    # a doc_id only front matter repeats is found when the second file comes
    assert f"FAILED {docs / 'y.md'}: not ingested; {docs / 'x.md'} in this ingest" in err
    # each line names the file as given: the same name in two folders is two documents
    assert f"added     a-index ({a_index})" in out and f"added     b-index ({b_index})" in out
    assert f"added     shared ({docs / 'x.md'})" in out
    assert "3 failed" in out
    kept = Document.objects.get(doc_id="parking-policy").chunks.get(is_current=True)
    assert kept.text == "The allowance is 37 EUR per day."
