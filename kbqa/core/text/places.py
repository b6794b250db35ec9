"""Places a question names, for preferring the documents scoped to them.

``chinese_places``: Chinese words jieba's part-of-speech tagger tags as places (ICTCLAS
``ns``), two characters or more (深圳, 成都). ``places_named``: those and, in English, the
capitalised words after the question's first word ("the Berlin office"), which may also
be product names: callers only ever compare them with document titles and sections.
"""

from __future__ import annotations

import re

from kbqa.core.text.terms import pos_tags

# A capitalised English word after the question's first word, not an acronym.
_NAME_EN_RE = re.compile(r"(?<=\s)[A-Z][a-z]{2,}\b")


def chinese_places(question: str) -> frozenset[str]:
    """The Chinese place names of ``question`` (jieba's ns, two characters or more)."""
    return frozenset(w for w, tag in pos_tags(question) if tag == "ns" and len(w) >= 2)


def places_named(question: str) -> frozenset[str]:
    """``chinese_places`` and the capitalised English words after the first word."""
    return chinese_places(question) | frozenset(_NAME_EN_RE.findall(question))
