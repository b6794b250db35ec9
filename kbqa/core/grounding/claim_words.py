"""Claim words the cited sources never say: the third check after the two gates.

Gate two asks whether *enough* of a sentence's words are in its cited block; it cannot see
that the one word carrying the claim is not: "Backups run hourly [2]." against "Backups run
every night at 02:00." shares 2 of 3 terms (0.667) and passes, yet "hourly" is nowhere.

``unsupported_words`` finds the sentence's risky words that no *evidence* says, the evidence
being the cited blocks' ORIGINAL text, their title, section and updated date, and the
question. A risky word is one whose kind changes what a sentence claims:

- ``number``: a number word or Chinese numeral with a unit (``three``, ``million``,
  ``三十天``); supported when the evidence has the word or its value in digits;
- ``time``: a unit of time or a time of day or week (``hours``, ``night``, ``Monday``, ``小时``);
- ``frequency``: ``hourly``, ``every day``, ``never``, ``每小时``, ``每天``;
- ``comparison``: the direction of a bound (``more than``, ``at least``, ``maximum``, ``超过``,
  ``至少``, ``上限``);
- ``negation``: ``not``, ``never``, ``cannot``, ``不``, ``没有``, ``无法``; only when every other
  term of the sentence is in the cited blocks (the negation can then only deny what the
  block states), and supported by any negation or restriction (``only``, ``仅``) in them;
- ``name``: a capitalised word inside an English sentence, an acronym, a Latin word in a
  Chinese sentence, or a jieba person/place/organisation/proper noun (``nr ns nt nz``).

Words of one kind are grouped with their equivalents in both languages (``GROUPS``): a
sentence saying "nightly" or "每晚" is supported by "every night"; so a Chinese answer over an
English source is checked on these words too. The check is lexical: it cannot see a
paraphrase or a synonym outside ``GROUPS`` ("twice a day" for "every 12 hours" is dropped),
an implication ("only admins" -> "guests cannot"), or a wrong claim made of words the block
does contain ("Backups run at night, not at 02:00").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from kbqa.core.text.normalise import CJK_CHARS, detect_language, has_cjk
from kbqa.core.text.quantities import chinese_number
from kbqa.core.text.terms import STOP_EN, is_acronym, terms

WordKind = Literal["number", "time", "frequency", "comparison", "negation", "name"]


def _any_form(forms: Iterable[str]) -> re.Pattern[str]:
    """One pattern for ``forms``, longest first: a Latin form as a whole word, judged by
    Latin letters and digits only ("小米max" has "max": Python's ``\\b`` treats CJK as word
    characters), a CJK form anywhere."""
    ordered = sorted(forms, key=len, reverse=True)
    latin = "|".join(re.escape(f) for f in ordered if f.isascii())
    cjk = "|".join(re.escape(f) for f in ordered if not f.isascii())
    parts = ([rf"(?<![a-z0-9])(?:{latin})(?![a-z0-9])"] if latin else []) + ([cjk] if cjk else [])
    return re.compile("|".join(parts) or "(?!)")


@dataclass(frozen=True)
class WordGroup:
    """Equivalent forms of one meaning: ``tokens`` are matched as whole words (a single
    Latin word or CJK character), ``phrase`` finds the longer forms anywhere, ``anywhere``
    finds any form in evidence text."""

    kind: WordKind
    forms: frozenset[str]
    tokens: frozenset[str]
    phrase: re.Pattern[str]
    anywhere: re.Pattern[str]


def _group(kind: WordKind, forms: str) -> WordGroup:
    found = frozenset(f.strip() for f in forms.split("|"))
    phrases = [f for f in found if " " in f or (not f.isascii() and len(f) > 1)]
    return WordGroup(kind, found, found - frozenset(phrases), _any_form(phrases),
                     _any_form(found))


#: Equivalent forms, English and Chinese, one group per meaning (module doc).
GROUPS: tuple[WordGroup, ...] = (
    _group("frequency", "hourly|every hour|each hour|per hour|每小时|每个小时"),
    _group("frequency", "daily|every day|each day|per day|nightly|every night|each night"
           "|每天|每日|每晚|每夜|每天晚上"),
    _group("frequency", "weekly|every week|each week|per week|每周|每星期|每个星期"),
    _group("frequency", "monthly|every month|each month|per month|每月|每个月"),
    _group("frequency", "yearly|annually|annual|every year|each year|per year|每年"),
    _group("frequency", "always|总是|始终|一直"),
    _group("frequency", "usually|often|frequently|通常|经常"),
    _group("frequency", "sometimes|occasionally|有时|偶尔"),
    _group("frequency", "twice|两次"),
    _group("time", "seconds|秒|秒钟"),
    _group("time", "minute|minutes|分钟"),
    _group("time", "hour|hours|小时|钟头"),
    _group("time", "day|days|天"),
    _group("time", "business day|business days|working day|working days|工作日"),
    _group("time", "week|weeks|周|星期"),
    _group("time", "month|months|个月"),
    _group("time", "year|years"),
    _group("time", "morning|上午|早上"),
    _group("time", "afternoon|下午"),
    _group("time", "evening|night|nightly|midnight|晚上|夜间|夜里|每晚|凌晨|午夜"),
    _group("time", "noon|中午"),
    _group("time", "weekend|weekends|周末"),
    _group("time", "today|今天"),
    _group("time", "tomorrow|明天"),
    _group("comparison", "more than|greater|larger|bigger|higher|longer|exceed|exceeds"
           "|exceeding|exceeded|above|超过|大于|高于|多于|以上|超出"),
    _group("comparison", "less than|fewer|smaller|lower|shorter|below|少于|小于|低于|不足|不到"),
    _group("comparison", "maximum|max|at most|up to|no more than|not more than|limit|limited"
           "|cap|capped|最多|最大|上限|至多|不超过|不得超过|以内"),
    _group("comparison", "minimum|min|at least|no less than|not less than|至少|最少|最低|下限"
           "|不少于|不低于"),
)
_NEGATIONS = frozenset(
    "not no never none cannot can't won't isn't aren't doesn't don't didn't wasn't weren't "
    "shouldn't mustn't without neither nor nothing nobody 不 没 没有 无 未 非 别 勿 不能 不会 "
    "不得 不可 无法 禁止 不要 不是 并非 不允许 不支持 从不 从未".split()
)
# A restriction implies the negation of the rest: "only admins can" supports "guests cannot".
_RESTRICTIONS = frozenset("only exclusively solely 仅 只 只有 仅限 唯有".split())
_NEGATES_RE = _any_form(_NEGATIONS | _RESTRICTIONS)
_GROUP_FORMS = frozenset(f for g in GROUPS for f in g.forms)
_NUMBER_WORDS = {
    w: str(i) for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve".split()) if i > 1
} | {"twenty": "20", "thirty": "30", "forty": "40", "fifty": "50", "sixty": "60",
     "ninety": "90", "hundred": "100", "thousand": "1000", "million": "1000000",
     "billion": "1000000000", "dozen": "12"}
_NAME_TAGS = frozenset({"nr", "ns", "nt", "nz"})
# A Latin word with the digits glued to it ("5G", "2021Q4", "FIDO2"), or a CJK run.
_RUN_RE = re.compile(rf"[0-9]*[A-Za-z][A-Za-z0-9]*(?:['’][a-z]+)?|[{CJK_CHARS}]+")
_CN_NUMERAL_RE = re.compile(
    r"[零一二两三四五六七八九十百千]+(?=\s*个?\s*(?:天|小时|分钟|秒|周|星期|月|年|次|点|元|人|倍|%|％))"
)
_ACRONYM_RE = re.compile(r"^[A-Z][A-Z0-9]+$")
_POSSESSIVE_RE = re.compile(r"['’]s$")
_ANSWER_WORD_RE = re.compile(r"^\W*(?:no|yes|不|不是|不用|不需要|不能|不可以)\s*[,，.。!！]", re.I)
_QUOTED_RE = re.compile(r'"[^"\n]+"|“[^”\n]+”|「[^」\n]+」|『[^』\n]+』')
_CLAUSE_START_RE = re.compile(r"(?:^|[.:;!?\"'“‘(（—–-]\s*)([A-Za-z][A-Za-z0-9]*)")


@dataclass(frozen=True)
class Evidence:
    """What a sentence may draw on: ``text`` is the normalised (NFKC, lower-case) text of the
    cited blocks, their metadata and the question; ``numbers`` the digit strings in it
    (leading zeros removed); ``block_terms`` the terms of the cited blocks and metadata."""

    text: str
    numbers: frozenset[str]
    block_terms: frozenset[str]


@dataclass(frozen=True)
class ClaimWord:
    """A risky word of a sentence that the evidence does not say, as the sentence writes it."""

    word: str
    kind: WordKind


def unsupported_words(
    sentence: str, evidence: Evidence, sentence_terms: frozenset[str]
) -> list[ClaimWord]:
    """The risky words of ``sentence`` that ``evidence`` does not say, in reading order of
    kind (numbers, times, frequencies, comparisons, names, then negation).

    ``sentence_terms`` are the sentence's terms (``term_set``) that the block language can
    show (the negation rule needs them). Pure, never raises.
    """
    folded = unicodedata.normalize("NFKC", sentence)
    lower = folded.lower()
    words = _words(folded)
    lowered = frozenset(w.lower() for w in words)
    found: list[ClaimWord] = []
    found += _numbers(lower, words, evidence)
    for group in GROUPS:
        said = _said(group, lower, lowered)
        if said and not group.anywhere.search(evidence.text):
            found.append(ClaimWord(said, group.kind))
    found += _names(folded, words, evidence)
    answer_word = _ANSWER_WORD_RE.match(folded)  # "No, ..." answers the question
    negation = next((w for i, w in enumerate(words) if w.lower() in _NEGATIONS
                     and not (i == 0 and answer_word)), None)
    rest = sentence_terms - _NEGATIONS
    if negation and rest <= evidence.block_terms and not _negates(evidence.text):
        found.append(ClaimWord(negation, "negation"))
    return _longest(found)


def _longest(found: list[ClaimWord]) -> list[ClaimWord]:
    """Each word once, and not when it is part of another one found ("小时" of "每小时")."""
    words = [c.word.lower() for c in found]
    out: dict[str, ClaimWord] = {}
    for c, w in zip(found, words, strict=True):
        if w not in out and not any(w != o and w in o for o in words):
            out[w] = c
    return list(out.values())


def _words(folded: str) -> list[str]:
    """Latin words as written and jieba words (precise mode) of the CJK runs, in order."""
    out: list[str] = []
    for match in _RUN_RE.finditer(folded):
        run = match.group()
        out.extend(_jieba_words(run) if has_cjk(run) else [run])
    return out


def _jieba_words(run: str) -> list[str]:
    terms(run)  # loads jieba's dictionary once, shared with ``kbqa.core.text.terms``
    import jieba

    return [w for w in jieba.cut(run) if w.strip()]


def _jieba_tags(text: str) -> list[tuple[str, str]]:
    terms(text)
    import jieba.posseg

    return [(p.word, p.flag) for p in jieba.posseg.cut(text)]


def _said(group: WordGroup, lower: str, lowered: frozenset[str]) -> str:
    """The form of ``group`` the sentence uses ("" if none): a multi-word or
    multi-character form anywhere, a single word or character only as a whole word."""
    phrase = group.phrase.search(lower)
    if phrase:
        return phrase.group()
    tokens = group.tokens & lowered
    return max(sorted(tokens), key=len) if tokens else ""


def _has(form: str, text: str) -> bool:
    """Whether ``text`` has ``form`` (a Latin form as a whole word, ``_any_form``)."""
    return _any_form([form]).search(text) is not None


def _negates(text: str) -> bool:
    return _NEGATES_RE.search(text) is not None or "n't" in text


def _numbers(lower: str, words: list[str], evidence: Evidence) -> list[ClaimWord]:
    """Number words and Chinese numerals whose value the evidence gives neither way."""
    out = []
    for w in words:
        digits = _NUMBER_WORDS.get(w.lower())
        if digits and digits not in evidence.numbers and not _has(w.lower(), evidence.text):
            out.append(ClaimWord(w, "number"))
    for m in _CN_NUMERAL_RE.finditer(lower):
        value = chinese_number(m.group())
        if value is None:
            continue
        if str(int(value)) not in evidence.numbers and m.group() not in evidence.text:
            out.append(ClaimWord(m.group(), "number"))
    return out


def _names(folded: str, words: list[str], evidence: Evidence) -> list[ClaimWord]:
    """Names the evidence does not contain (case-insensitive): a capitalised word not
    starting the sentence or a clause (after ``: ; " (``), an acronym, any Latin word in a
    sentence written in Chinese (outside its quotations), a jieba proper noun."""
    cjk = detect_language(_QUOTED_RE.sub(" ", folded)) == "zh"  # outside its quotations
    starts = {m.group(1) for m in _CLAUSE_START_RE.finditer(folded)}
    candidates = [w for w in words if w.isascii() and (
        _ACRONYM_RE.match(w) or cjk or (w[:1].isupper() and w not in starts and w != "I"))]
    if cjk:
        candidates += [w for w, tag in _jieba_tags(folded) if tag in _NAME_TAGS]
    return [ClaimWord(w, "name") for w in dict.fromkeys(candidates)
            if not _named(w, evidence.text) and (is_acronym(w) or not _grouped(w.lower()))]


def _named(name: str, text: str) -> bool:
    """Whether ``text`` names ``name``: as written, or (Latin) a word starting with its stem,
    so "API's" is named by "API" and "Macs" by "macOS"."""
    word = _POSSESSIVE_RE.sub("", name.lower())
    if not word.isascii():
        return word in text
    stem = word[:-1] if len(word) > 3 and word.endswith("s") else word
    return re.search(rf"(?<![a-z0-9]){re.escape(stem)}", text) is not None


def _grouped(word: str) -> bool:
    """Whether ``word`` is a form of ``GROUPS`` (checked there: "Monday" is not a name)."""
    return (word in _NEGATIONS or word in _RESTRICTIONS or word in _NUMBER_WORDS
            or word in STOP_EN or word in _GROUP_FORMS)


def reason(word: ClaimWord, cited: Iterable[int]) -> str:
    """The drop reason a person reads: ``[2] does not say “hourly”``."""
    numbers = list(cited)
    who = " or ".join(f"[{n}]" for n in numbers)
    verb = "does" if len(numbers) == 1 else "do"
    text = f"{who} {verb} not say “{word.word}”"
    if word.kind == "negation":
        text += f" (the sentence denies what {who} states)"
    return text
