"""The question's own names, blanked from a sentence before it is read for a place or name.

A place ask ("Which city hosted the harbour games in 2016?", 2016年海港运动会在哪举办？) or a
name ask (2010南非世界杯的冠军) is not answered by a sentence whose only proper name is the
question's own, written another way ("the 2016 Harbour Games", "南非…赢得了冠军") or tagged
by jieba as a place although it is a common noun (城市). Measured 2026-12-01 on RGB whole
files (offline reader, re-run on each case's retrieved blocks): place asks en_fact 2 fewer
answers to negatives-only cases, zh_fact 3 fewer; name asks zh_fact 2 fewer; no right
answer lost; demo, natural and natural3 unchanged.
"""

from __future__ import annotations

import re

from kbqa.core.readers.extractive.question import question_terms, tagged
from kbqa.core.readers.extractive.text import fold
from kbqa.core.text.terms import stem

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
