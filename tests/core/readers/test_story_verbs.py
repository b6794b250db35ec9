"""The asker's story told in irregular past verbs ("I drove my own car", "I forgot to
submit a claim") says what happened, not what is asked: such a verb no block has weighs as a
verb does, half a missing noun. tidelog's "I drove my own car 120 km to a client, how much
do I get back?" was refused over "Use of a private car is reimbursed at EUR 0.23 per
kilometre", "drove" weighing as a thing the blocks lack."""

from __future__ import annotations

from kbqa.core.readers.extractive.question_verbs import english_verbs
from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block

# the blocks tidelog's knowledge base gives the question
_TRAVEL = (
    make_block(1, "Taxis and ride-hailing (Uber, Didi) are reimbursed when public transport is "
                  "not available or when the trip starts before 07:00 or ends after 21:00. Use "
                  "of a private car is reimbursed at EUR 0.23 per kilometre.",
               title="Travel and Expense Policy", section="Taxis and private cars", doc_id="t"),
    make_block(2, "The daily meal allowance while travelling is EUR 45 per day. Alcohol is not "
                  "reimbursed, except at a client dinner approved by the Finance Director.",
               title="Travel and Expense Policy", section="Meals", doc_id="t"),
    make_block(3, "Q: Where do I submit my expenses?\nA: Submit expenses in Expensify. Your "
                  "Team Lead approves them.\n\nQ: Can I claim my home internet?\nA: Yes. "
                  "Employees who work from home at least two days a week can claim up to EUR 30 "
                  "per month for home internet.", title="Expense FAQ (2023)", doc_id="faq"),
)


async def test_a_past_verb_of_the_story_is_no_missing_thing() -> None:
    answer = await extractive_answer(
        "I drove my own car 120 km to a client, how much do I get back?", _TRAVEL)
    assert "EUR 0.23 per kilometre" in answer


def test_irregular_past_forms_are_verbs_nouns_are_not() -> None:
    verbs = english_verbs("I drove there but forgot the receipt")
    assert {"drov", "forgot"} <= verbs
    assert "receipt" not in verbs
