"""Whether a clause states the asked fact in the question's frame (its year, quarter,
version, a settled outcome, a result rather than a plan) and whether the quoted sentences
say what a typed ask needs (a month for a day, a class for "what type", the attribute for
"X的Y是什么", a count of the asked thing). ``binding`` calls these on the clause holding the
span (``bound_answer``) or on the quoted sentences (``answers``).

RGB's negative passages (Chen et al. 2023) state a value of the asked type about the
question's entity but in another frame:

- the year in force is another one: the asked year only as a comparison's baseline ("与2021年
  相比，2022年各省份粮食总产量…") or only in the page's dateline ("Feb 9, 2018 ... 2017年…
  1300多万人的城镇新增就业"), so the year a clause speaks of is the last year named before
  or in it, datelines, baselines ("比上年", "than in 2019"), time stamps and asides aside
  (``year_in_force``; not for "when" asks, whose date carries its own year);
- another quarter ("during the first quarter" for Q2, 一季度 for 第二季度: ``other_quarter``);
- a software update's release ("5.5.0 (Released September 24, 2021)" for the game's own
  release): a three-part version number the question does not give (``other_version``);
- an outcome still to come ("The winner … will be announced", 花落谁家将有分晓, 冠军谁属,
  "无法立即确定…死亡人数"): nothing is stated yet (``pending``); a plan or a target (将于,
  计划于, 目标是) for a who/what/how-much ask (``planned``);
- a title held from other editions ("defending champion", "the former president", 卫冕冠军,
  "5届世界杯冠军得主", "上赛季中超冠军"): not the asked edition's holder (``past_title``);
- a day without its month ("当地时间26日") for a date (``undated_day``); the word "type"
  without a class for "what type" (``genre_ask``, ``classes``); a sentence not naming the
  asked attribute (``unnamed_attribute``); a number counting something else than "多少个N"
  asks (``uncounted``).

Measured 2026-12-01 on RGB whole files with a harness re-running the reader on each case's
captured blocks (right answers / unsupported answers, each step on top of the previous):
frames, runner-up words and exact work titles en_fact 0 / −5, zh_fact −1 / −2, zh_refine
0 / −2; undated days and "what type" zh_fact 0 / −2, zh_refine −2 / −7; attributes and
counts zh_fact 0 / −3, zh_refine 0 / −1; plans, relation verbs and dated facts zh_refine
0 / −4; superseded values en_fact 0 / −1, zh_fact 0 / −1. Demo and natural sets unchanged
at every step. Measured and dropped: the asked year
stated by the answering sentence itself (zh_refine −2 / −2), the role in the span's clause
or the next (zh_refine −2 / −1), the question's nouns named by the quoted sentences rather
than their passage (zh_refine −5 / −8), another edition anywhere in the sentence (en_fact
−1 / 0, zh_refine −2 / 0), English futures for who-asks (en_fact −2 / −1 with dates;
without them 0 / 0), English names of the question required in the sentence (en_fact −5 /
−4), capitalised question words blanked before a name is looked for (en_fact −1 / −1).
"""

from __future__ import annotations

import re
import unicodedata

from kbqa.core.readers.extractive.question import tagged

_YEAR = r"(?<![0-9.])((?:19|20)\d\d)(?![0-9]|\.\d)"
_YEAR_RE = re.compile(_YEAR)
# A web page's date before its text ("Sep 5, 2016 ... ", "6 days ago ... "): when the page
# was written, not what it speaks of.
_DATELINE_RE = re.compile(
    r"^\s*(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+\d{4}"
    r"|\d+\s+(?:days?|hours?|weeks?)\s+ago)\s*(?:\.\.\.|…)\s*", re.IGNORECASE)
# A year named as a comparison's baseline or a period's start ("与2021年相比", "比2020年",
# "than in 2019", "compared with 2019", "since 2015", "2017年以来").
_BASELINE_BEFORE_RE = re.compile(
    r"(?:(?<!相)(?<!相对)[比较与同]|相比于|相较于|对比)$"
    r"|(?:\bthan(?:\s+in)?|\bcompared\s+(?:with|to)|\bsince|\bvs\.?)\s*$", re.IGNORECASE)
