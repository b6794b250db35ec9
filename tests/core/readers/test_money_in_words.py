"""An amount of money a source writes in words answers "how much" as digits do (a new
user's upload said "reimbursed at thirty yuan each"; "How much are overtime meals
reimbursed?" got EUR 80 for customer meals from another document)."""

from __future__ import annotations

import pytest

from kbqa.core.text.number_words import money_in_words
from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block

_MEALS = make_block(1, "The monthly meal allowance is five hundred yuan, paid with the salary. "
                       "Overtime meals are reimbursed at thirty yuan each.",
                    title="Meal allowance", doc_id="meal-en")
_CUSTOMERS = make_block(2, "Meals with customers or partners are reimbursed up to EUR 80 per "
                           "person, drinks included.", title="Expense and reimbursement policy",
                        section="Meals", doc_id="expenses")
_MEALS_ZH = make_block(3, "员工餐补每月五百元，随工资发放。", title="餐补", doc_id="meal-zh")


async def test_an_amount_in_english_words_answers_how_much() -> None:
    answer = await extractive_answer("How much are overtime meals reimbursed?",
                                     (_MEALS, _CUSTOMERS))
    assert "thirty yuan" in answer
    assert "EUR 80" not in answer


async def test_an_amount_in_chinese_numerals_answers_how_much_money() -> None:
    answer = await extractive_answer("员工餐补每月多少钱？", (_MEALS_ZH, _CUSTOMERS))
    assert "五百元" in answer


@pytest.mark.parametrize(("text", "money"), [
    ("Overtime meals are reimbursed at thirty yuan each.", True),
    ("A one-off allowance of five hundred euros.", True),
    ("员工餐补每月五百元。", True),
    ("Every member of a folder has one of four roles.", False),  # a count, not an amount
    ("连续休假超过一周的，请提前两周申请。", False),
    ("Meals are reimbursed up to EUR 80.", False),  # in digits: the digit patterns read it
])
def test_money_in_words_is_an_amount_with_a_currency_written_in_words(text: str,
                                                                      money: bool) -> None:
    assert money_in_words(text) is money
