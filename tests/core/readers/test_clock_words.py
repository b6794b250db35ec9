""""At midnight" is a time of day: the source's hours decide ("Can I get a taxi at
midnight?" was refused for a word no source uses, over "journeys between 22:00 and 06:00")."""

from __future__ import annotations

import pytest

from kbqa.core.types import Block
from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block

_TAXIS = make_block(
    1, "Taxis and ride-hailing services are reimbursed when no reasonable public transport "
       "exists, when you carry heavy equipment, or for journeys between 22:00 and 06:00.",
    title="Expense and reimbursement policy", section="Taxis and local transport", doc_id="e")
_TAXIS_ZH = make_block(
    2, "以下情况可以报销出租车或网约车费用：没有合适的公共交通、需要携带较重的设备，或者在 22:00 至"
       "次日 6:00 之间出行。", title="报销制度", section="出租车和市内交通", doc_id="z")


@pytest.mark.parametrize(("question", "block", "hours"), [
    ("Can I get a taxi at midnight?", _TAXIS, "between 22:00 and 06:00"),
    ("午夜打车能报销吗？", _TAXIS_ZH, "22:00 至次日 6:00"),
])
async def test_midnight_is_checked_against_the_sources_hours(question: str, block: Block,
                                                             hours: str) -> None:
    assert hours in await extractive_answer(question, (block,))
