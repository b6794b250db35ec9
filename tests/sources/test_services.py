"""Ingestion into the database: formats, failures, stable chunk ids and versions, the command."""

from __future__ import annotations

from collections.abc import Callable
from io import StringIO
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError

from kbqa.core.errors import IngestError
from sources.ingest_types import IngestOverrides
from sources.models import Chunk, Document
from sources.selectors import chunk_get
from sources.services import document_ingest, document_reingest, documents_ingest_paths
from tests.sources.conftest import docx_bytes, pdf_bytes

pytestmark = pytest.mark.django_db
WriteFile = Callable[[str, bytes | str], Path]

TRAVEL = """---
doc_id: doc-010
title: Travel Policy
updated: 2025-06-30
authority: policy
source_url: https://intranet.example.com/travel
---
# Hotels

Hotels are reimbursed up to 200 USD per night.

# Flights

Economy class for flights under six hours.

# Meals

The meal per diem is 60 USD.
"""


def current_ids(doc_id: str) -> list[str]:
    return list(
        Chunk.objects.filter(document__doc_id=doc_id, is_current=True)
        .order_by("ordinal")
        .values_list("chunk_id", flat=True)
    )


def test_markdown_is_stored_with_front_matter_metadata(write_file: WriteFile) -> None:
    result = document_ingest(path=write_file("travel.md", TRAVEL), max_tokens=300)
    doc = Document.objects.get(doc_id="doc-010")
    assert (result.status, result.chunks, result.chunks_added) == ("added", 3, 3)
    assert (doc.title, doc.authority, doc.language, doc.updated.isoformat()) == (
        "Travel Policy",
        "policy",
        "en",
        "2025-06-30",
    )
    assert doc.source_url == "https://intranet.example.com/travel"
    assert doc.original_file.read().decode() == TRAVEL
    assert current_ids("doc-010") == ["doc-010#c01", "doc-010#c02", "doc-010#c03"]
    first = chunk_get(chunk_id="doc-010#c01")
    assert first is not None
    assert (first.section, first.text) == (
        "Hotels",
        "Hotels are reimbursed up to 200 USD per night.",
    )
    assert first.tokens == 13  # cl100k_base
    assert len(first.fingerprint) == 40


@pytest.mark.parametrize(
    ("name", "content", "doc_id", "title", "language", "text"),
    [
        (
            "Parking Rules.txt",
            b"Parking is free on weekends.",
            "parking-rules",
            "Parking Rules",
            "en",
            "Parking is free on weekends.",
        ),
        (
            "guide.html",
            b"<title>VPN Guide</title><h2>Setup</h2><p>Install the VPN client.</p>",
            "guide",
            "VPN Guide",
            "en",
            "Install the VPN client.",
        ),
        (
            "memo.pdf",
            pdf_bytes(["Lunch is served at noon."]),
            "memo",
            "memo",
            "en",
            "Lunch is served at noon.",
        ),
        (
            "leave.docx",
            docx_bytes([("h1", "Leave"), ("", "25 days per year.")]),
            "leave",
            "Leave",
            "en",
            "25 days per year.",
        ),
        (
            "报销.md",
            "# 报销\n\n三十天内提交报销申请。".encode(),
            "报销",
            "报销",
            "zh",
            "三十天内提交报销申请。",
        ),
    ],
    ids=["txt", "html", "pdf", "docx", "zh-md"],
)
def test_each_format_is_ingested_with_derived_metadata(
    write_file: WriteFile,
    name: str,
    content: bytes,
    doc_id: str,
    title: str,
    language: str,
    text: str,
) -> None:
    result = document_ingest(path=write_file(name, content))
    doc = Document.objects.get(doc_id=doc_id)
    assert (result.status, doc.title, doc.language, doc.authority) == (
        "added",
        title,
        language,
        "other",
    )
    assert text in doc.chunks.get(ordinal=1).text


def test_overrides_beat_the_file_and_survive_reingest(write_file: WriteFile) -> None:
    overrides = IngestOverrides(authority="archived", updated="2020-01-01", language="en")
    document_ingest(path=write_file("travel.md", TRAVEL), overrides=overrides)
    doc = Document.objects.get(doc_id="doc-010")
    assert (doc.authority, doc.updated.isoformat()) == ("archived", "2020-01-01")
    result = document_reingest(document=doc)
    doc.refresh_from_db()
    assert (result.status, doc.authority, doc.updated.isoformat()) == (
        "unchanged",
        "archived",
        "2020-01-01",
    )