_BASELINE_AFTER_RE = re.compile(r"^\s*年?\s*(?:同期|相比|相较|以来|比较)")
# A year in a time stamp ("2023年01月19日13:46", "2023-01-19 10:56") or in an English
# date ("November 18, 2020") dates the page or a statement; it is no year a figure is about.
_DATE_AFTER_RE = re.compile(
    r"^\s*(?:年\s*\d{1,2}\s*月\s*\d{1,2}\s*日?|[-/.]\d{1,2}[-/.]\d{1,2})\s*\d{1,2}:\d\d")
_DATE_BEFORE_RE = re.compile(
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s*$",
    re.IGNORECASE)


def undated(text: str) -> str:
    """``text`` without a leading dateline ("Sep 5, 2016 ... ")."""
    return _DATELINE_RE.sub("", unicodedata.normalize("NFKC", text), count=1)


def _in_brackets(text: str, at: int) -> bool:
    """Whether position ``at`` of ``text`` lies inside an open bracket."""
    before = text[:at]
    return before.rfind("(") > before.rfind(")") or before.rfind("（") > before.rfind("）")


def _years_in_force(text: str) -> list[str]:
    """The years ``text`` names, in order, baselines and period starts aside."""
    found = []
    for match in _YEAR_RE.finditer(text):
        before, after = text[max(0, match.start() - 14):match.start()], text[match.end():]
        if _in_brackets(text, match.start()):
            continue  # an aside: "Peter Handke (born 1942)"
        if not (_BASELINE_BEFORE_RE.search(before) or _BASELINE_AFTER_RE.match(after)
                or _DATE_BEFORE_RE.search(before) or _DATE_AFTER_RE.match(after)):
            found.append(match.group(1))
    return found


def year_in_force(question: str, upto: str) -> bool:
    """Whether the last year named in ``upto`` (a sentence up to the end of the clause
    holding the span, its dateline dropped by the caller) is another than the question's:
    the clause then speaks of that year. False when the question or ``upto`` names none."""
    asked = set(_YEAR_RE.findall(unicodedata.normalize("NFKC", question)))
    years = _years_in_force(unicodedata.normalize("NFKC", upto))
    return bool(asked and years and years[-1] not in asked)


_QUARTER_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4,
                  "一": 1, "二": 2, "三": 3, "四": 4, "1": 1, "2": 2, "3": 3, "4": 4}
_QUARTER_RE = re.compile(
    r"\bq([1-4])\b|\b(first|second|third|fourth)[\s-]+quarter\b|第?([一二三四1-4])季度",
    re.IGNORECASE)


def _quarters(text: str) -> set[int]:
    return {_QUARTER_WORDS[next(g for g in m.groups() if g).lower()]
            for m in _QUARTER_RE.finditer(unicodedata.normalize("NFKC", text))}


def other_quarter(question: str, clause: str) -> bool:
    """Whether ``clause`` names only other quarters than the one ``question`` asks about."""
    asked = _quarters(question)
    said = _quarters(clause)
    return bool(asked and said and not said & asked)


_TRIPLE_RE = re.compile(r"(?<![\d.])\d{1,3}\.\d{1,3}\.\d{1,3}(?![\d.])")


def other_version(question: str, clause: str) -> bool:
    """Whether ``clause`` names a three-part version number ("5.5.0") ``question`` does
    not: it speaks of that update, not of the asked product's first release."""
    asked = set(_TRIPLE_RE.findall(unicodedata.normalize("NFKC", question)))
    return any(v not in asked for v in _TRIPLE_RE.findall(unicodedata.normalize("NFKC", clause)))


_PENDING_RE = re.compile(
    r"\bwill\s+be\s+(?:announced|named|revealed|decided|unveiled|awarded|crowned)\b"
    r"|\bto\s+be\s+(?:announced|determined|decided|confirmed)\b|\byet\s+to\s+be\b"
    r"|\bnot\s+(?:yet\s+)?(?:known|confirmed|been\s+announced)\b|\bunknown\b"
    r"|花落谁家|谁属|将揭晓|即将揭晓|将有分晓|有待|待定|尚未(?:确定|公布|揭晓|知晓)"
    r"|(?:无法|不能|难以)(?:立即|立刻|马上)?(?:确定|确认|统计|得知)|尚不清楚|不详",
    re.IGNORECASE)


