""""Can I…?" is decided by the rule on the asked thing that grants or refuses it: "premium
economy is allowed for longer flights" answers "Can I fly premium economy?" (a tester's
question was refused: only a refusing rule, "not allowed", decided it)."""

from __future__ import annotations

from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block

TRAVEL = make_block(
    1, "- **Flights:** economy class for flights shorter than 6 hours; premium economy is "
       "allowed for longer flights. Seat upgrades bought for comfort are not reimbursed.\n"
       "- **Trains:** second class; first class only when it costs no more than second class.",
    title="Expense and reimbursement policy", section="Travel")


async def test_a_rule_granting_the_asked_thing_answers_may_i() -> None:
    answer = await extractive_answer("Can I fly premium economy?", (TRAVEL,))
    assert "premium economy is allowed for longer flights" in answer


async def test_a_chinese_rule_refusing_the_asked_thing_answers_may_i() -> None:
    office = make_block(1, "工位上不得吃有气味的食物，请到茶水间用餐。", title="办公室守则",
                        section="规定", language="zh")
    answer = await extractive_answer("可以在工位上吃饭吗？", (office,))
    assert "不得吃有气味的食物" in answer
