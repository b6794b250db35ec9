"""What a question asks of the values in its blocks (``kbqa.core.grounding.conflicts``):
its terms, the years it names, its focus over the blocks and, per unit, the best focus of a
clause carrying a value in that unit. ``conflicts`` and ``conflict_probe`` read it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from kbqa.core.grounding.authority import YEAR_RE
from kbqa.core.grounding.conflict_focus import (
    ASKED_BOUND_TERMS,
    OTHER_MEASURES,
    Focus,
    question_focus,
    unit_terms,
)
from kbqa.core.grounding.mentions import Mention
from kbqa.core.text.bounds import BOUND_TERMS
from kbqa.core.text.places import places_named
from kbqa.core.text.procedures import asks_consequence, asks_procedure
from kbqa.core.text.quantities import extract_quantities, per_names
from kbqa.core.text.terms import is_question_word, pos_tags, term_set
from kbqa.core.text.thesaurus import morphy, mostly_modifier, rather_noun
from kbqa.core.types import Block


@dataclass(frozen=True)
class Asked:
    """What the question asks: its terms, the years it names, its focus over the blocks and,
    per unit, the best focus of a leading clause carrying a value in that unit."""

    terms: frozenset[str]
    years: frozenset[str]
    focus: Focus
    best_by_unit: dict[str, float]
    units: frozenset[str] = frozenset()  # units of the quantities the question states
    # the question's terms without its dated years: "2018年超级碗冠军是谁" names no 年 (years)
    unit_words: frozenset[str] = frozenset()
    # what a measure is of ("page" of "the page size limit of the API"): ``measured_things``
    measured: frozenset[str] = frozenset()
    # it asks for an amount with no unit named ("How much annual leave…?", 年假有多少?)
    amount: bool = False
    # its terms that say what it is about: no bound word ("get", "most") and no Chinese
    # count (一次 of 多久要换一次, which met 一次性 of a one-time allowance)
    substance: frozenset[str] = frozenset()
    # the periods or units it asks a rate per ("每晚", "per night": night), as the
    # quantities' units name them after "/"
    per: frozenset[str] = frozenset()
    # the places it names (``text.places.places_named``): a document scoped to one is preferred
    places: frozenset[str] = frozenset()
    # it asks what happens or how to do something (``procedures``): an outcome, not a value
    outcome: bool = False
    # it asks how many of a thing ("how many meeting rooms", 几间, 多少个): ``_COUNT_RE``
    counted: bool = False
    # the scales of the durations it states (``_scale``): "40 天" is on the scale of days
    scales: frozenset[str] = frozenset()

    def about(self, m: Mention) -> bool:
        """Whether ``m``'s clause holds the question's focus (``conflict_focus``); a question
        that names the unit ("how many MB", "多少钱") is held to the best value in that unit."""
        unit = m.quantity.unit
        return self.focus.holds(m.clause, self.best_by_unit[unit] if self.names(unit) else None)

    def names(self, unit: str) -> bool:
        """Whether the question names ``unit`` ("how many MB", "能多大", "多少钱") or states a
        quantity in it ("Will a 150 MB recording go through?" weighs it against the
        documents' values in MB)."""
        naming = unit_terms(unit)
        words = self.unit_words
        return unit in self.units or bool(words & naming) or any(
            w in t for t in words if not t.isascii() for w in naming if not w.isascii())

    def pair_about(self, a: Mention, b: Mention) -> bool:
        """Whether two values are of what the question asks: one holds its focus, and the
        other holds it too or is of the asked type: in the unit the question names ("how
        long", "能多大"), or a bound when it asks for one ("Files larger than 100 MB are
        rejected" holds no term of "What is the upload limit?", but it is a limit). A
        question asking what happens or how to do something, with no value, unit or bound
        of its own ("网断了上传会怎样", "How do I upload a folder?"), asks no value."""
        if self.outcome and not (self.units or self.terms & ASKED_BOUND_TERMS
                                 or self.names(a.quantity.unit)):
            return False
        if self.terms & OTHER_MEASURES and not self.names(a.quantity.unit):
            return False  # it asks another measure ("file name length") than these values'
        if self.terms & PRICE_ASKS and not (self.names(a.quantity.unit)
                                            or self.names(b.quantity.unit)):
            return False  # it asks a price ("the parking fee of …"), these are no amounts
        if self.measured and not (
                any(_names(self.measured, m.clause) for m in (a, b))
                or all(_names(self.measured, _named_by(m)) for m in (a, b))):
            return False  # "page size" is not what two upload sizes are of
        if self.counted and not (self.names(a.quantity.unit) or self.names(b.quantity.unit)):
            return False  # "How many meeting rooms…?" asks a count, not "3 hours" of booking
        rates = frozenset(a.quantity.unit.split("/")[1:])
        if self.per and rates and not rates & self.per:
            return False  # a meal allowance per day is not what "每晚能报多少" asks
        if self.per and not rates and (a.quantity.unit in self.per or not all(
                _per_named(self.per, m.clause) for m in (a, b))):
            return False  # "26 days" of leave a year is not "per day" nor "days per week"
        on_a, on_b = self.about(a), self.about(b)
        return (on_a or on_b) and (on_a or self.of_type(a)) and (on_b or self.of_type(b))

    def of_type(self, m: Mention) -> bool:
        """Whether ``m`` is in the unit the question names or a bound it asks for; a
        duration only on the question's own scale ("40 天" of the question is no measure of
        "2 小时": durations share the unit ``day``)."""
        scaled = (m.quantity.unit != "day" or not self.scales
                  or _scale(m.quantity.text) in self.scales)
        return (self.names(m.quantity.unit) and scaled) or (
            m.bound is not None and bool(self.terms & ASKED_BOUND_TERMS))


# Words by which a clause says what its value is per ("26 days of leave per calendar year",
# 每年): a question asking a rate per one of these is about values whose clause names it.
_PER_WORDS = {
    "day": "day days daily 天 每天 每日", "week": "week weeks weekly 周 每周 星期",
    # per_names reads "per year" as ``month`` (yearly prices are compared per month)
    "month": "month months monthly 月 每月 year years yearly annual 年 每年 年度",
    "year": "year years yearly annual 年 每年 年度",
    "night": "night nights nightly 晚 每晚", "person": "person head people 人 人均 每人",
}


def _per_named(per: frozenset[str], clause: frozenset[str]) -> bool:
    """Whether ``clause`` (a value's clause terms) names one of the periods or things of
    ``per`` (``per_names``); True for a name ``_PER_WORDS`` lacks (nothing to tell)."""
    return any(name not in _PER_WORDS or _per_terms(name) & clause for name in per)


@lru_cache(maxsize=16)
def _per_terms(name: str) -> frozenset[str]:
    """The folded terms of ``_PER_WORDS[name]`` (read once: the gate weighs every pair)."""
    return term_set(_PER_WORDS[name])


def asked_of(
    blocks: Sequence[Block], leading: Sequence[Block], mentions: Sequence[Mention], question: str
) -> Asked:
    """What ``question`` asks, weighed over ``blocks`` (its focus), the best ``leading``
    clause and, per unit, the best clause of ``mentions``."""
    focus = question_focus(blocks, leading, question)
    best_by_unit: dict[str, float] = {}
    for m in mentions:
        unit = m.quantity.unit
        best_by_unit[unit] = max(best_by_unit.get(unit, 0.0), focus.of(m.clause))
    terms = term_set(question)
    counts = {w for w, tag in pos_tags(question)  # 一次, 多少; not 年 of 年假 cut as 年/假
              if tag in ("m", "mq", "q") and _NUMERAL_RE.search(w)}
    return Asked(terms, frozenset(YEAR_RE.findall(question)), focus,
                 best_by_unit, frozenset(q.unit for q in extract_quantities(question)),
                 term_set(_DATED_YEAR_RE.sub(" ", question)) | _asked_when(question),
                 measured_things(question), bool(_AMOUNT_RE.search(question)),
                 frozenset(t for t in terms if t not in BOUND_TERMS and t not in counts),
                 per_names(question), places_named(question),
                 asks_consequence(question) or asks_procedure(question),
                 bool(_COUNT_RE.search(question)),
                 frozenset(_scale(q.text) for q in extract_quantities(question)
                           if q.unit == "day"))


# Words asking a price by name (``conflict_focus.PRICE_TERMS`` without "much", "pay"…, which
# also ask other amounts: "how much storage"): two values in a unit no price is (MB, days)
# are not what "What is the parking fee of …?" asks.
PRICE_ASKS = frozenset({"price", "cost", "fee", "价格", "费用", "多少钱", "收费", "价钱"})


# An English noun right before a measure word: what the measure is of ("page size", "batch
# limit", "per-file size cap"); "a size cap", "the maximum size" name nothing.
_MEASURED_RE = re.compile(r"\b([a-z]+)[\s-]+(?:size|limit|cap|quota)s?\b")


def measured_things(question: str) -> frozenset[str]:
    """The terms of what the question's measure is of ("page" of "What's the page size limit
    of the API?", "names" of "the limits on file names"): two values are of it when one's
    clause names it, or each one's clause, section or title does; else they are of
    something else (upload sizes; a meeting note headed "Upload limit pages disagree" names
    the documentation's pages, not the page size of its upload limits). Empty when the
    question names none, or in Chinese."""
    found: set[str] = set()
    low = question.lower()
    for word in [*_MEASURED_RE.findall(low), *_MEASURED_AFTER_RE.findall(low)]:
        if not mostly_modifier(word):  # "the actual limit", "a daily cap" name no thing
            found |= term_set(word) - _MEASURE_WORDS
    return frozenset(found)


# ...or the noun phrase after it, by its last word: "the limits on file names" (names),
# "the size limit for a single upload" (upload).
_MEASURED_AFTER_RE = re.compile(
    r"\b(?:size|limit|cap|quota)s?\s+(?:on|of|for)\s+(?:(?:the|a|an|one|each|every|single|"
    r"my|our|your|their)\s+)*(?:[a-z]+\s+)?([a-z]+)\b")


_MEASURE_WORDS = term_set("size limit cap quota maximum max minimum min")


def _names(measured: frozenset[str], named: frozenset[str]) -> bool:
    """Whether ``named`` holds a word of ``measured`` or a form of it: the S-stemmer keeps
    "uploaded", "uploader", "uploading" apart from "upload" ("What is the maximum upload
    size?" against "the maximum size of a single uploaded file" in the "Web uploader
    guide"), so a word of four letters or more matches the words it begins."""
    return bool(measured & named) or any(
        n.startswith(t) for t in measured if len(t) >= 4 for n in named)


def _named_by(m: Mention) -> frozenset[str]:
    chunk = m.block.chunk
    return m.clause | term_set(f"{chunk.section} {chunk.title}")


# A count of things asked: "how many" before a noun, 几 or 多少 with a measure word for things
# (a unit the values are in, "how many days", is read by ``Asked.names`` first).
_COUNT_RE = re.compile(r"\bhow many\b|(?:几|多少)\s*(?:个|间|台|位|名|家|张|条|种|项|所|辆|把|部)",
                       re.IGNORECASE)
_HOURS_RE = re.compile(r"小时|分钟|秒|hour|hr|minute|min|second|sec", re.IGNORECASE)


def _scale(written: str) -> str:
    """A duration's scale as written: ``hours`` (hours, minutes, seconds) or ``days``."""
    return "hours" if _HOURS_RE.search(written) else "days"


_NUMERAL_RE = re.compile(r"[一二两三四五六七八九十百千万几半每多]")
_AMOUNT_RE = re.compile(r"\bhow (?:much|many)\b|多少|几", re.IGNORECASE)
_DATED_YEAR_RE = re.compile(r"(?<!\d)(?:19|20)\d\d\s*年")
# "when" is a stop word, so no term says a question asks for a date: this does
_WHEN_RE = re.compile(r"\bwhen\b", re.IGNORECASE)


def _asked_when(question: str) -> frozenset[str]:
    return frozenset({"when"}) if _WHEN_RE.search(question) else frozenset()


def named_by_one(a: Mention, b: Mention, asked: Asked) -> bool:
    """Whether the question's words beside the ones two values' subjects share are in one
    value's clause and none in the other's. Asked of a pair of two languages whose bridged
    subjects share no thing, only a word such as "in advance" (bridged words meet by
    chance): 访客需要至少提前一天登记 and "Parental leave requests must be submitted at least
    8 weeks in advance" are of two things, and 访客, 登记 say which one the question asks of."""
    named = frozenset(t for t in asked.terms if not is_question_word(t) and not t[0].isdigit())
    named -= frozenset(a.subject) & frozenset(b.subject)
    one, two = (named & (m.clause | frozenset(m.subject)) for m in (a, b))
    return bool(one) != bool(two)


def rather_thing(term: str) -> bool:
    """Whether a bridged subject term is rather a thing than an act: an English word WordNet
    gives more noun senses than verb ones ("hotel"; not "advance"), a Chinese noun."""
    return rather_noun(term) if term.isascii() else names_thing(term)


def names_thing(term: str) -> bool:
    """Whether a context term names a thing: an English word WordNet lists as a noun
    ("filter", "air"; not "kept" or a stem such as "replac"), a Chinese word jieba tags as
    one (``空调``; not ``更换``)."""
    if term.isascii():
        return bool(morphy(term, "noun"))
    return all(tag.startswith("n") for _, tag in pos_tags(term))
