"""Reader numbering, paragraphs and the source list of a rendered answer."""

from __future__ import annotations

from typing import Any

import pytest

from chat.rendering import paragraphs_view, reader_numbers, sources_view
from sources.claim_links import claim_signature


def s(text: str, *cites: int, kind: str = "claim", **extra: Any) -> dict[str, Any]:
    return {"text": text, "citations": list(cites), "kind": kind, **extra}


BLOCKS = {
    n: {"n": n, "chunk_id": f"doc-{n}#c01", "title": f"Doc {n}", "section": f"S{n}",
        "updated": "2025-01-0" + str(n), "authority": "policy"}
    for n in (2, 3, 5)
}


@pytest.mark.parametrize(
    ("sentences", "expected"),
    [
        ([s("a", 5), s("b", 5)], {5: 1}),
        ([s("a", 5), s("b", 2, 5), s("c", 3)], {5: 1, 2: 2, 3: 3}),
        ([s("gap", kind="gap")], {}),
    ],
)
def test_reader_numbers_count_from_one_in_order_of_first_citation(sentences, expected) -> None:
    assert reader_numbers(sentences) == expected


def test_paragraphs_group_sentences_sharing_a_source_and_keep_marked_breaks() -> None:
    answer = [
        s("a", 5), s("b", 5, 2), s("c", 3), s("d", 3, paragraph=True), s("e", 2, paragraph=False),
        s("Not covered: x.", kind="gap"),
    ]
    paragraphs = paragraphs_view(answer, BLOCKS)
    assert [[x["text"] for x in p] for p in paragraphs] == [
        ["a", "b"], ["c"], ["d", "e"], ["Not covered: x."]
    ]
    chips = [[c["n"] for c in x["chips"]] for p in paragraphs for x in p]
    assert chips == [[1], [1, 2], [3], [3], [2], []]
    first = paragraphs[0][0]["chips"][0]
    signature = claim_signature("doc-5#c01", "a")
    assert (first["block"], first["url"]) == (5, f"/chunks/doc-5%23c01/?claim=a&sig={signature}")


def test_the_source_list_follows_the_reader_numbers() -> None:
    listed = sources_view(BLOCKS, {5: 1, 2: 2})
    assert [(x["n"], x["block"], x["title"], x["section"], x["updated"]) for x in listed] == [
        (1, 5, "Doc 5", "S5", "2025-01-05"),
        (2, 2, "Doc 2", "S2", "2025-01-02"),
    ]
    assert listed[0]["url"] == "/chunks/doc-5%23c01/"
