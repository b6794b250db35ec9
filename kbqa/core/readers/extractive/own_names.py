"""The question's own names, blanked from a sentence before it is read for a place or name.

A place ask ("Which city hosted the harbour games in 2016?", 2016年海港运动会在哪举办？) or a
name ask (2010南非世界杯的冠军) is not answered by a sentence whose only proper name is the
question's own, written another way ("the 2016 Harbour Games", "南非…赢得了冠军") or tagged
by jieba as a place although it is a common noun (城市). Measured 2026-12-01 on RGB whole
files (offline reader, re-run on each case's retrieved blocks): place asks en_fact 2 fewer
answers to negatives-only cases, zh_fact 3 fewer; name asks zh_fact 2 fewer; no right
answer lost; demo, natural and natural3 unchanged.

And the other way round: a sentence that names another place or name for a thing the
question names ("the Rotterdam office" for "the Chengdu office's hours") is about another
thing (``names_before``, ``contradicts``).
"""

from __future__ import annotations

import re

from kbqa.core.readers.extractive.question import question_terms, tagged
from kbqa.core.text.places import places_named
from kbqa.core.text.terms import fold, is_question_word, stem

# jieba's name tags (as ``focus.names`` reads them, but "eng": a Latin word is handled as
# English below).
NAME_TAGS = frozenset(("nr", "ns", "nt", "nz"))
# Common nouns jieba may tag as place names ("城市" ns): no place is named by them.
_COMMON_PLACE_NOUNS = frozenset(("城市", "国家", "地区", "首都"))
_CAPITALISED_RUN_RE = re.compile(r"\b[A-Z][A-Za-z]+(?:\s+[A-Z][A-Za-z]+)*\b")


def blank_own_names(question: str, text: str) -> str:
    """``text`` with the question's own names blanked, however the text writes them: a
    Chinese word the question has as a name (any of jieba's name tags; 巴西利亚 is not
    巴西), common nouns jieba may tag as places (``城市``), and a run of capitalised
    English words one of which folds to a question term ("2004 Summer Olympics" for
    "olympic games"). Neither answers a question that names it."""
    if tagged(question) and tagged(text):
        own_names = {w for w, tag in tagged(question) if tag in NAME_TAGS}
        # Word by word: 巴西利亚 is not 巴西.
        text = "".join("…" if w in own_names else "，" if w in _COMMON_PLACE_NOUNS else w
                       for w, _ in tagged(text))
    own = frozenset(question_terms(question))
    return _CAPITALISED_RUN_RE.sub(
        lambda m: "…" if any(fold(stem(w.lower())) in own for w in m.group().split())
        else m.group(), text)


def names_before(text: str) -> dict[str, frozenset[str]]:
    """For each word that follows a proper name in ``text``, the names before it:
    "Chengdu office" -> ``{"offic": {"chengdu"}}``; ``成都办公室`` -> ``{"办公室": {"成都"}}``."""
    out: dict[str, set[str]] = {}
    words = tagged(text)
    if words:
        pairs = [(a, b) for (a, ta), (b, _) in zip(words, words[1:], strict=False)
                 if ta in NAME_TAGS]
    else:
        found = re.findall(r"(?<=\S\s)([A-Z][a-z]+) ([a-z]+)", text)
        # "Which plans" after a sentence end names no plan: a stop word is no name.
        pairs = [(a.lower(), fold(stem(b))) for a, b in found if not is_question_word(a.lower())]
        # A table cell "Plan: Enterprise" names its plan as "Enterprise plan" would.
        cells = re.findall(r"(?:^|; )([A-Z][a-z]+): ([A-Z][a-z]+)(?=;|$)", text)
        pairs += [(b.lower(), fold(stem(a.lower()))) for a, b in cells]
    for name, head in pairs:
        out.setdefault(head, set()).add(name)
    return {h: frozenset(n) for h, n in out.items()}


def contradicts(question_names: dict[str, frozenset[str]], sentence: str) -> bool:
    """Whether ``sentence`` names another place or name for a thing the question names
    (``question_names`` from ``names_before``) and never the question's own."""
    if not question_names:
        return False
    low = sentence.lower()
    for head, names in names_before(sentence).items():
        asked = question_names.get(head)
        if asked and not names & asked and not any(a in low for a in asked):
            return True
    return False


# A table row keyed by a name: "London: Hotel per night EUR 220; Meal allowance per day …"
_ROW_KEY_RE = re.compile(r"\s*([A-Z][a-z]+(?: [A-Z][a-z]+)*):\s+[A-Z]")
_CELL_RE = re.compile(r";\s*[A-Z][A-Za-z ]*:")
_FIRST_CELL_RE = re.compile(r"\s*[A-Z][A-Za-z ]*:\s+([A-Z][a-z]+(?: [A-Z][a-z]+)*);")


def another_row(question: str, text: str, passage: str) -> bool:
    """Whether ``text`` is a table row keyed by a name (``_ROW_KEY_RE``) the question does
    not name, while the question names a place or name of its own that the row's whole
    ``passage`` (its table) lacks: the London row does not answer "What's the max hotel
    rate in New York?" (a table of European cities)."""
    row = _ROW_KEY_RE.match(text)
    key = row.group(1) if row else None
    if row is not None and _CELL_RE.search(text):
        # a row of labelled cells ("City: London; Hotel per night: EUR 220", as tables of
        # every format read) is keyed by its first cell's value when that is a name
        first = _FIRST_CELL_RE.match(text)
        key = first.group(1) if first else None
    if key is None or key.lower() in question.lower():
        return False
    low = passage.lower()
    return any(p.lower() not in low for p in places_named(question)
               if p.isascii() and not is_question_word(p.lower()))
