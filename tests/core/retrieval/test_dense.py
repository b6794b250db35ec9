"""Dense vectors in the index: stored per position, kept through deletes and merges, searched
per audience, fused with BM25 by reciprocal rank fusion, and seen by the low-score gate."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kbqa.core.evaluation.calibration import recommend_similarity
from kbqa.core.pipeline import PipelineConfig, passes_low_score_gate
from kbqa.core.retrieval.dense import DenseHit, dense_search, fuse, vector_model
from kbqa.core.retrieval.index import Hit
from kbqa.core.retrieval.store import Entry, IndexStore
from kbqa.core.types import Audience, Chunk, ScoredChunk

MODEL = "test-encoder"


def unit(*values: float) -> np.ndarray:
    v = np.asarray(values, dtype=np.float32)
    return v / np.linalg.norm(v)


def entry(cid: str, key: int, vector: np.ndarray | None, access: tuple[str, ...] = ()) -> Entry:
    return Entry(cid, key, ["word", cid], access, vector, MODEL if vector is not None else "")


def ids(hits: list[DenseHit]) -> list[str]:
    return [h.chunk_id for h in hits]


@pytest.fixture
def store(tmp_path: Path) -> IndexStore:
    s = IndexStore(tmp_path / "index")
    s.replace_documents([1, 2], [
        entry("a", 1, unit(1, 0, 0)),
        entry("b", 1, unit(0.8, 0.6, 0)),
        entry("c", 2, unit(0, 1, 0), access=("7",)),
    ], terms_version=1)
    return s


def test_vectors_are_stored_with_their_encoder_and_searched_best_first(store: IndexStore) -> None:
    snapshot = store.open()
    assert snapshot is not None and vector_model(snapshot) == MODEL
    found = dense_search(snapshot, unit(1, 0, 0), 3)
    assert ids(found) == ["a", "b", "c"]
    assert [round(h.similarity, 3) for h in found] == [1.0, 0.8, 0.0]


def test_dense_search_counts_only_what_the_audience_may_read(store: IndexStore) -> None:
    snapshot = store.open()
    assert snapshot is not None
    assert ids(dense_search(snapshot, unit(0, 1, 0), 3, audience=Audience())) == ["b", "a"]
    member = Audience(labels=frozenset({"7"}))
    assert ids(dense_search(snapshot, unit(0, 1, 0), 1, audience=member)) == ["c"]


def test_replaced_documents_leave_dense_search_and_merge_keeps_vectors_aligned(
    store: IndexStore,
) -> None:
    store.replace_documents([1], [entry("a2", 1, unit(0, 0, 1))], terms_version=1)
    snapshot = store.open()
    assert snapshot is not None
    assert ids(dense_search(snapshot, unit(1, 0, 0), 5)) == ["a2", "c"]  # cosine 0: by id
    assert ids(dense_search(snapshot, unit(0, 0, 1), 1)) == ["a2"]
    assert store.merge(min_segments=1)
    merged = store.open()
    assert merged is not None and len(merged.segments) == 1
    assert ids(dense_search(merged, unit(0, 0, 1), 1)) == ["a2"]
    assert ids(dense_search(merged, unit(0, 1, 0), 1)) == ["c"]


def test_a_segment_without_vectors_turns_dense_search_off(store: IndexStore) -> None:
    store.replace_documents([3], [entry("d", 3, None)], terms_version=1)
    snapshot = store.open()
    assert snapshot is not None and vector_model(snapshot) == ""
    assert dense_search(snapshot, unit(1, 0, 0), 3) == []
    store.merge(min_segments=1)
    merged = store.open()
    assert merged is not None and merged.segments[0].vectors is None


def lexical(*cids: str) -> list[Hit]:
    return [Hit(c, 0, 10.0 - i, 0.5 - i / 10) for i, c in enumerate(cids)]


def test_fusion_is_reciprocal_rank_fusion_with_k_60() -> None:
    fused = fuse(lexical("a", "b"), [DenseHit("b", 0, 0.9), DenseHit("c", 0, 0.8)], 3)
    assert [h.chunk_id for h in fused] == ["b", "a", "c"]
    assert fused[0].score == pytest.approx(1 / 62 + 1 / 61)
    assert (fused[0].relevance, fused[0].similarity) == (0.4, 0.9)
    assert (fused[2].relevance, fused[2].similarity) == (0.0, 0.8)  # dense only


def test_fusion_without_dense_hits_keeps_the_bm25_order() -> None:
    assert [h.chunk_id for h in fuse(lexical("z", "a", "m"), [], 2)] == ["z", "a"]


def test_a_half_weight_dense_ranking_does_not_displace_bm25s_first_hit() -> None:
    dense = [DenseHit("b", 0, 0.9), DenseHit("c", 0, 0.8)]
    assert fuse(lexical("a", "b", "c"), dense, 1, dense_weight=0.5)[0].chunk_id == "b"
    assert fuse(lexical("a", "x", "y"), dense, 1, dense_weight=0.5)[0].chunk_id == "a"


def test_fusion_marks_the_document_both_rankings_put_first() -> None:
    words = [Hit("a#c01", 1, 9.0, 0.1), Hit("b#c01", 2, 8.0, 0.1)]
    meaning = [DenseHit("a#c02", 1, 0.85), DenseHit("b#c01", 2, 0.84)]
    fused = {h.chunk_id: h.agreed for h in fuse(words, meaning, 5)}
    assert fused == {"a#c01": True, "a#c02": True, "b#c01": False}
    disagree = fuse(words, list(reversed(meaning)), 5)
    assert not any(h.agreed for h in disagree)


def scored(relevance: float, similarity: float, agreed: bool = False) -> ScoredChunk:
    chunk = Chunk(chunk_id="x#c01", doc_id="x", title="T", text="t")
    return ScoredChunk(chunk=chunk, score=1.0, relevance=relevance, similarity=similarity,
                       agreed=agreed)


@pytest.mark.parametrize(
    ("hits", "min_similarity", "passes"),
    [
        ([scored(0.20, 0.0)], 0.0, True),
        ([scored(0.05, 0.95)], 0.0, False),  # 0: relevance alone, as without semantic recall
        ([scored(0.05, 0.95)], 0.90, True),
        ([scored(0.05, 0.85)], 0.90, False),
        ([scored(0.05, 0.95), scored(0.20, 0.0)], 0.0, True),  # any hit, not only the first
        ([scored(0.05, 0.80, agreed=True)], 0.90, True),  # both retrievers chose its document
        ([scored(0.05, 0.80, agreed=True)], 0.0, False),
    ],
)
def test_low_score_gate_passes_on_relevance_or_calibrated_similarity(
    hits: list[ScoredChunk], min_similarity: float, passes: bool
) -> None:
    config = PipelineConfig(min_relevance=0.13, min_similarity=min_similarity)
    assert passes_low_score_gate(hits, config) is passes


def test_agreement_can_be_left_out_of_the_gate() -> None:
    config = PipelineConfig(min_relevance=0.13, min_similarity=0.9, agreement=False)
    assert not passes_low_score_gate([scored(0.05, 0.80, agreed=True)], config)


def test_similarity_threshold_never_lets_more_unanswerable_questions_through() -> None:
    answerable = [(0.05, 0.93), (0.06, 0.91), (0.3, 0.8), (0.02, 0.80)]
    unanswerable = [(0.01, 0.89), (0.02, 0.85), (0.5, 0.9)]
    rec = recommend_similarity(answerable, unanswerable, min_relevance=0.13)
    assert rec.refused_unanswerable == 2  # as relevance alone refuses
    assert rec.refused_answerable == 1  # (0.02, 0.80) stays refused
    assert 0.89 < rec.threshold <= 0.91
    assert rec.tied == (0.9, 0.91)


def test_similarity_threshold_is_off_when_it_rescues_nothing() -> None:
    rec = recommend_similarity([(0.3, 0.8)], [(0.01, 0.95)], min_relevance=0.13)
    assert rec.threshold == 0.0
