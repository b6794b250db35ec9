"""Sentence similarity as the reader's second opinion: when the lexical order declines, the
sentence the similarity favours may answer, through every decline check; a sentence whose
meaning stands out from all the others answers when it states what is asked; off, nothing
changes."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from kbqa.core.readers.extractive import meaning
from kbqa.core.readers.extractive.selection import select
from kbqa.core.readers.extractive.text import candidates, quotable_sentences
from kbqa.core.types import Block
from tests.fakes import make_block

# A hotel question in other words ("一晚 560", "超标") than the policy ("每晚不超过 500 元").
TRAVEL = make_block(1, (
    "- **交通**：火车乘坐二等座；飞机乘坐经济舱，因舒适原因自行升舱的费用不予报销。\n"
    "- **住宿**：北京、上海、广州、深圳每晚不超过 700 元，其他地方每晚不超过 500 元。"
    "酒店迷你吧、付费电视等属于个人消费。\n"
    "- **出差餐费**：出差期间个人餐费每天最多报销 150 元。"
), title="费用报销制度（中国区）", section="五、差旅费用", language="zh")
PRINCIPLES = make_block(2, (
    "可以报销的费用必须同时满足三个条件：因工作需要而发生、金额合理、有合规的发票或收据。"
    "能够通过公司差旅平台预订的机票和酒店，请尽量在平台上预订，由公司直接结算，无需个人垫付"
    "和报销。费用发生前如有疑问，请先咨询直属经理。"
), title="费用报销制度（中国区）", section="一、基本原则", language="zh")
LEAVE = make_block(3, (
    "全职员工每个自然年享有 20 天带薪年假。兼职员工按工作时间比例折算。年假最小申请单位为半天。"
    "请至少提前两周在人事系统中提交申请。当年未休完的年假，最多可以结转 5 天到下一年。"
    "结转的年假必须在次年 3 月 31 日之前休完。超出部分自动作废。离职时未休的年假按日工资折算。"
), title="年假与病假制度", section="年假", language="zh")
Similarities = Callable[[str, Sequence[str]], list[float]]
# (The lexical reader now answers "去绵阳出差，住的酒店一晚 560，是不是超标了？" itself: its
# bare amount asks for a quantity and 一 is no heading's topic; this one shares no noun.
# Nor is the rule worded 其他城市, which the lexical reader reads as naming 绵阳 too.)
QUESTION = "在绵阳住一晚 560 算超标吗？"


def _favouring(word: str, asked: list[Sequence[str]]) -> Similarities:
    """A similarity function that finds ``word``'s sentences closest (E5-like cosines)."""
    def similarities(question: str, sentences: Sequence[str]) -> list[float]:
        asked.append(sentences)
        return [0.92 if word in s else 0.80 for s in sentences]
    return similarities


def test_off_the_lexical_reader_declines() -> None:
    assert select(QUESTION, (TRAVEL, PRINCIPLES)).declined


def test_a_rule_for_other_cities_names_the_asked_city_for_the_lexical_reader() -> None:
    cities = make_block(1, TRAVEL.chunk.text.replace("其他地方", "其他城市"),
                        title="费用报销制度（中国区）", section="五、差旅费用", language="zh")
    chosen = select(QUESTION, (cities, PRINCIPLES)).chosen
    assert chosen and "其他城市每晚不超过 500 元" in chosen[0].text


def test_the_sentence_the_similarity_favours_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[Sequence[str]] = []
    monkeypatch.setattr(meaning, "sentence_similarities", _favouring("其他地方", asked))
    selection = select(QUESTION, (TRAVEL, PRINCIPLES))
    assert not selection.declined
    assert selection.chosen[0].text == (
        "住宿：北京、上海、广州、深圳每晚不超过 700 元，其他地方每晚不超过 500 元。")
    assert selection.chosen[0].n == 1
    assert len(asked) == 1  # asked once, only because the lexical order declined


def test_a_favoured_sentence_without_the_asked_amount_never_replaces_the_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The favoured sentence stands out but names no amount for a question about one: the
    # lexical answer stays.
    question = "去绵阳出差，住的酒店一晚 560，最多能报多少钱？"
    lexical = select(question, (TRAVEL, PRINCIPLES))
    monkeypatch.setattr(meaning, "sentence_similarities", _favouring("咨询", []))
    assert select(question, (TRAVEL, PRINCIPLES)) == lexical
    assert not lexical.declined


def test_a_sentence_that_does_not_stand_out_changes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Two sentences are equally close (z 1.6 among the 7): neither says it in other words
    # more than the rest, so the lexical reader's decline stands.
    def similarities(question: str, sentences: Sequence[str]) -> list[float]:
        return [0.92 if "咨询" in s or "三个条件" in s else 0.80 for s in sentences]
    monkeypatch.setattr(meaning, "sentence_similarities", similarities)
    assert select(QUESTION, (TRAVEL, PRINCIPLES)).declined


def test_a_lexical_answer_holding_the_favoured_sentence_stays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    question = "出差住宿每晚最多报销多少？"
    lexical = select(question, (TRAVEL, PRINCIPLES))
    monkeypatch.setattr(meaning, "sentence_similarities", _favouring("住宿", []))
    assert select(question, (TRAVEL, PRINCIPLES)) == lexical
    assert any("住宿" in c.text for c in lexical.chosen)


def test_the_sentence_after_a_favoured_one_comes_along_when_close_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def similarities(question: str, sentences: Sequence[str]) -> list[float]:
        return [0.95 if "住宿" in s else 0.90 if "迷你吧" in s else 0.80 for s in sentences]
    monkeypatch.setattr(meaning, "sentence_similarities", similarities)
    chosen = select(QUESTION, (TRAVEL, PRINCIPLES, LEAVE)).chosen
    assert [c.text[:4] for c in chosen] == ["住宿：北", "酒店迷你"]


def test_no_sentence_answers_by_meaning_alone_when_no_block_states_a_question_word(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A team-building budget is closest to the travel allowances by meaning, but no block
    # says 团建, 活动 or 预算: the knowledge base does not speak of what is asked.
    monkeypatch.setattr(meaning, "sentence_similarities", _favouring("住宿", []))
    assert select("团建活动的预算是多少？", (TRAVEL, PRINCIPLES, LEAVE)).declined


TABLE_AND_LIST = make_block(4, (
    "Plans at a glance:\n\n| Plan | Storage quota |\n|---|---|\n| Business | 1 TB per user |\n\n"
    "- Customers can pay monthly or yearly.\n- Yearly billing is 15% cheaper.\n\n---\n\nNo."
), title="Pricing", section="Plans")


@pytest.mark.parametrize("block", [TRAVEL, PRINCIPLES, LEAVE, TABLE_AND_LIST])
def test_ingestion_encodes_exactly_the_sentences_the_reader_compares(block: object) -> None:
    """What ``sources.vectors`` stores per chunk (``quotable_sentences``) is the text of the
    reader's candidate sentences, so a question finds every one of them stored."""
    assert isinstance(block, Block)
    assert quotable_sentences(block.chunk.text) == [c.text for c in candidates([block])]
