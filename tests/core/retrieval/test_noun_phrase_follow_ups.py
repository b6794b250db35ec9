"""A connector before a noun phrase ("and old versions of a doc?") asks the earlier question
of it: a quantity or time question keeps its interrogative phrase, any other stays the
noun phrase's own question (issue 12 item 4)."""

from __future__ import annotations

import pytest

from kbqa.core.retrieval.ellipsis import noun_phrase_en
from kbqa.core.retrieval.standalone import rewrite_deterministic
from kbqa.core.types import Turn


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("old versions of a doc", True),
        ("the meal allowance per day", True),
        ("New York", False),  # a name narrows the earlier question
        ("what does it cost", False),
        ("if it breaks", False),
        ("versions", False),  # one word: the short-follow-up rules decide
    ],
)
def test_noun_phrase_en(text: str, expected: bool) -> None:
    assert noun_phrase_en(text) is expected


@pytest.mark.parametrize(
    ("earlier", "follow_up", "expected"),
    [
        ("How long does a trashed file stay around in the bin?", "and old drafts of a slide deck?",
         "How long for old drafts of a slide deck?"),
        ("When is the next planning meeting?", "and the budget review of the sales team?",
         "When for the budget review of the sales team?"),
        # no quantity or time asked: the noun phrase is asked on its own, as before
        ("What is the hotel limit in Paris?", "and the meal allowance per day?",
         "The meal allowance per day?"),
    ],
)
def test_a_noun_phrase_follow_up_keeps_the_asking_phrase(
    earlier: str, follow_up: str, expected: str
) -> None:
    assert rewrite_deterministic(follow_up, [Turn(role="user", text=earlier)]) == expected
