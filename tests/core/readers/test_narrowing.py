"""A question narrowed to a group ("…for admins?", "对于管理员，…") is answered only from a
passage that names the group (issue 12 item 4, tester's report)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from kbqa.core.readers.extractive.narrowing import (
    answers_another_group,
    consequence_pool,
    groups_named,
    unmentioned_groups,
)
from kbqa.core.readers.extractive.subjects import off_subject, subject_words
from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block


@pytest.mark.parametrize(
    ("question", "groups"),
    [
        ("How long does the recycle bin keep deleted files for admins?", ["admin"]),
        ("How long does the recycle bin keep deleted files for interns?", ["intern"]),
        ("对于管理员，回收站里的文件能保留多久？", ["管理员"]),
        ("对于实习生，员工每年有多少天病假？", ["实习生"]),
        # acting, not narrowed to; everyone; not people at all
        ("Can administrators change the API rate limit to any value?", []),
        ("管理员可以把开放 API 的速率限制改成任意值吗？", []),
        ("How many days of annual leave for employees?", []),
        ("Is there a discount for three years?", []),
        ("What is the limit for the desktop client?", []),
    ],
)
def test_groups_named_by_for(question: str, groups: list[str]) -> None:
    assert groups_named(question) == groups


def test_a_group_is_unmentioned_only_when_the_chosen_block_lacks_it() -> None:
    general = make_block(1, "Deleted files remain in the recycle bin for 30 days.")
    admins = make_block(2, "Administrators can empty the recycle bin for everyone.")
    question = "How long does the recycle bin keep deleted files for admins?"
    assert unmentioned_groups(question, [1], [general, admins]) == ["admin"]
    assert unmentioned_groups(question, [2], [general, admins]) == []


def test_a_best_block_naming_none_of_the_asked_thing_is_off_subject() -> None:
    laptops = make_block(1, "Company laptops are replaced every 4 years.", section="Laptops")
    monitors = make_block(2, "Each office desk has two 27-inch monitors.",
                          section="Monitors and accessories")
    question = "How often are monitors replaced?"  # the standalone form of "and monitors?"
    assert subject_words(question) == frozenset({"monitor"})
    assert off_subject(question, 1, [laptops, monitors])
    assert not off_subject(question, 2, [laptops, monitors])
    # no other block names it: nothing to prefer, the usual checks decide
    assert not off_subject(question, 1, [laptops])


def test_a_place_name_says_where_not_what_is_asked_about() -> None:
    hotels = make_block(1, "住宿：北京、上海每晚不超过 700 元，其他城市每晚不超过 500 元。",
                        section="住宿", language="zh")
    office = make_block(2, "成都办公室的 IT 服务台在三楼。", language="zh")
    question = "在成都出差住酒店每晚能报销多少？"  # the standalone form of "那成都呢？"
    assert "成都" not in subject_words(question)
    assert not off_subject(question, 1, [hotels, office])


@pytest.mark.parametrize(("question", "subject"), [
    ("疫苗什么时候要登记？", frozenset({"疫苗"})),  # 什么时候 asks when: 时候 is no thing
    ("什么时候要登记疫苗？", frozenset({"疫苗"})),
    ("请假的时候要交哪种证明？", frozenset()),  # …的时候 is "when …"; 证明, the asked type
])
def test_the_noun_of_an_interrogative_is_no_subject(question: str,
                                                   subject: frozenset[str]) -> None:
    # a tester's 体检什么时候要约？ was declined: "时候" was the subject, and only another
    # FAQ's heading (报销款什么时候到账？) held it
    assert subject_words(question) == subject


def test_a_when_question_is_answered_under_a_faq_asking_when_about_another_thing() -> None:
    shots = make_block(1, "员工须在每年 10 月 15 日前在系统中登记疫苗接种。", section="疫苗",
                       language="zh")
    faq = make_block(2, "问：工资什么时候发？答：每月 10 日发放。", language="zh")
    assert not off_subject("疫苗什么时候要登记？", 1, [shots, faq])


@pytest.mark.parametrize(
    "question",
    [
        "Can administrators change the API rate limit to any value?",  # an actor, not asked
        "What happens if we go over the rate limit on the open API?",  # a consequence
        "How many days of sick leave do interns get?",
    ],
)
def test_no_asked_thing_is_checked_where_the_question_names_an_actor_or_a_consequence(
    question: str
) -> None:
    assert not (subject_words(question) & {"administr", "happen", "intern"})


@pytest.mark.parametrize(
    ("question", "kept"),
    [
        ("What happens if we go over the rate limit?", ["Calls above the limit get HTTP 429."]),
        ("超过了会怎样？", ["超过限制的请求会收到 HTTP 429 响应。"]),
        ("What is the rate limit?", ["The default rate limit is 600 requests per minute.",
                                     "Calls above the limit get HTTP 429."]),
    ],
)
def test_a_consequence_is_answered_from_a_sentence_stating_a_condition(
    question: str, kept: list[str]
) -> None:
    @dataclass(frozen=True)
    class Sentence:
        text: str

    pool = [Sentence("The default rate limit is 600 requests per minute."),
            Sentence("Calls above the limit get HTTP 429."),
            Sentence("开放 API 的默认速率限制为每分钟 600 次请求。"),
            Sentence("超过限制的请求会收到 HTTP 429 响应。")]
    lang = [s for s in pool if (s.text.isascii()) == question.isascii()]
    assert [s.text for s in consequence_pool(question, lang)] == kept


async def test_a_condition_clause_in_de_states_the_consequence() -> None:
    # 离职不还工牌会怎样 (a code-blind tester) was refused: "未交还的扣除 100 元" states the
    # outcome of not returning the badge in a 的-clause, which was no condition
    rules = make_block(1, "员工工牌为蓝色。迟到超过 15 分钟按旷工半天处理。员工离职时须将工牌交还"
                          "行政部，未交还的扣除 100 元。", title="访客与工牌管理规定",
                       section="员工工牌", language="zh")
    assert "100 元" in await extractive_answer("离职不还工牌会怎样", (rules,))


@pytest.mark.parametrize(
    ("question", "quoted", "texts", "declined"),
    [
        # the rule of another group, the asked group nowhere in the quoted blocks
        ("How many days of annual leave do contractors get?",
         ["Full-time employees receive 20 days of paid annual leave per calendar year."],
         "annual leave full-time employees receive 20 days", True),
        ("实习生每年有多少天年假？", ["全职员工每年享有 20 天带薪年假。"],
         "全职员工每年享有 20 天带薪年假", True),
        # a group acting in the question is answered by what others may do
        ("Can a guest restore from the recycle bin?",
         ["Editors and Owners can restore from the recycle bin."], "editors and owners", False),
        # the asked group is there (in the documents' form), or the rule is everyone's
        ("How many days of annual leave do full-timers get?",
         ["Full-time employees receive 20 days of paid annual leave per calendar year."],
         "full-time employees receive 20 days", False),
        ("How many days of sick leave do contractors get?",
         ["Employees receive 10 days of fully paid sick leave per calendar year."],
         "employees receive 10 days", False),
    ],
)
def test_an_answer_about_another_group_is_declined(
    question: str, quoted: list[str], texts: str, declined: bool
) -> None:
    assert answers_another_group(question, quoted, texts) is declined


async def test_a_rule_for_everyone_comes_with_the_asked_groups_exception() -> None:
    # a tester's "do contractors get per diem?" got only the employees' per diem, though
    # the policy's scope says contractors follow their own contract
    blocks = (
        make_block(1, "Employees receive a lunch allowance of EUR 15 per travel day.",
                   title="Travel policy", section="Meals", doc_id="travel"),
        make_block(2, "This policy applies to all employees who travel for work. Freelancers "
                      "follow the terms of their own agreement.",
                   title="Travel policy", section="Scope", doc_id="travel"),
    )
    answer = await extractive_answer("Do freelancers get the lunch allowance?", blocks)
    assert answer.startswith("Freelancers follow the terms of their own agreement.")
    assert "EUR 15" in answer


async def test_a_place_the_rule_for_all_other_places_covers_is_answered() -> None:
    # a tester's "and in Denver?" after Tokyo was refused: no block names Denver, but the
    # policy's rule for "all other cities" is Denver's
    blocks = (
        make_block(1, "The nightly hotel limit is USD 200 in capital cities and USD 140 in "
                      "all other cities.", title="Travel policy", section="Hotels"),
    )
    answer = await extractive_answer("What is the hotel limit in Ghent?", blocks)
    assert "USD 140 in all other cities" in answer


def test_a_measure_after_what_is_the_answer_not_the_thing_asked_about() -> None:
    # before: "temperature" was the asked thing, which the freezer block never says while
    # the shipping blocks do, so "Ultra-low freezers are set to −80 °C" was declined
    question = "What temperature are the ultra low freezers set to?"
    assert subject_words(question) == frozenset({"ultra", "low", "freezer"})
    freezers = make_block(1, "Ultra-low freezers are set to −80 °C.",
                          title="Lab safety rules", section="Cold storage")
    shipping = make_block(2, "Every shipment contains a temperature data logger.",
                          title="Cold-chain policy", section="Temperature loggers")
    assert not off_subject(question, 1, [freezers, shipping])


@pytest.mark.parametrize(("question", "subject"), [
    ("周末能去公司加班吗？", set()),  # the employer's premises, as "the company" acting
    ("笔记本电脑多久换一次？", {"笔记本电脑", "笔记", "笔记本", "电脑"}),
])
def test_the_employer_is_no_asked_thing(question: str, subject: set[str]) -> None:
    assert subject_words(question) == subject


async def test_a_question_going_to_the_office_is_answered_by_the_office_rule() -> None:
    # "周末能去公司加班吗？" was declined as off its subject: 公司 was read as the asked thing,
    # and only the onboarding checklist (公司会为每位新员工…) names it
    blocks = (
        make_block(1, "办公室开放时间为周一至周五 8:00 至 20:00。周末和法定节假日办公室关闭，"
                      "如需加班请提前一天向行政专员申请临时门禁权限。", title="深圳办公室指南",
                   section="开放时间", doc_id="office"),
        make_block(2, "第一周：与直属经理进行一次一对一面谈，确认试用期目标。公司会为每位新员工"
                      "安排一名入职伙伴（buddy），负责解答日常问题。", title="新员工入职清单",
                   section="新员工入职清单", doc_id="onboarding"),
    )
    answer = await extractive_answer("周末能去公司加班吗？", blocks)
    assert "办公室关闭" in answer
