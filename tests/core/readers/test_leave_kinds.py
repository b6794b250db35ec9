"""Kinds of leave in Chinese: an answer about 婚假 or 陪产假 quotes that kind, not the other
kinds of its sentence, and another kind alone is no answer (a code-blind tester, 2026-12-07)."""

from __future__ import annotations

import pytest

from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block

LEAVE = make_block(4, "年假：累计工作满 1 年不满 10 年的，年假 5 天；满 10 年的，年假 10 天。\n\n"
                      "病假：凭医院的病假证明请假。\n\n"
                      "婚假 3 天；产假 158 天（含国家规定的 98 天）；陪产假 15 天；丧假 3 天。",
                   title="苏州工厂员工手册", section="四、休假", language="zh")


@pytest.mark.parametrize(
    ("question", "said", "unsaid"),
    [("陪产假能休几天？", "陪产假 15 天", "158"),  # 陪产假 (paternity) is not 产假 (maternity)
     ("婚假几天？", "婚假 3 天", "产假"),
     ("产假多少天", "产假 158 天", "陪产假")],
)
async def test_a_kind_of_leave_is_answered_by_that_kind_alone(question: str, said: str,
                                                              unsaid: str) -> None:
    # a tester's 婚假几天？ got every leave of the sentence; 陪产假 got the annual leave tiers
    answer = await extractive_answer(question, (LEAVE,))
    assert said in answer and unsaid not in answer


async def test_another_kind_of_leave_is_no_answer() -> None:
    # 年假有多少天？ was answered with "事假为无薪假，每年累计不超过 10 天…"
    other = make_block(5, "事假为无薪假，每年累计不超过 10 天，须至少提前 1 个工作日申请。",
                       title="考勤与加班制度", section="三、请假", language="zh")
    assert "事假" not in await extractive_answer("年假有多少天？", (other,))


@pytest.mark.parametrize(("sentence", "other"), [
    # "while" is a function word, whatever its folded form ("whil") looks like
    ("The daily meal allowance while travelling is EUR 45 per day.", False),
    ("Business travelling is reimbursed at cost.", True),
])
def test_a_function_word_before_the_head_names_no_other_kind(sentence: str,
                                                             other: bool) -> None:
    from kbqa.core.readers.extractive.kinds import names_another_kind

    assert names_another_kind([("wen", "travell")], sentence) is other


async def test_a_typo_before_a_verb_does_not_make_the_answer_another_kind() -> None:
    # "whats the daily meal allowance wen travelling" (spelling corrected daly, alowance;
    # "wen" is a word of its own) was declined: "wen travelling" against "while travelling"
    # read "while" (folded "whil") as another kind of travelling
    blocks = (
        make_block(1, "The daily meal allowance while travelling is EUR 45 per day. Alcohol is "
                      "not reimbursed, except at a client dinner approved by the Finance "
                      "Director.", title="Travel and Expense Policy", section="Meals",
                   doc_id="travel"),
        make_block(2, "Pinecrest Labs B.V. reimburses reasonable costs that employees incur "
                      "while travelling on company business.", title="Travel and Expense Policy",
                   section="Travel and Expense Policy", doc_id="travel"),
    )
    answer = await extractive_answer("whats the daily meal allowance wen travelling", blocks)
    assert "EUR 45" in answer


@pytest.mark.parametrize(("question", "pairs"), [
    # 到底 (an adverb) and 里 (a locative) qualify no kind; 存在 is a verb, no head
    ("客户问我们的文件到底存在哪些地方的机房里？", {("客户", "问")}),
    ("加班到晚上十点半打车回家能报销吗？", set()),  # 晚上 十点 半: times and numbers
    ("陪产假的天数怎么算？", set()),
])
def test_a_chinese_kind_is_a_noun_qualified_by_a_word_of_substance(
        question: str, pairs: set[tuple[str, str]]) -> None:
    from kbqa.core.readers.extractive.kinds import _heads_after

    assert set(_heads_after(question, None)) == pairs


async def test_a_time_before_the_asked_act_makes_no_other_kind() -> None:
    # "加班到晚上十点半打车回家能报销吗？" was declined: "半 打车" (half past, taxi) was read as a
    # kind of taxi ride the rule's "通勤的打车" is not
    blocks = (
        make_block(1, "国内出差优先乘坐高铁二等座。\n出差期间在目的地乘坐出租车或网约车可以报销，"
                      "需附行程单。\n上下班通勤的打车费用不予报销，晚上 22:00 以后因加班离开办公室"
                      "的除外。", title="中国区差旅与费用报销制度", section="交通",
                   doc_id="travel"),
        make_block(2, "访客需要提前 1 个工作日在飞书“访客登记”中登记，并由接待员工到前台迎接。",
                   title="苏州办公室指南", section="访客", doc_id="office"),
    )
    answer = await extractive_answer("加班到晚上十点半打车回家能报销吗？", blocks)
    assert "22:00" in answer
