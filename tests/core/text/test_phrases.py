"""English multi-word expressions WordNet lists: phrasal verbs and what they mean in one
word, and modifier phrases."""

from __future__ import annotations

import pytest

from kbqa.core.text import phrases


def test_phrasal_verbs_are_found_as_written() -> None:
    assert phrases.phrasal_pairs("My mom passed away and the app logged me out.") == (
        ("passed", "away"), ("logged", "out"))
    assert phrases.phrasal_pairs("I passed the exam.") == ()


def test_a_phrasal_verb_means_its_most_frequent_sense_in_one_word() -> None:
    said = phrases.phrasal_synonyms("passed", "away")
    assert {"die", "dies", "death"} <= set(said)
    # lemmas of the phrase's synset whose own most frequent sense is another meaning
    assert not {"go", "expire", "pass", "exit"} & set(said)
    assert "cancel" in phrases.phrasal_synonyms("called", "off")
    assert phrases.phrasal_synonyms("logged", "out") == ()  # WordNet: only "log off"


@pytest.mark.parametrize(("verb", "expected"), [
    ("die", "dies"), ("reach", "reaches"), ("apply", "applies"), ("stay", "stays"),
])
def test_third_person(verb: str, expected: str) -> None:
    assert phrases.third_person(verb) == expected


def test_modifier_phrases() -> None:
    assert "in advance" in phrases.modifier_phrases("Do I have to ask in advance?")
