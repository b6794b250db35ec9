"""The unit of what a quantity ask asks for (issue 12, item 3: "quantity with unit").

A sentence holding a number does not answer every quantity ask: "How long until I can try
again?" is not answered by "tries the delivery again up to 5 more times", nor "Can I pull
all 2,000 items in one call?" by "retry after a 429 answer". Four rules:

- ``asks_duration``/``states_duration``: "how long", "how soon", 多久, 多长时间 ask for a
  duration, which only a number with a time unit states ("15 minutes", "30-day",
  ``45 天内``, ``1 个工作日``); a year (``2024年``) is no duration, nor a rate ("600
  requests per minute").
- ``asked_units``/``in_unit``: the units the asker counts in, from "how many <unit>" and
  from the asker's own values ("about 2,000 items", "8 days of holiday left"): when a
  candidate sentence states a number in one of them, a sentence whose numbers are in other
  units (a status code, a count of retries) does not state what is asked
  (``selection``'s ``Scorer.units``), so it no longer outranks it.
- ``asked_time_units``/``states_time_asked``: "how many hours", 多少天, 几个小时 count in a
  unit of time, which a sentence states only in that unit or the next smaller or larger
  one ("how many days" by "2 weeks"; "how many hours of overtime" not by "16 weeks" of
  leave, nor by "200 pages per person per month").
- ``own_measure``/``pool_units``: a Chinese ask counting in a count word of its own
  (``多少分``: points) that no sentence states a number in is not answered at all.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import TypeVar

from kbqa.core.readers.extractive.expand import spell_numbers
from kbqa.core.readers.extractive.question import unit_terms
from kbqa.core.readers.extractive.text import Candidate, number_terms, question_numbers
from kbqa.core.text import thesaurus
from kbqa.core.text.quantities import extract_quantities
from kbqa.core.text.terms import fold, stem

_DURATION_ASK_RE = re.compile(r"\bhow (?:long|soon)\b|多久|多长时间", re.IGNORECASE)
_EN_TIME_UNITS = r"(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)"
# A number, up to two words ("2 business days", "10 fully paid days") or a hyphen, then a
# time unit; Chinese a number then its unit (``1 个工作日``: a working day), never a
# four-digit year (``2024年``). A rate's "per"/"a"/"each" before the unit ("600 requests
# per minute", "50 calls a second") says how often, not how long.
_DURATION_SPAN_RE = re.compile(
    rf"(?<![\d.])\d+(?:[.,]\d+)?(?:\s*-\s*|\s+)(?:(?!(?:per|an?|each|every)\s)[a-z-]+\s+){{0,2}}"
    rf"{_EN_TIME_UNITS}\b"
    r"|(?<![\d.])(?!(?:19|20)\d\d\s?年)\d+(?:\.\d+)?\s*(?:多|余)?\s*(?:个)?(?:工作)?"
    r"(?:秒|分钟|小时|天|日|周|星期|个月|月|年|(?<=个)多(?:月|小时|星期))"
    # spelled in Chinese numerals (提前一天, 两个小时, 半年, 一个多月); a month only with 个:
    # 十月 is October
    r"|(?<![第零一二两三四五六七八九十百千万半])[一二两三四五六七八九十半]+\s*(?:多|余)?\s*(?:个)?"
    r"(?:工作)?(?:秒|分钟|小时|天|日|周|星期|个月|年|(?<=个)多(?:月|小时|星期))",
    re.IGNORECASE)
# A number term of ``text.number_terms``: "50 item", "30 天".
_NUMBER_TERM_RE = re.compile(r"^(\d[\d.,]*) (.+)$")


def asks_duration(ask: str) -> bool:
    """Whether ask clause ``ask`` asks for a duration ("how long", "how soon", 多久); "How
    long must passwords be?" asks a length ("at least 12 characters"), not a time."""
    text = unicodedata.normalize("NFKC", ask)
    return bool(_DURATION_ASK_RE.search(text)) and not _LENGTH_ASK_RE.search(text)


# "How long must/can/should <it> be?": a length, as "How long can a file name be?"; also
# "how long is <it> supposed / meant / required to be?" (a tester's wording).
_LENGTH_ASK_RE = re.compile(
    r"\bhow long\s+(?:(?:must|can|could|should|may|will|does|do|has|have)\s+(?:\w+\s+){1,4}"
    r"|(?:is|are)\s+(?:\w+\s+){1,4}(?:supposed|meant|required|expected|allowed)\s+to\s+)"
    r"be\s*[?.!]*\s*$", re.IGNORECASE)


