"""A question's verb and a block's irregular form of it are one word (``synonyms.inflections``)."""

from __future__ import annotations

import pytest

from kbqa.core.readers.extractive.synonyms import inflections
from kbqa.core.readers.extractive.text import folded_terms


@pytest.mark.parametrize(("question", "block", "met"), [
    ("my laptop is broken", "If your laptop breaks, call the desk.", {"broken": ("break",)}),
    ("what if someone steals my badge?", "A badge that was stolen is blocked at once.",
     {"steal": ("stolen",)}),
    ("what if I forgot my password?", "If you forget your password, reset it.",
     {"forgot": ("forget",)}),
])
def test_an_irregular_form_meets_its_verb(question: str, block: str,
                                          met: dict[str, tuple[str, ...]]) -> None:
    assert inflections(question, folded_terms(block)) == met


def test_an_adjective_of_its_own_is_not_the_verb() -> None:
    # "paid" of "paid annual leave" is no form of "a customer pays"
    assert inflections("if a customer pays upfront, is there a discount?",
                       folded_terms("Employees get 25 days of paid annual leave.")) == {}


def test_a_word_the_blocks_have_is_not_looked_up() -> None:
    assert inflections("my laptop breaks", folded_terms("If your laptop breaks, call.")) == {}
