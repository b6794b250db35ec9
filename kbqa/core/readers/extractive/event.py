"""Whether a clause speaks of the asked event, or of another one of its kind.

RGB's negative passages (Chen et al. 2023) are on the question's topic and state a span of
the asked type bound to the question's words, about another edition, season or instalment
("《速度与激情9》于2021年5月21日在中国内地上映" for 速度与激情10, "Season 10 premiere" for the first
season, 十三届一次会议 for 十三届五次), or as a forecast ("预计2019年增长6.2%"), or give a
year where a date is asked ("released by OpenAI in 2020" for "When was GPT-3 released?").
``binding.bound_answer`` applies these checks clause by clause.

Measured 2026-12-01 on RGB whole files (harness re-running the reader on each case's
blocks, answer cases 300/100/100; figures are the change when the check is left out of
the full set, right answers / unsupported answers): ``other_edition`` zh_refine 0 / −3,
and on an untyped ask's lead sentence −1 more; ``year_only`` zh_refine 0 / −5, en_fact
0 / −4, zh_fact 0 / −2; ``forecast`` zh_refine 0 / −3, zh_fact 0 / −1. Demo and natural
sets unchanged. Figures in README "Evaluation".
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from kbqa.core.readers.extractive.focus import names
from kbqa.core.text.bounds import bound_of
from kbqa.core.text.terms import fold, stem

# An entity with its number: "season 3", "Splatoon 2", "速度与激情10", "MIX2", "神舟十六号",
# "第六任", "十三届五次". The number tells the edition apart.
_CN_DIGITS = "零一二三四五六七八九十百两"
# English: a capitalised name ("Splatoon 2", "Diablo 3") or an instalment noun ("season 3");
# not "every 3 years", whose number is an amount.
_EN_NUMBERED_RE = re.compile(
    r"(?<![A-Za-z])([A-Z][A-Za-z'’]+|(?:[Ss]eason|[Ss]eries|[Ee]pisode|[Pp]art|[Cc]hapter|[Vv]olume"
    r"|[Ee]dition|[Rr]ound|[Pp]hase|[Gg]eneration))[\s-]?(\d{1,3})(?![\d.,:A-Za-z])")
_ZH_NUMBERED_RE = re.compile(
    rf"(第|[\u3400-\u9fff]{{2}})([\d{_CN_DIGITS}]{{1,4}})(届|任|季|号|期|次|代|部|集|轮)?")
_ZH_COUNTED_RE = re.compile(rf"(?<![\d{_CN_DIGITS}])([\d{_CN_DIGITS}]{{1,4}})(届|任|季|期|次)")
_CJK_CHAR_RE = re.compile(r"[\u3400-\u9fff]")
_ORDINAL_RE = re.compile(
    r"\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)\s+(season|edition)\b",
    re.IGNORECASE)
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
             "ninth", "tenth")


def _zh_number(value: str) -> int:
    """A number written in digits or Chinese numerals ("16", "十六", "两") as an int."""
    if value.isdigit():
        return int(value)
    digits = {c: i for i, c in enumerate("零一二三四五六七八九")}
    digits["两"] = 2
    total, current = 0, 0
    for ch in value:
        if ch in digits:
            current = digits[ch]
        elif ch == "十":
            total += (current or 1) * 10
            current = 0
        elif ch == "百":
            total += (current or 1) * 100
            current = 0
    return total + current


@lru_cache(maxsize=512)
def numbered(text: str) -> frozenset[tuple[str, int]]:
    """The ``(entity word, number)`` pairs of ``text`` (NFKC, lower-cased): "season 3" ->
    ("season", 3), "速度与激情10" -> ("激情", 10), "第六任" -> ("第任", 6), "first season" ->
    ("season", 1). Years are not editions (a year has its own check)."""
    norm = unicodedata.normalize("NFKC", text)
    low = norm.lower()
    pairs = {(w.lower(), int(n)) for w, n in _EN_NUMBERED_RE.findall(norm)}
    pairs |= {(noun.lower(), _ORDINALS.index(o.lower()) + 1)
              for o, noun in _ORDINAL_RE.findall(low)}
    for m in _ZH_COUNTED_RE.finditer(low):  # "十三届五次会议": each with its measure
        num, suffix = m.groups()
        value = _zh_number(num)
        if value < 1000 and not _times(suffix, low, m.end()):
            pairs.add((suffix, value))
    for m in _ZH_NUMBERED_RE.finditer(low):
        head, num, suffix = m.group(1), m.group(2), m.group(3) or ""
        value = _zh_number(num)
        if value < 1000 and not _times(suffix, low, m.end()):
            pairs.add((head + suffix if head == "第" else head, value))
    return frozenset(pairs)


# After 次, what ends a count of times: the clause's end or a sentence particle.
_TIMES_END = frozenset("了吗呢吧啊呀嘛哦")


def _times(suffix: str, text: str, end: int) -> bool:
    """Whether a number with 次 ending at ``end`` of ``text`` counts times ("最多使用两次。",
    "已经是第三次了") rather than naming an occurrence of something (五次会议, 第二次全会): no
    noun follows it."""
    if suffix != "次":
        return False
    after = text[end:end + 1]
    return not after or after in _TIMES_END or not _CJK_CHAR_RE.match(after)


def other_edition(question: str, clause: str) -> bool:
    """Whether ``clause`` names an entity of the question with another number than the
    question gives it ("Season 10" for "season 3", "速度与激情9" for 速度与激情10, "第一次会议"
    for 第五次) and not the question's own, or names a work or name of the question with a
    number the question does not give it (《毒液2》 for 《毒液》, "Diablo 3" for "Diablo"):
    it is about another edition."""
    asked = numbered(question)
    stated = numbered(clause) - _bounded(clause)
    if _sequel(question, asked, stated):
        return True
    if not asked:
        return False
    for head in {w for w, _ in asked}:
        said = {n for w, n in stated if w == head}
        if said and not said & {n for w, n in asked if w == head}:
            return True
    return False


# After a version, words that make it a range: "macOS 13 or later", "Android 11 及以上".
_RANGE_AFTER_RE = re.compile(
    r"^\s*(?:or|and)\s+(?:later|newer|higher|above|up|earlier|older|lower|below)\b"
    r"|^\s*\+|^\s*(?:及|或)?(?:以上|以下|以后|更高|更新)", re.IGNORECASE)


def _bounded(clause: str) -> frozenset[tuple[str, int]]:
    """The numbered names of ``clause`` stated as a bound ("最低支持 Android 11", "macOS 13 or
    later", "at least version 3"; ``bounds.bound_of``): a range that answers about any
    number in it, not another edition ("Android 10" asked: 11 is the minimum)."""
    norm = unicodedata.normalize("NFKC", clause)
    found = set()
    for m in _EN_NUMBERED_RE.finditer(norm):
        after = norm[m.end():]
        if bound_of(norm[:m.start()], after) or _RANGE_AFTER_RE.search(after):
            found.add((m.group(1).lower(), int(m.group(2))))
    return frozenset(found)


def _sequel(question: str, asked: frozenset[tuple[str, int]],
            stated: frozenset[tuple[str, int]]) -> bool:
    """Whether ``stated`` numbers a name or title of ``question`` that ``asked`` does not."""
    heads = {w for w, _ in asked}
    named = names(question)
    return any(head not in heads and fold(stem(head)) in named for head, _ in stated)


_TITLE_RE = re.compile(r"《([^》]{1,40})》")


def other_work(question: str, clause: str) -> bool:
    """Whether ``clause`` names a work in 《》 and not the one ``question`` names: "《冰与火之歌》
    作者乔治·马丁" does not answer who wrote 《三体》."""
    asked = _TITLE_RE.findall(unicodedata.normalize("NFKC", question))
    stated = _TITLE_RE.findall(unicodedata.normalize("NFKC", clause))
    if not asked or not stated:
        return False
    return not any(_same_work(a, s) for a in asked for s in stated)


def _same_work(a: str, b: str) -> bool:
    """Whether titles ``a`` and ``b`` name one work: equal, or one is the other with a
    subtitle ("复仇者联盟4：终局之战"); 《三体秘密》 is another book than 《三体》."""
    short, long = sorted((a.strip(), b.strip()), key=len)
    return long == short or (long.startswith(short) and long[len(short)] in ":：-—·（(")


_YEAR_ONLY_RE = re.compile(r"(?<![0-9.])(?:19|20)\d\d(?![0-9]|\.\d)\s?年?")
_YEAR_ASK_RE = re.compile(r"\b(?:which|what) year\b|哪年|哪一年|几几年|年份")
# When something began to exist ("When was the company founded?", 公司什么时候成立的？), its
# year is the conventional answer, as it is for "which year": a founding, a birth, a
# building. An event that recurs or is scheduled (a premiere, a final, a launch date)
# still needs its date.
_ORIGIN_ASK_RE = re.compile(
    r"\b(?:founded|established|incorporated|formed|born|built|set up|started)\b"
    r"|成立|创立|创办|创建|建立|出生|诞生|建成")


def year_only(question: str) -> bool:
    """Whether a bare year is no answer: the question asks for a date or time ("when", 时间,
    日期), not for a year ("which year", 哪一年) nor when something came to exist
    ("founded", 成立: ``_ORIGIN_ASK_RE``) in a question that names no year itself."""
    low = unicodedata.normalize("NFKC", question).lower()
    if _ORIGIN_ASK_RE.search(low) and not _YEAR_ONLY_RE.search(low):
        return False
    return not _YEAR_ASK_RE.search(low)


_MONTH_BEFORE_RE = re.compile(
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s*$", re.IGNORECASE)


def strip_years(text: str) -> str:
    """``text`` with its bare years blanked, for ``year_only`` asks: a year after a month
    ("June 2020") is part of a date and stays."""

    def blank(match: re.Match[str]) -> str:
        before = text[max(0, match.start() - 12):match.start()]
        return match.group() if _MONTH_BEFORE_RE.search(before) else "…"

    return _YEAR_ONLY_RE.sub(blank, text)


# A forecast ("预计2019年增长6.2%", "is expected to") states no fact, unless the question asks
# for one ("高盛预计有多少个岗位将被AI取代").
_FORECAST_RE = re.compile(
    r"预计|预测|预期|有望|估计|\b(?:expected|forecast|forecasts|projected|estimated|predicted)\b",
    re.IGNORECASE)


def forecast(question: str, clause: str) -> bool:
    """Whether ``clause`` states a forecast the question does not ask for."""
    return bool(_FORECAST_RE.search(clause)) and not _FORECAST_RE.search(question)
