"""Follow-ups whose words were misread by kind: a verb-object phrase is no sibling noun
(走审批 is going through the topic's 审批, not another 审批), and an acronym in capitals is
no English stop word ("and what about IT?" asks about the IT department, not about "it"),
and a discourse marker ("ok", 嗯) hides no connector behind it.
"""

from __future__ import annotations

import pytest

from kbqa.core.grounding.citations import Verifier, parse_claim
from kbqa.core.readers.extractive.question import phrases
from kbqa.core.readers.extractive.text import number_terms
from kbqa.core.retrieval.ellipsis import has_pronoun, topic_words
from kbqa.core.retrieval.focus_zh import is_verb_object_zh
from tests.core.retrieval.offline_ask import rewrite
from tests.fakes import make_block


@pytest.mark.parametrize(
    ("phrase", "verb_object"),
    [
        ("走审批", True),
        ("做体检", True),
        ("提交审批", True),
        ("办报销", True),
        ("需要报销", True),
        ("陪产假", False),  # 产假 is a noun: a sibling of 年假
        ("入职体检", False),  # a kind of 体检, a sibling of 年度体检
        ("病假", False),
        ("历史版本", False),
        ("审批", False),
    ],
)
def test_verb_object_phrases_by_jieba_tags(phrase: str, verb_object: bool) -> None:
    assert is_verb_object_zh(phrase) is verb_object


@pytest.mark.parametrize(
    ("topic", "follow_up", "expected"),
    [
        ("采购超过一万元需要哪些审批？", "走审批呢？", "采购超过一万元需要哪些审批，走审批呢？"),
        ("出差报销需要什么审批？", "那走审批呢？", "出差报销需要什么审批，走审批呢？"),
        ("新员工入职要做哪些体检？", "那做体检呢？", "新员工入职要做哪些体检，做体检呢？"),
        ("费用报销需要经理审批吗？", "那提交审批呢？", "费用报销需要经理审批吗，提交审批呢？"),
    ],
)
def test_a_verb_object_follow_up_keeps_the_topics_thing_whole(
    topic: str, follow_up: str, expected: str
) -> None:
    # before: "采购超过一万元需要哪走审批？" (审批 replaced as if 走审批 were its sibling)
    assert rewrite(topic, follow_up) == expected


@pytest.mark.parametrize(
    ("topic", "follow_up", "expected"),
    [
        ("全职员工每年有多少天年假？", "那陪产假呢？", "全职员工每年有多少天陪产假？"),
        ("年度体检包括哪些项目？", "那入职体检呢？", "入职体检包括哪些项目？"),
        ("员工每年有多少天病假？", "那年假呢？", "员工每年有多少天年假？"),
    ],
)
def test_sibling_nouns_still_replace_the_topics_noun(
    topic: str, follow_up: str, expected: str
) -> None:
    assert rewrite(topic, follow_up) == expected


@pytest.mark.parametrize(
    ("topic", "follow_up", "expected"),
    [
        ("How long does VPN access take for the sales team?", "and what about IT?",
         "How long does VPN access take for the sales team, for IT?"),
        ("What laptop does the sales team get?", "and for IT?",
         "What laptop does the sales team get for IT?"),
        ("Who approves purchases for HR?", "and for IT?", "Who approves purchases for IT?"),
        ("How many days of annual leave do HR staff get?", "and IT staff?",
         "How many days of annual leave do IT staff get?"),
        ("销售部门的 VPN 权限多久开通？", "那 IT 部门呢？", "IT 部门的 VPN 权限多久开通？"),
        # the acronym modifies the sibling span: replaced with it, not kept beside it
        ("IT 部门的 VPN 权限多久开通？", "那销售部门呢？", "销售部门的 VPN 权限多久开通？"),
    ],
)
def test_an_acronym_in_capitals_is_kept_in_the_rewrite(
    topic: str, follow_up: str, expected: str
) -> None:
    # before: "and what about IT?" -> the topic unchanged (IT read as the pronoun "it")
    assert rewrite(topic, follow_up) == expected


@pytest.mark.parametrize(
    ("text", "pronoun"),
    [("and what about IT?", False), ("what about it?", True), ("Is IT open on Sundays?", False),
     ("Can THEY restore files?", False)],
)
def test_an_acronym_is_no_pronoun(text: str, pronoun: bool) -> None:
    assert has_pronoun(text) is pronoun


def test_the_topics_acronym_is_one_of_its_words() -> None:
    assert topic_words("How do IT staff request VPN access?", "and HR?") == [
        "IT", "staff", "request", "VPN", "access"]


def test_the_reader_keeps_acronyms_in_phrases_and_number_terms() -> None:
    assert ("it", "staff", "get") in phrases("How many laptops do IT staff get?")
    assert number_terms("Ask 2 IT admins or 3 of them") == frozenset({"2 it"})


def test_an_acronym_the_block_never_says_is_withheld() -> None:
    block = make_block(1, "The service desk replaces laptops every 4 years.")
    verdict = Verifier([block]).verify(parse_claim("IT replaces laptops every 4 years [1]."))
    assert (verdict.ok, verdict.unsupported) == (False, ("IT",))


@pytest.mark.parametrize(
    ("topic", "follow_up", "expected"),
    [
        ("How many days of annual leave do full-time employees get?",
         "ok and what about sick leave?",
         "How many days of sick leave do full-time employees get?"),
        ("How many days of annual leave do full-time employees get?",
         "Alright, and for part-timers?",
         "How many days of annual leave do part-time employees get?"),
        ("全职员工每年有多少天年假？", "嗯，那病假呢？", "全职员工每年有多少天病假？"),
        ("全职员工每年有多少天年假？", "好的，那病假呢？", "全职员工每年有多少天病假？"),
        ("全职员工每年有多少天年假？", "ok 那病假呢？", "全职员工每年有多少天病假？"),
        # a marker alone is no connector: a question of its own stays one
        ("How long is the free trial?", "OK, how do I cancel a subscription?",
         "How do I cancel a subscription?"),
    ],
)
def test_a_discourse_marker_before_the_follow_up_is_left_out(
    topic: str, follow_up: str, expected: str
) -> None:
    # before: "全职员工每嗯，那病假？" and "Ok and what about sick leave?" (the marker hid
    # the connector, so the follow-up was pasted into the topic or read as a new question)
    assert rewrite(topic, follow_up) == expected
