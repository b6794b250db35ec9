"""Whether a clause is about the asked event, not another one of the same kind.

RGB's negative passages (Chen et al. 2023) are on the question's topic but about another
edition, season or instalment of it ("《速度与激情9》于2021年5月21日在中国内地上映" for
速度与激情10; "Season 10 premiere" for the first season), carry a news agency's dateline
whose date says when the report was filed ("新华社北京1月1日电"), or give a year where a
date is asked. The checks here are used by ``binding.bound_answer`` clause by clause.
"""

from __future__ import annotations

import os
import re
import unicodedata
from functools import lru_cache

from kbqa.core.readers.extractive.question import tagged

_OFF = frozenset(os.environ.get("KBQA_RGBN_OFF", "").split(","))  # measurement only

# A news agency's dateline: "新华社北京1月1日电", "中新社巴黎5月26日电（记者李洋）",
# "新华社悉尼10月1日电": the date is the filing date.
_AGENCY_DATELINE_RE = re.compile(
    r"[\u3400-\u9fff]{1,6}社[\u3400-\u9fff]{0,8}\d{1,2}月\d{1,2}日电(?:[（(][^）)]{0,20}[）)])?")

# An entity with its number: "season 3", "Splatoon 2", "速度与激情10", "MIX2", "神舟十六号",
# "第六任", "十三届五次". The number tells the edition apart.
_CN_DIGITS = "零一二三四五六七八九十百两"
# English: a capitalised name ("Splatoon 2", "Diablo 3") or an instalment noun ("season 3");
# not "every 3 years", whose number is an amount.
_EN_NUMBERED_RE = re.compile(
    r"\b([A-Z][A-Za-z'’]+|(?:[Ss]eason|[Ss]eries|[Ee]pisode|[Pp]art|[Cc]hapter|[Vv]olume"
    r"|[Ee]dition|[Rr]ound|[Pp]hase|[Gg]eneration))\s?(\d{1,3})(?![\d.,:])\b")
_ZH_NUMBERED_RE = re.compile(
    rf"(第|[\u3400-\u9fff]{{2}})([\d{_CN_DIGITS}]{{1,4}})(届|任|季|号|期|次|代|部|集|轮)?")
_ZH_COUNTED_RE = re.compile(rf"(?<![\d{_CN_DIGITS}])([\d{_CN_DIGITS}]{{1,4}})(届|任|季|期|次)")
_ORDINAL_RE = re.compile(
    r"\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)\s+(season|edition)\b",
    re.IGNORECASE)
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
             "ninth", "tenth")


def without_agency_dateline(text: str) -> str:
    """``text`` with a news agency's dateline blanked ("新华社北京1月1日电" -> "…")."""
    if "dateline" in _OFF:
        return text
    return _AGENCY_DATELINE_RE.sub("…", text)


def _zh_number(value: str) -> int | None:
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
    if "suffix" not in _OFF:  # "十三届五次会议": each count with its measure word
        for num, suffix in _ZH_COUNTED_RE.findall(low):
            value = _zh_number(num)
            if value is not None and value < 1000:
                pairs.add((suffix, value))
    for head, num, suffix in _ZH_NUMBERED_RE.findall(low):
        value = _zh_number(num)
        if value is not None and value < 1000:
            pairs.add((head + suffix if head == "第" else head, value))
    return frozenset(pairs)


def other_edition(question: str, clause: str) -> bool:
    """Whether ``clause`` names an entity of the question with another number than the
    question gives it ("Season 10" for "season 3", "速度与激情9" for 速度与激情10, "第一次会议"
    for 第五次) and not the question's own: it is about another edition."""
    if "edition" in _OFF:
        return False
    asked = numbered(question)
    if not asked:
        return False
    stated = numbered(clause)
    for head in {w for w, _ in asked}:
        said = {n for w, n in stated if w == head}
        if said and not said & {n for w, n in asked if w == head}:
            return True
    return False


_YEAR_ONLY_RE = re.compile(r"(?<![0-9.])(?:19|20)\d\d(?![0-9.])\s?年?")
_YEAR_ASK_RE = re.compile(r"\b(?:which|what) year\b|哪年|哪一年|几几年|年份")


