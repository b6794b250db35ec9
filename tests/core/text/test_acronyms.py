"""Acronyms and their phrases as the documents define them (``kbqa.core.text.acronyms``)."""

from __future__ import annotations

import pytest

from kbqa.core.text.acronyms import definitions, initials, is_short_form


@pytest.mark.parametrize(("text", "expected"), [
    ("how single sign-on (SSO) and two-factor authentication (2FA) fit together",
     {"SSO": "single sign on", "2FA": "two factor authentication"}),
    ("Call the API (application programming interface) with a token.",
     {"API": "application programming interface"}),
    ("the Department of Human Resources (DHR) decides", {"DHR": "Department of Human Resources"}),
])
def test_a_definition_in_parentheses_pairs_the_acronym_with_its_phrase(
    text: str, expected: dict[str, str]
) -> None:
    assert definitions(text) == expected


@pytest.mark.parametrize("text", [
    "Hotels in Paris (EUR 240) are allowed.",  # parentheses holding no acronym of the words
    "Upload it (see the FAQ) first.",
    "The offices (Rotterdam, Chengdu) are open.",
])
def test_parentheses_that_define_nothing_give_nothing(text: str) -> None:
    assert definitions(text) == {}


def test_initials_find_a_phrase_only_for_three_or_more_characters() -> None:
    text = "Use single sign-on with your identity provider. Human resources can help."
    assert initials("SSO", [text]) == ["single sign on"]
    assert initials("HR", [text]) == []  # two letters match too many phrases


@pytest.mark.parametrize(("word", "short"), [
    ("2FA", True), ("SSO", True), ("SaaS", True), ("Paris", False), ("20", False),
    ("a", False),
])
def test_short_forms(word: str, short: bool) -> None:
    assert is_short_form(word) is short