def states_duration(text: str) -> bool:
    """Whether ``text`` states a number with a time unit ("15 minutes", ``45 天``)."""
    return bool(_DURATION_SPAN_RE.search(unicodedata.normalize("NFKC", text)))


def states_elapsed(text: str) -> bool:
    """Whether ``text`` says how long ago or how long something has gone on: a duration
    (``_DURATION_SPAN_RE``) right before 了 or 前 (删了一个多月了, 三个多月前, 用了快三年了),
    the asker's own span to check against the source's; not a rate's (一年发几套) nor a
    request's (请一天假)."""
    norm = unicodedata.normalize("NFKC", text)
    return any(norm[m.end():m.end() + 1] in ("了", "前")
               for m in _DURATION_SPAN_RE.finditer(norm))


@lru_cache(maxsize=512)
def asked_units(question: str) -> frozenset[str]:
    """The folded units the asker counts in: the unit of "how many days"/``多少天``
    (``question.unit_terms``) and the unit joined with each of the question's own numbers
    (``text.question_numbers``: "2,000 items" -> ``item``)."""
    own = {t.split(" ", 1)[1] for t in question_numbers(question).values()}
    return frozenset(own) | unit_terms(question)


def in_unit(terms: Iterable[str], units: frozenset[str], question: str, text: str = "") -> bool:
    """Whether a sentence (``terms``: its folded terms, with its number terms; ``text``: its
    words, whose number words count too: "up to four files") states a number the question
    does not hold in one of ``units``."""
    own = set(question_numbers(question))
    spelled = number_terms(spell_numbers(text)) if text else frozenset()
    for t in [*terms, *spelled]:
        m = _NUMBER_TERM_RE.match(t)
        if m and m.group(2) in units and m.group(1) not in own:
            return True
    return False


# A rate asked per a unit ("a per-km rate", "the rate per km", "per night", 每公里, 每晚): a
# sentence giving rates only per another unit ("600 requests per minute" for a per-km
# mileage rate) states another measure. Spellings of one unit count as one.
_PER_RE = re.compile(
    r"\bper[\s-]+([a-z]+)\b|\b([a-z]+)[\s-]+rate\b|每\s*(?:[个位名台张])?([\u4e00-\u9fff])"
    r"|\b(?:a|an)\s+(night|day|week|month|year|hour|person|head|user|seat|km|mile)\b|(人)均",
    re.IGNORECASE)
_SAME_UNIT = {
    "km": "km", "kilometre": "km", "kilometer": "km", "kilometres": "km", "kilometers": "km",
    "公": "km", "mile": "mile", "miles": "mile", "night": "night", "nights": "night",
    "晚": "night", "day": "day", "days": "day", "天": "day", "日": "day", "week": "week",
    "周": "week", "month": "month", "months": "month", "月": "month", "year": "year",
    "年": "year", "hour": "hour", "hours": "hour", "小": "hour", "minute": "minute",
    "分": "minute", "second": "second", "秒": "second", "user": "person", "users": "person",
    "用": "person", "person": "person", "head": "person", "人": "person", "seat": "person",
}


def _rate_units(text: str) -> set[str]:
    low = unicodedata.normalize("NFKC", text).lower()
    return {_SAME_UNIT[w] for m in _PER_RE.finditer(low) for w in m.groups()
            if w and w in _SAME_UNIT}


T = TypeVar("T")
_AMOUNT_RE = re.compile(r"\d")
# Any per-construction, also of a unit ``_SAME_UNIT`` does not know ("per calendar year",
# 每个自然年); and the calendar periods, which a yearly rule often states without "per"
# ("Employees receive 10 days of sick leave" answers how many days per year).
_ANY_PER_RE = re.compile(r"\bper\b|每|/|\b(?:a|an)\s+(?:night|day|week|month|year|hour)\b|人均",
                         re.IGNORECASE)
_PERIODS = frozenset({"day", "week", "month", "year", "hour", "minute", "second"})


def other_rate(question: str, text: str, kind: str = "") -> bool:
    """True when ``question`` asks for a rate per a unit (``_PER_RE``: "per km", "per-km
    rate", 每公里, "a night", 人均) and ``text`` gives rates only per other units, never
    naming the asked one ("600 requests per minute" for a mileage rate per km), or, for a
    quantity asked per a unit other than a calendar period, numbers per nothing at all
    ("Claims above EUR 1,000 also need approval" for the most to claim per head; ``kind``:
    the ask's kind, ``focus.ask_kind``)."""
    asked = _rate_units(question)
    if not asked:
        return False
    stated = _rate_units(text)
    if not stated:  # an amount per nothing ("Claims above EUR 1,000…" for a meal per head)
        return (kind in ("quantity", "money") and bool(asked - _PERIODS)
                and bool(_AMOUNT_RE.search(text)) and not _ANY_PER_RE.search(text))
    return not stated & asked


