"""The sentence after the answer that takes up its subject comes with it (a half answer
otherwise: the carry-over rule without the date the days expire), after the stronger
extras (issue 12, "half answers"; two testers' carry-over questions, 2026-12-06)."""

from __future__ import annotations

from kbqa.core.readers.extractive.selection import select
from tests.fakes import make_block

POLICY = "Leave Policy"
ANNUAL = make_block(
    1, "Full-time employees receive 18 working days of paid annual leave per calendar year. "
       "Interns receive 1 day of paid leave for each full month of their internship. "
       "Up to 5 unused days may be carried over into the next year. Carried-over days must be "
       "used by 31 March; any days not used by then are forfeited. Unused leave is not paid "
       "out in cash, except when an employee leaves the company.",
    title=POLICY, section="Annual leave", doc_id="leave", chunk_no=2)
WELLNESS = make_block(
    2, "Each employee receives a wellness allowance of SGD 600 per calendar year for gym "
       "memberships. Claim it in Concur by 15 December; unused amounts do not carry over.",
    title="Benefits Summary", section="Wellness allowance", doc_id="benefits", chunk_no=6)
SICK = make_block(
    3, "Employees receive 14 days of fully paid outpatient sick leave per year. A medical "
       "certificate is required for any absence of more than 1 day, and for any sick day "
       "taken next to a public holiday.", title=POLICY, section="Sick leave", doc_id="leave",
    chunk_no=3)


def test_the_rule_comes_with_the_next_sentence_that_takes_up_its_subject() -> None:
    selection = select("can i carry over unused leave days to next yr", [ANNUAL, WELLNESS, SICK])
    texts = [c.text for c in selection.chosen]
    assert texts[0] == "Up to 5 unused days may be carried over into the next year."
    assert "Carried-over days must be used by 31 March; any days not used by then are " \
           "forfeited." in texts

