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
