"""A rule for what is older or longer than a limit ("Claims older than 90 days are
rejected") is the rule for an asker past it ("a claim from 4 months ago"), as "above" and
"more than" are: corvane's "I forgot to submit a claim from 4 months ago, can I still claim
it?" was refused, then answered with the 30-day filing rule alone."""

from __future__ import annotations

from kbqa.core.readers.extractive.thresholds import asker_amounts, meets_threshold
from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block


def test_older_and_longer_than_are_lower_bounds() -> None:
    months = asker_amounts("a claim from 4 months ago")
    assert meets_threshold(months, "Claims older than 90 days are rejected.")
    assert not meets_threshold(asker_amounts("a claim from 2 months ago"),
                               "Claims older than 90 days are rejected.")
    assert meets_threshold(asker_amounts("a trip of 10 hours"),
                           "Flights longer than 8 hours may be booked in business class.")


async def test_the_rule_past_the_askers_age_answers() -> None:
    # the blocks corvane's knowledge base gives the question
    blocks = (
        make_block(1, "Submit expense claims in Concur within 30 days of the expense. Claims "
                      "older than 90 days are rejected. Receipts are required for every "
                      "expense over SGD 25.\n\nYour manager approves your claims. Claims over "
                      "SGD 2,000 also need the approval of your department head. Approved "
                      "claims are paid with the next payroll.",
                   title="Corvane Travel and Expense Policy", section="5. Claiming expenses",
                   doc_id="travel"),
        make_block(2, "Approved expense claims are reimbursed with the next payroll run.",
                   title="Finance FAQ for Employees", section="When are expense claims paid?",
                   doc_id="faq"),
        make_block(3, "Update your bank details in Workday. Changes made before the 10th of "
                      "the month take effect for that month's salary; later changes take "
                      "effect the following month.", title="Finance FAQ for Employees",
                   section="How do I change my bank account?", doc_id="faq"),
    )
    answer = await extractive_answer(
        "I forgot to submit a claim from 4 months ago, can I still claim it?", blocks)
    assert "Claims older than 90 days are rejected." in answer
