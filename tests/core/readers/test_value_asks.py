""""What's the night shift allowance?" asks for an amount of money, "What is the overtime
rate?" for a number: the answer states one, not any sentence naming the noun (a tester got
the night shift's bus times, and "the daily meal allowance is paid for each travel day" for
the allowance in a city the policy does not list)."""

from __future__ import annotations

import pytest

from kbqa.core.readers.extractive.focus import ask_kind
from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("What's the night shift allowance in Suzhou?", "money"),
        ("whats the daily allowance / per diem when travelling abroad for work?", "money"),
        ("What is the tuition for the language course?", "money"),
        ("What is the overtime rate on public holidays at the Suzhou plant?", "quantity"),
        ("What's the policy on pets in the office?", "other"),
        ("What is the process for returning a laptop?", "other"),
    ],
)
def test_an_ask_for_what_a_value_is_asks_for_that_value(question: str, kind: str) -> None:
    assert ask_kind(question) == kind


# The blocks halvard's knowledge base gives "What's the night shift allowance in Suzhou?"
_SHIFTS = make_block(
    1, "早班：时间 7:00–15:00；说明 含 30 分钟用餐时间。\n\n中班：时间 15:00–23:00；"
       "说明 含 30 分钟用餐时间。\n\n夜班：时间 23:00–次日7:00；说明 另发夜班津贴。"
       "\n\n生产车间实行三班倒，每两周轮换一次班次。",
    title="苏州工厂员工手册（考勤、加班与休假）", section="一、班次", doc_id="handbook")
_BUS = make_block(
    2, "问：有没有上下班班车？\n\n答：有。公司提供 3 条班车线路（独墅湖线、园区东线、"
       "吴中线），早上 7:10 和晚上 17:20 从各站发车，夜班另有 22:30 的班车。班车免费，"
       "凭工牌乘车。", title="苏州工厂员工常见问题", section="班车", doc_id="faq")
_OVERTIME = make_block(
    3, "加班须事先由班长在系统中申请，经部门经理批准。加班费以本人小时工资为基数计算："
       "\n\n- 工作日延长工作时间，按小时工资的 150% 支付加班费。\n- 休息日加班且不能安排"
       "补休的，按小时工资的 200% 支付。\n- 法定节假日加班，按小时工资的 300% 支付。\n\n"
       "每月加班时间不得超过 36 小时。夜班津贴为每班 35 元，中班津贴为每班 15 元。",
    title="苏州工厂员工手册（考勤、加班与休假）", section="三、加班与加班费",
    doc_id="handbook")


async def test_the_night_shift_allowance_is_answered_with_its_amount() -> None:
    answer = await extractive_answer("What's the night shift allowance in Suzhou?",
                                     (_SHIFTS, _BUS, _OVERTIME))
    assert "35 元" in answer
    assert "22:30" not in answer


async def test_an_allowance_for_a_city_no_rule_names_is_not_answered_by_how_it_is_paid() -> None:
    # orchard's Europe policy lists London, Paris, Berlin and Munich; not Tokyo
    blocks = (
        make_block(1, "Hotel costs are reimbursed up to the city limits in the table below, per "
                      "night, including breakfast. The daily meal allowance is paid for each "
                      "travel day and covers lunch, dinner and snacks.\n\nLondon: Hotel per "
                      "night EUR 220; Meal allowance per day EUR 65.\n\nParis: Hotel per night "
                      "EUR 190; Meal allowance per day EUR 60.\n\nBerlin: Hotel per night EUR "
                      "150; Meal allowance per day EUR 50.\n\nMunich: Hotel per night EUR 170; "
                      "Meal allowance per day EUR 55.\n\nOther European cities: Hotel per night "
                      "EUR 130; Meal allowance per day EUR 45.\n\nIf a client or conference "
                      "provides a meal, the meal allowance for that day is reduced by 50%.",
                   title="Travel and Expense Policy (Europe)",
                   section="Hotels and daily allowance", doc_id="travel"),
        make_block(2, "Employees who work from home at least 2 days a week receive a home office "
                      "allowance of EUR 2.35 per home working day.\n\nA one-time home office "
                      "setup budget of EUR 400 is available for a desk or chair in the first 6 "
                      "months of employment.\n\nEach employee has a learning budget of EUR 1,200 "
                      "per calendar year for courses, books and conferences.",
                   title="Travel and Expense Policy (Europe)", section="Home office and learning",
                   doc_id="travel"),
    )
    answer = await extractive_answer("What's the daily meal allowance in Tokyo?", blocks)
    assert "paid for each travel day" not in answer
