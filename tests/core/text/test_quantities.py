from __future__ import annotations

import pytest

from kbqa.core.text.quantities import extract_quantities


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Company laptops are replaced every 4 years.", [(48.0, "month", "4 years")]),
        ("笔记本电脑每 4 年更换一次", [(48.0, "month", "4 年")]),
        ("试用期3个月", [(3.0, "month", "3个月")]),
        ("a 6-month notice", []),  # hyphenated adjective: no space-separated unit
        ("2025年3月15日发布", []),  # a date, not a duration
        ("3月份的报销", []),  # March, not three months
        ("0.2 GB", [(200.0, "MB", "0.2 GB")]),
    ],
)
def test_extract_quantities(text: str, expected: list[tuple[float, str, str]]) -> None:
    assert [(q.value, q.unit, q.text) for q in extract_quantities(text)] == expected
