"""English numbers in words read as digits in a query (``kbqa.core.text.number_words``)."""

from __future__ import annotations

import pytest

from kbqa.core.text.number_words import in_digits


@pytest.mark.parametrize(("typed", "read", "changes"), [
    ("if i spend twelve hundred euros on a claim, who approves it?",
     "if i spend 1200 euros on a claim, who approves it?", {"twelve hundred": "1200"}),
    ("one hundred and eighty euros a night in Berlin?", "180 euros a night in Berlin?",
     {"one hundred and eighty": "180"}),
    ("sick for three days, then twenty-five more", "sick for 3 days, then 25 more",
     {"three": "3", "twenty-five": "25"}),
])
def test_numbers_in_words_are_read_as_digits(
    typed: str, read: str, changes: dict[str, str]
) -> None:
    assert in_digits(typed) == (read, changes)


@pytest.mark.parametrize("typed", [
    "Can I take one monitor home?",  # a lone "one" is a word as much as a number
    "no one answered my ticket",
    "the second day of my holiday",  # ordinals stay
    "我们年假是不是十五天？",  # Chinese numerals are read where quantities are
    "What is the upload limit?",
    "",
])
def test_words_that_are_no_amount_are_left_as_typed(typed: str) -> None:
    assert in_digits(typed) == (typed, {})
