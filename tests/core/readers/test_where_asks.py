""""Where is X?" is answered by a sentence that says where something is, not by any
sentence sharing a word (a new user's "Where is visitor parking?" got "Traffic and parking
fines … are not reimbursed", "Where is the nearest train station?" the train class)."""

from __future__ import annotations

from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block

_EXPENSES = make_block(
    1, "Traffic and parking fines, personal entertainment, gifts to colleagues, and costs for "
       "people travelling with you who are not employees are not reimbursed.",
    title="Expense and reimbursement policy", section="What is not reimbursed", doc_id="exp")
_TRAVEL = make_block(
    2, "Trains: second class; first class only when it costs no more than second class. "
       "Flights: economy class for flights under 6 hours.",
    title="Expense and reimbursement policy", section="Travel", doc_id="exp")
_OFFICE = make_block(
    3, "The company was founded in 2016 in Rotterdam, where the head office still is. The AED "
       "hangs next to reception on the ground floor.", title="About Nimbus Works",
    section="Offices", doc_id="about")


async def test_where_a_thing_is_is_not_answered_by_a_sentence_saying_no_place() -> None:
    assert "fines" not in await extractive_answer("Where is visitor parking?",
                                                  (_EXPENSES, _TRAVEL))
    assert "second class" not in await extractive_answer(
        "Where is the nearest train station?", (_TRAVEL, _EXPENSES))


async def test_where_a_thing_is_is_answered_by_a_sentence_saying_where() -> None:
    assert "next to reception" in await extractive_answer("where's the AED", (_OFFICE, _TRAVEL))