def test_reingesting_an_unchanged_document_keeps_every_chunk_id(write_file: WriteFile) -> None:
    path = write_file("travel.md", TRAVEL)
    document_ingest(path=path)
    before = list(Chunk.objects.values_list("pk", "chunk_id"))
    result = document_ingest(path=path)
    assert (result.status, result.chunks_added, result.chunks_kept) == ("unchanged", 0, 3)
    assert list(Chunk.objects.values_list("pk", "chunk_id")) == before


def test_changed_document_gets_new_versions_and_old_chunks_stay_readable(
    write_file: WriteFile,
) -> None:
    path = write_file("travel.md", TRAVEL)
    document_ingest(path=path)
    write_file("travel.md", TRAVEL.replace("200 USD", "250 USD"))
    result = document_ingest(path=path)
    assert (result.status, result.chunks_added, result.chunks_kept, result.chunks_superseded) == (
        "updated",
        1,
        2,
        1,
    )
    assert current_ids("doc-010") == ["doc-010#c01v2", "doc-010#c02", "doc-010#c03"]
    old = chunk_get(chunk_id="doc-010#c01")
    assert old is not None and not old.is_current
    assert old.text == "Hotels are reimbursed up to 200 USD per night."  # never rewritten
    new = chunk_get(chunk_id="doc-010#c01v2")
    assert new is not None and new.text == "Hotels are reimbursed up to 250 USD per night."


def test_whitespace_and_case_edits_keep_the_chunk(write_file: WriteFile) -> None:
    path = write_file("travel.md", TRAVEL)
    document_ingest(path=path)
    write_file("travel.md", TRAVEL.replace("Economy class for", "ECONOMY  class for"))
    result = document_ingest(path=path)
    assert (result.status, result.chunks_added) == ("updated", 0)
    assert current_ids("doc-010") == ["doc-010#c01", "doc-010#c02", "doc-010#c03"]


def test_reverting_an_edit_revives_the_original_ids(write_file: WriteFile) -> None:
    path = write_file("travel.md", TRAVEL)
    document_ingest(path=path)
    write_file("travel.md", TRAVEL.replace("200 USD", "250 USD"))
    document_ingest(path=path)
    write_file("travel.md", TRAVEL)
    document_ingest(path=path)
    assert current_ids("doc-010") == ["doc-010#c01", "doc-010#c02", "doc-010#c03"]
    assert chunk_get(chunk_id="doc-010#c01v2").is_current is False  # type: ignore[union-attr]


def test_shorter_document_supersedes_the_missing_chunks(write_file: WriteFile) -> None:
    path = write_file("travel.md", TRAVEL)
    document_ingest(path=path)
    write_file("travel.md", TRAVEL.split("# Meals")[0])
    result = document_ingest(path=path)
    assert (result.chunks, result.chunks_superseded) == (2, 1)
    assert current_ids("doc-010") == ["doc-010#c01", "doc-010#c02"]
    assert Chunk.objects.filter(chunk_id="doc-010#c03", is_current=False).exists()


