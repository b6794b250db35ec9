"""Who to ask: a contact point answers "who do I ask…?" (a conversation tester's chain was
refused: "Who do I ask about laptops?" over "…: the IT helpdesk portal")."""

from __future__ import annotations

import pytest

from kbqa.core.readers.extractive.contacts import asks_contact, states_contact
from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block

BLOCKS = (
    make_block(1, "Questions about printers, monitors or docking stations: the facilities "
                  "service desk.", title="Onboarding guide", section="Who to ask"),
    make_block(2, "The canteen opens at 08:00.", title="Office", section="Canteen"),
)


async def test_a_desk_answers_who_to_ask() -> None:
    answer = await extractive_answer("Who do I ask about printers?", BLOCKS)
    assert "facilities service desk" in answer


async def test_a_desk_is_no_name_for_who_someone_is() -> None:
    answer = await extractive_answer("Who is the head of facilities?", BLOCKS)
    assert "service desk" not in answer


@pytest.mark.parametrize(
    ("question", "expected"),
    [("who do I contact about my payslip?", True), ("我的工资条有问题找谁？", True),
     ("Who is the CEO?", False), ("Who approves a trip to Brazil?", False)],
)
def test_asking_whom_to_turn_to(question: str, expected: bool) -> None:
    assert asks_contact(question) is expected


def test_contact_points() -> None:
    assert states_contact("Write to it-help@lumen.example or call +31 20 555 0142.")
    assert states_contact("请联系人力资源专员。")
    assert not states_contact("Laptops are replaced every 4 years.")


async def test_a_desk_for_another_matter_is_no_answer() -> None:
    # the contact is for what the question names after its asking words, not a verb of it
    blocks = (make_block(1, "If you think a badge was lost, report it to the facilities "
                            "service desk.", title="Security", section="Badges"),)
    answer = await extractive_answer(
        "Who do I talk to if I think there is a typo in my payslip?", blocks)
    assert "service desk" not in answer
