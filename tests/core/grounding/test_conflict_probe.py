"""The conflict gate's search for other documents' statements of the asked value."""

from __future__ import annotations

import pytest

from kbqa.core.grounding.conflict_probe import probe_terms, probed_blocks, with_probed
from kbqa.core.grounding.conflicts import find_conflicts
from kbqa.core.retrieval.bm25 import InMemoryRetriever
from tests.fakes import make_block

SIZE_200 = "The maximum size of a single uploaded file is 200 MB."
SIZE_100 = "The maximum size for a single uploaded file is 100 MB."
SHARING = "Anyone with the link can open a shared folder until the link expires."


@pytest.mark.parametrize(
    ("question", "searched"),
    [
        # a bound asked: the words of the leading value's sentence
        ("What's the biggest single file you can upload?", {"maximum", "size", "uploaded"}),
        # a quantity stated: the words naming its unit too
        ("Will a 150 MB recording go through?", {"maximum", "size", "large"}),
        ("录了一段 150M 的视频能传上去吗？", {"大小", "maximum"}),
        # no value asked: no second search
        ("Who can open a shared folder?", set()),
    ],
)
def test_probe_searches_with_the_words_of_the_asked_value(
    question: str, searched: set[str]
) -> None:
    blocks = [make_block(1, SIZE_200), make_block(2, SHARING)]
    words = set(probe_terms(blocks, question))
    assert searched <= words and bool(words) == bool(searched)
    assert not {w for w in words if w[0].isdigit()}  # never the number itself


async def test_probed_block_from_another_document_makes_the_conflict() -> None:
    first = make_block(1, SIZE_200, title="Manual")
    other = make_block(2, SIZE_100, title="Web uploader guide", doc_id="doc-011").chunk
    distractors = [make_block(i, f"Upload tip {i}: drag folders onto the page.").chunk
                   for i in range(3, 6)]
    retriever = InMemoryRetriever([first.chunk, other, *distractors])
    question = "What's the biggest single file you can upload?"

    probed = await probed_blocks(retriever, [first], question, 2)
    conflicts = find_conflicts([first], question, probed)
    blocks, shown = with_probed([first], probed, conflicts)

    assert [(b.n, b.title) for b in blocks] == [(1, "Manual"), (2, "Web uploader guide")]
    assert [(s.n, s.value_text) for s in shown[0].sides] == [(1, "200 MB"), (2, "100 MB")]


def test_a_dated_year_names_no_duration() -> None:
    # "2018年" is a date: the question asks who won, not how many years.
    blocks = [make_block(1, "超级碗冠军赛自1960年举办以来已连续举办七年。"),
              make_block(2, "超级碗每一年举办一次。", doc_id="doc-009")]
    assert probe_terms(blocks, "2018年超级碗冠军是谁") == ()
    assert find_conflicts(blocks, "2018年超级碗冠军是谁") == []


async def test_a_block_ranked_low_that_the_search_finds_is_a_side() -> None:
    # The question's words rank the uploader guide's 100 MB far below the manual's 200 MB;
    # the search for the asked value finds it, so the card shows the two Chinese pages.
    manual = make_block(1, "单个文件上传的最大大小为 200 MB。", doc_id="doc-012", score=10.0)
    guide = make_block(2, "单个上传文件的最大大小为 100 MB。", doc_id="doc-013", score=2.0)
    retriever = InMemoryRetriever([manual.chunk, guide.chunk])
    question = "我有个 120MB 的压缩包，网页上传会不会被拒？"

    probed = await probed_blocks(retriever, [manual, guide], question, 2)
    found = find_conflicts([manual, guide], question, probed)

    assert [(s.doc_id, s.value_text) for s in found[0].sides] == [
        ("doc-012", "200 MB"), ("doc-013", "100 MB")]
    assert with_probed([manual, guide], probed, found)[0] == (manual, guide)
