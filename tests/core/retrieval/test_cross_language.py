"""A question whose own words find nothing close is searched again in the other language."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kbqa.core.retrieval import cross_language
from kbqa.core.retrieval.bm25 import Bm25Index
from kbqa.core.retrieval.index import IndexSnapshot
from kbqa.core.retrieval.segment import build_segment
from kbqa.core.text.terms import search_terms
from kbqa.core.types import Chunk

MIN_RELEVANCE = 0.15  # KBQA_MIN_RELEVANCE's default


@pytest.fixture(autouse=True)
def _threshold() -> Iterator[None]:
    before = cross_language.set_threshold(MIN_RELEVANCE)
    yield
    cross_language.set_threshold(before)


def _chunk(chunk_id: str, text: str, section: str = "", language: str = "en") -> Chunk:
    return Chunk(chunk_id=chunk_id, doc_id=chunk_id.split("#")[0], title=chunk_id, text=text,
                 section=section, language=language)


# A company's knowledge base of both languages: travel rules only in English, the office
# guide only in Chinese, whose passages share 出差, 酒店 and 上限 with the question, each alone.
KB = [
    _chunk("travel#c1", "On a business trip the hotel limit per night is an upper bound: "
           "Tokyo JPY 25,000, Singapore SGD 250.", "Hotels"),
    _chunk("travel#c2", "Economy class for flights under 6 hours; premium economy above.",
           "Flights"),
    _chunk("sessions#c1", "A web session closes after 12 hours without any activity.",
           "Sessions"),
    _chunk("office#c1", "深圳办公室位于南山区科技园，前台在 12 楼。", "地址", "zh"),
    _chunk("office#c2", "访客须提前一天在系统中登记，到达后在前台领取访客证。", "访客", "zh"),
    _chunk("office#c3", "出差期间的交通费用按实际发生报销，需要上传发票。", "交通", "zh"),
    _chunk("office#c4", "前台可以帮来访客户预订附近的酒店。", "接待", "zh"),
    _chunk("office#c5", "通讯费每月报销，上限见福利说明。", "通讯费", "zh"),
]


def test_a_chinese_question_reaches_the_english_policy_that_answers_it() -> None:
    hits = Bm25Index(KB).search("出差东京住酒店每晚上限多少？", 5)
    assert hits[0].chunk.chunk_id == "travel#c1"
    assert hits[0].relevance >= MIN_RELEVANCE  # the low-score gate lets it be read


def test_a_question_its_own_language_answers_closely_gets_no_translated_hits() -> None:
    kb = [*KB, _chunk("office-en#c1", "The Shenzhen office is in Nanshan Science Park; "
                      "reception is on floor 12.", "Address")]
    hits = Bm25Index(kb).search("深圳办公室在哪里？", 5)
    assert [h.chunk.chunk_id for h in hits] == ["office#c1"]


def test_one_translated_word_finds_no_passage() -> None:
    # 团建活动 -> only "activity" translates: a session rule is not about team budgets
    hits = Bm25Index(KB).search("团建活动的预算是多少？", 5)
    assert "sessions#c1" not in [h.chunk.chunk_id for h in hits]


def test_a_search_keeps_only_chunks_holding_enough_groups() -> None:
    texts = ["hotel night tokyo", "hotel night", "hotel"]
    snapshot = IndexSnapshot([build_segment([f"c{i}" for i in range(3)], [0, 0, 0],
                                            [search_terms(t) for t in texts], [(), (), ()])])
    groups = [frozenset({"hotel"}), frozenset({"night"}), frozenset({"tokyo", "kyoto"})]
    found = snapshot.search(["hotel", "night", "tokyo"], 3, groups=groups, min_groups=2)
    assert [h.chunk_id for h in found] == ["c0", "c1"]
    assert len(snapshot.search(["hotel", "night", "tokyo"], 3)) == 3
