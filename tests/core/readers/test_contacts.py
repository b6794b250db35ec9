"""Who to ask: a contact point answers "who do I ask…?" (a conversation tester's chain was
refused: "Who do I ask about laptops?" over "…: the IT helpdesk portal")."""

from __future__ import annotations

import pytest

from kbqa.core.readers.extractive.contacts import (
    asks_contact,
    reach_unstated,
    states_contact,
)
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


# A company's numbers are often extensions: the Halvard tester's "厂区紧急电话是多少" and
# "设备坏了打哪个电话" were refused over "厂区紧急电话：分机 8119（24 小时）。", whose four digits
# were read as no phone number.
@pytest.mark.parametrize(
    ("question", "text", "expected"),
    [("厂区紧急电话是多少", "厂区紧急电话：分机 8119（24 小时）。", "8119"),
     ("设备坏了打哪个电话",
      "设备故障请立即报告当班班长，并拨打设备部值班电话：分机 8399（24 小时）。", "8399"),
     # "call" is how the question asks for the number, not a word the answer must have
     ("What number do I call for the IT helpdesk?", "IT helpdesk: ext. 4410 (08:00 to 18:00).",
      "4410")],
)
async def test_an_extension_is_a_number_to_call(question: str, text: str,
                                                expected: str) -> None:
    blocks = (make_block(1, text, title="Contacts", section="Phone numbers"),
              make_block(2, "The canteen opens at 08:00.", title="Office", section="Canteen"))
    assert expected in await extractive_answer(question, blocks)


def test_numbers_to_call() -> None:
    ask = "What number do I call for the IT helpdesk?"
    assert not reach_unstated(ask, ["The IT helpdesk answers on ext. 4410 from 08:00."])
    assert not reach_unstated(ask, ["For a fire, dial 112."])
    assert reach_unstated(ask, ["The IT helpdesk answers from 08:00 to 18:00."])
    assert not states_contact("Each rack holds 4 x 250 ml bottles.")
