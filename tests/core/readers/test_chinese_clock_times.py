"""A time of day written with Chinese numerals (早上八点, 下午五点半) answers 几点 as 8:00 does
(a tester's uploaded canteen notice, 2026-12-06: "食堂几点开门？" was declined)."""

from __future__ import annotations

import pytest

from kbqa.core.readers.extractive.question import CLOCK_RE
from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block

BLOCKS = (
    make_block(1, "员工食堂位于二楼，工作日早上八点到下午五点开放，周末不开放。", title="行政服务",
               section="食堂", doc_id="canteen"),
    make_block(2, "访客请在前台登记，由接待人员陪同进入办公区。", title="行政服务", section="访客",
               doc_id="canteen", chunk_no=2),
)


async def test_a_time_in_chinese_numerals_answers_what_time() -> None:
    text = await extractive_answer("食堂几点开门？", BLOCKS)
    assert "早上八点到下午五点" in text


@pytest.mark.parametrize(("text", "clock"), [
    ("早上八点", True), ("下午五点半", True), ("十点", True), ("9:30", True),
    ("有一点贵", False),  # 一点 is "a bit"
])
def test_clock_times(text: str, clock: bool) -> None:
    assert bool(CLOCK_RE.search(text)) is clock
