"""Sentence vectors stored with the index: found by their text whatever segment holds them,
kept through deletes and merges only with a live chunk, absent in segments written without
them; and the reader's similarities read them instead of encoding."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from kbqa.core.retrieval.semantic import sentence_similarities, use_encoder, use_stored_sentences
from kbqa.core.retrieval.semantic_sentences import (
    ChunkSentences,
    holds_sentences,
    sentence_keys,
    stored_sentence_vectors,
)
from kbqa.core.retrieval.store import Entry, IndexStore

MODEL = "test/axes"
AXES = {"a": 0, "b": 1, "c": 2}


def vector(text: str) -> np.ndarray:
    v = np.zeros(4, dtype=np.float32)
    v[AXES.get(text[:1].lower(), 3)] = 1.0
    return v


def sentences(*texts: str) -> ChunkSentences:
    return ChunkSentences(sentence_keys(texts), np.stack([vector(t) for t in texts]))


def entry(cid: str, key: int, *texts: str, with_sentences: bool = True) -> Entry:
    return Entry(cid, key, ["word"], (), vector(cid), MODEL,
                 sentences(*texts) if with_sentences else None)


@pytest.fixture
def store(tmp_path: Path) -> IndexStore:
    s = IndexStore(tmp_path / "index")
    s.replace_documents([1], [entry("a1", 1, "Apples are red.", "Bananas are yellow.")],
                        terms_version=1)
    s.replace_documents([2], [entry("c2", 2, "Cherries are small.")], terms_version=1)
    return s


def found(store: IndexStore, *texts: str, model: str = MODEL) -> dict[str, int]:
    snapshot = store.open()
    assert snapshot is not None
    vectors = stored_sentence_vectors(snapshot, model, texts)
    return {t: int(np.argmax(v)) for t, v in vectors.items()}


def test_sentences_are_found_by_their_text_in_any_segment(store: IndexStore) -> None:
    assert found(store, "Cherries are small.", "Apples are red.", "Not stored.") == {
        "Cherries are small.": 2, "Apples are red.": 0}
    assert found(store, "Apples are red.", model="another/encoder") == {}


def test_a_merge_keeps_live_chunks_sentences_and_drops_deleted_ones(store: IndexStore) -> None:
    store.replace_documents([2], [], terms_version=1)  # document 2 purged
    assert store.merge(min_segments=1)
    snapshot = store.open()
    assert snapshot is not None and len(snapshot.segments) == 1
    assert found(store, "Bananas are yellow.", "Cherries are small.") == {
        "Bananas are yellow.": 1}
    kept = snapshot.segments[0].sentences
    assert kept is not None and kept.offsets.tolist() == [0, 2]


def test_a_segment_without_sentence_vectors_is_told_apart(store: IndexStore) -> None:
    snapshot = store.open()
    assert snapshot is not None and holds_sentences(snapshot, MODEL)
    store.replace_documents([3], [entry("b3", 3, "Beans.", with_sentences=False)],
                            terms_version=1)
    snapshot = store.open()
    assert snapshot is not None and not holds_sentences(snapshot, MODEL)
    assert store.merge(min_segments=1)  # mixed parts: the merged segment has none either
    snapshot = store.open()
    assert snapshot is not None and snapshot.segments[0].sentences is None
    assert snapshot.segments[0].vectors is not None


def test_a_chunk_without_sentences_is_stored_with_an_empty_range(tmp_path: Path) -> None:
    s = IndexStore(tmp_path / "index")
    s.replace_documents([1], [entry("a1", 1, "Apples."), Entry(
        "a2", 1, ["word"], (), vector("a2"), MODEL,
        ChunkSentences(sentence_keys([]), np.zeros((0, 4), np.float32)))], terms_version=1)
    snapshot = s.open()
    assert snapshot is not None
    seg = snapshot.segments[0].sentences
    assert seg is not None and seg.offsets.tolist() == [0, 1, 1]
    assert seg.row_keys().tolist() == sentence_keys(["Apples."]).tolist()


class CountingEncoder:
    name = MODEL
    dim = 4

    def __init__(self) -> None:
        self.encoded: list[str] = []

    def passages(self, texts: Sequence[str]) -> np.ndarray:
        self.encoded.extend(texts)
        return np.stack([vector(t) for t in texts])

    def query(self, text: str) -> np.ndarray:
        return vector(text)


@pytest.fixture
def encoder(store: IndexStore) -> Iterator[CountingEncoder]:
    fake = CountingEncoder()
    use_encoder(fake)

    def stored(model: str, texts: Sequence[str]) -> dict[str, np.ndarray]:
        snapshot = store.open()
        assert snapshot is not None
        return stored_sentence_vectors(snapshot, model, texts)

    use_stored_sentences(stored)
    yield fake
    use_stored_sentences(None)
    use_encoder(None)


def test_the_reader_encodes_only_sentences_the_index_lacks(encoder: CountingEncoder) -> None:
    sims = sentence_similarities("about apples", ["Apples are red.", "Cherries are small.",
                                                  "A new sentence."])
    assert sims == [1.0, 0.0, 1.0]
    assert encoder.encoded == ["A new sentence."]


def test_a_failing_store_falls_back_to_encoding(encoder: CountingEncoder) -> None:
    def broken(model: str, texts: Sequence[str]) -> dict[str, np.ndarray]:
        raise OSError("index file gone")

    use_stored_sentences(broken)
    assert sentence_similarities("bananas?", ["Bananas are yellow."]) == [1.0]
    assert encoder.encoded == ["Bananas are yellow."]
