""""How much for a new one?" asks a price: the answer states an amount of money, not the
first number near the asked thing (a tester's "lost my access card, how much for a new
one?" was answered with the 24 hours to report it)."""

from __future__ import annotations

import pytest

from kbqa.core.readers.extractive.question import answer_kind
from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("lost my access card, how much for a new one?", "money"),
        ("taking a client out to dinner, how much can i spend", "money"),
        ("I drove my own car 120 km to a client, how much do I get back?", "money"),
        ("how much leave do I get?", "quantity"),
        ("how much storage does the Business plan have?", "quantity"),
    ],
)
def test_a_price_or_an_amount_to_spend_is_asked_in_money(question: str, kind: str) -> None:
    assert answer_kind(question) == kind


async def test_how_much_for_a_new_card_is_answered_with_its_price() -> None:
    blocks = (
        make_block(1, "Reception issues your access card on your first day. Report a lost "
                      "access card to reception within 24 hours so that it can be deactivated. "
                      "A replacement card costs SGD 20.",
                   title="Singapore Office Guide", section="Access cards"),
        make_block(2, "Printers use follow-me printing: tap your access card on any printer to "
                      "release your job. Colour printing is limited to 200 pages per person per "
                      "month.", title="Corvane IT Guide for Employees", section="10. Printing"),
    )
    answer = await extractive_answer("lost my access card, how much for a new one?", blocks)
    assert "SGD 20" in answer