def rate_first(question: str, scored: Sequence[tuple[float, T]], text_of: Callable[[T], str],
               kind: str = "") -> list[tuple[float, T]]:
    """``scored`` (best first) with the best item stating the rate per the unit the question
    asks (``other_rate`` false: "每晚不超过 700 元" for 酒店每晚最多能报多少) moved first when the
    best one gives rates per another unit only (the meal allowance "每天最多报销 150 元");
    unchanged otherwise."""
    if not scored or not _rate_units(question) or not other_rate(
            question, text_of(scored[0][1]), kind):
        return list(scored)
    for i, (score, item) in enumerate(scored):
        if score > 0 and _rate_units(text_of(item)) & _rate_units(question):
            return [scored[i], *scored[:i], *scored[i + 1:]]
    return list(scored)


_COUNTED_RE = re.compile(r"(?<![\w.])\d[\d,.]*\s+([A-Za-z]+)")


def asker_measures(question: str) -> frozenset[str]:
    """The folded units of the asker's own numbers: a noun after a number ("10 characters",
    "2,000 items"), not a verb ("Splatoon 2 released"), or a Chinese measure (``30 天``)."""
    cjk = {t.split(" ", 1)[1] for t in question_numbers(question).values()
           if not t.split(" ", 1)[1].isascii()}
    nouns = {fold(stem(w.lower())) for w in _COUNTED_RE.findall(question)
             if thesaurus.rather_noun(w.lower())}
    return frozenset(cjk | nouns)


# Chinese count words (Li & Thompson 1981, ch. 4: classifiers) that count a thing of their
# own: points, people, times, sheets, items; not the general 个 or 种, nor a time's or an
# amount of money's unit, which a source may state in another unit of its kind (几天: "2
# weeks"). English nouns are left out: "how many calls" is answered by "600 requests".
_COUNT_WORDS_ZH = frozenset("分 人 次 张 台 件 份 页 名 位 家 条 项 门 本 层 栋 座 间 辆 把 支 颗"
                            .split())
_ZH_UNIT_RE = re.compile(r"(?:多少|几)([\u3400-\u9fff])(?!钟|之|期|时)")


def own_measure(question: str) -> frozenset[str]:
    """The Chinese count word a quantity ask counts in when it is a measure of its own
    (``多少分`` points, ``几次`` times); empty for any other ask."""
    text = unicodedata.normalize("NFKC", question)
    return frozenset(u for u in _ZH_UNIT_RE.findall(text) if u in _COUNT_WORDS_ZH)


def states_measure(text: str, measures: frozenset[str]) -> bool:
    """Whether ``text`` states a number, in digits or Chinese numerals, counted in one of
    ``measures`` (``60 分``, ``两次``), or a count in tens of thousands or more, which
    often goes without its count word (网民规模为 10.51亿)."""
    folded = unicodedata.normalize("NFKC", text)
    return bool(_LARGE_COUNT_RE.search(folded)) or any(
        re.search(rf"(?:\d|[零一二两三四五六七八九十百千万])\s*{re.escape(m)}", folded)
        for m in measures)


_LARGE_COUNT_RE = re.compile(r"\d\s*(?:万|亿)")


def pool_units(question: str, kind: str, pool: Sequence[Candidate]) -> frozenset[str] | None:
    """The units ``Scorer.units`` ranks by: the asker's (``asked_units``) when a sentence of
    ``pool`` states a number in one of them, else none; None when the ask counts in a
    measure of its own (``own_measure``) that no sentence states, so no number answers it:
    "多少分算及格" (points) is not answered by "14 天内完成培训"."""
    if kind not in ("quantity", "number"):
        return frozenset()
    units = asked_units(question)
    if any(in_unit(c.terms, units, question, c.text) for c in pool):
        return units
    measure = own_measure(question)
    if measure and not any(states_measure(c.text, measure) for c in pool):
        return None
    return frozenset()


# A number written against letters with no space: a unit ("200MB", "30min", "11pm",
# "120km") or a name ("2FA", "4G", "3D", "1Password"), which is no amount of the asker's.
_FUSED_RE = re.compile(r"(?<![\w.-])\d+([A-Za-z]+)\b")
# Units people write against a number that ``extract_quantities`` does not read: clock
# times, lengths, weights, thousands, times over, ordinals. "d" and "g" are left out: "3D"
# and "4G" name things more often than days and grams.
_FUSED_UNITS = frozenset(
    "am pm km m cm mm kg k x st nd rd th min mins hr hrs h sec secs s yr yrs mo".split())


