"""A sentence naming the asked thing through a synonym the blocks use leads over one sharing
only the asker's other words (issue 12: answers that answer)."""

from __future__ import annotations

import pytest

from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block


@pytest.mark.asyncio
async def test_the_asked_action_met_by_the_policy_s_word_leads() -> None:
    blocks = (
        make_block(1, "差旅补贴：出差期间每天的伙食补贴最多报销 120 元。", title="差旅制度"),
        make_block(2, "市内交通以地铁和公交为主。遇到暴雨或深夜时，可以报销出租车费用。",
                   title="差旅制度"),
    )
    answer = await extractive_answer("出差打车能报销吗？", blocks)
    assert "出租车" in answer
    assert "伙食补贴" not in answer


async def test_a_count_word_glued_to_the_asked_noun_is_read_apart() -> None:
    # jieba cuts 多少天年假 as 多少/天年/假: the asker's 年假 was read as 天年 and 假, and
    # 一年 met the carry-over rule's 下一年
    blocks = (
        make_block(1, "未休完的年假最多可以结转 3 天到下一年。", title="休假制度"),
        make_block(2, "正式员工每个自然年享有 15 天带薪年假。", title="休假制度"),
    )
    answer = await extractive_answer("我们一年有多少天年假？", blocks)
    assert "15 天" in answer
    assert "结转" not in answer
