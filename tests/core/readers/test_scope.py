"""Figures for another scope, count or cast are no answer (issue 12 item 3).

A number bound to the question's words may still measure something else: an average over
years for one year's figure, a province's total for the country's, another noun's count
(6200多家美国企业 for 多少个成员国); a list of films does not say who plays a part, and the
question's own place (南非) is no champion.
"""

from __future__ import annotations

import pytest

from kbqa.core.readers.extractive.asks import asked_roles, refined_kind, states_roles
from kbqa.core.readers.extractive.binding import anchors, bound_answer
from kbqa.core.readers.extractive.focus import ask_clause, ask_kind, new_answer
from kbqa.core.readers.extractive.frames import uncounted
from kbqa.core.readers.extractive.question import question_terms
from kbqa.core.readers.extractive.scope import other_scope


@pytest.mark.parametrize(
    ("question", "clause", "expected"),
    [
        ("2019年海港市新增了多少家企业", "海港市年均新增企业1200家", True),
        ("2019年海港国新增了多少家企业", "全省新增企业1200家", True),
        ("2019年海港国新增了多少家企业", "海港国2019年新增企业1200家", False),
        ("How many visitors did the harbour festival have in 2019?",
         "an average of 20,000 visitors a year", True),
        ("海港省年均新增多少家企业", "全省年均新增企业1200家", False),
    ],
)
def test_an_average_or_a_provinces_figure_is_another_scope(question: str, clause: str,
                                                          expected: bool) -> None:
    assert other_scope(question, clause) is expected


@pytest.mark.parametrize(
    ("clause", "expected"),
    [
        ("6200多家美国企业在联盟成员国内开展业务", True),
        ("联盟共有10个成员国", False),
        ("联盟10国的领导人出席了会议", False),
    ],
)
def test_a_count_of_another_noun_is_no_count_of_the_asked_one(clause: str,
                                                               expected: bool) -> None:
    assert uncounted("联盟有多少个成员国", clause) is expected


def _bound(sentence: str, question: str) -> bool:
    anchor = anchors(question, frozenset(question_terms(question)))
    kind = refined_kind(ask_clause(question), ask_kind(question))
    return bound_answer(kind, sentence, question, anchor)


@pytest.mark.parametrize(
    ("question", "sentence", "expected"),
    [
        ("2018年海港国城镇新增就业了多少人", "近五年，海港国城镇新增就业年均130万人。", False),
        ("2018年海港国城镇新增就业了多少人", "2018年，全省城镇新增就业13.6万人。", False),
        ("2018年海港国城镇新增就业了多少人", "2018年，海港国城镇新增就业136万人。", True),
        ("联盟有多少个成员国", "6200多家美国企业在联盟成员国内开展业务。", False),
        ("联盟有多少个成员国", "联盟共有10个成员国。", True),
    ],
)
def test_a_figure_or_name_for_another_scope_is_not_bound(question: str, sentence: str,
                                                          expected: bool) -> None:
    assert _bound(sentence, question) is expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("2016年南非的球队在这个球场赢得了冠军。", False),
        ("2016年意大利队在这个球场赢得了冠军。", True),
    ],
)
def test_the_questions_own_place_is_no_champion(sentence: str, expected: bool) -> None:
    assert new_answer("name", sentence, "2016南非杯的冠军") is expected


def test_who_plays_a_part_needs_the_cast_stated() -> None:
    roles = asked_roles("复仇者联盟钢铁侠是谁演的")
    assert not states_roles(roles, "观众通过2008年的《钢铁侠》、2011年的《雷神》认识复仇者联盟。")
    assert states_roles(roles, "钢铁侠由小罗伯特·唐尼饰演。")