def year_only(question: str) -> bool:
    """Whether a bare year is no answer: the question asks for a date or time ("when", 时间,
    日期), not for a year ("which year", 哪一年)."""
    if "year" in _OFF:
        return False
    low = unicodedata.normalize("NFKC", question).lower()
    return not _YEAR_ASK_RE.search(low)


def strip_years(text: str) -> str:
    """``text`` with its years blanked, for ``year_only`` asks."""
    return _YEAR_ONLY_RE.sub("…", text)


_ZH_ROLE_RE = re.compile(
    r"(冠军|亚军|季军|导演|作者|编剧|主演|主教练|总统|总理|市长|议长|行政长官|首席执行官|"
    r"总裁|董事长|旗手|代言人|主持人|吉祥物|口号|主题)(?!国)")
_EN_ROLE_RE = re.compile(
    r"\b(director|directed|ceo|president|winner|won|win|champion|author|wrote|written|"
    r"starring|star|actor|actress|host|hosted|mascot|slogan|theme)\b", re.IGNORECASE)
_EN_ROLE_GROUPS = (
    ("director", "directed", "directs", "direct"),
    ("won", "win", "wins", "winner", "winners", "champion", "champions", "victory", "beat",
     "beating", "defeated", "defeating", "title", "crowned"),
    ("author", "wrote", "written", "writer"),
    ("starring", "star", "stars", "starred", "actor", "actress", "plays", "played", "cast"),
    ("ceo", "chief executive"),
    ("president",),
    ("host", "hosted", "hosts", "hosting"),
    ("mascot",), ("slogan",), ("theme",),
)


def _en_group(word: str) -> tuple[str, ...]:
    word = word.lower()
    for group in _EN_ROLE_GROUPS:
        if word in group:
            return group
    return (word,)


@lru_cache(maxsize=512)
def asked_roles(question: str) -> tuple[tuple[str, ...], ...]:
    """The role or relation the question asks about, each as the words that state it:
    (冠军,) for 2018年超级碗冠军是谁, ("won", "winner", ...) for "Who won ...". Empty when
    the question names none."""
    if "role" in _OFF:
        return ()
    low = unicodedata.normalize("NFKC", question).lower()
    if tagged(question):
        return tuple((r,) for r in dict.fromkeys(_ZH_ROLE_RE.findall(low)))
    return tuple(dict.fromkeys(_en_group(w) for w in _EN_ROLE_RE.findall(low)))


def states_roles(roles: tuple[tuple[str, ...], ...], text: str) -> bool:
    """Whether ``text`` states each asked role (any word of its group)."""
    low = unicodedata.normalize("NFKC", text).lower()
    for group in roles:
        if not any(re.search(rf"(?<![a-z]){re.escape(w)}(?![a-z])", low) for w in group):
            return False
    return True


# An ask with no interrogative that ends in a measure ("2021年宝马全球销量", "2023年女足世界杯
# 总奖金", "中国2018年人口出生率") asks for a quantity; one asking where an event is held
# (在哪举行, "where will … be held") for a named place.
_HEAD_QUANTITY_RE = re.compile(
    r"(?:量|率|人数|人次|规模|营收|收入|票房|gdp|增速|奖金|总额|产值|震级|市值)$")
# A yes/no or personal question ending in such a noun ("会不会偷偷用我的流量") is not a
# statistic's name.
_PERSONAL_RE = re.compile(r"[吗否我你您]|不")
# English: "What was Tesla's revenue in Q2 2020?", "What is the release date of …?".
_EN_QUANTITY_RE = re.compile(
    r"^(?:what|how much) (?:is|was|were|are)\b.*\b(?:revenue|sales|profit|income|population"
    r"|gdp|attendance)\b")
_EN_DATE_RE = re.compile(r"\bdate of\b|\b(?:release|premiere|air|launch|opening) date\b")
_HOST_PLACE_RE = re.compile(
    r"在哪(?:里|儿|个城市)?(?:举行|举办|召开|开幕|开始)|(?:举行|举办|召开)地"
    r"|\bwhere\b.*\b(?:held|hosted|take place|took place)\b")


