"""The quotable sentences of blocks, for the extractive provider (``extractive.py``).

A block's ORIGINAL chunk text is unwrapped (hard-wrapped lines joined) and split with
``split_sentences``; each sentence is cleaned of bullets, emphasis and markers. Markdown
table rows become one sentence each, their cells paired with the header cells
(``Plan: Business; Storage quota: 1 TB per user``), so a quantity that only a table states
can be quoted. Every ``Candidate`` carries its terms folded by ``fold`` (a looser English
match than the S-stemmer), the folded terms of its block's section heading and document
title (``context``), whether it is a list item, an intro ending with a colon, or a fragment.
It also writes the answer's pieces: ``cite`` (a sentence with its marker), ``gap_sentence``
and ``surfaces`` (the question's own words for the terms a gap names).

A number is also a term together with its unit or next word (``40 day``, ``30 天``), so a
question about "40 days" matches a sentence about 40 days and not one about "40 Business
users" (``number_terms``; the question side uses only the joined form, ``question_numbers``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kbqa.core.text import thesaurus
from kbqa.core.text.normalise import CJK_CHARS
from kbqa.core.text.quantities import money_at
from kbqa.core.text.sentences import MARKER_RE, join_quote_lines, split_sentences, wide
from kbqa.core.text.tables import cells, row_sentence
from kbqa.core.text.terms import acronym_starts, fold, is_stop_en, stem, terms, without_parts
from kbqa.core.types import Block, Language

_LINE_START_RE = re.compile(r"^\s*(?:[-*+•]\s|\d{1,2}[.)、]\s?|#|\||>)")
_BULLET_RE = re.compile(r"^\s*(?:[-*+•]\s+|(\d{1,2})[.)]\s+)")
_EMPHASIS_RE = re.compile(r"\*\*|__|`|(?<!\w)[*_](?=\w)|(?<=\w)[*_](?!\w)")
_TABLE_RULE_RE = re.compile(r"^\|?[\s:|-]+\|?$")
_LATIN_WORD_RE = re.compile(r"[A-Za-z0-9]+")
_CJK_END = "。！？；"
_OPENERS = "\"'“‘(（[【「《"
# A number and the word right after it ("40 days", "30 天"), not in a name ("gpt-3", "v2.1").
_NUMBER_UNIT_RE = re.compile(
    rf"(?<![\w.-])(\d+(?:\.\d+)*)[ \u00a0]?(?:([A-Za-z]+)|([{CJK_CHARS}]))")
_YEAR_RE = re.compile(r"(?:19|20)\d\d")
# ...and one counted in a time unit a word or two later ("18 working days" is 18 days)
_QUALIFIED_TIME_RE = re.compile(
    r"(?<![\w.:-])(\d+(?:\.\d+)?)\s+((?:(?!(?:per|an?|each|every)\s)[a-z-]+\s+){1,2})"
    r"(seconds?|minutes?|hours?|days?|weeks?|months?|years?)\b", re.IGNORECASE)
# Words a sentence quoted alone has at least (a CJK character half): "No." answers nothing.
MIN_WORDS = 4
# A "sentence" longer than this (in words, a CJK character half, as ``is_fragment`` counts)
# is unpunctuated text: quoting it shows a wall of text. Above the longest sentence of RGB's
# 35,250 passage sentences (163.5), five times the demo's longest (35); measured 2026-12-04.
MAX_WORDS = 170
MAX_LIST_ITEMS = 5  # list items quoted after an intro that ends with a colon


def folded_terms(text: str) -> frozenset[str]:
    """The distinct folded content terms of ``text``, with ``number_terms`` and the heads of
    its closed compounds (``thesaurus.compound_head``: "bench" of "workbench")."""
    words = terms(text)
    heads = filter(None, map(thesaurus.compound_head, words))
    return frozenset(fold(t) for t in (*words, *heads)) | number_terms(text)


def number_terms(text: str) -> frozenset[str]:
    """Each number of ``text`` joined with its unit or next word: ``40 day``, ``30 天``, and
    with a time unit a word or two later (``18 day`` of "18 working days"); a Latin word
    folded, a Chinese one by its first character; none for a year (not "2000 euros":
    ``money_at``), a number in a name (``GPT-3 released``, ``Q3 revenue``) or before a stop word."""
    folded = unicodedata.normalize("NFKC", text)
    acronyms = acronym_starts(folded)  # "3 IT staff": IT is the unit's word, not "it"
    out: set[str] = set()
    for m in _NUMBER_UNIT_RE.finditer(folded):
        number, word, cjk = m.groups()
        if (_YEAR_RE.fullmatch(number) and not money_at(folded, m.start(1))) or (
                word and is_stop_en(word, m.start(2) in acronyms)):
            continue
        out.add(f"{number} {fold(stem(word.lower())) if word else cjk}")
    out.update(f"{m.group(1)} {fold(stem(m.group(3).lower()))}"
               for m in _QUALIFIED_TIME_RE.finditer(folded)
               if not any(is_stop_en(w, False) for w in m.group(2).split()))  # "on the day"
    return frozenset(out)


def question_numbers(question: str) -> dict[str, str]:
    """For each number of ``question`` that has a unit or next word, its joined term:
    ``{"40": "40 day"}``; the question matches that number only with that word."""
    return {t.split(" ")[0]: t for t in sorted(number_terms(question))}


def unwrap(text: str) -> str:
    """Join hard-wrapped lines of a paragraph or list item, so a sentence is one line.

    Chunk text keeps the document's line breaks, and ``split_sentences`` ends a sentence at
    every line break; a line that starts a bullet, heading, table row or quote starts anew.
    A quote is one line without its ``>`` markers (``sentences.join_quote_lines``), as the
    verifier reads it."""
    lines: list[str] = []
    for raw in join_quote_lines(text).splitlines():
        line = raw.strip()
        if not line:
            lines.append("")
        elif lines and lines[-1] and not _LINE_START_RE.match(raw):
            glue = "" if wide(lines[-1][-1]) and wide(line[0]) else " "
            lines[-1] += glue + line
        else:
            lines.append(line)
    return "\n".join(line for line in lines if line)


def clean(sentence: str) -> str:
    """A source sentence fit to show: no bullet, emphasis, stray markers or an FAQ's answer
    label ("答：", "A:"); "" for headings."""
    if sentence.lstrip().startswith(("#", "|")):
        return ""
    text = MARKER_RE.sub("", _BULLET_RE.sub("", sentence))
    return _ANSWER_LABEL_RE.sub("", _EMPHASIS_RE.sub("", text).strip())


# The label an FAQ writes before its answer: "答：全职员工每年有 15 天年假。", "A: Yes, …".
_ANSWER_LABEL_RE = re.compile(r"^(?:答|回答|A|Answer)\s*[:：]\s*(?=\S)")


def sentence_words(text: str) -> float:
    """Latin words and numbers plus half the CJK characters of ``text``."""
    cjk = sum(wide(ch) and ch.isalnum() for ch in text)
    return len(_LATIN_WORD_RE.findall(text)) + cjk / 2


def is_fragment(text: str) -> bool:
    """Whether ``text`` is a piece of a sentence rather than one: it starts with punctuation
    (``" < > | are not allowed``), or has fewer than ``MIN_WORDS`` words."""
    head = text.lstrip(_OPENERS)
    if not head or not head[0].isalnum():
        return True
    return sentence_words(text) < MIN_WORDS


def table_sentences(lines: Sequence[str]) -> list[str]:
    """Markdown table ``lines`` (header first) as one sentence per body row.

    Cells are paired with their header (``text.tables.row_sentence``); rows that would not
    stay one sentence are left out. A table without a rule line under its header is read as
    body rows only."""
    rows = [[_EMPHASIS_RE.sub("", c).strip() for c in cells(ln)]
            for ln in lines if not _TABLE_RULE_RE.match(ln.strip())]
    has_header = len(lines) > 1 and bool(_TABLE_RULE_RE.match(lines[1].strip()))
    header, body = (rows[0], rows[1:]) if has_header else ([], rows)
    out: list[str] = []
    for row in body:
        text = row_sentence(header, row)
        if text and len(split_sentences(text)) == 1:
            out.append(text)
    return out


@dataclass(frozen=True)
class Candidate:
    """One sentence of one block.

    ``n`` the block number; ``rank`` the block's place by retrieval score (0 = best);
    ``position`` the sentence's order in the block; ``context`` the folded terms of the
    block's section heading and document title; ``item`` whether it is a list item;
    ``intro`` whether it ends with a colon (it introduces what follows); ``lead`` the folded
    terms of its label (``商业版`` in ``商业版：每位用户每月 15 欧元``, the first cell of a
    table row), what the sentence is about; ``heading`` the terms of the section heading
    for the first sentence under it (the heading introduces it), else empty; ``continued``
    whether it is a later sentence of a list item, which leans on the item's first ("Set up
    two-factor authentication … You cannot open NimbusDrive … until it is on."); ``topic``
    the section heading or FAQ question line it sits under, as written; ``numbered``
    whether it is an item of a numbered list ("1. …", a procedure's step)."""

    n: int
    rank: int
    position: int
    text: str
    terms: frozenset[str]
    context: frozenset[str]
    item: bool
    intro: bool
    fragment: bool
    lead: frozenset[str] = frozenset()
    heading: frozenset[str] = frozenset()
    continued: bool = False
    topic: str = ""  # the section heading or FAQ question line it sits under, as written
    numbered: bool = False


@dataclass(frozen=True)
class Selection:
    """What to answer: chosen sentences (empty when declining), uncovered question words and
    the asks of a message asking several things that none of them answers
    (``several_asks``)."""

    chosen: tuple[Candidate, ...]
    uncovered: tuple[str, ...]
    declined: bool
    unanswered: tuple[str, ...] = ()


def _pieces(text: str) -> list[tuple[str, bool, bool, bool]]:
    """``(sentence, is list item, continues an item, numbered item)`` in reading order;
    table rows come as table sentences."""
    out: list[tuple[str, bool, bool, bool]] = []
    table: list[str] = []
    for line in [*unwrap(text).splitlines(), ""]:
        if line.startswith("|"):
            table.append(line)
            continue
        if table:
            out.extend((row, False, False, False) for row in table_sentences(table))
            table = []
        bullet = _BULLET_RE.match(line)
        item, numbered = bool(bullet), bool(bullet and bullet.group(1))
        out.extend((raw, item, item and i > 0, numbered)
                   for i, raw in enumerate(split_sentences(line)))
    return out


def quotable_sentences(text: str) -> list[str]:
    """The texts of the ``Candidate`` sentences of a chunk whose original text is ``text``,
    in reading order: what the reader may compare with a question, so what ingestion
    encodes (README: Semantic recall)."""
    return [t for t in (clean(raw) for raw, *_ in _pieces(text))
            if t and _quotable(t, folded_terms(t))]


def _quotable(text: str, terms: frozenset[str]) -> bool:
    """A cleaned sentence with a term (``terms``, its ``folded_terms``) that is not a wall
    of words (``MAX_WORDS``)."""
    return bool(terms) and sentence_words(text) <= MAX_WORDS


def candidates(blocks: Sequence[Block]) -> list[Candidate]:
    """Every showable sentence of every block's original text, in block then reading order."""
    ranks = {b.n: i for i, b in enumerate(sorted(blocks, key=lambda b: (-b.score, b.n)))}
    out: list[Candidate] = []
    titles = {b.chunk.doc_id: b.chunk.title for b in blocks if b.chunk.title.strip()}
    for block in blocks:
        # Another block's document named by its title ("read … the annual leave and sick
        # leave policy") is a pointer to it: its words say nothing here, the document does.
        others = _titles_re([t for d, t in titles.items() if d != block.chunk.doc_id])
        context = folded_terms(f"{block.chunk.section}\n{block.chunk.title}")
        # The first sentence under a section heading is introduced by it (not by a
        # heading that only repeats the document title).
        heading: frozenset[str] | None = folded_terms(block.chunk.section)
        if heading and heading <= folded_terms(block.chunk.title):
            heading = None
        faq: frozenset[str] = frozenset()
        topic = block.chunk.section
        for position, (raw, item, continued, numbered) in enumerate(_pieces(block.chunk.text)):
            text = clean(raw)
            found = folded_terms(others.sub(" ", unicodedata.normalize("NFKC", text))
                                 if others else text)
            if text and _quotable(text, found):
                intro = text.endswith((":", "："))
                out.append(Candidate(block.n, ranks[block.n], position, text, found,
                                     context | faq, item, intro, is_fragment(text),
                                     lead_terms(text), heading or frozenset(), continued,
                                     topic, numbered))
                heading = None
                # An FAQ's question line ("打印机卡纸怎么办？" on a line of its own in a text
                # file, where it is no heading) heads the sentences after it, as a section
                # heading does; a question inside a paragraph (news: RGB) heads nothing.
                if (_QUESTION_END_RE.search(text) and not item
                        and f"\n{raw.strip()}\n" in f"\n{block.chunk.text}\n"):
                    faq = heading = found
                    topic = text
    return out


_QUESTION_END_RE = re.compile(r"[?？][\"'”’)）*]*\s*$")


def _titles_re(titles: Sequence[str]) -> re.Pattern[str] | None:
    """A pattern for any of ``titles`` as a text writes it (any case, NFKC); None for none."""
    keys = sorted({unicodedata.normalize("NFKC", t) for t in titles}, key=len, reverse=True)
    return re.compile("|".join(map(re.escape, keys)), re.IGNORECASE) if keys else None


def list_items(pool: Sequence[Candidate]) -> dict[tuple[int, int], tuple[Candidate, ...]]:
    """For each intro sentence (``(n, position)``), the list items right after it."""
    out: dict[tuple[int, int], tuple[Candidate, ...]] = {}
    for i, c in enumerate(pool):
        if not c.intro:
            continue
        items: list[Candidate] = []
        for nxt in pool[i + 1:]:
            if nxt.n != c.n or not nxt.item or len(items) >= MAX_LIST_ITEMS:
                break
            items.append(nxt)
        out[(c.n, c.position)] = tuple(items)
    return out


# A label: a few words before a colon ("商业版：", "Plan: Business;"), at most this long
# (4 since 2026-12-01: an FAQ's bold symptom "上传一直没有开始：" is a label; 3 missed it).
_LABEL_RE = re.compile(r"^([^:：;；。.!?]{1,24}?)[:：]\s*")
_CELL_RE = re.compile(r"([^:：;；，,。]{1,24})(?:[;；]|，(?=[^。]*：))")
_LABEL_WORDS = 4
_LATER_LABEL_RE = re.compile(r"(?:^|(?<=[;；，]))\s*([^:：;；。]{1,24}?)[:：]")


def lead_terms(text: str) -> frozenset[str]:
    """The folded terms of ``text``'s label: up to ``_LABEL_WORDS`` words (a CJK character
    counting half) before a colon, with the value after it when a table cell ends there
    (``Plan: Business;``, ``方案：商业版，空间：...``) and then every later cell's label, which
    heads its value as the first does ("City: London; Hotel per night: EUR 220; …", as
    tables of every format read); empty without a label."""
    m = _LABEL_RE.match(text)
    if not m:
        return frozenset()
    label = m.group(1)
    if len(_LATIN_WORD_RE.findall(label)) + sum(wide(ch) for ch in label) / 2 > _LABEL_WORDS:
        return frozenset()
    cell = _CELL_RE.match(text, m.end())
    later = _LATER_LABEL_RE.findall(text, cell.end()) if cell else []
    return folded_terms(" ".join([label, cell.group(1), *later]) if cell else label)


# ----------------------------------------------------------------------------- output


def surfaces(question: str, missing: Sequence[str]) -> tuple[str, ...]:
    """The question's own words for ``missing`` folded terms (digits never named)."""
    folded = unicodedata.normalize("NFKC", question)
    # Acronyms ("CEO") and names ("Chengdu", capitalised after the first word) keep their
    # capitals; other words are named in lower case.
    by_term: dict[str, str] = {}
    for m in re.finditer(r"[A-Za-z]+", folded):
        w = m.group()
        kept = (w.isupper() and len(w) > 1) or (w[0].isupper() and _inside_sentence(folded, m))
        by_term.setdefault(fold(stem(w.lower())), w if kept else w.lower())
    # a word of a name of several capitalised words is named as that name: "York" of "New
    # York" is half a place
    for m in _NAME_RUN_RE.finditer(folded):
        if _inside_sentence(folded, m):
            for w in m.group().split():
                by_term[fold(stem(w.lower()))] = m.group()
    names = [by_term.get(t, t) for t in missing if not any(ch.isdigit() for ch in t)]
    return tuple(dict.fromkeys(without_parts(names)))


_NAME_RUN_RE = re.compile(r"\b(?!I\b)[A-Z][a-z]+(?:[ \t]+(?!I\b)[A-Z][A-Za-z]*)+\b")


def _inside_sentence(text: str, m: re.Match[str]) -> bool:
    """Whether the word ``m`` stands after another word of its sentence (so a capital is the
    word's own, not the sentence's)."""
    before = text[: m.start()].rstrip(" \"'“‘(")
    return bool(before) and before[-1] not in ".?!。？！:：\n"


def gap_sentence(language: Language, missing: Sequence[str]) -> str:
    """A gap sentence (no digits, no citation) saying which of the question's words no source
    uses. Literal on purpose: "never uses the word “bike”" stays true when a source says
    "bicycle", where "does not mention bikes" would mislead."""
    if language == "zh":
        if not missing:
            return "资料未涵盖：找到的资料无法回答这个问题。"
        return f"资料未涵盖：找到的资料中没有出现{'、'.join(f'“{m}”' for m in missing)}。"
    if not missing:
        return "Not covered: the sources found do not answer this question."
    words = ", ".join(f"“{m}”" for m in missing)
    noun = "word" if len(missing) == 1 else "words"
    return f"Not covered: none of the sources found uses the {noun} {words}."


def unanswered_sentence(language: Language, ask: str) -> str:
    """A gap sentence quoting one ask of the message that no chosen sentence answers."""
    if language == "zh":
        return f"资料未涵盖：找到的资料无法回答“{ask}”。"
    return f"Not covered: the sources found do not answer “{ask}”."


def cite(sentence: str, n: int) -> str:
    """``sentence`` with its block marker: ``... days. [2]``; Chinese ``...30天[2]。``. A
    clause quoted up to its semicolon (``…培训；``, the splitter's cut) ends as a sentence
    on screen: ``…培训[2]。``."""
    if sentence[-1:] == "；":
        sentence = f"{sentence[:-1]}。"
    if sentence[-1:] in _CJK_END:
        return f"{sentence[:-1]}[{n}]{sentence[-1]}"
    return f"{sentence} [{n}]"


def with_following(chosen: Sequence[Candidate], pool: Sequence[Candidate],
                   joins: Callable[[Candidate, Candidate], bool]) -> list[Candidate]:
    """``chosen`` with, after each sentence, the one right after it in its block (from
    ``pool``) when ``joins(sentence, next)`` and it is not chosen yet."""
    at = {(c.n, c.position): c for c in pool}
    out: list[Candidate] = []
    for c in chosen:
        if c not in out:
            out.append(c)
        nxt = at.get((c.n, c.position + 1))
        if nxt is not None and nxt not in chosen and nxt not in out and joins(c, nxt):
            out.append(nxt)
    return out
