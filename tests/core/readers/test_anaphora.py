"""A clause after a semicolon leans on the clause before it (``anaphora.clause_before``)."""

from __future__ import annotations

import pytest

from kbqa.core.readers.extractive.anaphora import clause_before
from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block

_FAQ = ("问：发票丢了怎么办？\n"
        "答：发票遗失的，须填写《发票遗失说明》，由直属经理签字确认；每人每年最多可以使用 2 次。")


@pytest.mark.parametrize(("text", "passage", "before"), [
    ("每人每年最多可以使用 2 次。", _FAQ,
     "答:发票遗失的,须填写《发票遗失说明》,由直属经理签字确认;"),
    ("Claims are paid monthly.", "Submit claims in Concur; Claims are paid monthly.",
     "Submit claims in Concur;"),
    ("Claims are paid monthly.", "Submit claims in Concur. Claims are paid monthly.", ""),
    ("答：发票遗失的，须填写《发票遗失说明》", _FAQ, ""),  # it starts its sentence
])
def test_the_clause_before_a_semicolon(text: str, passage: str, before: str) -> None:
    assert clause_before(text, passage) == before


async def test_a_clause_naming_nothing_is_bound_by_the_clause_before_it() -> None:
    # "发票遗失说明一年能用几次？" was declined: "每人每年最多可以使用 2 次。" answers it, but names
    # the 《发票遗失说明》 only in the clause before its semicolon
    blocks = (
        make_block(1, _FAQ.split("\n")[1], title="报销常见问题", section="问：发票丢了怎么办？",
                   doc_id="faq"),
        make_block(2, "正式员工入职满一年后，每年享有 15 个工作日的带薪年假；"
                      "入职不满一年的员工按在职月份折算，每满一个月享有 1.25 天。"
                      "工作满 5 年的员工，每年年假增加至 20 个工作日。",
                   title="福利与休假制度", section="年假", doc_id="leave"),
    )
    answer = await extractive_answer("发票遗失说明一年能用几次？", blocks)
    assert "2 次" in answer


@pytest.mark.parametrize(("clause", "own"), [
    ("每人每年最多可以使用 2 次。", False),
    ("帕默斯顿于1865年去世", True),  # a person and a year: the clause's own subject
    ("Claims are paid monthly.", True),  # a capitalised word
    ("最多可以报销 3 次", False),
])
def test_a_clause_names_a_subject_of_its_own(clause: str, own: bool) -> None:
    from kbqa.core.readers.extractive.anaphora import names_own

    assert names_own(clause) is own
