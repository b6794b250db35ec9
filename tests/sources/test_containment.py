"""Parsing is contained (issue 15, item 2): unpacked size, time and memory are bounded, a
file that is not text is refused by name, and a refused file changes nothing stored."""

from __future__ import annotations

import io
import os
import time
import zipfile
from pathlib import Path

import pytest

import sources.services
from kbqa.core.errors import IngestError
from sources.containment import ParseLimits, parse_contained
from sources.models import Chunk, Document
from sources.services import document_ingest, documents_ingest_paths
from tests.sources import hostile
from tests.sources.conftest import docx_bytes

LIMITS = ParseLimits(seconds=2.0, memory_mb=256, unzipped_mb=5)


def inflating_docx(unpacked_mb: int) -> bytes:
    """A real .docx whose body XML is padded with spaces to ``unpacked_mb`` MB (a few KB
    packed: deflate shrinks runs of one byte about 1000 times)."""
    source = zipfile.ZipFile(io.BytesIO(docx_bytes([("", "Leave is 25 days.")])))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "word/document.xml":
                data = data.replace(b"<w:body>", b"<w:body>" + b" " * (unpacked_mb << 20), 1)
            target.writestr(info.filename, data)
    return out.getvalue()


def test_a_docx_that_unpacks_past_the_limit_is_refused_before_parsing() -> None:
    data = inflating_docx(6)
    assert len(data) < 100_000
    with pytest.raises(IngestError) as refused:
        parse_contained(name="bomb.docx", data=data, limits=LIMITS)
    assert str(refused.value) == (
        "bomb.docx: unpacks to 7 MB, over the limit of 5 MB (KBQA_MAX_UNZIPPED_MB); "
        "it may be damaged or built to fill memory"
    )


def test_a_docx_under_the_unpacked_limit_is_parsed_in_the_child() -> None:
    parsed = parse_contained(name="leave.docx", data=inflating_docx(1), limits=LIMITS)
    assert parsed.text == "Leave is 25 days."


def test_a_parse_that_takes_too_long_is_stopped_at_the_limit() -> None:
    started = time.monotonic()
    with pytest.raises(IngestError) as refused:
        parse_contained(name="slow.docx", data=b"x", limits=LIMITS, parse=hostile.slow_parse)
    assert time.monotonic() - started < LIMITS.seconds + 3
    assert str(refused.value) == (
        "slow.docx: reading the file took longer than 2 s and was stopped; it may be damaged "
        "or built to be slow (limit KBQA_PARSE_SECONDS)"
    )


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux /proc")
def test_a_parse_that_wants_too_much_memory_is_stopped() -> None:
    with pytest.raises(IngestError) as refused:
        parse_contained(name="big.pdf", data=b"x", limits=LIMITS, parse=hostile.greedy_parse)
    assert str(refused.value) == (
        "big.pdf: reading the file needed more than 256 MB of memory and was stopped "
        "(limit KBQA_PARSE_MEMORY_MB)"
    )


def test_a_parser_that_dies_is_reported_by_name() -> None:
    with pytest.raises(IngestError) as refused:
        parse_contained(name="odd.pdf", data=b"x", limits=LIMITS, parse=hostile.crashing_parse)
    assert str(refused.value) == "odd.pdf: reading the file stopped unexpectedly (exit code 3)"


def test_the_parsers_own_refusals_come_back_unchanged() -> None:
    with pytest.raises(IngestError) as refused:
        parse_contained(name="notes.md", data=b"abc\x00def", limits=LIMITS)
    assert str(refused.value) == "notes.md: looks like a binary file, not text"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        ("random.md", bytes(range(256)) * 64,
         "random.md: looks like a binary file, not text"),
        ("latin.txt", bytes(range(0x80, 0x100)) * 64, "latin.txt: not valid UTF-8 or GB18030 text"),
        ("bomb.docx", inflating_docx(6), "bomb.docx: unpacks to 7 MB, over the limit of 5 MB"),
    ],
    ids=["binary-md", "undecodable", "docx-bomb"],
)
def test_a_refused_file_changes_nothing_stored(
    settings, tmp_path: Path, name: str, data: bytes, reason: str
) -> None:
    settings.KBQA_MAX_UNZIPPED_MB = 5
    good = tmp_path / "leave.md"
    good.write_text("---\ndoc_id: leave\n---\n# Leave\n\nLeave is 25 days a year.\n")
    document_ingest(path=good)
    before = list(Chunk.objects.values_list("chunk_id", "text", "is_current"))
    bad = tmp_path / name
    bad.write_bytes(data)
    with pytest.raises(IngestError) as refused:
        document_ingest(path=bad)
    assert str(refused.value).startswith(reason)
    assert list(Document.objects.values_list("doc_id", flat=True)) == ["leave"]
    assert list(Chunk.objects.values_list("chunk_id", "text", "is_current")) == before


