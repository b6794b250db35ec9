"""The offline reader answers only with a sentence in the question's frame: its year, its
quarter, the product rather than an update, a settled outcome, this edition's title holder,
a dated day, a class for a "what type" ask (``frames.py``). Small knowledge bases written
for these tests, English and Chinese."""

from __future__ import annotations

import pytest

from kbqa.core.readers.extractive.frames import (
    genre_ask,
    other_quarter,
    past_title,
    pending,
    planned,
    uncounted,
    undated_day,
    year_in_force,
)
from kbqa.core.readers.extractive.selection import select
from tests.fakes import make_block


def _answer(question: str, *texts: str, language: str = "en") -> str:
    """The quoted answer (empty when the reader declines) over one block per text."""
    blocks = tuple(make_block(i, t, title=f"Passage {i}", language=language)
                   for i, t in enumerate(texts, start=1))
    chosen = select(question, blocks).chosen
    return " ".join(c.text for c in chosen)


@pytest.mark.parametrize(
    ("question", "declined", "answered"),
    [
        # the asked year only as a comparison's baseline: the figure is another year's
        ("2021年港湾省的粮食总产量是多少？",
         "与2021年相比，2022年港湾省粮食总产量增加，产量为260亿斤。",
         "2021年，港湾省粮食总产量为258亿斤，比2020年增加3亿斤。"),
        # the asked year only in the page's dateline
        ("2018年港湾省城镇新增就业了多少人？",
         "Feb 9, 2018 ... 2017年港湾省城镇新增就业130万人。",
         "2018年港湾省城镇新增就业136万人。"),
    ],
)
def test_a_figure_of_another_year_does_not_answer(question: str, declined: str,
                                                   answered: str) -> None:
    assert _answer(question, declined, language="zh") == ""
    assert "136万" in _answer(question, answered, language="zh") or "258亿" in _answer(
        question, answered, language="zh")


def test_a_birth_year_in_brackets_is_an_aside() -> None:
    assert not year_in_force("Who won the 2019 Harbour Prize?",
                             "The 2019 Harbour Prize went to Ana Silva (born 1942)")


def test_a_software_update_is_not_the_games_release() -> None:
    question = "When was Harbour Quest 2 released?"
    update = "5.5.0 (Released September 24, 2021) · This update of Harbour Quest 2 adds maps."
    assert _answer(question, update) == ""
    assert "July 21, 2017" in _answer(question, "Harbour Quest 2 was released on July 21, 2017.")


def test_another_quarter_does_not_answer() -> None:
    assert other_quarter("What was Nimbus's revenue in Q2 2020?",
                         "revenue for Nimbus during the first quarter is $5.1 billion")
    assert not other_quarter("What was Nimbus's revenue in Q2 2020?",
                             "Nimbus's second-quarter revenue was $6.0 billion")
    assert other_quarter("港湾公司第二季度营收是多少", "港湾公司一季度营收为5亿元")


@pytest.mark.parametrize(
    ("question", "text", "language"),
    [
        ("Who is the Harbour Award winner in 2019?",
         "The winner of the 2019 Harbour Award will be announced at the Grand Hall show.", "en"),
        ("2016年港湾杯冠军是谁",
         "2016年港湾杯决赛今晚举行，冠军花落谁家将有分晓，李明状态出色。", "zh"),
    ],
)
def test_an_outcome_still_to_come_does_not_answer(question: str, text: str,
                                                  language: str) -> None:
    assert pending(question, text)
    assert _answer(question, text, language=language) == ""


def test_a_title_from_other_editions_does_not_answer_for_this_one() -> None:
    assert past_title("卡塔尔港湾杯的冠军", "半决赛对手是卫冕冠军法国队")
    assert past_title("Who is the president of the Harbour League?",
                      "Ben Cole, the former president of the Harbour League, said")
    # a former office names a person the question asks about, not the asked title
    assert not past_title("安倍晋三的国葬时间？", "日本前首相安倍晋三的国葬仪式在东京举行")
    assert _answer("2021赛季港湾联赛冠军", "上赛季港湾联赛冠军港湾队停止运营。",
                   language="zh") == ""