def pending(question: str, clause: str) -> bool:
    """Whether ``clause`` says the asked outcome is not known yet ("will be announced",
    花落谁家, 无法确定) and the question does not ask about that."""
    return bool(_PENDING_RE.search(clause)) and not _PENDING_RE.search(question)


# A title held before or many times: "defending champion", "former president", "N-time
# winner", 卫冕冠军, 前总统, "5届世界杯冠军", 上赛季/上届/去年 … 冠军.
_PAST_TITLE_RE = re.compile(
    r"\b(?:defending|former|ex-|reigning|previous|last\s+year'?s|\d+-time|"
    r"(?:two|three|four|five|six|seven|eight|nine|ten)-time)\s*(?:\w+\s+){0,3}?"
    r"(?:champions?|winners?|presidents?|ceo|directors?|titleholders?)\b"
    r"|卫冕冠军|(?:前任|前)(?:总统|总理|主席|议长|首相|市长|冠军|首席执行官|董事长|总裁)"
    r"|(?:上赛季|上届|上一届|去年|前年|[\d一二两三四五六七八九十]+届)[^，,。；;]{0,8}?冠军",
    re.IGNORECASE)


_TITLE_WORD_RE = re.compile(
    r"champion|winner|president|ceo|director|titleholder|总统|总理|主席|议长|首相|市长|冠军"
    r"|首席执行官|董事长|总裁", re.IGNORECASE)


def past_title(question: str, clause: str) -> bool:
    """Whether ``clause`` names a holder of the asked title from other editions
    (``_PAST_TITLE_RE``; the title's word is the question's: "前首相安倍晋三" is no other
    edition of a question about Abe's funeral) and the question does not ask about one."""
    if _PAST_TITLE_RE.search(question):
        return False
    low = unicodedata.normalize("NFKC", question).lower()
    return any(word.lower() in low for m in _PAST_TITLE_RE.finditer(clause)
               for word in _TITLE_WORD_RE.findall(m.group()))


# A Chinese date names its month ("7月23日"); a day alone ("当地时间26日", "29日起", even
# after a year) is a day of a month the clause does not name: it does not answer 什么时候
# or 时间 ("几点"/"几时" asks take a clock time; opening hours "9:00 至 18:00" name no day).
# a month, or a month said by its place ("每月 10 日": the 10th of each month, 次月 5 日)
_ZH_MONTH_RE = re.compile(r"\d{1,2}\s*月|[一二三四五六七八九十]{1,2}月|每个?月|[当次下上本]月")
_DAY_RE = re.compile(r"(?<![\d月])\d{1,2}\s*[日号](?!期|本|元)")
_CLOCK_ASK_RE = re.compile(r"几点|几时|时刻|\bwhat time\b", re.IGNORECASE)


def undated_day(question: str, clause: str) -> bool:
    """Whether a Chinese ``clause`` gives a day of the month without its month
    (``_ZH_MONTH_RE``) while ``question`` asks a date (not a clock time)."""
    if not tagged(question) or _CLOCK_ASK_RE.search(question):
        return False
    text = unicodedata.normalize("NFKC", clause)
    return bool(_DAY_RE.search(text)) and not _ZH_MONTH_RE.search(text)


# A plan, a target or what is to come ("将于11日进行", "目标是…增长20%", "计划于…") states
# no result; "when" and "where" asks are answered by an announced date or place ("将于2月28日
# 执飞", "将于2023年9月10日在法国尼斯举行").
_PLAN_RE = re.compile(r"将于|即将|将在|计划于|计划在|拟于|拟在|目标是|目标为")


def planned(question: str, clause: str) -> bool:
    """Whether ``clause`` states a plan or what is to come and ``question`` does not ask
    about one (the caller leaves time and place asks alone)."""
    return bool(_PLAN_RE.search(clause)) and not _PLAN_RE.search(question) and not re.search(
        r"计划|预计|将", question)


# "The original release date was April 16, 2020", "Originally, … was planned": a state the
# text itself says was superseded.
_SUPERSEDED_RE = re.compile(r"\boriginal(?:ly)?\b|\binitially\b|原定|原计划|原本", re.IGNORECASE)


