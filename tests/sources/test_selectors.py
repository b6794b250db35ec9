"""Search over the stored knowledge base: current chunks only, index rebuilt only on change."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from kbqa.core import types
from kbqa.core.retriever import Retriever
from sources.lifecycle import document_purge, document_restore, document_retire
from sources.models import Document
from sources.retriever import KnowledgeBaseRetriever
from sources.selectors import (
    chunk_as_core,
    chunk_get,
    chunks_search,
    index_opens,
)
from sources.services import document_ingest, documents_ingest_paths

pytestmark = pytest.mark.django_db(transaction=True)
WriteFile = Callable[[str, bytes | str], Path]


def test_empty_knowledge_base_returns_nothing() -> None:
    assert chunks_search(query="hotel limit", k=5) == []


@pytest.mark.parametrize("query", ["", "？！…", "<|endoftext|>"])
def test_queries_without_terms_return_nothing(kb_dir: Path, query: str) -> None:
    documents_ingest_paths(paths=[kb_dir])
    assert chunks_search(query=query, k=5) == []


@pytest.mark.parametrize(
    ("query", "chunk_id"),
    [("hotel limit in London", "doc-010#c01"), ("年假有多少天", "doc-120#c01")],
)
def test_search_returns_core_chunks_with_document_metadata(
    kb_dir: Path, query: str, chunk_id: str
) -> None:
    documents_ingest_paths(paths=[kb_dir])
    hit = chunks_search(query=query, k=3)[0]
    assert hit.chunk.chunk_id == chunk_id
    assert 0 < hit.relevance < 1


def test_chunk_as_core_fills_document_fields(kb_dir: Path) -> None:
    documents_ingest_paths(paths=[kb_dir])
    chunk = chunk_get(chunk_id="doc-010#c01")
    assert chunk is not None
    assert chunk_as_core(chunk) == types.Chunk(
        chunk_id="doc-010#c01",
        doc_id="doc-010",
        title="Travel Policy",
        text=chunk.text,
        section="Hotels",
        updated="2025-06-30",
        source_url="https://intranet.example.com/policies/travel",
        authority="policy",
        language="en",
    )


def test_unknown_chunk_id_gives_none() -> None:
    assert chunk_get(chunk_id="doc-999#c01") is None


def test_index_is_reopened_only_when_the_knowledge_base_changes(write_file: WriteFile) -> None:
    path = write_file("a.md", "# Parking\n\nParking is free on weekends.")
    document_ingest(path=path)
    assert [h.chunk.chunk_id for h in chunks_search(query="parking", k=5)] == ["a#c01"]
    opens = index_opens()
    chunks_search(query="weekends", k=5)
    document_ingest(path=path)  # unchanged: the index is not touched
    chunks_search(query="parking", k=5)
    assert index_opens() == opens

    write_file("a.md", "# Parking\n\nParking costs 5 USD on weekends.")
    document_ingest(path=path)
    hits = chunks_search(query="parking", k=5)
    assert index_opens() == opens + 1
    assert [h.chunk.chunk_id for h in hits] == ["a#c01v2"]  # superseded chunk not searched

    document_retire(document=Document.objects.get(doc_id="a"))
    assert chunks_search(query="parking", k=5) == []
    document_restore(document=Document.objects.get(doc_id="a"))
    assert [h.chunk.chunk_id for h in chunks_search(query="parking", k=5)] == ["a#c01v2"]
    document_purge(document=Document.objects.get(doc_id="a"))
    assert chunks_search(query="parking", k=5) == []


async def test_knowledge_base_retriever_implements_the_core_protocol(kb_dir: Path) -> None:
    from asgiref.sync import sync_to_async

    await sync_to_async(documents_ingest_paths)(paths=[kb_dir])
    retriever: Retriever = KnowledgeBaseRetriever()
    hits = await retriever.search("How often must I rotate my password?", 2)
    assert [h.chunk.chunk_id for h in hits][:1] == ["doc-020#c01"]


def test_current_chunks_of_reads_what_chunk_as_core_reads_and_only_current_chunks(
    kb_dir: Path, write_file: WriteFile
) -> None:
    """The search's read-back (SQL) against the ORM's ``chunk_as_core``: every field, the
    groups of a restricted document, a restricted document whose groups were deleted; and,
    without the index being told (a retire or purge another process made a moment ago),
    nothing retired, superseded or purged."""
    from django.contrib.auth.models import Group

    from sources.models import Chunk
    from sources.selectors import NO_GROUP, current_chunks_of

    documents_ingest_paths(paths=[kb_dir])
    path = write_file("a.md", "# Parking\n\nParking is free on weekends.")
    document_ingest(path=path)
    write_file("a.md", "# Parking\n\nParking costs 5 USD on weekends.")
    document_ingest(path=path)  # a#c01 superseded by a#c01v2
    hr, finance, gone = (Group.objects.create(name=n) for n in ("hr", "finance", "gone"))
    Document.objects.get(doc_id="doc-010").groups.set([hr, finance])
    Document.objects.get(doc_id="doc-020").groups.set([gone])
    Document.objects.filter(doc_id__in=["doc-010", "doc-020"]).update(restricted=True)
    gone.delete()
    current = Chunk.objects.filter(is_current=True).select_related("document")
    expected = {c.chunk_id: chunk_as_core(c) for c in current}
    ids = [*expected, "a#c01", "doc-999#c01"]
    assert current_chunks_of(ids) == expected
    assert expected["doc-010#c01"].access == tuple(sorted([str(hr.pk), str(finance.pk)]))
    assert expected["doc-020#c01"].access == (NO_GROUP,)
    assert expected["doc-010#c01"].updated == "2025-06-30"

    from django.utils import timezone

    Document.objects.filter(doc_id="doc-010").update(retired_at=timezone.now())
    Chunk.objects.filter(document__doc_id="a").delete()  # as a purge leaves it
    assert set(current_chunks_of(ids)) == {
        c for c in expected if not c.startswith(("doc-010#", "a#"))
    }


def test_a_word_is_expanded_with_what_the_index_knows_now(write_file: WriteFile) -> None:
    # "clients" is in no chunk: it is searched through its thesaurus words the index has.
    # Each snapshot remembers a word's expansions; a document ingested since must count.
    document_ingest(path=write_file("a.md", "# Parking\n\nParking is free on weekends."))
    assert chunks_search(query="clients", k=5) == []  # no chunk says "customer" yet
    document_ingest(path=write_file("b.md", "# Meals\n\nMeals with customers cost EUR 80."))
    assert [h.chunk.chunk_id for h in chunks_search(query="clients", k=5)] == ["b#c01"]
    document_ingest(path=write_file("b.md", "# Meals\n\nMeals with partners cost EUR 80."))
    assert chunks_search(query="clients", k=5) == []


def test_a_search_asked_again_finds_what_was_ingested_since(write_file: WriteFile) -> None:
    # A snapshot keeps the searches made on it: the same question after an upload must
    # still find the new document, and stop finding one superseded since.
    def found() -> list[str]:
        return sorted(h.chunk.chunk_id for h in chunks_search(query="weekend parking", k=5))

    document_ingest(path=write_file("a.md", "# Parking\n\nParking is free on weekends."))
    assert found() == found() == ["a#c01"]
    document_ingest(path=write_file("b.md", "# Garage\n\nWeekend parking in the garage."))
    assert found() == ["a#c01", "b#c01"]
    document_ingest(path=write_file("b.md", "# Garage\n\nBikes stay in the garage."))
    assert found() == ["a#c01"]