def without_fused_names(question: str) -> str:
    """``question`` with each number fused to letters that are no unit blanked (neither
    ``quantities.extract_quantities`` nor ``_FUSED_UNITS`` reads one: "2FA", "4G", "3D"), so
    "what 2fa methods can I use?" states no amount of its own; "200MB", "11pm" stay."""
    def kept(m: re.Match[str]) -> str:
        unit = m.group(1).lower() in _FUSED_UNITS or extract_quantities(m.group())
        return m.group() if unit else " "

    return _FUSED_RE.sub(kept, unicodedata.normalize("NFKC", question))


# "How often…?", "多久更换一次？" ask for a frequency ("every 4 years", "每 4 年", "twice a
# month"); a screen's "27 英寸" is a number but no frequency (the follow-up "那显示器呢？"
# after "笔记本电脑多久更换一次？" quoted the monitors' size).
# (第一次 is "the first time", an ordinal: 多久要第一次回复 asks how long until the first reply)
_FREQUENCY_ASK_RE = re.compile(r"\bhow (?:often|many times)\b|多久[^？?]{0,8}(?<!第)一次"
                               r"|多长时间[^？?]{0,8}(?<!第)一次|频率|几次|多少次")
# A count of times said in a word: "accepted at most twice per calendar year".
_TIMES_WORDS = "once|twice|thrice"
_TIMES_WORD_RE = re.compile(rf"\b(?:{_TIMES_WORDS})\b", re.IGNORECASE)
_PERIOD = r"(?:year|month|week|day|hour|quarter)s?\b"
_FREQUENCY_RE = re.compile(
    rf"\b(?:every|each|per|a|an)\s+(?:\w+\s+)?{_PERIOD}"
    rf"|\b(?:{_TIMES_WORDS}|times|daily|weekly|monthly|yearly|annually|hourly)\b"
    # ...of use too: 每运行 250 小时 (every 250 running hours), 每使用 50 次
    r"|每\s*(?:运行|使用|工作|行驶|累计)?\s*[\d一二两三四五六]*\s*个?(?:年|月|周|星期|天|日|小时|季度)"
    r"|[\d一二两三]+\s*次",
    re.IGNORECASE)


def frequency_phrases(text: str) -> list[str]:
    """The spans of ``text`` that say how often ("every few months", "each year", "per day",
    "weekly", 每个月): ``_FREQUENCY_RE``'s matches."""
    return [m.group() for m in _FREQUENCY_RE.finditer(text)]


def asks_frequency(question: str) -> bool:
    """Whether ``question`` asks how often ("how often", "how many times", 多久…一次, 几次)."""
    return bool(_FREQUENCY_ASK_RE.search(question.lower()))


# A frequency holds its own count ("every 3 years", 每 4 年, 3 次) or is an adverb ("weekly");
# "per day" or 每天 beside an amount is a rate ("每天的餐补为 120 元"), not how often
_COUNT_RE = re.compile(r"[\d一二两三四五六七八九十]")
_ADVERB_RE = re.compile(r"daily|weekly|monthly|yearly|annually|hourly|times", re.IGNORECASE)
# The act a Chinese "how often" asks about: 多久换一次 -> 换, 多长时间更新一次 -> 更新
_ASKED_ACT_ZH_RE = re.compile(r"(?:多久|多长时间)\s*([\u3400-\u9fff]{1,3}?)\s*一次")
# Once per period, no number: 每周一更换 (every Monday), 每月 (monthly)
_EACH_PERIOD_ZH_RE = re.compile(r"每\s*个?(?:年|月|周|星期|天|日|季度)")
_DOING_ZH = ("做", "搞", "弄", "进行", "开展", "执行", "实施")


def states_frequency(text: str, counted: bool, question: str = "") -> bool:
    """Whether ``text`` states a frequency: a number it states (``counted``) in a period
    ("every 4 years", 每 4 年), a count of times in a word ("twice a month"), or once per
    period (每周, 每月) in a sentence that does the act a Chinese ``question`` asks how often
    of ("多久换一次？": 每周一更换); a period alone is otherwise a rate's ("每天 35 欧元")."""
    if _TIMES_WORD_RE.search(text) or (counted and any(
            _COUNT_RE.search(m.group()) or _ADVERB_RE.fullmatch(m.group())
            for m in _FREQUENCY_RE.finditer(text))):
        return True
    act = _ASKED_ACT_ZH_RE.search(question)
    if not act or not _EACH_PERIOD_ZH_RE.search(text):
        return False
    # 做 (多久做一次) is any act: 每天第一次运行前必须进行 B-D 测试
    acts = _DOING_ZH if act.group(1)[-1] in _DOING_ZH else (act.group(1)[-1],)
    return any(any(a in clause for a in acts) and _EACH_PERIOD_ZH_RE.search(clause)
               for clause in re.split(r"[，,；;。]", text))


