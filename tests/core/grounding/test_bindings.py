"""Value bindings, polar forms, restrictions, fragments and stray emphasis, read alone."""

from __future__ import annotations

import pytest

from kbqa.core.grounding.parsing import parse_claim
from kbqa.core.grounding.predicates import is_fragment, polar_form, restriction_scope
from kbqa.core.grounding.value_groups import value_groups
from kbqa.core.text.quantities import extract_quantities

HOTELS = ("hotels: up to eur 170 per night, or up to eur 240 per night in london, paris, "
          "zurich, new york and tokyo.")


def test_each_value_is_bound_to_the_words_of_its_own_clause() -> None:
    groups = value_groups(HOTELS, extract_quantities(HOTELS), "EUR/night")
    bound = {q.value: terms for q, terms in groups}
    assert "london" in bound[240] and "tokyo" in bound[240]
    assert "london" not in bound[170]
    assert "hotel" not in bound[170] | bound[240]  # the topic is shared


def test_one_value_of_a_unit_has_no_groups() -> None:
    text = "company laptops are replaced every 4 years."
    assert value_groups(text, extract_quantities(text), "month") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("minibar and pay-tv are personal costs", "minibar and pay-tv are not reimbursed"),
        ("personal devices are forbidden here", "personal devices are not allowed here"),
        ("洗衣费由个人承担", "洗衣费不予报销"),
        ("laptops are replaced every 4 years", "laptops are replaced every 4 years"),
    ],
)
def test_polar_form_rewrites_only_its_closed_list(text: str, expected: str) -> None:
    assert polar_form(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("laptops are replaced every 4 years only for managers",
         ("only for managers", "manager")),
        ("仅限经理享有", ("仅限经理享有", "经理")),
        ("files are kept for 30 days only", None),
        ("not only managers but everyone", None),
    ],
)
def test_restriction_scope_is_the_first_term_after_the_restriction(
    text: str, expected: tuple[str, str] | None
) -> None:
    assert restriction_scope(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("item two", True), ("Windows", True), ("第二项", True), ("20 天", False),
     ("Trains: second class", False), ("Company laptops are replaced every 4 years.", False)],
)
def test_a_fragment_has_fewer_than_two_content_words_and_no_quantity(
    text: str, expected: bool
) -> None:
    assert is_fragment(text) is expected


@pytest.mark.parametrize(
    ("sentence", "prose"),
    [
        ("**Every employee receives a laptop [1].", "Every employee receives a laptop."),
        ("Laptops are replaced every 4 years.** [1]", "Laptops are replaced every 4 years."),
        ("**200 MB** is the limit [1].", "200 MB is the limit."),
        ("5 * 3 is 15 [1].", "5 * 3 is 15."),
    ],
)
def test_unbalanced_emphasis_never_reaches_the_prose(sentence: str, prose: str) -> None:
    assert parse_claim(sentence).text == prose
