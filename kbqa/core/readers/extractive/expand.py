"""Paraphrase help for the extractive answerer (``extractive.py``): a question worded
differently from its documents.

- ``spell_numbers``: an English number word ("two days") becomes its digits, so it is a
  condition joined with its unit (``2 day``, ``extractive_text.question_numbers``), not the
  rarest word of the question.
- ``expand``: a question term that no block has is replaced by the block terms that say
  the same: an everyday synonym (``SYNONYMS``: "vacation" -> "annual leave", ``下班`` ->
  ``工作时间``), or for a Chinese word the block words that begin with it (``丢`` ->
  ``丢失``, ``住`` -> ``住宿``), so a paraphrase is answered instead of declined.
- ``is_question``: a sentence that is itself a question ("离职时未休的年假怎么处理？", a FAQ
  heading) never answers one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kbqa.core.readers.extractive.text import fold
from kbqa.core.text.terms import STOP_EN, stem

_NUMBER_WORDS = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split())}
_NUMBER_WORD_RE = re.compile(rf"\b({'|'.join(_NUMBER_WORDS)})\b(?=\s+([A-Za-z]+))", re.I)
_CJK_RE = re.compile(r"[\u3400-\u9fff]")
MAX_PREFIX_MATCHES = 3  # a Chinese word starting more block words than this is too vague


def _folded(words: str) -> tuple[str, ...]:
    return tuple(fold(stem(w)) for w in words.split())


# Everyday words and the policy words documents use for them (both directions where both
# occur in questions). Keys and values are folded as question terms are.
SYNONYMS: dict[str, tuple[str, ...]] = {
    **{fold(stem(k)): _folded(v) for k, v in {
        "vacation": "annual leave", "vacations": "annual leave", "holiday": "annual leave",
        "holidays": "annual leave", "pto": "annual leave",
        "quit": "leave", "quitting": "leave", "resign": "leave", "resigning": "leave",
        "fly": "flight", "flying": "flight", "plane": "flight",
        "salary": "pay", "wage": "pay", "ill": "sick", "illness": "sick",
        "computer": "laptop", "notebook": "laptop", "pc": "laptop",
    }.items()},
    "下班": ("工作时间",), "上班": ("工作时间",), "几点": ("工作时间",),
    "丢": ("丢失",), "丢了": ("丢失",), "弄丢": ("丢失",),
    "辞职": ("离职",), "休假": ("年假",), "假期": ("年假",),
    "笔记本": ("电脑",), "住": ("住宿",), "报": ("报销",), "能报": ("报销",),
}


def spell_numbers(question: str) -> str:
    """``question`` with English number words before a content word as digits: "two days"
    -> "2 days"; "one of them" stays."""
    return _NUMBER_WORD_RE.sub(
        lambda m: m.group(1) if m.group(2).lower() in STOP_EN
        else _NUMBER_WORDS[m.group(1).lower()], question)


def expand(qterms: Sequence[str], block_terms: Sequence[frozenset[str]]) -> list[str]:
    """``qterms`` with each term no block has replaced by the block terms meaning the same
    (``SYNONYMS``, then for Chinese the at most ``MAX_PREFIX_MATCHES`` block words starting
    with it); a term with none stays as it is (it may be a gap). Order kept, no duplicates."""
    everything = frozenset().union(*block_terms) if block_terms else frozenset()
    out: list[str] = []
    for t in qterms:
        if t in everything:
            out.append(t)
            continue
        found = [s for s in SYNONYMS.get(t, ()) if s in everything]
        if not found and _CJK_RE.search(t):
            found = sorted(w for w in everything if w != t and w.startswith(t))
            found = found if len(found) <= MAX_PREFIX_MATCHES else []
        out.extend(found or [t])
    return list(dict.fromkeys(out))


def is_question(text: str) -> bool:
    """Whether sentence ``text`` is itself a question (ends with ``?`` or ``？``)."""
    return text.rstrip().rstrip("\"'”’)）*").endswith(("?", "？"))