def refined_kind(ask: str, kind: str) -> str:
    """``kind`` (``focus.ask_kind``) made specific for an untyped ("other") ask: a
    quantity for a measure noun at its end, a place for where an event is held."""
    if kind != "other":
        return kind
    low = unicodedata.normalize("NFKC", ask).lower().rstrip("?？。.! ")
    if "quantity" not in _OFF and (_HEAD_QUANTITY_RE.search(low) or _EN_QUANTITY_RE.search(low)) \
            and not _PERSONAL_RE.search(low):
        return "quantity"
    if "date" not in _OFF and _EN_DATE_RE.search(low):
        return "time"
    if "host" not in _OFF and _HOST_PLACE_RE.search(low):
        return "place"
    return kind


# An ask for a term (主题, 口号, 全称, 年度词汇, "slogan", "theme", "name of") is answered by a
# quoted phrase (“只有一个地球”, 《…》, "…"), a Latin word the question does not hold
# ("Permacrisis", "Meta") or a proper name (jieba's nr/ns/nt/nz).
_HEAD_TERM_RE = re.compile(
    r"(?:主题|口号|名字|名称|词汇|全称|称号|吉祥物|昵称|标语|主题曲)(?:是什么|叫什么|是啥)?$"
    r"|\b(?:slogan|theme|motto|mascot|name)\b")
_QUOTED_RE = re.compile(r"“([^”]{1,30})”|「([^」]{1,30})」|《([^》]{1,30})》|\"([^\"]{1,30})\"")
_LATIN_WORD_RE = re.compile(r"[A-Za-z][A-Za-z0-9-]{1,}")


def term_ask(ask: str) -> bool:
    """Whether ``ask`` asks for a term or title (``_HEAD_TERM_RE``)."""
    if "term" in _OFF:
        return False
    return bool(_HEAD_TERM_RE.search(unicodedata.normalize("NFKC", ask).lower().rstrip("?？。.! ")))


def states_term(text: str, question: str) -> bool:
    """Whether ``text`` holds a quoted phrase, a Latin word or a proper name that
    ``question`` does not."""
    norm = unicodedata.normalize("NFKC", text)
    q = unicodedata.normalize("NFKC", question).lower()
    for groups in _QUOTED_RE.findall(norm):
        phrase = next(g for g in groups if g)
        if phrase.lower() not in q:
            return True
    if any(w.lower() not in q for w in _LATIN_WORD_RE.findall(norm)):
        return True
    return any(tag in ("nr", "ns", "nt", "nz") and w not in q for w, tag in tagged(norm))



# A forecast ("预计2019年增长6.2%", "is expected to") states no fact, unless the question asks
# for one ("高盛预计有多少个岗位将被AI取代").
_FORECAST_RE = re.compile(
    r"预计|预测|预期|有望|估计|\b(?:expected|forecast|forecasts|projected|estimated|predicted)\b",
    re.IGNORECASE)


def forecast(question: str, clause: str) -> bool:
    """Whether ``clause`` states a forecast the question does not ask for."""
    if "forecast" in _OFF:
        return False
    return bool(_FORECAST_RE.search(clause)) and not _FORECAST_RE.search(question)


# The measure a Chinese quantity ask names ("多少美元", "多长") must follow the stated number:
# "7个小时" does not answer 多长, "39.1万亿元人民币" not 多少美元. Counts of people, teams or
# seats were measured and dropped: "10.51亿" answers 多少人, "1.4万名" too.
_ZH_UNIT_RE = re.compile(r"多少(美元|欧元|英镑|日元|人民币)")
_LENGTH_RE = re.compile(r"多长|多高|多宽|多深|多远")
_LENGTH_UNITS = r"(?:米|公里|千米|厘米|英尺|英里|km|m)(?![A-Za-z])"


def wrong_unit(question: str, clause: str) -> bool:
    """Whether ``clause`` gives no number in the measure a Chinese quantity ask names."""
    if "unit" in _OFF:
        return False
    q = unicodedata.normalize("NFKC", question)
    text = unicodedata.normalize("NFKC", clause)
    number = r"\d[\d.,]*\s?(?:多|余|万|亿|千|百)*\s?"
    if _LENGTH_RE.search(q):
        return not re.search(number + _LENGTH_UNITS, text)
    unit = _ZH_UNIT_RE.search(q)
    if unit is None:
        return False
    return not re.search(number + re.escape(unit.group(1)), text)
