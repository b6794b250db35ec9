"""A rule stated case by case in one sentence is quoted whole when the question names no
case (``readers.extractive.parallel``; a tester's 住宿标准是多少？ got one city's limit)."""

from __future__ import annotations

import pytest

from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block

PARKING = make_block(
    1, "停车费报销标准：北京、上海每天不超过人民币 60 元；其他国内城市每天不超过人民币 30 元；"
       "海外城市每天不超过 15 欧元。停车须保留收据。",
    title="停车费", section="标准", language="zh")
CASES = ("北京、上海每天不超过人民币 60 元", "其他国内城市每天不超过人民币 30 元",
         "海外城市每天不超过 15 欧元")


async def test_a_question_naming_no_case_gets_every_case_of_the_rule() -> None:
    answer = await extractive_answer("停车费报销标准是多少？", (PARKING,))
    assert all(case in answer for case in CASES)
    assert "收据" not in answer  # the next sentence is no case of the rule


@pytest.mark.parametrize("question", [
    "在北京停车每天能报多少？",  # a case named: its clause answers
    "停了 3 天，花了 200 元，能报多少？",  # the asker's own amount picks the case
])
async def test_a_question_naming_its_case_gets_that_case(question: str) -> None:
    answer = await extractive_answer(question, (PARKING,))
    assert "海外城市每天不超过 15 欧元" not in answer


PRICES = make_block(
    1, "What is Driftwood?\n\nDriftwood is a note-taking service for small teams.\n\n"
       "How much does Driftwood cost?\n\nThe Basic plan costs EUR 8 per seat per month. The "
       "Pro plan costs EUR 19 per seat per month. Yearly\nbilling saves 15%.\n\n"
       "Is there a free trial?\n\nYes. Every new team gets a free trial of 30 days.",
    title="Driftwood FAQ", section="Driftwood FAQ", doc_id="pricing")


async def test_a_price_asked_of_no_plan_gets_each_plans_sentence() -> None:
    # the plans' prices stand in sentences of their own, one per plan: "how much does it
    # cost?" got the first plan's price alone
    answer = await extractive_answer("how much does driftwood cost?", (PRICES,))
    assert "EUR 8 per seat" in answer and "EUR 19 per seat" in answer
    assert "15%" not in answer  # another thing than a plan's price


async def test_a_price_asked_of_one_plan_gets_that_plan() -> None:
    answer = await extractive_answer("how much does the Pro plan cost?", (PRICES,))
    assert "EUR 19 per seat" in answer and "EUR 8 per seat" not in answer
