from __future__ import annotations

import pytest

from kbqa.core.text.quantities import extract_quantities


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Company laptops are replaced every 4 years.", [(48.0, "month", "4 years")]),
        ("笔记本电脑每 4 年更换一次", [(48.0, "month", "4 年")]),
        ("试用期3个月", [(3.0, "month", "3个月")]),
        ("三个多月前的发票", [(3.0, "month", "三个多月")]),  # more than three months
        ("a 6-month notice", []),  # hyphenated adjective: no space-separated unit
        ("2025年3月15日发布", []),  # a date, not a duration
        ("3月份的报销", []),  # March, not three months
        ("0.2 GB", [(200.0, "MB", "0.2 GB")]),
        # megabytes written short in Chinese; a bare M in English is a scale, m metres
        ("录了一段 150M 的视频", [(150.0, "MB", "150M")]),
        ("150兆的视频，传个200M文件", [(150.0, "MB", "150兆"), (200.0, "MB", "200M")]),
        ("150M users, a 150M file", []),
        ("跑了100m", []),
        # prices in five currencies, with what they are per
        ("park for EUR 40 per month", [(40.0, "EUR/month", "EUR 40 per month")]),
        ("€40/month or € 480 a year", [(40.0, "EUR/month", "€40/month"),
                                       (40.0, "EUR/month", "€ 480 a year")]),
        ("55 euros, US$ 12, 30 dollars", [(55.0, "EUR", "55 euros"), (12.0, "USD", "US$ 12"),
                                          (30.0, "USD", "30 dollars")]),
        ("£20 a week, 5,000 日元", [(20.0, "GBP/week", "£20 a week"),
                                  (5000.0, "JPY", "5,000 日元")]),
        ("停车每月 300 元，或 ¥40/天", [(300.0, "CNY/month", "每月 300 元"),
                                   (40.0, "CNY/day", "¥40/天")]),
        ("每位用户每月 6 欧元", [(6.0, "EUR/person/month", "每位用户每月 6 欧元")]),
        # a bound's words between 每晚 and the price: still per night, the bound left outside
        ("住宿：每晚不超过 150 欧元", [(150.0, "EUR/night", "150 欧元")]),
        ("餐费每天最多报销 150 元", [(150.0, "CNY/day", "150 元")]),
        ("EUR 6 per user per month", [(6.0, "EUR/person/month", "EUR 6 per user per month")]),
        ("12 美元每月", [(12.0, "USD/month", "12 美元每月")]),
        ("$10 per minute", [(10.0, "USD", "$10")]),  # a price, not a request rate
        # any ISO 4217 code in capitals, and other countries' dollar signs (a tester's
        # Singapore policy and FAQ gave SGD 60 and SGD 50 a day: no amounts, no conflict)
        ("The meal allowance is SGD 60 per day.", [(60.0, "SGD/day", "SGD 60 per day")]),
        ("1,200 CHF per month, HK$ 300", [(1200.0, "CHF/month", "1,200 CHF per month"),
                                         (300.0, "HKD", "HK$ 300")]),
        ("S$50 a night, US$30, $40", [(50.0, "SGD/night", "S$50 a night"),
                                      (30.0, "USD", "US$30"), (40.0, "USD", "$40")]),
        # a working day's rate is a rate per day
        ("餐补为每个工作日 30 元", [(30.0, "CNY/day", "每个工作日 30 元")]),
        ("EUR 30 per working day", [(30.0, "EUR/day", "EUR 30 per working day")]),
        ("INR 500 and CAD 20", [(500.0, "INR", "INR 500"), (20.0, "CAD", "CAD 20")]),
        ("TOP 10 tips, ALL 3 rooms, sgd 5", []),  # codes that are words; codes in capitals
        # scale words
        ("$10.4 billion", [(10.4e9, "USD", "$10.4 billion")]),
        ("1.2亿美元，3万元", [(1.2e8, "USD", "1.2亿美元"), (3e4, "CNY", "3万元")]),
        ("1361万人", []),  # people are no unit
        # the spoken 块 is 元 (a tester's 超过五千块要谁批 was no amount), not the measure word
        # of a thing after it
        ("超过五千块要谁批？", [(5000.0, "CNY", "五千块")]),
        ("6000 块的报销单", [(6000.0, "CNY", "6000 块")]),
        ("每个工位两块显示器", []),
        # hours written short against the number, as people type a flight's length
        ("a 13h flight, open 24h", [(13 / 24, "day", "13h"), (1.0, "day", "24h")]),
        ("press the h key", []),
    ],
)
def test_extract_quantities(text: str, expected: list[tuple[float, str, str]]) -> None:
    got = [(round(q.value, 6), q.unit, q.text) for q in extract_quantities(text)]
    assert got == [(round(v, 6), u, t) for v, u, t in expected]


def test_an_anniversary_is_no_number_of_weeks() -> None:
    # 77周年 is the 77th anniversary; 两周年假 is two weeks of annual leave
    assert extract_quantities("纪念七七事变 77 周年") == []
    assert [(q.value, q.unit) for q in extract_quantities("连休 2 周年假")] == [(14.0, "day")]


def test_a_year_like_number_with_a_currency_is_money() -> None:
    from kbqa.core.text.quantities import money_at

    assert money_at("a claim over 2000 euros", 13)
    assert money_at("花了 2000 元", 3)
    assert not money_at("in 2021 the policy changed", 3)
    assert not money_at("2024 年", 0)
