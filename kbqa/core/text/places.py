"""Places a question names, for preferring the documents scoped to them.

``chinese_places``: Chinese words jieba's part-of-speech tagger tags as places (ICTCLAS
``ns``), two characters or more (深圳, 成都). ``places_named``: those and, in English, the
capitalised words after the question's first word ("the Berlin office"), which may also
be product names: callers only ever compare them with document titles and sections.
``offices``: the places a text names an office of ("Amsterdam Office Guide", 苏州办公室).
``place_in``: a place named in either language ("Suzhou" and 苏州), by the place's Hanyu
Pinyin (``pypinyin``, MIT: its phrase dictionary reads 重庆 as chongqing).
"""

from __future__ import annotations

import re
from functools import lru_cache

from kbqa.core.text import bilingual, thesaurus
from kbqa.core.text.lexnames import LOCATION, OBJECT, noun_files
from kbqa.core.text.terms import is_stop_en, pos_tags

# A capitalised English word after the question's first word, not an acronym.
_NAME_EN_RE = re.compile(r"(?<=\s)[A-Z][a-z]{2,}\b")


def chinese_places(question: str) -> frozenset[str]:
    """The Chinese place names of ``question`` (jieba's ns, two characters or more, that
    ``may_name_place``)."""
    return frozenset(w for w, tag in pos_tags(question)
                     if tag == "ns" and len(w) >= 2 and may_name_place(w))


@lru_cache(maxsize=4096)
def may_name_place(word: str) -> bool:
    """Whether a Chinese ``word`` jieba tags as a place (ns) may be one: CC-CEDICT does
    not gloss it, or one of its gloss words is no WordNet word (a name: "jiangxi"), has a
    location sense (noun.location, ``lexnames.LOCATION``) or is a noun only whose first sense
    is an object (noun.object: "europe", "river"). jieba's dictionary
    tags 中断 ("cut short", "break off"), 加密 ("encrypt") and 日志 ("journal", "log")
    ns: a place asked for ("哪个国家") was answered with a sentence where the upload "中断"."""
    glosses = bilingual.english_glosses(word)
    return not glosses or any(_place_gloss(w) for gloss in glosses for w in gloss)


@lru_cache(maxsize=4096)
def glossed_place(word: str) -> bool:
    """Whether CC-CEDICT's first gloss of a Chinese ``word`` is one English word whose
    most frequent WordNet noun sense is a named place (noun.location, an instance of a
    kind: "qatar", "frankfurt"), whatever jieba tags the word (卡塔尔: ``nr``)."""
    glosses = bilingual.english_glosses(word)
    wn = thesaurus.database()
    if wn is None or not glosses or len(glosses[0]) != 1:
        return False
    senses = wn.index["noun"].get(glosses[0][0])
    if not senses:
        return False
    return wn.lexicographer_file("noun", senses[0]) == LOCATION and any(
        symbol == "@i" for symbol, *_ in wn.synset("noun", senses[0])[1])


def _place_gloss(word: str) -> bool:
    if thesaurus.database() is None or not thesaurus.known_word(word):
        return True
    files = noun_files(word)
    return LOCATION in files or files[:1] == (OBJECT,) and not any(
        thesaurus.morphy(word, pos) for pos in ("verb", "adj", "adv"))


def places_named(question: str) -> frozenset[str]:
    """``chinese_places`` and the capitalised English words after the first word."""
    return chinese_places(question) | frozenset(_NAME_EN_RE.findall(question))


@lru_cache(maxsize=1024)
def romanised(place: str) -> str:
    """``place`` as one lowercase word: a Chinese name in Hanyu Pinyin without tones (苏州 ->
    ``suzhou``), an English one without spaces and hyphens ("Xi'an" -> ``xi'an``)."""
    if place.isascii():
        return re.sub(r"[\s-]+", "", place).lower()
    from pypinyin import lazy_pinyin

    return "".join(lazy_pinyin(place)).lower()


def place_in(place: str, text: str) -> bool:
    """Whether ``text`` (a title, a section) names ``place``: as written, or in the other
    language ("Suzhou" in 苏州办公室指南, 苏州 in "Suzhou office guide")."""
    if place.lower() in text.lower():
        return True
    if place.isascii():
        return any(romanised(p) == romanised(place) for p in chinese_places(text))
    return romanised(place) in {romanised(w) for w in _NAME_EN_RE.findall(f" {text}")}


# An office of a place: "Amsterdam Office Guide", "the Suzhou office", "the Suzhou plant",
# 苏州办公室指南, 深圳分公司, 苏州工厂
_OFFICE_RE = re.compile(
    r"\b([A-Z][a-z]+)\s+(?i:office|branch|site|campus|plant|factory)\b"
    r"|([\u4e00-\u9fff]{2,4}?)(?:办公室|分公司|办事处|园区|工厂|厂区)")


@lru_cache(maxsize=4096)
def offices(text: str) -> tuple[tuple[str, str], ...]:
    """(place, as written) of each office ``text`` names (``_OFFICE_RE``): ("Suzhou",
    "Suzhou office"); a capitalised stop word ("The Office") is no place, and a Chinese one
    only a place jieba tags so (十点办公室 is no office of 十点)."""
    found = [(m.group(1) or m.group(2), m.group()) for m in _OFFICE_RE.finditer(text)]
    places = chinese_places(text) if any(not f.isascii() for f, _ in found) else frozenset()
    return tuple((f, w) for f, w in found if (f.isascii() and not is_stop_en(f, False))
                 or any(p in f for p in places))


# A title's scope in brackets: "Employee FAQ (Munich)", "Benefits Summary (Singapore)"
_BRACKETED_RE = re.compile(r"\(([A-Z][a-z]+)\)")


@lru_cache(maxsize=4096)  # asked of every block's title on each pass of the reader
def title_places(title: str) -> tuple[str, ...]:
    """The places a document ``title`` is scoped to: those it names an office of
    (``offices``) and a bracketed English place name whose most frequent WordNet sense is a
    location ("Employee FAQ (Munich)"; not "(Orchard Metrics)", "(2023)" or "(Draft)")."""
    bracketed = [name for name in _BRACKETED_RE.findall(title)
                 if noun_files(name)[:1] == (LOCATION,)]
    return (*(p for p, _ in offices(title)), *bracketed)
