"""A message asking two things gets both answers, or a line saying which ask the sources do
not answer (issue 12: "two asks in one message answered in half with no line saying so");
and a thing whose existence is asked is not answered by a sentence that never names it."""

from __future__ import annotations

import pytest

from kbqa.core.readers.extractive.several_asks import asks_of
from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block


@pytest.mark.parametrize(
    ("message", "asks"),
    [
        ("书桌能报销多少？椅子呢要不要发票？", ("书桌能报销多少？", "椅子呢要不要发票？")),
        # context before the asks goes with each of them; an ask without its mark is one
        ("下个月入职，门禁卡去哪领？丢了怎么补办",
         ("下个月入职，门禁卡去哪领？", "下个月入职，丢了怎么补办？")),
        ("When does the canteen open, and who runs it?",
         ("When does the canteen open?", "who runs it?")),
        ("What is the bike allowance and how do I claim it?",
         ("What is the bike allowance?", "how do I claim it?")),
        ("How do I order a badge? and can I get two?",
         ("How do I order a badge?", "can I get two?")),
        # one ask, however many marks or clauses
        ("How do I order a badge??", ("How do I order a badge??",)),
        ("I lost my badge on the train and it's not in the office?? what now",
         ("I lost my badge on the train and it's not in the office?? what now",)),
        ("If I start on Monday, where do I pick up my badge?",
         ("If I start on Monday, where do I pick up my badge?",)),
    ],
)
def test_a_message_is_cut_into_its_asks(message: str, asks: tuple[str, ...]) -> None:
    assert asks_of(message) == asks


BIKE = (
    make_block(1, "Employees who cycle to work receive a bike allowance of EUR 20 per month. "
                  "The allowance is paid with the salary.",
               title="Commuting policy", section="Cycling"),
    make_block(2, "Bike repairs up to EUR 150 per year are reimbursed with a receipt. "
                  "Submit the receipt in the expense tool within 30 days.",
               title="Commuting policy", section="Repairs"),
)


async def test_each_ask_of_a_message_is_answered() -> None:
    answer = await extractive_answer(
        "How much is the bike allowance, and are repairs reimbursed?", BIKE)
    assert "EUR 20 per month" in answer
    assert "Bike repairs up to EUR 150 per year are reimbursed" in answer


async def test_an_ask_the_sources_do_not_answer_is_named() -> None:
    # (a message whose last ask names what no block has is declined as a whole: a later
    # ask often leans on an earlier one)
    answer = await extractive_answer(
        "Who pays for a scooter helmet? And how much is the bike allowance?", BIKE)
    assert "EUR 20 per month" in answer
    assert "Not covered: the sources found do not answer “Who pays for a scooter helmet”." \
        in answer


async def test_an_ask_the_sources_do_not_answer_is_named_in_chinese() -> None:
    blocks = (
        make_block(1, "员工每月可以领取 200 元交通补贴，随工资发放。", title="交通补贴",
                   section="金额", language="zh"),
    )
    answer = await extractive_answer("滑板车头盔谁来买？交通补贴每月多少？", blocks)
    assert "200 元交通补贴" in answer
    assert "资料未涵盖：找到的资料无法回答“滑板车头盔谁来买”。" in answer


async def test_a_thing_whose_existence_is_asked_must_be_named() -> None:
    blocks = (
        make_block(1, "The company was founded in 2012 in Lisbon, where the head office still "
                      "is.", title="About us", section="History"),
        make_block(2, "Gym memberships are reimbursed up to EUR 30 per month.",
                   title="Benefits", section="Sport"),
    )
    assert "founded in 2012" not in await extractive_answer(
        "Is there parking at the Lisbon office?", blocks)
    assert "founded in 2012" in await extractive_answer(
        "Is there a head office in Lisbon?", blocks)
