"""What a question asks, as opposed to what it tells: its ask clause and salient terms.

People give context before they ask ("I'm flying to Singapore next month, about 13 hours.
Do I have to sit in the cheapest seats?"; ``下个月去上海出差，看中的酒店一晚 650，能全报吗？``).
Words of the context that no source uses say nothing about whether the sources answer;
words of the ask do. So:

- ``ask_clause``: the last clause of the question (split at sentence ends, commas and
  semicolons, both scripts), extended backwards within its sentence while it has fewer
  than ``MIN_ASK_TERMS`` content terms ("If I book a meeting at 9, can I expect everyone
  to be around?").
- ``identifiers.salient_terms``: the identifiers of the ask clause (years, "Q1",
  acronyms), which a quoted sentence must state. ``identifiers.shares_more_than_names``:
  it must also share a word that is not a name (``names``: capitalised words, jieba's name tags): a
  sentence sharing only a company or product name is not about the question.
- ``ask_kind``: what kind of thing answers the ask clause (``answer_kind``'s kinds, a place,
  a time, or "other": yes/no, which any sentence may answer, and procedures, which only an
  instruction answers: ``steps.py``).
- ``new_answer``: whether a sentence states what the question asks for with a span the
  question does not already hold (``states`` on the sentence with the question's own
  numbers and names removed).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import Literal

from kbqa.core.readers.extractive.expand import NUMBER_WORDS, spell_amounts
from kbqa.core.readers.extractive.own_names import blank_own_names
from kbqa.core.readers.extractive.question import (
    CN_HOUR,
    ROLE_RE,
    AnswerKind,
    answer_kind,
    question_terms,
    states,
    tagged,
    unit_terms,
)
from kbqa.core.readers.extractive.text import question_numbers
from kbqa.core.readers.extractive.units import (
    asks_frequency,
    states_elapsed,
    states_frequency,
    states_time_asked,
    without_ages,
    without_fused_names,
)
from kbqa.core.readers.extractive.value_asks import value_ask
from kbqa.core.text.names_zh import name_checked
from kbqa.core.text.places import glossed_place, may_name_place
from kbqa.core.text.procedures import asks_procedure
from kbqa.core.text.quantities import CN_NUMERALS, names_money
from kbqa.core.text.terms import fold, is_question_word, stem

MIN_ASK_TERMS = 2  # an ask clause with fewer content terms leans on the clause before it
_SENTENCE_ENDS = (".", "?", "!", "。", "？", "！")
# A clause that itself asks: it opens with an interrogative or an inverted auxiliary.
_ASKS_RE = re.compile(
    r"\s*(?:is|are|was|were|do|does|did|can|could|will|would|should|may|must|has|have|"
    r"what|which|who|when|where|why|how)\b"
    r"|.*(?:在哪|哪[里儿个些家位栋]|什么|多少|几[点个天次层号]|怎么|谁|多久|是否|吗|呢)[，,]\s*$",
    re.IGNORECASE)
# A clause ends after these marks, but not after an initial ("U.S. Open", "J. Smith").
CLAUSE_END_RE = re.compile(r"(?<=[.?!。？！；;,，：:])(?<!(?<![A-Za-z])[A-Z]\.)\s*")
_CAPITAL_RE = re.compile(r"(?<=[\w,'’)] )([A-Z][A-Za-z]*\d*|[A-Z]{2,}\d*)\b")
# A plural number ("429s", "the 1990s") is the question's own number as much.
_DIGIT_WORD_RE = re.compile(
    r"\b[A-Za-z]+\d+[A-Za-z\d]*\b|\b\d+(?:[.,]\d+)*\b|\b\d+(?:[.,]\d+)*(?=s\b)")
# A Chinese numeral with its count word or unit ("一天", "三个月", "两周"): the asker's own
# span, as a digit is ("那吃饭呢，一天能报多少？" is not answered by 会议纪要在一天之内发布).
_ZH_COUNT_RE = re.compile(
    rf"(?<![{CN_NUMERALS}\d])[{CN_NUMERALS}]+\s*个?\s*(?:天|小时|分钟|秒|周|星期|月|年|次|元|块|人)")
_NAME_TAGS = frozenset(("nr", "ns", "nt", "nz", "eng"))
_TITLE_RE = re.compile(r"《([^》]+)》")
_DASH_RE = re.compile(r"\s+[-–—]+\s+(?=(?:what|which|how|when|where|who|whom|whose)\b)", re.I)


@lru_cache(maxsize=512)
def ask_clause(question: str) -> str:
    """The clause of ``question`` that asks: the last one ending with a question mark (else
    the last), with the clauses before it in the same sentence while it has fewer than
    ``MIN_ASK_TERMS`` content terms. Earlier sentences are context ("A prospect wants
    their staff to log in with Okta. Which plans would let them?"). When that last ask
    is a yes/no one wanting no typed value and an earlier question of the message wants
    one ("IT 服务台几点下班？我六点半还能去吗？": the yes/no hangs on the time asked first),
    the earlier question is the ask: its answer decides the later one."""
    # a dash before a wh-question ends the story ("…in two weeks - which laptop…?")
    text = _DASH_RE.sub(". ", unicodedata.normalize("NFKC", question).strip())
    parts = [p for p in CLAUSE_END_RE.split(text) if p.strip()]
    asking = [i for i, p in enumerate(parts) if p.rstrip().endswith("?")]
    # A typed question after the last question mark, written without one of its own, asks
    # ("能不能挪到明年？最多能挪几天": how many days, not whether).
    if asking and asking[-1] < len(parts) - 1 and answer_kind(parts[-1]) != "other":
        asking.append(len(parts) - 1)
    last = _ask_ending(parts, asking[-1] + 1 if asking else len(parts)) or text
    if len(asking) < 2 or not _YES_NO_RE.search(last.strip()) or ask_kind(last) != "other":
        return last
    for i in reversed(asking[:-1]):
        earlier = _ask_ending(parts, i + 1)
        if earlier and ask_kind(earlier) != "other":
            return earlier
    return last


def later_asks(question: str) -> str:
    """The yes/no asks of ``question`` after the one ``ask_clause`` chose, when it chose an
    earlier typed question ("我六点半还能去吗?" of "IT 服务台几点下班？我六点半还能去吗？");
    "" when the ask is the last one. They do not decide the answer, but what they name that
    no source has is still said to be uncovered."""
    ask = ask_clause(question)
    text = unicodedata.normalize("NFKC", question).strip()
    at = text.find(ask)
    parts = CLAUSE_END_RE.split(text[at + len(ask):]) if at >= 0 else []
    return " ".join(p for p in parts if p.rstrip().endswith("?") and _YES_NO_RE.search(p.strip()))


def _ask_ending(parts: Sequence[str], end: int) -> str:
    """The ask ending with ``parts[end - 1]`` (``ask_clause``'s joining of short clauses)."""
    ask = ""
    for i in range(end - 1, -1, -1):
        if ask and parts[i].rstrip().endswith(_SENTENCE_ENDS):
            break
        ask = f"{parts[i]} {ask}".strip() if ask else parts[i]
        # Two questions in one ("Is it listed, and what's the share price?") ask both.
        if len(question_terms(ask)) >= MIN_ASK_TERMS and not (
                i and _ASKS_RE.match(parts[i - 1]) and not parts[i - 1].rstrip().endswith(
                    _SENTENCE_ENDS)):
            break
    return ask


@lru_cache(maxsize=512)
def names(question: str) -> frozenset[str]:
    """Folded names in the ask clause: capitalised words inside an English sentence, jieba's
    ``nr``/``ns``/``nt``/``nz``/``eng`` words in Chinese (a company, product or place)."""
    ask = ask_clause(question)
    found = {w for w, tag in tagged(ask) if name_checked(w, tag) in _NAME_TAGS}
    found |= {fold(stem(w.lower())) for w in _CAPITAL_RE.findall(ask) if len(w) > 1}
    for title in _TITLE_RE.findall(ask):  # a work's title: 《踏冰逐梦》
        found |= set(question_terms(title))
    return frozenset(found)


AskKind = AnswerKind | Literal["place", "time", "name"]
# A named place answers these; "where" alone is often answered by "the garage next door".
_PLACE_RE = re.compile(
    r"\b(?:which|what) (?:city|country|cities|countries)\b|哪(?:个|些|几个)(?:城市|国家|地方)"
    r"|什么地方")
_TIME_RE = re.compile(
    r"^(?:and |so )?when\b|\bwhat time\b|\b(?:which|what) (?:year|day|month|date)s?\b"
    r"|什么时候|何时|几点|哪天|哪一天|哪年|哪一年|几号|几月|哪个月")
_TIME_SPAN_RE = re.compile(
    r"\b(?:19|20)\d\d\b|\b\d{1,2}:\d\d\b"
    # A month with its day or year ("7 July", "May 2024"): "may" alone is a verb.
    r"|\b\d{1,2}\.?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b"
    r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,4}\b"
    r"|\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b"
    r"|\b(?:on|by|before|after|until|from)\s+the\s+\d{1,2}(?:st|nd|rd|th)\b"  # of the month
    rf"|\d+\s?(?:年|月|日|号(?![楼线门馆厅室房机位码口窗库])|点|时)|{CN_HOUR}"  # not 3 号楼
    r"|(?:周|星期)[一二三四五六日天]"
    # A time relative to an event answers "when" too: "every 4 years", "within 14 days".
    r"|\b(?:every|after|within|before|in)\s+\d+\s*(?:minute|hour|day|week|month|year)s?\b"
    r"|\d+\s?(?:分钟|小时|天|周|个月|年)(?:内|后|前|之内|以内)", re.IGNORECASE)
# ...in working days, to the calendar with no number ("the next monthly salary", 次日) or
# past a threshold ("when a freezer is warmer than -70 °C"): it answers "when" (什么时候,
# 何时), not a day, date or time of day ("Which day of the month…", 哪天, 几点), nor an
# event's 时间 (新片上映时间: news says 当天, 下个月 of other things: +2 unsupported on RGB).
_RELATIVE_TIME_RE = re.compile(
    r"\b(?:within|after|in)\s+\d+\s*(?:working|business|calendar)\s+days?\b"
    r"|\d+\s?个?工作日(?:内|后|之内|以内)"
    r"|\b(?:next|following)\s+(?:day|week|month|monthly|year|quarter)\b"
    # an ordinal day of a stretch: "on the first working day", "in your first week", 入职第一天
    r"|\b(?:on|in|from|by)\s+(?:the|your|their|his|her)\s+(?:first|second|third|last)\s+"
    r"(?:(?:working|business|calendar)\s+)?(?:day|week|month)\b"
    r"|第[一二三]个?(?:工作日|天|周|星期|个月)|(?:下|次|本|每)一?个?(?:月|周|星期|季度)"
    r"|次日|当天|当日|月底|月初|年底|\b(?:when|once)\b[^.;]*\b(?:more|less|\w+er)\s+than\b", re.I)
_WHEN_RE = re.compile(r"\bwhen\b|什么时候|何时")


# A yes/no ask: it opens with an auxiliary ("Can I ...?") or ends in 吗 or an A-not-A
# verb (要不要, 能不能).
_YES_NO_RE = re.compile(
    r"^(?:and |so |but )?(?:is|are|was|were|do|does|did|can|could|will|would|should|may|must"
    r"|has|have)\b|吗\s*[?？]?$|(\w)不\1", re.IGNORECASE)


def is_yes_no(question: str) -> bool:
    """Whether the ask clause of ``question`` asks yes or no (``_YES_NO_RE``)."""
    return bool(_YES_NO_RE.search(unicodedata.normalize("NFKC", ask_clause(question)).strip()))


_CONDITION_RE = re.compile(r"(?<=\w)\s+(?:when|if|while|after|before|once)\b.*$", re.I)
# An ask with no interrogative names the answer's type by its last noun: a time ("Harbour
# festival 2024 date", 开幕的时间, 上映日期) or a place ("… location", 坠毁地点). Measured
# 2026-11-30 on RGB (whole files, offline reader): time nouns zh_refine +9 right answers
# and 12 fewer unsupported ones, place nouns +1 and −1; demo and natural unchanged.
# Quantity nouns (销量, 票房) and 在哪/"where" were measured and dropped (natural set: one
# right answer fewer).
_HEAD_TIME_RE = re.compile(r"(?:时间|日期|时候|\bdate)$")
# A Chinese ask for a titleholder (冠军, 导演, 主教练) or "which one" (哪个组, 哪家公司; not
# 哪个电话/邮箱: ``contacts.reach_unstated``) is answered by a proper name (jieba's nr/ns/nt/nz):
# a "name" (RGB whole files: zh_refine +2 right, 4 fewer unsupported; demo and natural
# unchanged). English "which <noun>" was measured and dropped (RGB same, demo −1 answer).
_HEAD_NAME_RE = re.compile(
    r"(?:冠军|亚军|季军|得主|导演|作者|编剧|主演|主教练|总统|总理|市长|议长|行政长官)"
    r"(?:是谁|是哪[个支部家位])?$|哪[个支部家位](?!电话|号码|分机|热线|邮箱)\w*$")
_HEAD_PLACE_RE = re.compile(r"(?:地点|地方|位置|起点|终点|举办地|首都|\blocation)$")


def ask_core(question: str) -> str:
    """``ask_clause`` without a condition after it ("Why does the app log me out every
    morning when I get back to my desk?" -> "Why does the app log me out every morning")."""
    return _CONDITION_RE.sub("", ask_clause(question))


# An embedded question after the asker's own act of finding out ("can I … find out whose",
# "is there a way to see how many"); one put to the assistant ("Can you tell me how long…")
# still asks its value.
_EMBEDDED_RE = re.compile(
    r"\b(?:(?:can|could|may)\s+(?:i|we)|is\s+there\s+(?:a\s+)?(?:way|any\s+way)|to)\s+"
    r"(?:check|see|find\s+out|know|figure\s+out|look\s+up|tell|trace)\b.*$", re.IGNORECASE)


@lru_cache(maxsize=512)  # asked of one question by a dozen checks
def ask_kind(question: str) -> AskKind:
    """What answers the ask clause: ``answer_kind``'s kinds, else a named place ("which
    country", 哪个城市, an ask ending in "location" or 地点), a time ("when", 几点, 哪一年,
    an ask ending in "date", 时间 or 日期), a proper name (an ask ending in 冠军, 导演 or
    哪个…) or a value ("What's the night shift allowance?": ``value_asks``), else "other"
    (yes/no, procedure: any sentence)."""
    # A condition after the ask ("Can I keep my laptop when I quit?") is not what it asks.
    # ...nor a question the asker would answer by an act of their own ("can I plug it in to
    # find out whose it is?", "Can I check who opened my link?": yes or no, or how).
    ask = _EMBEDDED_RE.sub("", _CONDITION_RE.sub("", ask_clause(question)))
    kind = answer_kind(ask)
    if kind != "other" and not (kind == "number" and _TIME_RE.search(ask.lower())):
        return kind
    if _TIME_RE.search(ask.lower()):
        return "time"
    if _PLACE_RE.search(ask.lower()):
        return "place"
    head = ask.lower().rstrip("?？。.! ")
    if kind == "other" and _HEAD_TIME_RE.search(head):
        return "time"
    if kind == "other" and _HEAD_PLACE_RE.search(head):
        return "place"
    if kind == "other" and _HEAD_NAME_RE.search(head):
        return "name"
    if kind == "other" and (value := value_ask(ask)):
        return value  # "What's the night shift allowance in Suzhou?": an amount of money
    # The asker's own amount ("swapped every 3 years. Is that still…?", "at 220 a night",
    # 一晚 650, time gone by: 删了一个多月了) is checked against the source's: a quantity.
    # A how-to ask states no amount of its own: "How do I set up 2FA?" asks for steps.
    own = (question_numbers(without_fused_names(question)) or states_elapsed(question)
           or _BARE_AMOUNT_RE.search(unicodedata.normalize("NFKC", question)))
    return "quantity" if kind == "other" and own and not asks_procedure(ask) else kind


# Two or more digits standing alone, not a year nor part of a name ("GPT-3", "Q12"). Chinese
# writes an amount against its words (一晚650，6000多): a CJK character may precede it and
# 块, 元 or 多 follow it, but no other word character (22年, 第24届 are dates and ordinals).
_BARE_AMOUNT_RE = re.compile(r"(?<![A-Za-z\d_.,-])(?!(?:19|20)\d\d(?!\d))"
                             r"(?:\d{1,3}(?:,\d{3})+|\d{2,})(?:[.,]\d+)?"
                             r"(?!-|[.,]\d)(?=$|[\s块元多]|[^\w])")
_PROPER_RE = re.compile(r"\b[A-Z][a-zà-ÿ]+\b")


def _states_proper_name(text: str, tags: tuple[str, ...]) -> bool:
    """A proper name in ``text``: jieba's ``tags`` in Chinese; in English a capitalised
    word that is not a function word ("Norway set the record", "Spain have beaten")."""
    if tagged(text):
        return any(tag in tags for _, tag in tagged(text))
    return any(not is_question_word(w.lower()) for w in _PROPER_RE.findall(text))


# A place that owns a role or a newsroom (美国总统, 前苏联最后一任领导人, 德国之声, 俄总统新闻
# 秘书) says whose, not where: "在峰会召开之际…美国总统与加拿大总理…举行了双边" names no venue.
_OWNER_OF_RE = re.compile(
    r"(?:最后一任|唯一一任|首任|现任|前任|新任|时任|第[一二三四五六七八九十\d]+任)?"
    r"(?:总统|总理|首相|主席|国王|女王|王储|外长|外交部长|部长|大使|领导人|元首|政府|官员|之声"
    r"|通讯社|新闻社|媒体|记者)")


def _capital_named(text: str, question: str) -> bool:
    """Whether ``text`` names a capital the question does not hold right after 首都: a
    place whatever jieba tags it (首都阿布贾: ``nr``; 首都河内: ``s``)."""
    words = tagged(text)
    own = {w for w, _ in tagged(question)}
    return any(words[i - 1][0] == "首都" and tag in ("ns", "nr", "nz", "s") and word not in own
               for i, (word, tag) in enumerate(words) if i)


def _states_place(text: str) -> bool:
    """A place name in ``text`` (``_states_proper_name`` with jieba's ``ns``, a word that
    ``places.may_name_place``, or another name CC-CEDICT glosses as a place:
    ``places.glossed_place``) other than one that owns a role or a newsroom
    (``_OWNER_OF_RE`` on the words right after it)."""
    words = tagged(text)
    if not words:
        return _states_proper_name(text, ("ns",))
    return any((tag == "ns" and may_name_place(word)
                or tag in ("nr", "nz", "nt") and glossed_place(word))
               and not _OWNER_OF_RE.match("".join(w for w, _ in words[i + 1:i + 6]))
               for i, (word, tag) in enumerate(words))


# A dateline ("Sep 5, 2016 ...", "6 days ago ...") says when a text was published, not
# what it reports: its date answers nothing (RGB's snippets start with one; measured on
# RGB whole files: zh_refine 4 and en_fact 1 fewer unsupported answers, 1 more right each).
_DATELINE_RE = re.compile(
    r"(?:^|(?<=\s))(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?"
    r"\s+\d{4}|\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{4}"
    r"|\d{4}[-/.年]\d{1,2}[-/.月]\d{1,2}日?|\d+\s+(?:days?|hours?|weeks?)\s+ago)"
    r"\s*(?:\.\.\.|…|—|-|·)\s*", re.IGNORECASE)


# A work's title or a quoted name (《2023中国AI商业落地投资价值报告》, “中国产业互联网高峰论坛”):
# the place words inside it are the name's, not where the asked thing is.
_TITLED_RE = re.compile(r"《[^》]{0,60}》|“[^”]{0,60}”")


# A number in words (``expand.NUMBER_WORDS``), a word that may stand between, and a unit.
_SPELLED_RE = re.compile(rf"\b({'|'.join(NUMBER_WORDS)})\s+((?:[a-z-]+\s+)?)([a-z]+)\b", re.I)


def _counted_in_words(text: str, question: str) -> str:
    """``text`` with a number in words before the unit a "how many" question counts in as
    its digits ("four files" for "How many files…", "two Global administrators" for "How
    many Global administrators…"): only there, since "two ways" or "one of them" in any
    other sentence states no count of the asked thing (measured: spelling every number
    answered "max number of members" with "There are two ways")."""
    if not _SPELLED_RE.search(text):
        return text  # most sentences: no unit to work out
    units = {u for u in unit_terms(question) if u.isascii()}

    def counted(m: re.Match[str]) -> str:
        unit = fold(stem(m.group(3).lower()))
        return f"{NUMBER_WORDS[m.group(1).lower()]} {m.group(2)}{m.group(3)}" if unit in units \
            else m.group(0)

    return _SPELLED_RE.sub(counted, text) if units else text


def new_answer(kind: AskKind, text: str, question: str) -> bool:
    """Whether ``text`` states what ``kind`` asks for with a span not in ``question``:
    a dateline is dropped and the question's numbers (digits, and Chinese numerals with
    their count word: ``_ZH_COUNT_RE``) and capitalised names are blanked before ``states``
    looks."""
    if kind == "other":
        return True
    blanked = _counted_in_words(_DATELINE_RE.sub("", spell_amounts(text)), question)
    blanked = without_ages(question, blanked)  # "2 years old" says how old, not how long
    own = set(_DIGIT_WORD_RE.findall(question)) | set(re.findall(r"[A-Z][a-z]+", question))
    for span in sorted(own, key=len, reverse=True):
        blanked = re.sub(rf"(?<![A-Za-z0-9_.]){re.escape(span)}(?![A-Za-z0-9_.])", "…", blanked)
    for span in sorted(set(_ZH_COUNT_RE.findall(question)), key=len, reverse=True):
        blanked = re.sub(rf"(?<![{CN_NUMERALS}\d]){re.escape(span)}", "…", blanked)
    if kind in ("place", "name"):  # "2004 Summer Olympics", 南非 for 2010南非世界杯的冠军
        blanked = blank_own_names(question, blanked)
    elif tagged(question):
        for word, tag in tagged(question):
            if tag == "nr" and word in blanked:
                blanked = blanked.replace(word, "…")
    for role in ROLE_RE.findall(question.lower()):  # "Who is the director": not an answer
        blanked = re.sub(re.escape(role), "…", blanked, flags=re.IGNORECASE)
    if kind == "place":  # a place inside a title or a quoted name says where nothing is
        return _states_place(_TITLED_RE.sub("…", blanked)) or _capital_named(text, question)
    if kind == "name":
        return _states_proper_name(blanked, ("nr", "ns", "nt", "nz"))
    if kind == "time":
        return bool(_TIME_SPAN_RE.search(blanked)) or (
            bool(_WHEN_RE.search(question.lower())) and bool(_RELATIVE_TIME_RE.search(blanked)))
    if kind == "quantity" and owns_money(question) and answer_kind(
            ask_clause(question)) == "other":
        # "I have a 6,000 yuan claim, is my manager's OK enough?" is decided by the source's
        # amount of money: a sentence stating "kept for 10 years" compares nothing with it
        return states("money", blanked)
    if kind == "quantity" and asks_frequency(question):
        return states_frequency(blanked, states(kind, blanked), question)
    if kind in ("quantity", "number") and (
            timed := states_time_asked(ask_clause(question), blanked)) is not None:
        return timed  # "How long until I can try again?": "15 minutes", not "5 more times"
    return states(kind, blanked)


# An amount the asker states: a sign, code or name, and 块 (钱) ("6000 块", "500 bucks").
_OWN_MONEY_RE = re.compile(
    r"(?:\b(?:EUR|USD|CNY|RMB|GBP)\b|[€$£¥])\s?\d|\d\s?(?:(?:EUR|USD|CNY|RMB|GBP|euros?|"
    r"dollars?|bucks|quid)\b|[€$£¥]|元|块|欧元|美元|英镑)", re.IGNORECASE)


def owns_money(question: str) -> bool:
    """Whether ``question`` states an amount of money (``_OWN_MONEY_RE``, ``names_money``)."""
    return names_money(question) or bool(_OWN_MONEY_RE.search(unicodedata.normalize(
        "NFKC", question)))
