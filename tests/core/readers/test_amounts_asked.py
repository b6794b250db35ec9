"""Amounts asked and stated: a decimal in any currency is an amount, and 怎么算 asks for a
rate or an amount, not for steps (two code-blind testers, 2026-12-06 and 2026-12-07)."""

from __future__ import annotations

from kbqa.core.readers.extractive.question import answer_kind
from kbqa.core.readers.extractive.selection import select
from kbqa.core.text.procedures import asks_procedure
from tests.core.readers.reading import extractive_answer as _answer
from tests.fakes import make_block


def test_an_amount_in_any_currency_with_decimals_answers_how_much() -> None:
    # "SGD 0.60" was read as a dotted version ("TLS 1.2"): no amount, so declined
    policy = "Travel and Expense Policy"
    blocks = [
        make_block(1, "Taxis and ride-hailing are reimbursed for trips to and from the airport. "
                      "Travel between home and your usual office is not reimbursed.\n\n"
                      "Business use of a personal car is reimbursed at SGD 0.60 per km.",
                   title=policy, section="Local transport", chunk_no=5),
        make_block(2, "Hotels are reimbursed up to SGD 250 per night in Asia.", title=policy,
                   section="Hotels", chunk_no=3),
        make_block(3, "The office is open from 8:00 to 19:00 on working days.",
                   title="Office Guide", section="Opening hours", doc_id="office"),
    ]
    selection = select("how much per km if i drive my own car for work", blocks)
    assert [c.text for c in selection.chosen] == [
        "Business use of a personal car is reimbursed at SGD 0.60 per km."]


async def test_how_a_pay_is_computed_is_answered_by_its_rates_not_by_who_approves() -> None:
    # "怎么算" was a how-to ask, so only an action answered it: the approval step
    rules = make_block(1, "加班须事先由班长在系统中申请，经部门经理批准。"
                          "加班费以本人小时工资为基数计算：\n\n"
                          "- 工作日延长工作时间，按小时工资的 150% 支付加班费。\n"
                          "- 休息日加班且不能安排补休的，按小时工资的 200% 支付。",
                       title="苏州工厂员工手册", section="三、加班与加班费", language="zh")
    answer = await _answer("工作日加班费怎么算", (rules,))
    assert answer.startswith("工作日延长工作时间，按小时工资的 150% 支付加班费")
    assert answer_kind("加班费怎么算") == "quantity"


async def test_how_pay_is_paid_out_is_answered_by_its_rates() -> None:
    # 病假工资怎么发 (a code-blind tester) was a how-to ask: no action in the leave rules
    leave = make_block(1, "病假：凭二级以上医院的病假证明请假。每年前 5 天病假工资按 100% 发放，"
                          "之后按当地最低工资的 80% 发放。\n\n婚假 3 天；丧假 3 天。",
                       title="苏州工厂员工手册", section="四、休假", language="zh")
    assert "100%" in await _answer("病假工资怎么发", (leave,))
    assert asks_procedure("邮件怎么发") and not asks_procedure("病假工资怎么发")


async def test_whether_something_costs_money_is_answered_by_free() -> None:
    # 班车要钱吗 (a code-blind tester) was refused beside "班车免费，凭工牌乘车。"
    faq = make_block(1, "问：有没有上下班班车？\n\n答：有。公司提供 3 条班车线路，早上 7:10 "
                        "从各站发车。班车免费，凭工牌乘车。", title="员工常见问题",
                     section="班车", language="zh")
    assert answer_kind("班车要钱吗") == "money"
    assert "班车免费" in await _answer("班车要钱吗", (faq,))


async def test_what_time_is_answered_by_a_time_not_by_an_faq_asking_what_time() -> None:
    # 班车几点发车？ (a code-blind tester) got nothing: 几点 matched the FAQ line
    # "入职第一天几点报到？", whose answer outranked the shuttle's times and was no answer
    faq = make_block(1, "入职第一天上午 9:30 到 21 层前台报到。", title="新员工入职常见问题",
                     section="入职第一天几点报到？需要带什么材料？", language="zh")
    guide = make_block(2, "公司班车每个工作日 7:50 从地铁深圳湾公园站 B 出口出发，18:15 从公司楼下"
                          "返程，员工免费乘坐。", title="深圳办公室指南", section="班车",
                       language="zh", doc_id="guide")
    assert "7:50" in await _answer("班车几点发车？", (faq, guide))


async def test_an_asking_compound_is_no_word_the_blocks_lack() -> None:
    # 试用期工资打几折 (a code-blind tester): 打几折 ("what percentage") is how it asks
    faq = make_block(1, "劳动合同期限一般为 3 年，试用期为 3 个月。试用期工资为转正后工资的 90%。",
                     title="新员工入职常见问题", section="试用期多长？试用期工资怎么算？",
                     language="zh")
    other = make_block(2, "餐补为每个工作日 30 元，交通补贴为每月 400 元，均随工资发放。",
                       title="深圳员工福利说明", section="餐补和交通补贴", language="zh",
                       doc_id="benefits")
    assert "90%" in await _answer("试用期工资打几折", (faq, other))
