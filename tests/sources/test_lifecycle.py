"""Removing documents: retire keeps cited chunks readable, restore undoes it, re-upload
revives, purge deletes rows and files; a chunk id never comes to mean other text."""

from __future__ import annotations

from collections.abc import Callable
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError

from sources.lifecycle import document_purge, document_restore, document_retire
from sources.models import Chunk, Document, PurgedChunk
from sources.selectors import chunk_get, chunks_search
from sources.services import document_ingest

pytestmark = pytest.mark.django_db
V1 = "# Parking\n\nVisitors park on level B2.\n\n# Bikes\n\nBikes go in the yard.\n"
V2 = "# Parking\n\nVisitors park on level B3.\n\n# Bikes\n\nBikes go in the yard.\n"


def ingest(text: str, name: str = "doc-500.md") -> str:
    return document_ingest(file=SimpleUploadedFile(name, text.encode())).status


def doc() -> Document:
    return Document.objects.get(doc_id="doc-500")


def current() -> list[str]:
    return sorted(Chunk.objects.filter(is_current=True).values_list("chunk_id", flat=True))


def test_retire_takes_chunks_out_of_answers_but_keeps_them_readable() -> None:
    ingest(V1)
    assert document_retire(document=doc()) == 2
    assert chunks_search(query="visitors park", k=3) == []
    old = chunk_get(chunk_id="doc-500#c01")
    assert old is not None and old.text == "Visitors park on level B2."
    assert document_retire(document=doc()) == 0  # already retired: nothing changes


def test_restore_brings_back_exactly_the_chunks_that_were_current() -> None:
    ingest(V1)
    ingest(V2)  # doc-500#c01 superseded by doc-500#c01v2
    document_retire(document=doc())
    assert document_restore(document=doc()) == 2
    assert current() == ["doc-500#c01v2", "doc-500#c02"]
    assert [h.chunk.chunk_id for h in chunks_search(query="visitors park", k=3)] == [
        "doc-500#c01v2"
    ]


@pytest.mark.parametrize(
    ("text", "ids", "status"),
    [
        (V1, ["doc-500#c01", "doc-500#c02"], "restored"),
        (V2, ["doc-500#c01v2", "doc-500#c02"], "restored"),
    ],
    ids=["same-text-revives-ids", "new-text-new-version"],
)
def test_reupload_of_a_retired_doc_id_restores_it(text: str, ids: list[str], status: str) -> None:
    ingest(V1)
    document_retire(document=doc())
    assert ingest(text) == status
    assert doc().retired_at is None
    assert current() == ids
    assert chunk_get(chunk_id="doc-500#c01").text == "Visitors park on level B2."  # type: ignore[union-attr]


def test_purge_deletes_rows_and_the_original_file_and_remembers_the_ids(
    django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    ingest(V1)
    stored = Path(settings.MEDIA_ROOT) / doc().original_file.name
    assert stored.exists()
    with django_capture_on_commit_callbacks(execute=True):
        result = document_purge(document=doc())
    assert (result.doc_id, result.chunks) == ("doc-500", 2)
    assert not stored.exists()
    assert (Document.objects.count(), Chunk.objects.count()) == (0, 0)
    assert list(PurgedChunk.objects.values_list("chunk_id", flat=True)) == [
        "doc-500#c01",
        "doc-500#c02",
    ]


def test_a_document_cannot_be_deleted_by_accident_with_its_chunks() -> None:
    from django.db.models import ProtectedError

    ingest(V1)
    with pytest.raises(ProtectedError):
        doc().delete()


Step = Callable[[], Any]
STEPS: dict[str, Step] = {
    "v1": lambda: ingest(V1),
    "v2": lambda: ingest(V2),
    "shorter": lambda: ingest("# Parking\n\nNo visitor parking.\n"),
    "retire": lambda: document_retire(document=doc()),
    "restore": lambda: document_restore(document=doc()),
    "purge": lambda: document_purge(document=doc()),
}


@pytest.mark.parametrize(
    "steps",
    [
        ["v1", "retire", "v2", "v1", "shorter"],
        ["v1", "purge", "v2", "purge", "v1", "v2"],
        ["v1", "v2", "retire", "restore", "shorter", "purge", "shorter", "v1"],
    ],
    ids=["retire-reupload", "purge-reupload", "everything"],
)
def test_a_chunk_id_once_stored_always_means_the_same_text(steps: list[str]) -> None:
    seen: dict[str, str] = {}
    for step in steps:
        STEPS[step]()
        for chunk_id, text in Chunk.objects.values_list("chunk_id", "text"):
            assert seen.setdefault(chunk_id, text) == text, (step, chunk_id)
        purged = set(PurgedChunk.objects.values_list("chunk_id", flat=True))
        assert not purged & set(Chunk.objects.values_list("chunk_id", flat=True))


def test_purge_after_purge_and_reupload_continues_versions() -> None:
    ingest(V1)
    document_purge(document=doc())
    ingest(V1)
    assert current() == ["doc-500#c01v2", "doc-500#c02v2"]


def test_purge_command_needs_yes_and_says_what_it_did(
    django_capture_on_commit_callbacks: Any,
) -> None:
    ingest(V1)
    out = StringIO()
    with pytest.raises(CommandError, match="nothing purged; add --yes"):
        call_command("documents_purge", "doc-500", stdout=out, skip_checks=True)
    assert out.getvalue() == "would purge doc-500: 2 chunks\n"
    assert Document.objects.filter(doc_id="doc-500").exists()
    out = StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("documents_purge", "doc-500", "--yes", stdout=out, skip_checks=True)
    assert out.getvalue().startswith("purged doc-500: 2 chunks, file sources/originals/")
    assert not Document.objects.exists()


def test_purge_command_refuses_unknown_doc_ids() -> None:
    ingest(V1)
    with pytest.raises(CommandError, match="no document with doc_id: nope; nothing purged"):
        call_command("documents_purge", "doc-500", "nope", "--yes", skip_checks=True)
    assert Document.objects.filter(doc_id="doc-500").exists()


def test_purge_help_explains_what_citations_show() -> None:
    from sources.management.commands.documents_purge import Command

    assert 'shows the passage as "no longer available"' in Command.help
