"""A yes/no question is answered by a sentence stating its predicate, not by a quantity
about its subject (issue 12 item 3; a code-blind tester's kind 3, 2026-12-01)."""

from __future__ import annotations

import pytest

from kbqa.core.readers.extractive.predicate import predicate_terms, states_predicate
from kbqa.core.readers.extractive.selection import select
from tests.fakes import make_block

POLICY = "Annual leave and sick leave policy"
LEAVE = [
    make_block(1, "Full-time employees receive 20 days of paid annual leave per calendar year. "
               "Request annual leave in the HR portal.", title=POLICY, section="Annual leave",
               doc_id="leave", chunk_no=2),
    make_block(2, "Up to 5 unused days can be carried over into the next year, and they must "
               "be taken before 31 March.", title=POLICY, section="Carrying over unused leave",
               doc_id="leave", chunk_no=3),
]
ZH_POLICY = "年假与病假制度"
ZH_LEAVE = [
    make_block(1, "全职员工每个自然年享有 20 天带薪年假。年假需要在人事系统中申请。",
               title=ZH_POLICY, section="年假", doc_id="leave", language="zh", chunk_no=2),
    make_block(2, "当年未休完的年假，最多可以结转 5 天到下一年，"
               "并且必须在次年 3 月 31 日之前休完。", title=ZH_POLICY, section="年假结转",
               doc_id="leave", language="zh", chunk_no=3),
    make_block(3, "员工每个自然年享有 10 天全薪病假。", title=ZH_POLICY, section="病假",
               doc_id="leave", language="zh", chunk_no=4),
]


def test_the_sentence_stating_the_predicate_answers_not_the_subjects_quantity() -> None:
    selection = select("Can unused annual leave be carried over?", LEAVE)
    assert [c.text for c in selection.chosen] == [
        "Up to 5 unused days can be carried over into the next year, and they must be taken "
        "before 31 March."]


def test_a_yes_no_question_no_sentence_decides_is_declined() -> None:
    assert select("Can unused annual leave be carried over?", LEAVE[:1]).declined
    assert select("Can unused annual leave be carried over, and how many days?",
                  LEAVE[:1]).declined
    # 病假 has no carry-over rule: "10 天全薪病假" is about the subject, not the question
    assert select("病假可以结转吗？", ZH_LEAVE).declined


def test_the_chinese_carry_over_rule_answers_and_quantity_asks_are_untouched() -> None:
    selection = select("年假可以结转到明年吗？", ZH_LEAVE)
    assert [c.n for c in selection.chosen] == [2]
    assert [c.n for c in select("全职员工每年有多少天年假？", ZH_LEAVE).chosen] == [1]
    assert [c.n for c in select("How many days of annual leave do full-time employees get?",
                                LEAVE).chosen] == [1]


@pytest.mark.parametrize(
    ("question", "predicate"),
    [
        ("Can unused annual leave be carried over?", {"carried"}),
        ("Can I get a taxi reimbursed?", {"reimbursed"}),
        ("Will NimbusDrive keep trying to deliver?", {"deliver"}),
        ("发票丢了还能报销吗？", {"报销"}),
        ("打车的发票丢了还能报吗？", set()),  # 打车 qualifies the receipt
        # 申请 governs the asked change: "还可以申请耳机" decides nothing about 调高
        ("企业版客户可以申请调高吗？", {"调高"}),
        # a yes/no ask with an added one still asks about its own verb
        ("Can we lift the export quota for their account, and to what?", {"lift"}),
        ("Could the trial be extended, and by how many days?", {"extended"}),
        ("可以申请报销吗？", {"报销"}),
        # no predicate: an existential, a grammar verb, a question that is not yes/no, and
        # the asker's own amount (the source's amount decides by comparison)
        ("Is there any budget for a chair for my home setup?", set()),
        ("Can I take a screen home from the office?", set()),
        ("How long are deleted files kept?", set()),
        ("去绵阳出差，住的酒店一晚 560，是不是超标了？", set()),
    ],
)
def test_the_predicate_of_a_yes_no_question(question: str, predicate: set[str]) -> None:
    assert predicate_terms(question) == predicate


@pytest.mark.parametrize(
    ("sentence", "states"),
    [
        ("Taxis are reimbursed when no public transport exists.", True),
        ("Personal subscriptions are never reimbursed.", True),  # a denial decides too
        ("File a reimbursement claim in the finance portal.", True),  # WordNet relative
        ("Public transport is the default.", False),
    ],
)
def test_a_sentence_states_the_predicate_in_any_form(sentence: str, states: bool) -> None:
    assert states_predicate("Can I get a taxi reimbursed?", sentence) is states


@pytest.mark.parametrize(
    ("question", "sentence", "states"),
    [
        # a question asking leave is decided by a sentence granting or refusing it
        ("Is it ok to stream music on my work phone?",
         "Music apps and private games are not allowed on company phones.", True),
        ("Am I allowed to fly business class?", "Business class is permitted for flights "
         "over 8 hours.", True),
        ("上班时间允许点外卖吗？", "办公区内禁止吃带汤的外卖。", True),
        # ...not a sentence merely about the same things
        ("Is it ok to stream music on my work phone?", "Company phones are replaced every "
         "2 years.", False),
        # a question not asking leave still needs its own verb
        ("Can I get a taxi reimbursed?", "Taxis are allowed at night.", False),
    ],
)
def test_a_question_asking_leave_is_decided_by_a_grant_or_a_refusal(
    question: str, sentence: str, states: bool
) -> None:
    assert states_predicate(question, sentence) is states


@pytest.mark.parametrize(("question", "rule"), [
    ("Can I fly premium economy to Tokyo?", "Premium economy is never reimbursed."),
    ("出差可以坐头等舱吗？", "头等舱一律不予报销，总经理事先书面批准的除外。"),
])
def test_a_rule_on_the_asked_thing_decides_whether_one_may(question: str,
                                                                 rule: str) -> None:
    # the question's verb ("fly", 坐) is not the rule's: the rule on the thing decides
    block = make_block(1, f"Trains are second class. {rule}" if question.isascii()
                       else f"火车乘坐二等座。{rule}", title="Travel policy", section="Travel")
    assert rule in [c.text for c in select(question, (block,)).chosen]


def test_a_rule_on_another_thing_still_decides_nothing() -> None:
    block = make_block(1, "Taxis are reimbursed only between 22:00 and 06:00.",
                       title="Travel policy", section="Travel")
    assert select("Can I fly premium economy to Tokyo?", (block,)).chosen == ()