@pytest.mark.django_db
def test_bulk_ingest_refuses_bad_files_by_name_and_stores_the_others(
    settings, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Issue 11 with issue 15: the bulk workers parse under the same limits; a bomb, an
    overrun and a dying parser fail by name, the worker is replaced, the rest is stored."""
    settings.KBQA_MAX_UNZIPPED_MB = 5
    settings.KBQA_PARSE_SECONDS = 1.0
    monkeypatch.setattr("sources.bulk_workers.parse_file", hostile.picky_parse)
    monkeypatch.setattr("sources.bulk_workers.WORKER_GRACE_SECONDS", 1.0)
    stored = tmp_path / "leave.md"
    stored.write_text("---\ndoc_id: leave\n---\n# Leave\n\nLeave is 25 days a year.\n")
    document_ingest(path=stored)
    before = list(Chunk.objects.values_list("chunk_id", "text", "is_current"))
    folder = tmp_path / "kb"
    folder.mkdir()
    for i in range(8):
        (folder / f"note-{i}.md").write_text(f"# Note {i}\n\nRule number {i} applies.\n")
    (folder / "bomb.docx").write_bytes(inflating_docx(6))
    (folder / "crash-odd.md").write_text("# Odd\n\nNever stored.\n")
    (folder / "slow-big.md").write_text("# Slow\n\nNever stored.\n")
    (folder / "stuck-loop.md").write_text("# Stuck\n\nNever stored.\n")
    started = time.monotonic()
    summary = documents_ingest_paths(paths=[folder], processes=2)
    assert time.monotonic() - started < 30
    assert [f.reason for f in summary.failures] == [
        "bomb.docx: unpacks to 7 MB, over the limit of 5 MB (KBQA_MAX_UNZIPPED_MB); "
        "it may be damaged or built to fill memory",
        "crash-odd.md: reading the file stopped unexpectedly (exit code 3)",
        "slow-big.md: reading the file took longer than 1 s and was stopped; it may be "
        "damaged or built to be slow (limit KBQA_PARSE_SECONDS)",
        "stuck-loop.md: reading the file took longer than 1 s and was stopped; it may be "
        "damaged or built to be slow (limit KBQA_PARSE_SECONDS)",  # the pool's kill
    ]
    assert [r.doc_id for r in summary.results] == [f"note-{i}" for i in range(8)]
    assert sorted(Document.objects.values_list("doc_id", flat=True)) == sorted(
        ["leave", *[f"note-{i}" for i in range(8)]]
    )
    assert (
        list(
            Chunk.objects.filter(document__doc_id="leave").values_list(
                "chunk_id", "text", "is_current"
            )
        )
        == before
    )


@pytest.mark.django_db
def test_a_batch_times_the_parse_only_and_names_the_stage_a_worker_died_in(
    settings, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A trial's 18.5 MB manual (16,661 chunks) went in alone, but in a folder of 18 files
    it failed as "reading the file took longer than 10 s": the pool's one timeout covered
    cutting it into chunks and finding their terms too, which a single ingest never times.
    Here cutting one file takes longer than the parse limit and its grace together."""
    settings.KBQA_PARSE_SECONDS = 1.0
    monkeypatch.setattr("sources.bulk_workers.WORKER_GRACE_SECONDS", 0.5)
    cut = sources.services.chunks_of

    def slow_cut(text: str, **kwargs: object):  # in the worker processes (forked)
        if "slow to cut" in text:
            time.sleep(3)
        if "dies while cut" in text:
            os._exit(3)
        return cut(text, **kwargs)

    monkeypatch.setattr("sources.services.chunks_of", slow_cut)
    folder = tmp_path / "kb"
    folder.mkdir()
    for i in range(8):
        (folder / f"note-{i}.md").write_text(f"# Note {i}\n\nRule number {i} applies.\n")
    (folder / "manual.md").write_text("# Manual\n\nThis manual is slow to cut.\n")
    (folder / "odd.md").write_text("# Odd\n\nThis one dies while cut.\n")
    summary = documents_ingest_paths(paths=[folder], processes=2)
    assert [r.doc_id for r in summary.results] == ["manual", *[f"note-{i}" for i in range(8)]]
    assert [f.reason for f in summary.failures] == [
        "odd.md: cutting it into passages and finding their words stopped unexpectedly "
        "(exit code 3)"]
    assert Document.objects.get(doc_id="manual").chunks.count() == 1
