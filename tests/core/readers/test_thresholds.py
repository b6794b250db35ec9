"""The asker's own amount against a sentence's threshold (``readers.extractive.thresholds``)."""

from __future__ import annotations

import pytest

from kbqa.core.readers.extractive.thresholds import asker_amounts, beyond_cap, meets_threshold
from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block

ABOVE_EUR = "Claims above EUR 1,000 also need approval from the head of your department."
ABOVE_CNY = "单笔金额超过 5000 元的，还需部门负责人审批。"


@pytest.mark.parametrize(("question", "amounts"), [
    ("My claim is €1,400. Is my manager's OK enough?", ((1400.0, "EUR"),)),
    ("这次出差报销一共6800块，还要谁批吗？", ((6800.0, "CNY"),)),  # 块: the spoken 元
    ("这次报销一共八千多，还要谁批吗？", ((8000.0, ""),)),
    ("报销了 1.2万，要谁批？", ((12000.0, ""),)),
    ("2025年的报销单要谁批？", ()),  # a year is no amount
    ("How many days do I get?", ()),
    # a rate says how often, not an amount a rule's bound is for
    ("I work 3 days a week, how much leave do I get", ()),
    ("我每周工作 3 天，年假有几天？", ()),
    ("I was sick for 3 days last week", ((3.0, "day"),)),
])
def test_the_askers_amounts_are_read_with_or_without_a_currency(
    question: str, amounts: tuple[tuple[float, str], ...]
) -> None:
    assert asker_amounts(question) == amounts


@pytest.mark.parametrize(("question", "sentence", "met"), [
    ("My claim is €1,400. Is that enough?", ABOVE_EUR, True),
    ("My claim is €800. Who approves it?", ABOVE_EUR, False),  # below the threshold
    ("My claim is $1,400. Who approves it?", ABOVE_EUR, False),  # another currency
    ("我有张 6000 块的报销单，经理批了就行吗？", ABOVE_CNY, True),  # 块: money, unit left out
    ("我有张 6000 块的报销单，经理批了就行吗？", "报销单由直属经理审批。", False),  # no threshold
    ("想连休三周年假，要提前多久申请？", "连续休假超过一周的，请至少提前两周提交申请。", True),
    ("Hotel is EUR 150 a night, ok?", "Hotels: up to EUR 170 per night.", False),  # a cap
    ("一晚 560，是不是超标了？", "其他城市每晚不超过 500 元。", False),  # 不超过: a cap too
    ("My claim is €1,400.", "Claims of not more than EUR 1,000 need one approval.", False),
    ("报销了 1.2万，要谁批？", "金额在 1 万元以上的，还需财务总监审批。", True),  # 以上 after it
    # the asker's own bound at the rule's threshold names the rule's case
    ("who approves expense claims over 1000 euros", ABOVE_EUR, True),
    ("超过 5000 元的报销单谁审批？", ABOVE_CNY, True),
    ("who approves expense claims of 1000 euros", ABOVE_EUR, False),  # at it, not above
])
def test_a_rule_above_a_threshold_is_met_only_by_a_larger_amount_in_its_unit(
    question: str, sentence: str, met: bool
) -> None:
    assert meets_threshold(asker_amounts(question), sentence) is met


@pytest.mark.parametrize(("question", "sentence", "over"), [
    ("it's been about 80 days since the trip", "Submit each claim within 60 days.", True),
    ("it's been about 40 days since the trip", "Submit each claim within 60 days.", False),
    ("一个人花了 350 元", "招待餐费每人不超过 300 元。", False),  # a bare amount: no unit to match
    ("吃饭每人 350 元", "招待餐费每人不超过 300 元。", True),  # per person both
    # a month is at least 28 days: three months are over 60 days, one month is not over 30
    ("三个月前的发票", "报销单须在 60 天内提交。", True),
    ("一个月前的发票", "报销单须在 30 天内提交。", False),
    ("两个多月前的发票", "报销单须在 30 天内提交。", True),
    ("about 3 months ago", "Flights of up to 6 hours are economy.", False),  # no time limit
])
def test_the_askers_amount_over_a_cap_in_its_unit(question: str, sentence: str,
                                                   over: bool) -> None:
    assert beyond_cap(asker_amounts(question), sentence) is over


@pytest.mark.parametrize(("rule", "question", "cap"), [
    ("Return a library book within 21 days of borrowing it. Books returned later are charged "
     "1 euro per day. The library opens at 9.",
     "I borrowed a library book about 30 days ago. Can I still return it?", "within 21 days"),
    # months past a limit in days (a month counts at least 28 days)
    ("Return a rented tool within 30 days of hiring it. Tools returned later are charged 2 "
     "euros per day. The shop opens at 8.",
     "I hired a drill about 2 months ago. Can I still return it?", "within 30 days"),
])
async def test_an_asker_over_a_cap_is_told_what_happens_beyond_it(rule: str, question: str,
                                                                  cap: str) -> None:
    answer = await extractive_answer(question, (make_block(1, rule, title="Rules"),))
    assert cap in answer
    assert "returned later are charged" in answer


async def test_an_extra_sharing_only_the_unit_of_the_askers_number_is_left_out() -> None:
    blocks = (
        make_block(1, "Kiosk accounts need a passcode of at least 12 characters. After 10 wrong "
                      "passcodes in a row, the kiosk locks for 15 minutes.", title="Kiosks",
                   section="Passcodes"),
        make_block(2, "A label may be up to 80 characters long. Labels cannot contain a slash.",
                   title="Labels", section="Label names"),
        make_block(3, "Two-step sign-in adds a second step after the passcode.", title="Kiosks",
                   section="Two-step sign-in"),
    )
    answer = await extractive_answer("My passcode is 10 characters, is that long enough?", blocks)
    assert "at least 12 characters" in answer
    assert "label" not in answer.lower()  # before: "A label may be up to 80 characters long."


async def test_a_sentence_sharing_only_the_unit_of_the_askers_number_does_not_lead() -> None:
    blocks = (
        make_block(1, "Complete the online safety course within 14 days of your start date; "
                      "lab access is switched on only after you pass it.", title="Onboarding",
                   section="First two weeks"),
        make_block(2, "Employees receive 10 days of paid sick leave per year. When an illness "
                      "lasts more than 3 consecutive days, a doctor's note is required.",
                   title="Leave policy", section="Sick leave"),
        make_block(3, "Report your absence to your manager before work starts.",
                   title="Leave policy", section="Reporting"),
    )
    answer = await extractive_answer("what if I'm sick for 5 days?", blocks)
    assert "safety course" not in answer  # before: its "14 days" led
    assert "doctor's note is required" in answer


async def test_the_askers_rate_is_not_held_against_a_rules_bound() -> None:
    # a tester's part-time question got the medical-certificate rule: "3 days a week" was
    # read as 3 days, above its "more than 1 day"
    blocks = (
        make_block(1, "Employees receive 14 days of paid sick leave per year. A medical "
                      "certificate (MC) is required for any absence of more than 1 day.",
                   title="Leave Policy", section="Sick leave", doc_id="leave", chunk_no=3),
        make_block(2, "Part-time employees receive annual leave pro-rated to their contracted "
                      "hours. For example, an employee contracted for 3 days a week receives "
                      "60% of 18 days, rounded up to 11 days.", title="Leave Policy",
                   section="Annual leave", doc_id="leave", chunk_no=2),
    )
    answer = await extractive_answer("I work 3 days a week, how much leave do I get", blocks)
    assert "medical certificate" not in answer
    assert "11 days" in answer
