from __future__ import annotations

import pytest

from kbqa.core.readers.extractive.absent import nameable
from kbqa.core.readers.extractive.question_verbs import verbs_after


@pytest.mark.parametrize(
    ("question", "verbs"),
    [
        ("How many days do interns get?", set()),  # the noun after "do" is the subject
        ("How many days do you get?", {"get"}),
        ("How do I apply for leave?", {"apply"}),
    ],
)
def test_verbs_after_do_need_a_pronoun(question: str, verbs: set[str]) -> None:
    assert set(verbs_after(question)) == verbs


def test_the_subject_after_do_may_be_named_in_a_gap() -> None:
    assert nameable("intern", "How many days of sick leave do interns get per year?")


def test_a_word_wordnet_knows_only_as_an_adjective_is_never_named_in_a_gap() -> None:
    # Before: "Not covered: none of the sources found uses the word “late”."
    assert not nameable("late", "Can I submit a receipt late?")
    assert nameable("chengdu", "What is the hotel limit in Chengdu?")  # names stay nameable
