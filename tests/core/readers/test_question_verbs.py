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


@pytest.mark.parametrize(("question", "verbs"), [
    ("How many days a week are we required to be in the office?", {"requir"}),
    ("Am I allowed to bring my dog?", {"allow"}),
    ("Is the laptop required?", set()),  # no verb after it: "required" is what is asked
    ("I need to know the limit", set()),  # "need" is no participle
])
def test_a_participle_before_to_and_a_verb_is_catenative(question: str, verbs: set[str]) -> None:
    from kbqa.core.readers.extractive.question_verbs import catenative_verbs

    assert catenative_verbs(question) == verbs


async def test_a_sentence_sharing_only_a_catenative_verb_and_the_unit_does_not_answer() -> None:
    # "How many days a week are we required to be in the office?" was answered with the
    # doctor's-note rule, which shares "required" and "days" but says nothing of the office
    from tests.core.readers.reading import extractive_answer
    from tests.fakes import make_block

    blocks = (
        make_block(1, "Employees who work from home at least two days a week can borrow one "
                      "monitor, a keyboard and a mouse to take home. In addition, the company pays "
                      "a one-time home office allowance of EUR 300 for a desk chair or desk.",
                   title="Equipment policy", section="Working from home", doc_id="equipment"),
        make_block(2, "Welcome! This guide walks you through your first days and weeks, so you "
                      "know what to expect and what you need to do yourself.",
                   title="Onboarding guide", section="Onboarding guide", doc_id="onboarding"),
        make_block(3, "A free trial of the Business plan runs for 90 days and needs no credit "
                      "card.", title="Plans", section="Free trial", doc_id="plans"),
        make_block(4, "Most of us combine office days with working from home. Core hours are "
                      "10:00 to 16:00 local time.", title="About us", section="How we work",
                   doc_id="about"),
        make_block(5, "Employees receive 10 days of fully paid sick leave per calendar year.\n\n"
                      "When an illness lasts more than 3 consecutive days, a doctor's note is "
                      "required; upload it to the HR portal.", title="Leave policy",
                   section="Sick leave", doc_id="leave"),
    )
    answer = await extractive_answer(
        "How many days a week are we required to be in the office?", blocks)
    assert "doctor" not in answer