def superseded(question: str, clause: str) -> bool:
    """Whether ``clause`` gives a superseded value ("original", 原定) the question does
    not ask about."""
    return bool(_SUPERSEDED_RE.search(clause)) and not _SUPERSEDED_RE.search(question)


def another_frame(question: str, clause: str) -> bool:
    """Whether ``clause`` speaks of another quarter or version, an outcome still to come, a
    title from other editions or a superseded value than ``question`` asks about."""
    return (other_quarter(question, clause) or other_version(question, clause)
            or pending(question, clause) or past_title(question, clause)
            or superseded(question, clause))


# "是什么类型的游戏", "的类型是什么", "what genre/type of game": answered by a sentence that
# classes the thing ("是一款沙盒游戏", "属于…", "类型为…", "is an action role-playing game"),
# not by one that only uses the word ("这种类型的电视剧很多", "其他类型的DLC").
_GENRE_ASK_RE = re.compile(
    r"什么类型|哪种类型|哪一类|类型是什么|类型是啥|什么题材|\bwhat (?:type|kind|genre) of\b"
    r"|\bgenre\b", re.IGNORECASE)
_CLASSES_RE = re.compile(
    r"是一[款部种个类档]|为一[款部种个类档]|属于|类型(?:为|是|上)|题材|风格的|\b(?:is|was) an?\b",
    re.IGNORECASE)


def genre_ask(question: str) -> bool:
    """Whether ``question`` asks what kind of thing something is (``_GENRE_ASK_RE``)."""
    return bool(_GENRE_ASK_RE.search(unicodedata.normalize("NFKC", question)))


def classes(text: str) -> bool:
    """Whether ``text`` classes something (``_CLASSES_RE``): an answer to a genre ask."""
    return bool(_CLASSES_RE.search(unicodedata.normalize("NFKC", text)))


# "小米MIX2的处理器是什么", "冰心的原名叫什么": an untyped ask for an attribute of a thing is
# answered by a sentence naming the attribute ("…搭载骁龙835处理器"); one that names only the
# thing ("除了小米MIX 2，小米还发布了…") states some other fact about it.
_ATTRIBUTE_ASK_RE = re.compile(r"的([\u4e00-\u9fff]{2,4})(?:是什么|叫什么|是啥|是哪个|为何)[?？]?$")


def unnamed_attribute(question: str, texts: list[str]) -> bool:
    """Whether ``question`` asks "X的Y是什么" and none of ``texts`` names Y."""
    match = _ATTRIBUTE_ASK_RE.search(unicodedata.normalize("NFKC", question).strip())
    if match is None:
        return False
    return not any(match.group(1) in t for t in texts)


# "有多少个议席", "几块金牌": a count of a named thing is a number counting it ("70个议席",
# "东盟10国" by the noun's last character), not one counting something else in the same
# clause ("每名选民投选1 名候选人", "美国所有50个州").
_MEASURES = r"[个名位家座所支项款条场艘架枚块部届]"
_COUNT_ASK_RE = re.compile(rf"(?:多少|几)({_MEASURES})([\u4e00-\u9fff]{{1,3}})")
_NUMBER = r"(?:\d[\d.,]*|[零一二两三四五六七八九十百千万]+)\s*(?:多|余)?\s*(?:万|亿)?"


def uncounted(question: str, clause: str) -> bool:
    """Whether ``question`` asks how many of a thing and ``clause`` counts no such thing
    (any measure word, up to four characters of modifier: "共设10座车站", "3亿个工作岗位")."""
    match = _COUNT_ASK_RE.search(unicodedata.normalize("NFKC", question))
    if match is None:
        return False
    noun = tagged(match.group(2))[0][0]  # "球队参" of 多少支球队参赛 -> 球队
    # The noun's last character stands for it only right after the number ("东盟10国"):
    # after a modifier it ends another word ("6200多家美国企业").
    pattern = (rf"{_NUMBER}\s*{_MEASURES}?"
               rf"(?:[\u4e00-\u9fff]{{0,4}}?{re.escape(noun)}|{re.escape(noun[-1])})")
    return not re.search(pattern, unicodedata.normalize("NFKC", clause))
