"""A question in capitals, or naming the year it asks about, is answered as the same
question without them (a new user's report, 2026-12-07: both were refused on the demo
knowledge base, whose sick-leave policy was last updated on 2025-01-02)."""

from __future__ import annotations

from datetime import date

import pytest

from kbqa.core.readers.extractive.identifiers import current_years
from kbqa.core.text.shouting import unshouted
from kbqa.core.types import Refusal
from tests.acceptance.test_follow_ups import converse, shown


@pytest.mark.django_db
@pytest.mark.usefixtures("demo_kb")
@pytest.mark.parametrize(("question", "expected"), [
    ("HOW MANY DAYS OF SICK LEAVE DO EMPLOYEES GET?", "10 days"),
    ("How many days of sick leave do employees get in 2025?", "10 days"),
    ("2025年员工有多少天病假？", "10 天"),
])
def test_capitals_or_the_current_year_do_not_turn_an_answer_into_a_refusal(
    question: str, expected: str
) -> None:
    events = converse(f"form-{abs(hash(question)) % 10_000}", [question])
    assert expected in shown(events)
    assert not any(isinstance(ev, Refusal) for ev in events)


@pytest.mark.parametrize(("question", "read"), [
    ("HOW MANY DAYS OF SICK LEAVE DO EMPLOYEES GET?",
     "how many days of sick leave do employees get?"),
    ("Is the VPN down?", "Is the VPN down?"),  # an acronym in a sentence stays
    ("SSO 怎么开？", "SSO 怎么开？"),
])
def test_a_run_of_words_in_capitals_is_read_in_lower_case(question: str, read: str) -> None:
    assert unshouted(question) == read


def test_a_document_is_the_rule_from_its_update_to_this_year() -> None:
    assert current_years("2025-01-02", today=date(2026, 12, 7)) == {"2025", "2026"}
    assert current_years("", today=date(2026, 12, 7)) == frozenset()