_AGE_RE = re.compile(r"\b\d+(?:\.\d+)?[ -](?:year|month|week|day)s?[ -]old\b", re.IGNORECASE)
_AGE_ASK_RE = re.compile(r"\bhow old\b|\bage\b|多大|几岁|年龄|年限|多少年", re.IGNORECASE)


def without_ages(question: str, text: str) -> str:
    """``text`` with its ages ("more than 2 years old") blanked, unless ``question`` asks
    an age or states one: an age says how old a thing is, not how long one has to act."""
    if _AGE_ASK_RE.search(question) or _AGE_RE.search(question):
        return text
    return _AGE_RE.sub("…", text)


# Units of time by name, English and Chinese, as one canonical name each.
_TIME_UNIT = {
    **{w: w.rstrip("s") for w in ("seconds", "minutes", "hours", "days", "weeks", "months",
                                  "years")},
    **{w: w for w in ("second", "minute", "hour", "day", "week", "month", "year")},
    "secs": "second", "sec": "second", "mins": "minute", "min": "minute", "hrs": "hour",
    "hr": "hour", "秒": "second", "分钟": "minute", "小时": "hour", "天": "day", "日": "day",
    "周": "week", "星期": "week", "礼拜": "week", "月": "month", "个月": "month", "年": "year",
}
# The units a source may state an asked one in: the next smaller and larger ones ("how many
# days" is answered by "2 weeks"; "how many hours" by "within one working day"), not one far
# off ("16 weeks" of maternity leave for the hours of overtime a month).
_NEAR_UNITS = {
    "second": {"second", "minute"}, "minute": {"second", "minute", "hour"},
    "hour": {"minute", "hour"}, "day": {"hour", "day", "week", "month"},
    "week": {"day", "week", "month"}, "month": {"day", "week", "month", "year"},
    "year": {"month", "year"},
}
_ASKED_TIME_RE = re.compile(
    r"\bhow many\s+(?:[a-z]+\s+)?(seconds|minutes|hours|days|weeks|months|years)\b"
    r"|(?:多少|几)\s*(?:个)?\s*(秒|分钟|小时|天|周|星期|礼拜|个月|年)"
    r"|多少\s*(日|月)", re.IGNORECASE)
_STATED_UNIT_RE = re.compile(
    rf"{_EN_TIME_UNITS}\b|分钟|小时|个月|星期|礼拜|[秒天日周月年]", re.IGNORECASE)


@lru_cache(maxsize=1024)  # asked per candidate sentence (``focus.new_answer``)
def asked_time_units(question: str) -> frozenset[str]:
    """The units of time a source may answer a "how many <unit of time>" ask in ("how many
    hours", 多少天, 几个小时: the unit and the next smaller and larger, ``_NEAR_UNITS``);
    empty for any other ask (几月 and 几日 ask a date, "how long" any duration)."""
    text = unicodedata.normalize("NFKC", question)
    found = {_TIME_UNIT[u.lower()] for m in _ASKED_TIME_RE.finditer(text) for u in m.groups()
             if u}
    return frozenset().union(*(_NEAR_UNITS[u] for u in found)) if found else frozenset()


def stated_time_units(text: str) -> frozenset[str]:
    """The units of time of the durations ``text`` states (``_DURATION_SPAN_RE``: "16
    weeks", ``30 天内``; no rate's "per month", no year)."""
    norm = unicodedata.normalize("NFKC", text)
    return frozenset(_TIME_UNIT[u.lower()] for m in _DURATION_SPAN_RE.finditer(norm)
                     for u in _STATED_UNIT_RE.findall(m.group())[-1:])


def states_time_asked(ask: str, text: str) -> bool | None:
    """For ask clause ``ask``, whether ``text`` states the time it asks: for "how many
    <unit of time>" a duration in a near unit (``asked_time_units``: "how many hours of
    overtime" is not answered by "16 weeks" of leave), for "how long" any duration
    (``asks_duration``); None for any other ask."""
    if near := asked_time_units(ask):
        return bool(stated_time_units(text) & near)
    return states_duration(text) if asks_duration(ask) else None
