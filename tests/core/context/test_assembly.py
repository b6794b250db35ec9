from __future__ import annotations

import pytest

from kbqa.core.context.assembly import assemble, end_weighted
from kbqa.core.text.tokens import count_tokens
from kbqa.core.types import Chunk, ScoredChunk


def hit(chunk_id: str, score: float, tokens: int, text: str | None = None) -> ScoredChunk:
    """A hit whose text is exactly ``tokens`` cl100k tokens ("alpha word word ...")."""
    body = text if text is not None else " ".join([chunk_id.replace("#", "")] + ["word"] * 300)
    if text is None:
        words = body.split()
        while count_tokens(" ".join(words)) > tokens:
            words.pop()
        body = " ".join(words)
        assert count_tokens(body) == tokens
    chunk = Chunk(chunk_id=chunk_id, doc_id=chunk_id.split("#")[0], title=chunk_id, text=body)
    return ScoredChunk(chunk=chunk, score=score)


@pytest.mark.parametrize(
    ("n", "order"),
    [
        (0, []),
        (1, [1]),
        (2, [1, 2]),
        (3, [1, 3, 2]),
        (4, [1, 3, 4, 2]),
        (5, [1, 3, 5, 4, 2]),
    ],
)
def test_end_weighted_order(n: int, order: list[int]) -> None:
    assert end_weighted(list(range(1, n + 1))) == order


def test_blocks_are_numbered_in_presentation_order_best_at_both_ends() -> None:
    hits = [hit(f"d{i}#c1", score=10 - i, tokens=20) for i in range(1, 6)]
    result = assemble(hits, budget=1200, max_blocks=5)
    assert [(b.n, b.chunk_id) for b in result.blocks] == [
        (1, "d1#c1"),
        (2, "d3#c1"),
        (3, "d5#c1"),
        (4, "d4#c1"),
        (5, "d2#c1"),
    ]
    assert result.used_tokens == 100
    assert all(b.text == b.chunk.text and b.tokens == 20 for b in result.blocks)


def test_ties_broken_by_chunk_id() -> None:
    hits = [hit("b#c1", 5.0, 10), hit("a#c1", 5.0, 10), hit("c#c1", 6.0, 10)]
    assert [b.chunk_id for b in assemble(hits).blocks] == ["c#c1", "b#c1", "a#c1"]


def test_budget_skips_a_chunk_that_does_not_fit_and_tries_the_next() -> None:
    hits = [hit("a#c1", 9.0, 60), hit("b#c1", 8.0, 50), hit("c#c1", 7.0, 30), hit("d#c1", 6.0, 20)]
    result = assemble(hits, budget=100, max_blocks=5)
    assert sorted(b.chunk_id for b in result.blocks) == ["a#c1", "c#c1"]
    assert result.skipped == ("b#c1", "d#c1")
    assert result.used_tokens == 90
    assert all(b.text == b.chunk.text for b in result.blocks)  # never cut


def test_stops_at_max_blocks() -> None:
    hits = [hit(f"d{i}#c1", 10 - i, 10) for i in range(1, 8)]
    result = assemble(hits, budget=1200, max_blocks=3)
    assert len(result.blocks) == 3
    assert result.skipped == ()


def test_duplicates_dropped_keeping_the_best_scored() -> None:
    hits = [
        hit("copy#c1", 3.0, 0, text="Uploads are limited to 200 MB."),
        hit("orig#c1", 9.0, 0, text="uploads are  LIMITED to 200 MB"),
        hit("other#c1", 5.0, 0, text="The trial lasts 90 days."),
    ]
    result = assemble(hits)
    assert [b.chunk_id for b in result.blocks] == ["orig#c1", "other#c1"]
    assert result.duplicates == ("copy#c1",)


def test_nothing_fits() -> None:
    result = assemble([hit("a#c1", 1.0, 50)], budget=10)
    assert (result.blocks, result.used_tokens, result.skipped) == ((), 0, ("a#c1",))


def test_an_archived_section_never_takes_the_place_of_its_current_version() -> None:
    def section_hit(chunk_id: str, score: float, section: str, authority: str) -> ScoredChunk:
        chunk = Chunk(chunk_id=chunk_id, doc_id=chunk_id.split("#")[0], title=chunk_id,
                      text=f"{chunk_id} text", section=section, authority=authority)
        return ScoredChunk(chunk=chunk, score=score)

    hits = [section_hit("a#1", 12.0, "Monitors", "policy"),
            section_hit("old#2", 5.75, "Laptops", "archived"),
            section_hit("other#1", 5.6, "Sharing", "faq"),
            section_hit("new#2", 5.5, "Laptops", "policy")]
    ids = {b.chunk_id for b in assemble(hits, budget=1000, max_blocks=2).blocks}
    assert ids == {"a#1", "new#2"}  # before: the archived "Laptops" was shown alone
    ids = {b.chunk_id for b in assemble(hits, budget=1000, max_blocks=3).blocks}
    assert ids == {"a#1", "new#2", "old#2"}  # both versions: the conflict gate decides
