"""A document scoped to a place the question names counts the place as matched."""

from __future__ import annotations

from kbqa.core.retrieval.scope import scope_boosted
from kbqa.core.types import Chunk, ScoredChunk


def _hit(doc: str, title: str, text: str, score: float) -> ScoredChunk:
    chunk = Chunk(chunk_id=f"{doc}#c02", doc_id=doc, title=title, section="报销时限",
                  text=text, updated="2025-06-01")
    return ScoredChunk(chunk=chunk, score=score, relevance=score / 40)


HITS = [
    _hit("cn", "费用报销制度（中国区）", "报销单须在 60 天内提交。", 12.0),
    _hit("hz", "杭州办公室报销制度", "报销单须在 30 天内提交。", 9.0),
]


def test_the_document_of_the_named_place_rises() -> None:
    ranked = scope_boosted(HITS, "杭州办公室的报销单多久内交？", lambda term: 5.0)
    assert [h.chunk.doc_id for h in ranked] == ["hz", "cn"]
    assert ranked[0].relevance > HITS[1].relevance


def test_without_a_named_place_nothing_moves() -> None:
    assert scope_boosted(HITS, "报销单多久内交？", lambda term: 5.0) == HITS
