"""Bindings: a number with its unit belongs to the subject the source states it for.

``kbqa.core.grounding.clauses`` (check 3) asks that a sentence's quantity be a quantity of
equal value and unit in the source sentence about the same subject. Two ways to move a
value to another subject still pass it, since every word is in that source sentence or
block:

- *values swapped within one source sentence*: "Hotels: up to EUR 170 per night, or up to
  EUR 240 per night in London, Paris, …" gives two values of one unit for two subjects;
  "Hotels in London are reimbursed up to EUR 170 per night" and "Hotels in other cities are
  up to EUR 240 per night" use its words and its numbers;
- *a group swapped for another group of the block*: "全职员工每个自然年享有 20 天带薪年假。
  兼职员工按合同约定的工作时间折算。" gives 20 天 to 全职员工; "兼职员工每年享有 20 天带薪年假"
  gives it to the other group the block names (English: "Full-time employees receive 20
  days…" / "Part-time employees receive a share…").

What "bound" means (``value_groups``, ``binding_issue``): see
``kbqa.core.grounding.value_groups``.

A group (``group_issue``) is a content word right before a head word ("全职/员工",
"full-time/employees"); the sentence's group before its value must not be one the block
names with that head in another sentence while the value's sentence names the same head with
another modifier. This holds only when the block itself sets the two groups side by side,
so "Your laptop…" for "Company laptops…" is no swap.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

from kbqa.core.grounding.value_groups import binding_issue, value_groups
from kbqa.core.text import thesaurus
from kbqa.core.text.bounds import BOUND_TERMS
from kbqa.core.text.normalise import has_cjk
from kbqa.core.text.quantities import COUNT_WORDS_ZH, Quantity, extract_quantities
from kbqa.core.text.terms import jieba_frequency, jieba_words, term_set, terms

#: A source sentence as ``source_text.SourceText`` holds it: normalised text, terms, quantities.
SentenceFacts = tuple[str, frozenset[str], tuple[Quantity, ...]]

_WORD_RE = re.compile(r"[a-z0-9]+(?:[-'’][a-z0-9]+)*")


# A count word after a number ends its phrase: jieba glues it to the next word otherwise
# ("15 天年假" -> 天年/假, read as another kind of leave than 年假), so a comma is set after
# it before cutting.
_COUNT_END_RE = re.compile(
    rf"((?:\d|[一二两三四五六七八九十几]|多少)\s*[{COUNT_WORDS_ZH}])(?=[\u4e00-\u9fff])")


def _words(text: str, cjk: bool | None = None) -> list[str]:
    """Words of normalised ``text`` in order: Latin words (hyphenated ones whole) and jieba
    words, stop words included (they break a modifier from its head: "each claim").
    ``cjk`` (default: whether ``text`` holds an ideograph) says whether jieba cuts it."""
    cjk = has_cjk(text) if cjk is None else cjk
    raw = jieba_words(_COUNT_END_RE.sub(r"\1，", text)) if cjk else _WORD_RE.findall(text)
    out: list[str] = []
    for w in raw:
        out.extend(_WORD_RE.findall(w) if w.isascii() else [w.strip()])
    return [w for w in out if w]


@lru_cache(maxsize=4096)
def _groups(text: str) -> frozenset[tuple[str, str, str]]:
    """(modifier, head term, head word) of adjacent words, both content words, of
    normalised ``text``: ("全职", "员工", "员工"), ("full-time", "employe", "employees"); a
    head is compared as its term, so a plural is the same head. Cached: a block's
    sentences are read per claim."""
    return _word_groups(_words(text))


def _word_groups(words: Sequence[str]) -> frozenset[tuple[str, str, str]]:
    """``_groups`` of a text cut into ``words``."""
    return frozenset((m, h, w) for m, w in zip(words, words[1:], strict=False)
                     if terms(m) and not any(c.isdigit() for c in m + w)
                     for h in terms(w)[-1:])


def group_issue(subject: str, value_sentence: str, block: Sequence[str]) -> str:
    """"" unless normalised ``subject`` (a sentence's words before its value) names a group
    "M H" where ``value_sentence`` (the source sentence giving the value) names "M' H" and
    not M, and a sentence of the cited ``block`` names "M H"; then "M' H", the group the
    value is stated for (module doc)."""
    source = _groups(value_sentence)
    source_words = set(_words(value_sentence))
    own_words = set(_words(subject))
    named = {(m, h) for sentence in block for m, h, _ in _groups(sentence)}
    for m, h, _ in _groups(subject):
        if m in source_words or (m, h) not in named:
            continue
        for m2, h2, w2 in sorted(source):
            if h == h2 and m2 not in own_words:
                return f"{m2} {w2}" if m2.isascii() else f"{m2}{w2}"
    return ""


def quantity_issues(
    clause: str, pieces: Sequence[str], sentences: Sequence[SentenceFacts], cited: str,
    words: Callable[[str], frozenset[str]], conditions: Sequence[Quantity] = (),
) -> list[str]:
    """One issue per quantity of the ``pieces`` of normalised ``clause`` (its parts cut at
    commas) that no source sentence about its subject gives with equal value and unit
    (``clauses`` check 3), or that every such sentence binds to another subject (module
    doc). ``cited`` names the blocks ("[1] or [2]"); ``words`` gives a text's claim terms;
    ``conditions``: the quantities of the clause's leading condition ("满 10 年…的，")."""
    issues = []
    for piece in pieces:
        start = 0
        for quantity in extract_quantities(piece):
            subject = piece[start : quantity.start]
            subjects = (words(subject), words(clause) - term_set(quantity.text))
            start = quantity.end
            giving = [s for s in _about(subjects, sentences)
                      if any(q.unit == quantity.unit and q.same_value(quantity) for q in s[2])]
            if not giving:
                issues.append(f"gives “{quantity.text}”, which {cited} does not give for this "
                              "(a number counts only with its unit, in the source sentence "
                              "about the same thing)")
                continue
            # The numbers of its condition in other units (a tier's "满 10 年不满 20 年的，")
            # come with the value in one source sentence, or the value is not theirs.
            beside = [q for q in conditions if q.unit != quantity.unit]
            if beside and not any(all(any(q.unit == o.unit and q.same_value(o) for q in s[2])
                                      for o in beside) for s in giving):
                issues.append(f"gives “{quantity.text}” with “{beside[0].text}”, which "
                              f"{cited} never states together (a number counts only with "
                              "the conditions the source states it under)")
                continue
            named = _own_terms(clause, quantity, words)
            reasons = [_bound(quantity, named, subject, s, sentences) for s in giving]
            if all(reasons) and not any(_verbatim(clause, s[0]) for s in giving):
                issues.append(f"gives “{quantity.text}”, which {cited} states for "
                              f"{reasons[0]}, not for this (a number counts only for the "
                              "subject the source states it for)")
    return issues


def _verbatim(clause: str, text: str) -> bool:
    """Whether ``clause`` is whole clauses of source sentence ``text`` as written (both
    normalised), from a clause mark to a clause mark: "满 10 年不满 20 年的，年假 10 天" of
    "…年假 5 天；满 10 年不满 20 年的，年假 10 天；满 20 年的…" moves no number."""
    own = clause.strip().rstrip(".。;；")
    found = text.find(own) if own else -1
    end = found + len(own)
    before = text[:found].rstrip()
    return found >= 0 and (not before or before[-1] in _MARKS) and (
        end == len(text) or text[end] in _MARKS)


_MARKS = ";；:：,，.。\n"


def _own_terms(clause: str, quantity: Quantity,
               words: Callable[[str], frozenset[str]]) -> frozenset[str]:
    """The terms of ``clause`` bound to ``quantity``: all but its own, or its group's when
    the clause states several values of its unit."""
    groups = value_groups(clause, extract_quantities(clause), quantity.unit)
    own = [b for q, b in groups if q.text == quantity.text and q.same_value(quantity)]
    return own[0] if own else words(clause) - term_set(quantity.text)


def _bound(quantity: Quantity, named: frozenset[str], subject: str,
           source: SentenceFacts, sentences: Sequence[SentenceFacts]) -> str:
    """"" when ``source`` gives ``quantity`` for the sentence's subject; else for whom."""
    text, _, found = source
    qualifiers = binding_issue(quantity, named, value_groups(text, found, quantity.unit))
    if qualifiers:
        return qualifiers
    group = group_issue(subject, text, [s[0] for s in sentences if s is not source])
    return f"“{group}”" if group else ""


def _about(subjects: tuple[frozenset[str], ...],
           sentences: Sequence[SentenceFacts]) -> list[SentenceFacts]:
    """The source sentences sharing the most of the first of ``subjects`` that any shares:
    a quantity's own words before it in its part of the clause (after the previous
    quantity: "uploads are limited to 200 MB and deleted items stay 30 days" has two
    subjects), then the clause's other words; all sentences when none shares a term (a
    sentence in another language than its block)."""
    for subject in subjects:
        shared = [len(s[1] & subject) for s in sentences]
        best = max(shared, default=0)
        if best:
            return [s for s, k in zip(sentences, shared, strict=True) if k == best]
    return list(sentences)


@dataclass(frozen=True)
class GroupedDocument:
    """One document as ``other_group`` weighs it: ``text``, its normalised title, headings
    and block texts joined by a space, and ``kinds``, the (modifier terms, head term) of
    each group of ``text`` (``_groups``)."""

    text: str
    kinds: frozenset[tuple[frozenset[str], str]]


def grouped_document(parts: Sequence[str]) -> GroupedDocument:
    """The ``GroupedDocument`` of ``parts`` (normalised, none empty: a title, headings and
    block texts). Each part's groups are found once per process (cached by the part's
    text and whether jieba cuts it: the same passages come back answer after answer, in
    other combinations); those across two parts are added, so ``kinds`` is what
    ``_groups`` finds in the joined text: jieba and the word pattern never join words
    across a space. Reading each combination of an answer's blocks as a new text cost
    about 17 ms of CPU per answer (``bench/turn_cpu.py``, profiled, 2026-12-02)."""
    text = " ".join(parts)
    cjk = has_cjk(text)
    kinds: set[tuple[frozenset[str], str]] = set()
    last = ""
    for part in parts:
        words = _part_words(part, cjk)
        if not words:
            continue
        kinds |= _part_kinds(part, cjk)
        if last:
            kinds |= _pair_kinds(last, words[0])
        last = words[-1]
    return GroupedDocument(text, frozenset(kinds))


@lru_cache(maxsize=8192)
def _pair_kinds(m: str, w: str) -> frozenset[tuple[frozenset[str], str]]:
    """The kinds of the group two adjacent words make, if they make one (the last word of
    a part and the first of the next)."""
    return frozenset((_word_terms(a), h) for a, h, _ in _word_groups((m, w)))


@lru_cache(maxsize=4096)
def _part_words(part: str, cjk: bool) -> tuple[str, ...]:
    return tuple(_words(part, cjk))


@lru_cache(maxsize=4096)
def _part_kinds(part: str, cjk: bool) -> frozenset[tuple[frozenset[str], str]]:
    return frozenset((_word_terms(m), h) for m, h, _ in _word_groups(_part_words(part, cjk)))


@dataclass(frozen=True)
class AskedGroups:
    """What ``other_group`` reads of a question, read once per question (``asked_groups``):
    its normalised ``text``, its ``terms``, its ``groups`` in order and, for a Chinese
    question, its two-character common nouns (``nouns``, jieba tag n, in jieba's dictionary:
    tagged on first use, as most answers never need them)."""

    text: str
    terms: frozenset[str]
    groups: tuple[tuple[str, str, str], ...]

    @cached_property
    def nouns(self) -> tuple[str, ...]:
        if not has_cjk(self.text):
            return ()
        import jieba.posseg

        # ...that jieba's dictionary holds: a word it lacks is its HMM's guess from the
        # characters around it (能报 of 能报多少), no noun of the question
        known = jieba_frequency()
        return tuple(w for w in (p.word for p in jieba.posseg.cut(self.text) if p.flag == "n")
                     if len(w) == 2 and has_cjk(w) and known.get(w))


def asked_groups(asked: str) -> AskedGroups:
    """The ``AskedGroups`` of normalised question ``asked``."""
    return AskedGroups(asked, term_set(asked), tuple(sorted(_groups(asked))))


def other_group(asked: AskedGroups, text: str, named: frozenset[str],
                documents: Sequence[GroupedDocument]) -> str:
    """"" unless normalised ``text`` (the clause carrying a value) names the head of a group
    "M H" of the question ``asked`` with another modifier M' that the question lacks,
    neither ``text`` nor ``named`` (terms of where the value stands: its section heading)
    holds M, and one of ``documents`` sets "M H" and "M' H" side by side;
    then "M' H", the subject the value is bound to. "How many days of sick leave…?" and an
    upload's "Full-time employees receive 25 days of paid annual leave", while the leave
    policy names both "annual leave" and "sick leave": the 25 days are annual leave's (the
    ``group_issue`` rule, with the question naming the group). Modifiers are compared as
    terms ("uploaded" holds "upload"); a bound word ("maximum size") is no other subject,
    and "单个文件" is no other group than "上传文件" where no document contrasts the two; an
    English modifier must be a noun, verb or adjective to WordNet ("per file" names no kind
    of file)."""
    own = _word_terms(text) | named
    for m, h, _ in asked.groups:
        if _word_terms(m) <= own or not _open_class(m):
            continue
        for m2, h2, w2 in sorted(_groups(text)):
            if (h2 != h or _word_terms(m2) & (asked.terms | BOUND_TERMS)
                    or not _open_class(m2)):
                continue
            if any({(_word_terms(m), h), (_word_terms(m2), h)} <= d.kinds for d in documents):
                return f"{m2} {w2}" if m2.isascii() else f"{m2}{w2}"
    return _sibling_zh(asked, text, named, [d.text for d in documents])


@lru_cache(maxsize=8192)
def _word_terms(word: str) -> frozenset[str]:
    """``term_set`` of a modifier word or of a passage's clause (never a question's), kept:
    the same words and clauses are weighed for every value of every answer."""
    return term_set(word)


def _sibling_zh(asked: AskedGroups, text: str, named: frozenset[str],
                documents: Sequence[str]) -> str:
    """The Chinese form of ``other_group``: one word names the kind, its last character the
    head (病假/年假, 入门版/企业版, the sibling nouns of ``retrieval.focus_zh.parallel_zh``). A
    two-character common noun of ``asked`` (jieba tag n; not a name: 中国 is ns, and
    我国 in a statistic about China is no other country) that ``text`` and ``named`` lack, while
    ``text`` holds another character before the same head (a sibling ``asked`` lacks), and
    one of ``documents`` names both: "员工每年有多少天带薪病假？" and "全职员工享有 25 天带薪年假"
    beside a policy titled 年假与病假制度 (jieba cuts 带薪年假 into 带薪/年/假, so the sibling is
    read by characters); that sibling, else ""."""
    for word in asked.nouns:
        if word in text or word in named:
            continue
        for i in range(1, len(text)):
            sibling = text[i - 1:i + 1]
            if (text[i] != word[-1] or sibling == word or sibling in asked.text
                    or not has_cjk(sibling[0])):
                continue
            if any(word in d and sibling in d for d in documents):
                return sibling
    return ""


@lru_cache(maxsize=8192)
def _open_class(word: str) -> bool:
    """Whether an English ``word`` is one WordNet lists as a noun, verb or adjective (not
    "per", "via"); True for other scripts and without the WordNet data."""
    if not word.isascii() or not thesaurus.available():
        return True
    return any(thesaurus.morphy(word, pos) for pos in ("noun", "verb", "adj"))
