"""Focus: whether two disagreeing values are values of what the question asks.

Retrieval brings whole chunks: a question about file names ("上传文件时文件名有什么限制？")
also brings the upload-size paragraphs of the same manuals, whose 200 MB and 100 MB disagree.
That disagreement is not about file names, so it must not refuse the answer. What a value is
"of" is read from the sentence that carries it (``clauses``): the question is about a value
when the value's sentence holds the question's *focus*, i.e. about as much of the question's
weight as the sentence of the blocks that best matches the question.

A question term weighs by how few sentences of the blocks hold it (the Robertson–Spärck Jones
idf that BM25 uses, Robertson & Zaragoza 2009, eq. 3.3, over sentences instead of documents):
"文件" and "上传" are in most sentences of an upload question's blocks and weigh little;
"文件名" is in a few and weighs most. A sentence's focus is the sum of the weights of the
distinct question terms it holds (``terms`` has dropped the stop words: "what", "的"; other
words that only shape the question, "please", "多少", are in no sentence and weigh nothing).

``FOCUS_SHARE`` (0.5): each side of a conflict must reach half the best sentence's focus.
Measured on the demo knowledge base (2026-12-01): the real conflicts (upload size, laptop
cycle, uploaded parking fees) reach 0.8-1.0 on both sides; the file-name question's size
sentences reach 0.3; a "restore files faster" question's retention sentences reach 0.2.

The asked *type* (``unit_terms``, ``ASKED_BOUND_TERMS``): a question naming a unit ("how
long", "how many MB", "能多大", "多少钱", "停车费", "revenue"; a date: "when", "日期", "时间")
or asking for a limit ("maximum", "上限") asks for a value of that kind, whatever words the
value's sentence uses;
``kbqa.core.grounding.conflicts`` lets one side of a conflict qualify by its type when the
other holds the focus.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from kbqa.core.grounding.instructions import without_instructions
from kbqa.core.text.quantities import is_currency
from kbqa.core.text.terms import fold, term_set, terms
from kbqa.core.types import Block

FOCUS_SHARE = 0.5

# Terms of a question that name a unit (``kbqa.core.text.terms.terms`` forms).
UNIT_TERMS: dict[str, frozenset[str]] = {
    "MB": frozenset({"kb", "mb", "gb", "tb", "size", "large", "big", "大小", "容量", "多大"}),
    "day": frozenset(
        {"day", "hour", "minute", "week", "long", "天", "小时", "分钟", "多久", "多长"}
    ),
    "business day": frozenset({"business", "working", "工作日"}),
    "month": frozenset({"month", "year", "often", "long", "月", "年", "多久", "多长"}),
    "req/min": frozenset({"request", "rate", "limit", "限流", "频率", "次"}),
    "%": frozenset({"percent", "percentage", "比例"}),
    # dates (``kbqa.core.text.dates``): "when" is added by ``conflicts`` (a stop word)
    "date": frozenset({"when", "date", "day", "日期", "时间", "时候", "哪天", "几号"}),
    "year-month": frozenset({"when", "date", "month", "日期", "时间", "时候", "几月"}),
    "month-day": frozenset({"when", "date", "day", "日期", "时间", "时候", "哪天", "几号"}),
}
# A price's unit is its currency and what it is per ("EUR/person/month"): the question
# names it by asking a price or naming the currency.
PRICE_TERMS = frozenset({"price", "cost", "fee", "charge", "pay", "paid", "much", "expensive",
                         "cheap", "价格", "费用", "多少钱", "收费", "价钱", "钱", "花费", "费",
                         # amounts of money that are no price: "What was Tesla's revenue?"
                         "revenue", "income", "profit", "earning", "sale", "budget",
                         "营收", "收入", "利润", "营业额", "销售额", "预算"})
CURRENCY_TERMS: dict[str, frozenset[str]] = {
    "USD": frozenset({"usd", "dollar", "美元"}),
    "EUR": frozenset({"eur", "euro", "欧元"}),
    "GBP": frozenset({"gbp", "pound", "英镑"}),
    "JPY": frozenset({"jpy", "yen", "日元"}),
    "CNY": frozenset({"cny", "rmb", "yuan", "元", "人民币"}),
}
# Measures a question may ask about that no unit of ``UNIT_TERMS`` is ("What is the maximum
# file name length?" asks characters, so two upload sizes in MB are not its conflict).
OTHER_MEASURES = frozenset(
    {"length", "character", "char", "letter", "word", "weight", "height", "width", "depth",
     "distance", "temperature", "resolution", "长度", "字符", "字数", "重量", "高度", "宽度",
     "距离", "温度", "分辨率"})
# Question words asking for a bound (a subset of ``BOUND_TERMS``, which also holds the
# auxiliaries that phrase one: "can't", "will", "会").
ASKED_BOUND_TERMS = frozenset(
    {"maximum", "max", "limit", "cap", "ceiling", "minimum", "min", "largest", "biggest",
     "smallest", "longest", "shortest", "上限", "最大", "最多", "限制", "限额", "下限", "最少",
     "最低", "最长", "最短", "多大"})
# Sentence (or clause: a semicolon ends one too) ends, as ``conflicts`` cuts its contexts.
CLAUSE_END = re.compile(r"[。！？；;\n]|[.!?](?=\s)")


@lru_cache(maxsize=1024)
def clauses(text: str) -> tuple[frozenset[str], ...]:
    """The term sets of the clauses of ``text`` (a chunk's text, without its sentences that
    address the assistant), in order; empty clauses left out."""
    found = (term_set(piece) for piece in CLAUSE_END.split(without_instructions(text)))
    return tuple(piece for piece in found if piece)


@dataclass(frozen=True)
class Focus:
    """The question's term weights (``weights``: term -> idf over the blocks' clauses) and
    the best focus of any clause of the leading blocks (``best``)."""

    weights: dict[str, float]
    best: float

    def of(self, clause_terms: Iterable[str]) -> float:
        """The focus of a clause: the summed weight of the question terms it holds, matched
        by their ``fold`` ("uploading" holds "uploaded")."""
        weights = self.weights  # summed in the clause's order, its other terms skipped
        return sum((weights[t] for t in {fold(t) for t in clause_terms} if t in weights), 0.0)

    def holds(self, clause_terms: Iterable[str], best: float | None = None) -> bool:
        """Whether a clause reaches ``FOCUS_SHARE`` of ``best`` (default: ``self.best``).
        A question none of whose terms are in the blocks has no focus: every clause holds it."""
        top = self.best if best is None else best
        return top <= 0.0 or self.of(clause_terms) >= FOCUS_SHARE * top - 1e-9


def question_focus(blocks: Sequence[Block], leading: Sequence[Block], question: str) -> Focus:
    """The ``Focus`` of ``question`` over ``blocks`` (weights from all of them, the best
    clause among ``leading``). Never raises."""
    asked = list(dict.fromkeys(fold(t) for t in terms(question)))
    pieces = [{fold(t) for t in c} for b in blocks for c in clauses(b.chunk.text)]
    n = len(pieces)
    weights: dict[str, float] = {}
    for t in asked:
        df = sum(1 for c in pieces if t in c)
        if df:
            weights[t] = math.log(1.0 + (n - df + 0.5) / (df + 0.5))
    focus = Focus(weights, 0.0)
    best = max((focus.of(c) for b in leading for c in clauses(b.chunk.text)), default=0.0)
    return Focus(weights, best)


def measured_words(unit: str) -> frozenset[str]:
    """What a quantity in ``unit`` measures, for durations ("time", 时间): any two bounds of
    durations share them, whatever they bound (a dry-ice shipment's "maximum transit time
    … 72 hours" and 加班时间 "不得超过 36 小时")."""
    return _SPAN_WORDS if unit in ("day", "month", "business day") else frozenset()


_SPAN_WORDS = frozenset({"time", "period", "duration", "时间", "时长", "期限"})


def unit_terms(unit: str) -> frozenset[str]:
    """Question terms that ask for a quantity in ``unit`` ("how many MB", "多少天", "how much
    does it cost"); empty for a unit no word names."""
    currency = unit.split("/")[0]
    if currency in CURRENCY_TERMS:
        return PRICE_TERMS | CURRENCY_TERMS[currency]
    if is_currency(currency):  # "SGD", "CHF": the code names it
        return PRICE_TERMS | {currency.lower()}
    return UNIT_TERMS.get(unit, frozenset())
