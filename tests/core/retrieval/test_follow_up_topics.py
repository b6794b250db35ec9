"""A Chinese question that names its own subject starts a new topic even when jieba tags
that subject as a verb or adjective (团建/a 预算/v, 报销/v); an elided subject still leans on
the earlier question (issue 12 item 4, tester's report)."""

from __future__ import annotations

import pytest

from kbqa.core.retrieval.ellipsis import is_follow_up, own_subject_zh
from tests.core.retrieval.offline_ask import rewrite


@pytest.mark.parametrize(
    ("topic", "question"),
    [
        ("笔记本电脑多久更换一次？", "团建预算是多少？"),
        ("笔记本电脑多久更换一次？", "报销怎么提交？"),
        ("笔记本电脑多久更换一次？", "审批需要多久？"),
        ("回收站里的文件能保留多久？", "加班要审批吗？"),
        ("员工每年有多少天病假？", "续费要多少钱？"),
        ("开放 API 的速率限制是多少？", "试用期是多长？"),
    ],
)
def test_a_question_with_its_own_subject_is_a_new_topic(topic: str, question: str) -> None:
    # before: "笔记本电脑团建预算是多少？", "笔审批需要多久更换一次？"
    assert rewrite(topic, question) == question


@pytest.mark.parametrize(
    ("topic", "question", "expected"),
    [
        ("回收站里的文件能保留多久？", "超过了会怎样？", "回收站里的文件超过了会怎样？"),
        ("回收站里的文件能保留多久？", "能延期吗？", "回收站里的文件能延期吗？"),
        ("开放 API 的速率限制是多少？", "超过了会怎样？", "开放 API 的速率限制超过了会怎样？"),
        # a connector or a pronoun still leans back, whatever the subject
        ("笔记本电脑多久更换一次？", "它怎么报销？", "笔记本电脑怎么报销？"),
        ("笔记本电脑多久更换一次？", "那报销呢？", "报销多久更换一次？"),
    ],
)
def test_an_elided_subject_a_connector_or_a_pronoun_still_lean_back(
    topic: str, question: str, expected: str
) -> None:
    assert rewrite(topic, question) == expected


def test_a_subject_shared_with_the_earlier_question_leans_back() -> None:
    # 更换 is the earlier question's own word: the laptop's replacement is meant
    assert is_follow_up("更换要审批吗？", "笔记本电脑多久更换一次？")
    assert not is_follow_up("报销要审批吗？", "笔记本电脑多久更换一次？")


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        ("团建预算是多少？", "团建预算"),
        ("报销怎么提交？", "报销"),
        ("审批需要多久？", "审批"),
        ("超过了会怎样？", ""),  # a predicate with an aspect particle, no subject
        ("过期了怎么办？", ""),
        ("能延期吗？", ""),
        ("没通过的话能补考几次？", ""),
        ("病假", ""),  # no question word
    ],
)
def test_own_subject_by_position_before_the_predicate(question: str, subject: str) -> None:
    assert own_subject_zh(question) == subject


@pytest.mark.parametrize(
    ("topic", "follow_up", "expected"),
    [
        # before: "How often are parking fee?" (the verb lost, "are" with a singular noun)
        ("How often are laptops replaced?", "What about the parking fee?",
         "How often is the parking fee replaced?"),
        ("How often are laptops replaced?", "what about the gym membership?",
         "How often is the gym membership replaced?"),
        ("How often are laptops replaced?", "and office chairs?",
         "How often are office chairs replaced?"),
        ("How long are deleted files kept?", "what about the trash folder?",
         "How long is the trash folder kept?"),
        ("When is the expense report due?", "what about travel bookings?",
         "When are travel bookings?"),
        # one common plural noun is a thing too
        ("How often are laptops replaced?", "and monitors?",
         "How often are monitors replaced?"),
        ("How often are laptops replaced?", "what about phones?",
         "How often are phones replaced?"),
        # same head word: the sibling replaces its like, the frame untouched
        ("How many days of annual leave do full-timers get?", "what about parental leave?",
         "How many days of parental leave do full-timers get?"),
    ],
)
def test_a_thing_of_another_kind_keeps_the_frames_verb_and_agrees(
    topic: str, follow_up: str, expected: str
) -> None:
    assert rewrite(topic, follow_up) == expected


@pytest.mark.parametrize(
    ("topic", "follow_up", "expected"),
    [
        # the new focus replaces the old one with its modifiers, in the documents' form
        ("How many days of annual leave do full-timers get?", "and sick days?",
         "How many days of sick leave do full-timers get?"),
        ("出差在外地打车能报销吗？", "那上下班打车呢？", "上下班打车能报销吗？"),
        ("员工出差打车能报销吗？", "那上下班打车呢？", "员工上下班打车能报销吗？"),
        ("入门版每个用户每月多少钱？", "企业版呢？", "企业版每个用户每月多少钱？"),
        # the thing asked about after what/which, not a later phrase ("first day")
        ("What laptop will I get on my first day?", "and monitors?",
         "What monitors will I get on my first day?"),
        # a bare name replaces the earlier name, never joins it
        ("What's the hotel limit per night in Paris?", "and London?",
         "What's the hotel limit per night in London?"),
        ("Which iOS version does the mobile app need?", "What about Android?",
         "Which Android version does the mobile app need?"),
        ("How do I sync files on iOS?", "and Android?", "How do I sync files on Android?"),
        # the sibling inside a longer run: the words after its head stay
        ("How much storage does the Starter plan include per user?", "and the Business plan?",
         "How much storage does the Business plan include per user?"),
    ],
)
def test_the_new_focus_replaces_the_old_one_in_the_frame(
    topic: str, follow_up: str, expected: str
) -> None:
    assert rewrite(topic, follow_up) == expected


def test_a_chain_of_names_moves_the_focus_each_turn() -> None:
    assert rewrite("What's the hotel limit per night in Paris?", "and London?",
                   "and Tokyo?") == "What's the hotel limit per night in Tokyo?"


def test_a_pronoun_stands_for_the_things_without_a_participle_inside() -> None:
    # before: "What happens after the deleted files kept in the recycle bin?"
    assert rewrite("How long are deleted files kept in the recycle bin?",
                   "what happens after that?") == (
        "What happens after the deleted files in the recycle bin?")


def test_a_pronoun_stands_for_the_topics_thing_not_its_verb() -> None:
    # before: "Until when do i have to use the carry?" (a tester's chain)
    assert rewrite("can I roll over unused credits?", "and until when do i have to use them") == (
        "Until when do i have to use the unused credits?")
