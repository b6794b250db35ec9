"""The quoted passage must name every noun the question asks about (``nouns.unnamed``); a
rule for every other place names the place the question asks about."""

from __future__ import annotations

from kbqa.core.readers.extractive.nouns import unnamed
from kbqa.core.readers.extractive.text import folded_terms

QUESTION = "在成都出差住酒店每晚能报销多少？"
ASKED = frozenset({"成都", "酒店"})


def test_a_rule_for_every_other_city_names_the_asked_city() -> None:
    seen = [folded_terms("住宿：北京、上海每晚不超过 700 元，其他城市每晚不超过 500 元。 酒店")]
    assert unnamed(QUESTION, ASKED, ASKED, frozenset(), seen) == frozenset()


def test_a_passage_listing_only_other_cities_does_not() -> None:
    seen = [folded_terms("住宿：北京、上海每晚不超过 700 元。 酒店")]
    assert unnamed(QUESTION, ASKED, ASKED, frozenset(), seen) == frozenset({"成都"})
