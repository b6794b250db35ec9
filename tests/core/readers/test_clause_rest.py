"""A Chinese clause ending at a semicolon (a sentence end for the splitter) is quoted with
the rest of its sentence: half of it can say the opposite of the whole (a tester,
2026-12-06: "没休完的年假会作废吗？" got "超出部分自动作废" without its exception)."""

from __future__ import annotations

from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block

BLOCKS = (
    make_block(1, "每个季度可以申请一次外部培训补贴。补贴没有用完的部分不予保留；因项目原因未能参加"
               "培训的，经部门负责人同意可以顺延到下个季度。", title="培训制度", section="培训补贴",
               doc_id="training"),
)


async def test_a_chinese_clause_comes_with_its_exception() -> None:
    text = await extractive_answer("补贴没有用完的部分还能保留吗？", BLOCKS)
    assert "不予保留" in text and "顺延到下个季度" in text