def test_the_runner_up_is_stated_by_a_runner_up_or_a_defeat() -> None:
    question = "Who was the runner-up of the 2018 Harbour Open?"
    assert _answer(question, "Fernando Ruiz scored the winning point in the 2018 Harbour "
                             "Open final.") == ""
    assert "Maria Lopez" in _answer(question, "Ana Silva won the 2018 Harbour Open after "
                                              "defeating Maria Lopez in the final.")


def test_another_book_with_the_asked_title_in_its_name_does_not_answer() -> None:
    question = "《港湾》的作者是谁"
    assert _answer(question, "而《港湾秘密》一书当中，作者解读出来的却是白沐霖的阴谋。",
                   language="zh") == ""
    assert "王安" in _answer(question, "《港湾》的作者是王安。", language="zh")


def test_a_day_without_its_month_does_not_say_when() -> None:
    question = "2022年港湾公开赛开始时间"
    # a year but no month
    assert undated_day(question, "当地时间26日是2022年港湾公开赛正赛第5个比赛日")
    assert not undated_day(question, "2022年港湾公开赛于5月22日开始")
    assert not undated_day("服务台的工作时间是什么时候？", "工作日 9:00 至 18:00")
    assert _answer(question, "当地时间26日是2022年港湾公开赛正赛第5个比赛日。", language="zh") == ""


def test_a_what_type_ask_is_answered_by_a_class_not_by_the_word() -> None:
    assert genre_ask("《港湾》是什么类型的电视剧")
    question = "《港湾》是什么类型的电视剧"
    assert _answer(question, "这种类型的电视剧很多，《港湾》的篇幅很长。", language="zh") == ""
    assert "刑侦" in _answer(question, "《港湾》是一部刑侦类型的电视剧，讲述港湾警察的故事。",
                             language="zh")


def test_an_attribute_ask_needs_the_attribute_named() -> None:
    question = "港湾X2的处理器是什么"
    assert _answer(question, "除了港湾X2，港湾公司还发布了港湾笔记本Pro和港湾平板。",
                   language="zh") == ""
    assert "骁龙835" in _answer(question, "港湾X2搭载骁龙835处理器，屏幕比例为18:9。",
                                language="zh")


def test_a_count_ask_needs_a_number_counting_the_thing() -> None:
    question = "港湾联盟有多少个成员国"
    assert _answer(question, "港湾联盟的企业在美国所有50个州开展业务，港湾联盟成员国轮流担任主席。",
                   language="zh") == ""
    assert "10个成员国" in _answer(question, "港湾联盟共有10个成员国，港湾联盟成立于1967年。",
                                  language="zh")
    assert uncounted(question, "在美国所有50个州开展业务")
    assert not uncounted("北京地铁19号线一期总共有多少个车站", "全长22.4千米，共设10座车站")


def test_a_plan_is_no_result_but_an_announced_date_or_place_answers() -> None:
    question = "2022港湾杯冠军是谁"
    assert _answer(question, "2022港湾杯半决赛将于11日进行，港湾队前锋李明接受了采访。",
                   language="zh") == ""
    assert planned("港湾公司2022年上半年的营收为多少？", "目标是实现营业收入同比增长20%")
    assert not planned("港湾公司计划投资多少", "计划于明年投资50亿元")


def test_a_relation_asked_by_a_verb_is_stated() -> None:
    question = "谁赢得了2022年港湾省长选举？"
    assert _answer(question, "2022年港湾省长选举前，省长王安和反对党领袖李明举行辩论。",
                   language="zh") == ""
    assert "王安" in _answer(question, "在2022年举行的港湾省长选举中，王安赢得连任。",
                             language="zh")


def test_a_full_date_before_the_fact_is_its_year_but_a_time_stamp_is_not() -> None:
    assert year_in_force("2023年李明在哪个球队？", "2021年9月11日,李明回归港湾队")
    assert not year_in_force("2022年港湾省GDP增长率",
                             "2022年港湾省GDP同比增长2.6%. 2023年01月19日13:46")


def test_a_superseded_date_does_not_answer() -> None:
    question = "What is the release date of Harbour Quest 2077?"
    assert _answer(question, "Harbour Quest 2077's original release date was April 16, 2020, "
                             "which was announced during a trailer.") == ""