def test_bad_file_among_good_ones_changes_nothing_stored(write_file: WriteFile) -> None:
    path = write_file("kb/travel.md", TRAVEL)
    document_ingest(path=path)
    before = list(Chunk.objects.values_list("chunk_id", "text", "is_current"))
    write_file("kb/travel.md", "---\ndoc_id: doc-010\ntitle: [broken\n---\nNew text")
    write_file("kb/good.txt", "Parking is free on weekends.")
    write_file("kb/junk.txt", bytes(range(256)))
    write_file("kb/.hidden.md", "ignored")
    summary = documents_ingest_paths(paths=[path.parent])
    assert [r.doc_id for r in summary.results] == ["good"]
    assert sorted(f.reason.split(":")[0] for f in summary.failures) == ["junk.txt", "travel.md"]
    assert Chunk.objects.filter(document__doc_id="doc-010").count() == 3
    assert (
        list(
            Chunk.objects.filter(document__doc_id="doc-010").values_list(
                "chunk_id", "text", "is_current"
            )
        )
        == before
    )
    assert summary.line() == (
        "documents: 1 added, 0 updated, 0 unchanged, 2 failed; chunks: 1 current, 1 added, "
        "0 superseded"
    )


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("---\ndoc_id: a#b\n---\nText", "bad doc_id 'a#b'"),
        ("---\nauthority: gospel\n---\nText", "unknown authority 'gospel'"),
        ("---\nlanguage: fr\n---\nText", "unsupported language 'fr'; use en or zh"),
    ],
)
def test_bad_metadata_is_refused(write_file: WriteFile, content: str, reason: str) -> None:
    with pytest.raises(IngestError, match=reason):
        document_ingest(path=write_file("x.md", content))
    assert Document.objects.count() == 0


def test_uploaded_file_is_ingested(write_file: WriteFile) -> None:
    upload = SimpleUploadedFile("faq.md", b"# FAQ\n\nAsk the service desk.")
    result = document_ingest(file=upload)
    assert (result.doc_id, result.status, result.chunks) == ("faq", "added", 1)


def test_reingest_without_stored_file_is_an_ingest_error() -> None:
    doc = Document.objects.create(doc_id="x", title="X")
    with pytest.raises(IngestError, match="no stored original file"):
        document_reingest(document=doc)


def test_ingest_command_prints_progress_and_summary(write_file: WriteFile, kb_dir: Path) -> None:
    bad = write_file("empty.md", "")
    out, err = StringIO(), StringIO()
    call_command("ingest", str(kb_dir), str(bad), stdout=out, stderr=err, skip_checks=True)
    lines = out.getvalue().splitlines()
    assert lines[0] == (
        f"[1/6] added     doc-020 ({kb_dir / 'it-security.md'}): 3 chunks, 3 new, 0 superseded")
    assert lines[-1] == (
        "documents: 5 added, 0 updated, 0 unchanged, 1 failed; chunks: 14 current, 14 added, "
        "0 superseded"
    )
    assert f"[6/6] FAILED {bad}: the file contains no text" in err.getvalue()
    out2 = StringIO()
    call_command("ingest", str(kb_dir), stdout=out2, skip_checks=True)
    assert out2.getvalue().splitlines()[-1].startswith("documents: 0 added, 0 updated, 5 unchanged")


def test_special_token_text_is_ingested_and_searchable(write_file: WriteFile) -> None:
    from sources.selectors import chunks_search

    document_ingest(
        path=write_file("tok.md", "# Tokens\n\nThe marker <|endoftext|> ends a sample.")
    )
    chunk = chunk_get(chunk_id="tok#c01")
    assert chunk is not None and chunk.text == "The marker <|endoftext|> ends a sample."
    assert [h.chunk.chunk_id for h in chunks_search(query="<|endoftext|> marker", k=3)] == [
        "tok#c01"
    ]


PARKING_TXT = "停车场管理规定\n\n第一条 访客车辆停放在B2层。\n第二条 每次最多停放两小时。\n"


