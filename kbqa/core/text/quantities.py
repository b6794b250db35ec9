"""Quantities with units in English and Chinese text, normalised so they can be compared.

Units and their normalised form (``Quantity.unit``):

- sizes -> ``MB``, decimal: 1 KB = 0.001 MB, 1 GB = 1000 MB, 1 TB = 1,000,000 MB, as SI
  and IEC 80000-13 define the prefixes and as storage vendors and upload forms write them;
  so "0.2 GB" equals "200 MB". Binary KiB/MiB/GiB/TiB are converted exactly (1 MiB =
  1.048576 MB). Chinese writes megabytes ``兆`` or a bare capital ``M`` ("150M 的视频"); the M
  counts only beside Chinese text, since English "150M users" is a scale.
- durations -> ``day``: week = 7, hour = 1/24, minute = 1/1440, second = 1/86400; so
  "24 hours" equals "1 day" (a policy and an FAQ that say it differently agree).
  Business/working days (``工作日``) are ``business day``: they do not convert to days.
- months and years -> ``month`` (year = 12); calendar months have no fixed length in days,
  so they are not converted to ``day``. ``2025年`` (a date) and ``3月`` (March) are not
  quantities; ``3个月`` and ``每 3 年`` are.
- rates -> ``req/min``: "100 requests per minute", "100 req/min", "100 rpm", "100 次/分钟",
  "每分钟 100 次"; per second x 60, per hour / 60.
- ``%`` (``%``, ``％``, percent); currencies ``USD`` ($, US$, USD, dollars, 美元), ``EUR``
  (€, EUR, euros, 欧元), ``GBP`` (£, GBP, 英镑), ``JPY`` (JPY, 日元, 円) and ``CNY`` (¥, RMB,
  CNY, 元, 人民币); every other ISO 4217 code written in capitals before or after the number
  ("SGD 60", "1,200 CHF"; the code list from ``pycountry``, less the codes that are also
  English words, "TOP 10", "ALL 3", except ``KEPT_WORD_CODES``) and the dollar signs of
  other countries (S$, HK$, A$, C$, NZ$: CLDR's symbols); never converted into each other
  (exchange rates change; documents do not).
- a price "per" something keeps it in its unit, so a monthly fee is never compared with a
  one-off price: "EUR 40 per month", "€40/month", "40 元/月", "每月 40 元" are
  ``EUR/month`` or ``CNY/month``; "EUR 6 per user per month" and "每位用户每月 6 欧元" are
  ``EUR/person/month`` (user, seat, person, employee, 人, 位用户 are all ``person``). A yearly
  price is converted to months (year = 12, as above): "EUR 480 per year" equals "EUR 40 per
  month". Days, nights, weeks and hours stay as they are ("EUR 55 per day" is a daily
  allowance; seven of them are no weekly one).

Numbers: ``1,000`` thousands separators, decimals, full-width digits (NFKC) and simple
Chinese numerals up to 9999 (``三十天``, ``两百 MB``), times a scale word after them
("$10.4 billion" = "$10,400 million", "3万元" = 30,000 元, "1.2亿美元"). A number without a
unit is not a quantity.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache

import pycountry

from kbqa.core.text.thesaurus import database

_NUM = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|[零一二两三四五六七八九十百千]+"
# Chinese numeral characters, and the count words that follow a number and end its phrase
# ("多少天年假": the 天 of 多少天, then 年假), for readers of Chinese amounts.
CN_NUMERALS = "零一二两三四五六七八九十百千万"
COUNT_WORDS_ZH = "天年月周次个元块人台张份岁倍日"
_GAP = r"\s*(?:个)?\s*"
_END = r"(?![a-z])"

_MIN = r"(?:minutes?|mins?|分钟)"
_SEC = r"(?:seconds?|secs?|秒钟?)"
_HOUR = r"(?:hours?|hrs?|h|小时|钟头)"  # "a 13h flight"
_PER = r"\s*(?:/|per|every|each|a|an)\s*"
_REQ = r"(?:requests?|reqs?|calls?|次)"
# 年 as a duration ("每 3 年"), not a date ("2025年", "2025年3月")
_YEAR_ZH = r"(?<!\d{4})年(?![\d一二三四五六七八九十]{1,2}月)"

# (pattern right after the number, normalised unit, factor to the normalised unit)
_AFTER: tuple[tuple[re.Pattern[str], str, float], ...] = tuple(
    (re.compile(f"{_GAP}(?:{pattern})", re.IGNORECASE), unit, factor)
    for pattern, unit, factor in (
        (rf"{_REQ}?{_PER}{_MIN}{_END}", "req/min", 1.0),
        (rf"{_REQ}?{_PER}{_SEC}{_END}", "req/min", 60.0),
        (rf"{_REQ}?{_PER}{_HOUR}{_END}", "req/min", 1 / 60),
        (rf"rpm{_END}", "req/min", 1.0),
        (rf"(?:kib|kibibytes?){_END}", "MB", 1024 / 1e6),
        (rf"(?:mib|mebibytes?){_END}", "MB", 1024**2 / 1e6),
        (rf"(?:gib|gibibytes?){_END}", "MB", 1024**3 / 1e6),
        (rf"(?:tib|tebibytes?){_END}", "MB", 1024**4 / 1e6),
        (rf"(?:kb|kilobytes?){_END}", "MB", 1e-3),
        (rf"(?:mb|megabytes?|兆){_END}", "MB", 1.0),
        (rf"(?:gb|gigabytes?){_END}", "MB", 1e3),
        (rf"(?:tb|terabytes?){_END}", "MB", 1e6),
        (rf"(?:business|working)[ -]days?{_END}|工作日", "business day", 1.0),
        (rf"(?:years?|yrs?){_END}|{_YEAR_ZH}", "month", 12.0),
        (rf"months?{_END}|个多?月", "month", 1.0),  # 三个多月: more than three
        (rf"(?:weeks?|wks?){_END}|周(?!年(?!假))|星期", "day", 7.0),  # not 周年 (anniversary)
        (rf"days?{_END}|天", "day", 1.0),
        (rf"{_HOUR}{_END}", "day", 1 / 24),
        (rf"{_MIN}{_END}", "day", 1 / 1440),
        (rf"{_SEC}{_END}", "day", 1 / 86400),
        (rf"(?:%|percent{_END}|per cent{_END})", "%", 1.0),
    )
)
# The spoken 块 for 元 ("6000 块的报销单", "超过五千块要谁批"), not the measure word of a
# thing after it (两块显示器): money when nothing, 钱, 的, 多, a bound or a verb follows.
_KUAI = r"块(?=钱|的|多|左右|以[上下内]|[要能会可还就都了吗呢]|[^\u4e00-\u9fff]|$)"
# (pattern right after the number, currency); 美元, 欧元 and 日元 before 元
_CURRENCY_AFTER: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(f"{_GAP}(?:{pattern})", re.IGNORECASE), unit)
    for pattern, unit in (
        (rf"(?:usd|(?:us\s+)?dollars?){_END}|美元", "USD"),
        (rf"(?:eur|euros?){_END}|欧元", "EUR"),
        (rf"(?:gbp|pounds?\s+sterling){_END}|英镑", "GBP"),
        (rf"(?:jpy|yen){_END}|日元|円", "JPY"),
        (rf"(?:cny|rmb|yuan){_END}|元|块钱|人民币|{_KUAI}", "CNY"),
    )
)
# Codes that are English words too, kept: in a document they stand for the money
KEPT_WORD_CODES = frozenset({"CAD", "INR", "THB"})
# Other dollars by their CLDR symbol ("S$ 60"): before the US dollar's bare "$"
_DOLLAR_PREFIXES = {"HK": "HKD", "NZ": "NZD", "AU": "AUD", "CA": "CAD", "S": "SGD", "A": "AUD",
                    "C": "CAD"}


@cache
def currency_codes() -> frozenset[str]:
    """ISO 4217 codes (``pycountry``) that read as money when written in capitals beside a
    number: not the fund, metal and test codes (X.., but XAF, XOF, XPF and XCD, which are
    currencies), and not a code that is an English word WordNet lists ("ALL", "TOP", "CUP")
    unless ``KEPT_WORD_CODES`` holds it."""
    wn = database()

    def word(code: str) -> bool:
        return wn is not None and any(code.lower() in wn.index[pos] for pos in wn.index)

    return frozenset(
        c for c in (x.alpha_3 for x in pycountry.currencies)
        if (not c.startswith("X") or c in {"XAF", "XOF", "XPF", "XCD"})
        and (c in KEPT_WORD_CODES or not word(c)))


@cache
def _code_patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """(code right before a number, code right after it, either or a dollar sign beside a
    number anywhere), codes in capitals only."""
    codes = "|".join(sorted(currency_codes()))
    dollars = "|".join(_DOLLAR_PREFIXES)
    return (re.compile(rf"\b({codes})\s*$"), re.compile(rf"\s*({codes})\b"), re.compile(
        rf"\b(?:{codes})\s?\d|\d\s?(?:{codes})\b|\b(?:{dollars})\$\s?\d"))


def names_money(text: str) -> bool:
    """Whether ``text`` writes an amount with a currency code of ``currency_codes`` in
    capitals or another country's dollar sign ("SGD 60", "60 SGD", "S$60"); the readers'
    own patterns cover $, €, 元 and the like."""
    return bool(_code_patterns()[2].search(unicodedata.normalize("NFKC", text)))


# The currencies the extractor names by their words and signs (ISO 4217 codes)
_NAMED_CURRENCIES = frozenset(unit for _, unit in _CURRENCY_AFTER)


def is_currency(unit: str) -> bool:
    """Whether ``unit`` (a quantity's unit before any "/per") is money: one of the named
    currencies or ``currency_codes`` (read on first use, not at import: WordNet's index)."""
    return unit in _NAMED_CURRENCIES or unit in currency_codes()


def money_at(text: str, start: int) -> bool:
    """Whether the number at ``start`` of ``text`` is an amount of money with its currency
    after it ("2000 euros", "2000 元"): a year-like number that is no year."""
    return any(is_currency(q.unit) for q in extract_quantities(text[start:start + 16]))


# (pattern right before the number, unit): "$30", "USD 30", "€30", "EUR 30", "¥30", "RMB 30"
_BEFORE = (
    *((re.compile(rf"\b{prefix}\$\s*$"), code) for prefix, code in _DOLLAR_PREFIXES.items()),
    (re.compile(r"(?:\bus\s?\$|(?<![a-z])\$|\busd)\s*$", re.IGNORECASE), "USD"),
    (re.compile(r"(?:€|\beur)\s*$", re.IGNORECASE), "EUR"),
    (re.compile(r"(?:£|\bgbp)\s*$", re.IGNORECASE), "GBP"),
    (re.compile(r"\bjpy\s*$", re.IGNORECASE), "JPY"),
    (re.compile(r"(?:¥|\brmb|\bcny|人民币)\s*$", re.IGNORECASE), "CNY"),
)
# What a price is "per": (words, normalised name, factor to the normalised name's unit)
_PER_WHAT = (
    (r"(?:users?|seats?|persons?|people|heads?|employees?|members?|位用户|名用户|用户|人|位|名员工|员工)",
     "person", 1.0),
    (r"(?:months?|mo|月)", "month", 1.0),
    (r"(?:years?|yr|annum|年)", "month", 1 / 12),
    (r"(?:weeks?|wk|周|星期)", "week", 1.0),
    (r"(?:(?:working |business )?days?|工作日|日|天)", "day", 1.0),  # a working day's rate
    (r"(?:nights?|晚|夜)", "night", 1.0),
    (r"(?:hours?|hr|小时)", "hour", 1.0),
)
_PER_AFTER = [(re.compile(rf"\s*(?:/|\bper\b|\ba\b|\ban\b|\beach\b|\bevery\b|每)\s*{words}"
                          rf"(?![a-z])", re.IGNORECASE), name, factor)
              for words, name, factor in _PER_WHAT]
# What a question asks a rate per ("the hotel limit per night", 每晚, 人均), in the same names
_PER_ASKED = [(re.compile(rf"(?:\bper\b|\ba\b|\ban\b|\beach\b|\bevery\b|每)\s*(?:个|一)?\s*"
                          rf"{words}(?![a-z])", re.IGNORECASE), name)
              for words, name, _factor in _PER_WHAT] + [
    # "一天多少", "一晚能报多少": 一 and a period before the amount asked is a rate too
    (re.compile(rf"一\s*(?:个)?\s*{words}\s*(?:能|可以|最多|最高)?\s*(?:报销?|补|给|发)?\s*(?:多少|几)"),
     name) for words, name, _factor in _PER_WHAT]
# "每晚不超过 700 元", "每天最多报销 150 元": a bound's words may stand between (``gap``)
_PER_BEFORE = [(re.compile(rf"每\s*(?:个|一)?\s*{words}(?P<gap>[^\d\s。；;，,：:、每]{{0,6}})\s*$"),
                name, factor)
               for words, name, factor in _PER_WHAT]
# "每分钟 100 次", "每秒最多 10 次": the rate word comes before the number
_CJK_RATE_BEFORE = re.compile(r"每\s*(分钟|秒钟?|小时)[^\d。；;，,]{0,6}$")
_CJK_RATE_FACTOR = {"分钟": 1.0, "秒": 60.0, "秒钟": 60.0, "小时": 1 / 60}
# "$10.4 billion", "EUR 1.2 million", "3万元", "1.2亿美元": the scale multiplies the number
_SCALES = {"thousand": 1e3, "million": 1e6, "mn": 1e6, "mln": 1e6, "billion": 1e9, "bn": 1e9,
           "trillion": 1e12, "千万": 1e7, "百万": 1e6, "万": 1e4, "亿": 1e8}
_SCALE = re.compile(r"\s*(thousand|million|mln|mn|billion|bn|trillion|千万|百万|万|亿)(?![a-z])",
                    re.IGNORECASE)
_CJK_TIMES_AFTER = re.compile(r"\s*次")
# "150M 的视频", "传个 200M 的文件": in Chinese a bare capital M after a number is megabytes
# (the size written short, as 兆 is); in English "150M users" is a scale, so the M counts
# only beside Chinese text, and only in capitals ("100m" is metres).
_CJK_MB_AFTER = re.compile(r"\s*M(?![A-Za-z])")
_CJK_CHAR = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
_NUMBER_RE = re.compile(_NUM)

_CN_DIGITS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
              "七": 7, "八": 8, "九": 9}
_CN_UNITS = {"十": 10, "百": 100, "千": 1000}


@dataclass(frozen=True)
class Quantity:
    """A number with a unit: ``value`` in ``unit`` (normalised), ``text`` as written, and
    its character offsets in the NFKC-folded text (``start`` is where the quantity begins)."""

    value: float
    unit: str
    text: str
    start: int
    end: int

    def same_value(self, other: Quantity) -> bool:
        """Equal within a relative 1e-6 (so 0.2 GB == 200 MB despite float rounding)."""
        return abs(self.value - other.value) <= 1e-6 * max(abs(self.value), abs(other.value))


def fold(text: str) -> str:
    """The NFKC form of ``text`` that quantity offsets refer to (``２００ＭＢ`` -> ``200MB``)."""
    return unicodedata.normalize("NFKC", text)


def extract_quantities(text: str) -> list[Quantity]:
    """Quantities in ``fold(text)``, in reading order. Never raises."""
    folded = fold(text)
    found: list[Quantity] = []
    for match in _NUMBER_RE.finditer(folded):
        number = _number_value(match.group())
        if number is None:
            continue
        quantity = _with_unit(folded, match.start(), match.end(), number)
        if quantity is not None:
            found.append(quantity)
    return found


def _with_unit(text: str, start: int, end: int, number: float) -> Quantity | None:
    before = text[max(0, start - 12) : start]
    scale = _SCALE.match(text, end)
    if scale:
        number *= _SCALES[scale.group(1).lower()]
        end = scale.end()
    rate = _CJK_RATE_BEFORE.search(before)
    times = _CJK_TIMES_AFTER.match(text, end)
    if rate and times:
        factor = _CJK_RATE_FACTOR[rate.group(1)]
        return Quantity(number * factor, "req/min", text[start : times.end()], start, times.end())
    price = _currency(text, before, start, end)
    if price is not None:
        return _priced(text, number, *price)
    for pattern, unit, factor in _AFTER:
        after = pattern.match(text, end)
        if after:
            return Quantity(number * factor, unit, text[start : after.end()], start, after.end())
    short = _CJK_MB_AFTER.match(text, end)
    if short and _beside_chinese(text, start, short.end()):
        return Quantity(number, "MB", text[start : short.end()], start, short.end())
    return None


def _beside_chinese(text: str, start: int, end: int) -> bool:
    """Whether the nearest non-space character before ``start`` or after ``end`` is Chinese
    (or CJK punctuation)."""
    before, after = text[:start].rstrip()[-1:], text[end:].lstrip()[:1]
    return bool(_CJK_CHAR.match(before) or _CJK_CHAR.match(after))


def _currency(text: str, before: str, start: int, end: int) -> tuple[str, int, int] | None:
    """(currency, begin, end) of the price whose number spans ``start:end``; None if none.
    A currency sign before the number wins over a unit after it ("$10 per minute")."""
    for before_pattern, currency in _BEFORE:
        prefix = before_pattern.search(before)
        if prefix:
            return currency, start - (len(before) - prefix.start()), end
    for pattern, currency in _CURRENCY_AFTER:
        after = pattern.match(text, end)
        if after:
            return currency, start, after.end()
    code_before, code_after, _ = _code_patterns()
    if prefix := code_before.search(before):
        return prefix.group(1), start - (len(before) - prefix.start()), end
    if after := code_after.match(text, end):
        return after.group(1), start, after.end()
    return None


_PER_ORDER = ("person", "night", "hour", "day", "week", "month")


def _priced(text: str, number: float, currency: str, begin: int, end: int) -> Quantity:
    """The price ``text[begin:end]`` with what it is per (module doc): at most two "per"
    words after it ("per user per month", "/月") and two "每…" before it ("每位用户每月")."""
    per: dict[str, float] = {}
    for _ in range(2):
        found = next(((m, name, f) for rx, name, f in _PER_AFTER
                      if name not in per and (m := rx.match(text, end))), None)
        if found is None:
            break
        per[found[1]], end = found[2], found[0].end()
    for _ in range(2):
        head = text[max(0, begin - 8) : begin]
        found = next(((m, name, f) for rx, name, f in _PER_BEFORE
                      if name not in per and (m := rx.search(head))), None)
        if found is None:
            break
        if found[0].group("gap"):  # the bound's words stay outside the value's text
            per[found[1]] = found[2]
            break
        per[found[1]], begin = found[2], begin - (len(head) - found[0].start())
    value = number
    for factor in per.values():
        value *= factor
    unit = "/".join([currency, *(name for name in _PER_ORDER if name in per)])
    return Quantity(value, unit, text[begin:end], begin, end)


def _number_value(token: str) -> float | None:
    if token[0].isdigit():
        return float(token.replace(",", ""))
    return chinese_number(token)


def chinese_number(token: str) -> float | None:
    """``三十`` -> 30, ``两百五十`` -> 250, ``十五`` -> 15; None for ``百`` alone or nonsense."""
    total = 0
    digit: int | None = None
    for ch in token:
        if ch in _CN_DIGITS:
            if digit is not None:
                return None  # "三三": not a number we read
            digit = _CN_DIGITS[ch]
        else:
            if digit is None and not (ch == "十" and total == 0):
                return None
            total += (1 if digit is None else digit) * _CN_UNITS[ch]
            digit = None
    total += digit or 0
    return float(total) if total or token == "零" else None


def per_names(text: str) -> frozenset[str]:
    """What ``text`` asks a rate per, named as a rate quantity's unit names it after "/"
    (``_PER_WHAT``: "per night" and 每晚 are ``night``, 每年 ``month`` as yearly prices
    are, 人均 ``person``); empty for none."""
    folded = fold(text)
    found = {name for pattern, name in _PER_ASKED if pattern.search(folded)}
    return frozenset(found | ({"person"} if "人均" in folded else set()))
