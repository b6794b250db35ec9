"""Sentence similarity as the reader's second opinion: when the lexical order declines, the
sentence the similarity favours may answer, through every decline check; off, nothing changes."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from kbqa.core.readers.extractive import meaning
from kbqa.core.readers.extractive.selection import select
from tests.fakes import make_block

# A hotel question in other words ("一晚 560", "超标") than the policy ("每晚不超过 500 元").
TRAVEL = make_block(1, (
    "- **交通**：火车乘坐二等座；飞机乘坐经济舱，因舒适原因自行升舱的费用不予报销。\n"
    "- **住宿**：北京、上海、广州、深圳每晚不超过 700 元，其他城市每晚不超过 500 元。"
    "酒店迷你吧、付费电视等属于个人消费。\n"
    "- **出差餐费**：出差期间个人餐费每天最多报销 150 元。"
), title="费用报销制度（中国区）", section="五、差旅费用", language="zh")
PRINCIPLES = make_block(2, (
    "可以报销的费用必须同时满足三个条件：因工作需要而发生、金额合理、有合规的发票或收据。"
    "能够通过公司差旅平台预订的机票和酒店，请尽量在平台上预订，由公司直接结算，无需个人垫付"
    "和报销。费用发生前如有疑问，请先咨询直属经理。"
), title="费用报销制度（中国区）", section="一、基本原则", language="zh")
Similarities = Callable[[str, Sequence[str]], list[float]]
QUESTION = "去绵阳出差，住的酒店一晚 560，是不是超标了？"


def _favouring(word: str, asked: list[Sequence[str]]) -> Similarities:
    """A similarity function that finds ``word``'s sentences closest (E5-like cosines)."""
    def similarities(question: str, sentences: Sequence[str]) -> list[float]:
        asked.append(sentences)
        return [0.92 if word in s else 0.80 for s in sentences]
    return similarities


def test_off_the_lexical_reader_declines() -> None:
    assert select(QUESTION, (TRAVEL, PRINCIPLES)).declined


def test_the_sentence_the_similarity_favours_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[Sequence[str]] = []
    monkeypatch.setattr(meaning, "sentence_similarities", _favouring("其他城市", asked))
    selection = select(QUESTION, (TRAVEL, PRINCIPLES))
    assert not selection.declined
    assert selection.chosen[0].text == (
        "住宿：北京、上海、广州、深圳每晚不超过 700 元，其他城市每晚不超过 500 元。")
    assert selection.chosen[0].n == 1
    assert len(asked) == 1  # asked once, only because the lexical order declined


def test_a_favoured_sentence_that_does_not_answer_is_still_declined(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The favoured sentence names no amount for a question about one: declined as before.
    monkeypatch.setattr(meaning, "sentence_similarities", _favouring("咨询", []))
    assert select(QUESTION, (TRAVEL, PRINCIPLES)).declined


def test_an_answer_the_lexical_order_gives_is_never_asked_about(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[Sequence[str]] = []
    monkeypatch.setattr(meaning, "sentence_similarities", _favouring("住宿", asked))
    selection = select("出差住宿每晚最多报销多少？", (TRAVEL, PRINCIPLES))
    assert not selection.declined
    assert asked == []