@pytest.mark.parametrize(
    ("name", "content", "title", "section", "first_text"),
    [
        ("parking.txt", PARKING_TXT.encode(), "停车场管理规定", "停车场管理规定", "第一条"),
        ("parking.txt", "停车场管理规定\n第一条 访客车辆停放在B2层。".encode(), "停车场管理规定",
         "停车场管理规定", "第一条"),
        ("rules.txt", b"Visitors park on B2.\nBikes go in the yard.", "rules", "", "Visitors"),
        ("rules.txt", b"- Visitors park on B2.\n- Bikes in the yard.", "rules", "", "- Visitors"),
        ("memo.pdf", pdf_bytes(["Parking rules", "Visitors park on B2."]), "Parking rules",
         "Parking rules", "Visitors"),
        ("memo.pdf", pdf_bytes(["Parking rules", "Visitors park on B2."], title="Site rules"),
         "Site rules", "", "Parking rules"),
        ("memo.pdf", pdf_bytes(["Site rules", "Visitors park on B2."], title="Site rules"),
         "Site rules", "Site rules", "Visitors"),
        ("memo.docx", docx_bytes([("", "Parking rules"), ("", "Visitors park on B2.")]),
         "Parking rules", "Parking rules", "Visitors"),
        ("memo.docx", docx_bytes([("title", "Parking rules"), ("", "Visitors park on B2.")]),
         "Parking rules", "Parking rules", "Visitors"),
        ("memo.docx", docx_bytes([("", "Parking rules"), ("", "Visitors park.")], title="Site"),
         "Site", "", "Parking rules"),
    ],
    ids=["txt-zh", "txt-zh-no-blank", "txt-prose", "txt-list", "pdf-first-line", "pdf-metadata",
         "pdf-metadata-first-line", "docx-first-line", "docx-title-style", "docx-core-title"],
)
def test_title_is_the_documents_own_and_not_quoted_as_body_text(
    write_file: WriteFile, name: str, content: bytes, title: str, section: str, first_text: str
) -> None:
    document_ingest(path=write_file(name, content))
    doc = Document.objects.get()
    first = doc.chunks.get(ordinal=1)
    assert (doc.title, first.section, first.text.split()[0]) == (
        title,
        section,
        first_text.split()[0],
    )
    assert first.text.startswith(first_text)


def test_ingest_command_names_bad_and_missing_paths_without_pypdf_noise(
    write_file: WriteFile, caplog: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str]
) -> None:
    import random

    junk = write_file("random.pdf", random.Random(7).randbytes(3000))
    good = write_file("good.txt", "Parking is free on weekends.")
    out, err = StringIO(), StringIO()
    call_command(
        "ingest", str(junk), "/nonexistent", str(good), stdout=out, stderr=err, skip_checks=True
    )
    assert err.getvalue().splitlines() == [
        f"[1/3] FAILED {junk}: not a readable PDF (invalid pdf header)",
        "[2/3] FAILED /nonexistent: no such file or folder",
    ]
    assert out.getvalue().splitlines()[0] == (
        f"[3/3] added     good ({good}): 1 chunk, 1 new, 0 superseded"
    )
    assert [r.name for r in caplog.records if r.name.startswith("pypdf")] == []
    assert "EOF marker" not in capfd.readouterr().err
    with pytest.raises(CommandError, match="2 file"):
        call_command("ingest", str(junk), str(good), "/nonexistent", stdout=StringIO(),
                     stderr=StringIO(), strict=True, skip_checks=True)
    # nothing ingested at all: a script or CI job sees it failed, without --strict
    with pytest.raises(CommandError, match="2 file.*none was ingested"):
        call_command("ingest", str(junk), "/nonexistent", stdout=StringIO(), stderr=StringIO(),
                     skip_checks=True)


MB = 1024 * 1024
OVER_LIMIT = (
    "big.txt: 1.1 MB is over the upload limit of 1 MB; split the file, or ask an "
    "administrator to raise KBQA_MAX_UPLOAD_MB"
)


@pytest.mark.parametrize("given_as", ["path", "file"])
def test_a_file_over_the_size_limit_is_refused_by_name_size_and_limit(
    write_file: WriteFile, settings: object, given_as: str
) -> None:
    settings.KBQA_MAX_UPLOAD_MB = 1  # type: ignore[attr-defined]
    path = write_file("big.txt", b"x" * (MB + 1))
    upload = SimpleUploadedFile("big.txt", path.read_bytes())
    source = {"path": path} if given_as == "path" else {"file": upload}
    with pytest.raises(IngestError) as info:
        document_ingest(**source)  # type: ignore[arg-type]
    assert str(info.value) == OVER_LIMIT
    assert Document.objects.count() == 0


def test_other_files_go_in_when_one_is_over_the_size_limit(
    write_file: WriteFile, settings: object
) -> None:
    settings.KBQA_MAX_UPLOAD_MB = 1  # type: ignore[attr-defined]
    big = write_file("big.txt", b"x" * (MB + 1))
    small = write_file("faq.txt", b"Ask the service desk.")
    summary = documents_ingest_paths(paths=[big, small])
    assert [f.reason for f in summary.failures] == [OVER_LIMIT]
    assert [r.doc_id for r in summary.results] == ["faq"]
