"""The stored knowledge base's index: terms stored once, kept in step by every write,
rebuilt only by a command (or the ingest command) when the tokenizer version changes."""

from __future__ import annotations

from collections.abc import Callable
from io import StringIO
from pathlib import Path

import pytest
from django.core.checks import run_checks
from django.core.management import call_command

from kbqa.core.retrieval.bm25 import section_text_terms
from sources import indexing, selectors
from sources.indexing import index_store
from sources.lifecycle import document_purge
from sources.models import Chunk, Document
from sources.selectors import chunks_search, index_status
from sources.services import document_ingest, documents_ingest_paths

pytestmark = pytest.mark.django_db(transaction=True)
WriteFile = Callable[[str, bytes | str], Path]


def hits(query: str) -> list[str]:
    return [h.chunk.chunk_id for h in chunks_search(query=query, k=5)]


def test_stored_terms_equal_fresh_tokenising(kb_dir: Path) -> None:
    documents_ingest_paths(paths=[kb_dir])
    chunks = list(Chunk.objects.all())
    assert chunks
    for c in chunks:
        assert c.terms.split() == section_text_terms(c.section, c.text)
        assert c.terms_version == indexing.TERMS_VERSION


def test_many_files_are_ingested_in_worker_processes_in_order(tmp_path: Path) -> None:
    folder = tmp_path / "kb"
    folder.mkdir()
    for i in range(10):
        (folder / f"n{i}.md").write_text(f"# Note\n\nRule code{'abcdefghij'[i]}x.", "utf-8")
    (folder / "z-n9-again.md").write_text("---\ndoc_id: n9\n---\n# Note 9\n\nChanged.", "utf-8")
    summary = documents_ingest_paths(paths=[folder], processes=2, replace=True)
    assert [(r.doc_id, r.status) for r in summary.results] == [
        (f"n{i}", "added") for i in range(10)]
    # the same doc_id later in the same batch is refused, replace or not: which of the two
    # is meant is not the path order's to decide (sources.batch_files)
    assert [f.name for f in summary.failures] == [str(folder / "z-n9-again.md")]
    assert hits("codedx") == ["n3#c01"]
    assert hits("changed") == []
    again = documents_ingest_paths(paths=[folder / "n1.md"], processes=2)
    assert [r.status for r in again.results] == ["unchanged"]


def test_purge_removes_the_documents_terms_from_the_index_files(write_file: WriteFile) -> None:
    document_ingest(path=write_file("secret.md", "# Memo\n\nProject zanzibar starts."))
    document_ingest(path=write_file("other.md", "# Other\n\nParking is free."))
    snapshot = index_store().open()
    assert snapshot is not None and any("zanzibar" in s.vocab for s in snapshot.segments)
    document_purge(document=Document.objects.get(doc_id="secret"))
    snapshot = index_store().open()
    assert snapshot is not None and not any("zanzibar" in s.vocab for s in snapshot.segments)
    assert hits("zanzibar") == [] and hits("parking") == ["other#c01"]


def test_a_missing_index_is_reported_and_never_built_by_a_search(
    write_file: WriteFile, settings: object, tmp_path: Path
) -> None:
    document_ingest(path=write_file("a.md", "# Parking\n\nParking is free."))
    settings.KBQA_INDEX_DIR = tmp_path / "elsewhere"  # type: ignore[attr-defined]
    document_ingest(path=write_file("b.md", "# Desks\n\nDesks are shared."))
    assert hits("parking") == [] and hits("desks") == []  # no partial index of b alone
    assert index_status().problem.startswith("no retrieval index")
    assert [w.id for w in run_checks(databases=["default"])] == ["sources.W001"]
    out = StringIO()
    call_command("index_build", stdout=out, stderr=StringIO())
    assert out.getvalue().startswith("indexed 2 chunks (0 re-tokenised)")
    assert hits("parking") == ["a#c01"] and hits("desks") == ["b#c01"]
    assert run_checks(databases=["default"]) == []


def bump_terms_version(monkeypatch: pytest.MonkeyPatch) -> int:
    """As if tokenising changed and TERMS_VERSION was bumped; returns the new version."""
    from sources import versioning  # builds every new chunk row, the bulk ingester's too

    version = indexing.TERMS_VERSION + 1
    for module in (indexing, selectors, versioning):
        monkeypatch.setattr(module, "TERMS_VERSION", version)
    return version


def test_index_build_retokenises_stale_chunks_and_clears_the_warning(
    write_file: WriteFile, monkeypatch: pytest.MonkeyPatch
) -> None:
    document_ingest(path=write_file("a.md", "# Parking\n\nParking is free."))
    document_ingest(path=write_file("b.md", "# Desks\n\nDesks are shared."))
    version = bump_terms_version(monkeypatch)
    assert "stale" in index_status().problem
    assert [w.id for w in run_checks(databases=["default"])] == ["sources.W001"]
    assert chunks_search(query="parking", k=5)  # a stale index still answers meanwhile
    out = StringIO()
    call_command("index_build", stdout=out, stderr=StringIO())
    assert out.getvalue().startswith("indexed 2 chunks (2 re-tokenised)")
    assert set(Chunk.objects.values_list("terms_version", flat=True)) == {version}
    assert index_status().problem == "" and hits("desks") == ["b#c01"]


def test_the_ingest_command_rebuilds_a_stale_index(
    write_file: WriteFile, monkeypatch: pytest.MonkeyPatch
) -> None:
    document_ingest(path=write_file("a.md", "# Parking\n\nParking is free."))
    bump_terms_version(monkeypatch)
    out, err = StringIO(), StringIO()
    call_command("ingest", str(write_file("b.md", "# Desks\n\nShared.")), stdout=out, stderr=err)
    assert "rebuilding" in err.getvalue()
    assert "index rebuilt: 2 chunks (1 re-tokenised)" in out.getvalue()  # b is new already
    assert index_status().problem == ""


def test_visibility_stated_in_files_ingested_by_worker_processes(tmp_path: Path) -> None:
    from django.contrib.auth.models import Group

    Group.objects.create(name="hr")
    folder = tmp_path / "kb"
    folder.mkdir()
    for i in range(8):
        (folder / f"p{i}.md").write_text(f"# Public\n\nRule code{'abcdefgh'[i]}x.", "utf-8")
    (folder / "s.md").write_text("---\nvisibility: [hr]\n---\n# Pay\n\nSalary bands.", "utf-8")
    (folder / "t.md").write_text("---\nvisibility: [nobody]\n---\n# X\n\nTypo group.", "utf-8")
    summary = documents_ingest_paths(paths=[folder], processes=2)
    assert [f.reason for f in summary.failures] == [
        "t.md: unknown group(s) nobody in visibility; create them in admin first, or use 'everyone'"
    ]
    assert Document.objects.get(doc_id="s").restricted
    assert hits("salary") == []  # not for everyone
    hr = selectors.audience_of_groups(["hr"])
    assert [h.chunk.chunk_id for h in chunks_search(query="salary", k=5, audience=hr)] == ["s#c01"]
