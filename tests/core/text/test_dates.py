from __future__ import annotations

import pytest

from kbqa.core.text.dates import extract_dates


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("released on September 7, 2018", [("date", "September 7, 2018")]),
        ("Sep. 7th, 2018 or 7 September 2018", [("date", "Sep. 7th, 2018"),
                                                ("date", "7 September 2018")]),
        ("飞船于2016年10月17日发射，2016年11月返回", [("date", "2016年10月17日"),
                                             ("year-month", "2016年11月")]),
        ("OpenAI released GPT-3 in June 2020.", [("year-month", "June 2020")]),
        ("定档于11月9日，on November 9", [("month-day", "11月9日"),
                                        ("month-day", "November 9")]),
        ("in 2018, 2018年", []),  # a year alone is no date
        ("Feb 30, 2020", []),  # no such day
    ],
)
def test_extract_dates(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(q.unit, q.text) for q in extract_dates(text)] == expected


def test_one_day_written_two_ways_is_one_value() -> None:
    a, b = extract_dates("September 7, 2018"), extract_dates("2018年9月7日")
    assert a[0].same_value(b[0])
