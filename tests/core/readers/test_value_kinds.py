"""A value asked of one kind is not another kind's value: "What is the parking allowance per
day?" was answered with "a one-time home office allowance of EUR 300" (a new user's trial
on the demo knowledge base). The blocks know parking ("Traffic and parking fines…"), so an
allowance sentence that never says parking, and names another allowance, speaks of a
sibling (``kinds.unnamed_kinds``)."""

from __future__ import annotations

from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block

# the blocks the demo knowledge base gives the question
_BLOCKS = (
    make_block(1, "Employees who work from home at least two days a week can borrow one "
                  "monitor, a keyboard and a mouse to take home. In addition, the company pays "
                  "a one-time home office allowance of EUR 300 for a desk chair or desk, "
                  "claimed through the normal expense process with a receipt.",
               title="Equipment policy", section="Working from home", doc_id="doc-070"),
    make_block(2, "Traffic and parking fines, personal entertainment, gifts to colleagues, and "
                  "costs for people travelling with you who are not employees are not "
                  "reimbursed.", title="Expense and reimbursement policy",
               section="What is not reimbursed", doc_id="doc-060"),
    make_block(3, "While travelling for work you may claim your own meals up to EUR 55 per day. "
                  "Meals with customers or partners are reimbursed up to EUR 80 per person; "
                  "the expense claim must list the names of all attendees and the business "
                  "purpose.", title="Expense and reimbursement policy", section="Meals",
               doc_id="doc-060"),
)


async def test_another_kinds_allowance_does_not_answer() -> None:
    answer = await extractive_answer("What is the parking allowance per day?", _BLOCKS)
    assert "EUR 300" not in answer


async def test_the_asked_kinds_value_still_answers() -> None:
    answer = await extractive_answer("What is the home office allowance?", _BLOCKS)
    assert "EUR 300" in answer
