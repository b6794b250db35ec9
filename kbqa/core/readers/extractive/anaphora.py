"""A clause that leans on the one before it in its sentence.

The reader quotes a sentence split at a semicolon as two (``sentences.split_sentences``),
and a Chinese clause after ``；`` often drops its subject, which the clause before names:
"答：发票遗失的，须填写《发票遗失说明》，由直属经理签字确认；每人每年最多可以使用 2 次。" — the
second clause's "2 次" is the number of times the 《发票遗失说明》 may be used, though it
names nothing itself (zero anaphora: Li & Thompson 1981, *Mandarin Chinese*, ch. 24).
``clause_before`` gives that clause, so the answer's binding to the question
(``binding.answers``) may find the question's words there, for a clause that names no one
of its own (``names_own``: "帕默斯顿于1865年去世" after a clause on Queen Victoria has its
own subject, a name and a year; RGB's news pages join such clauses with semicolons).
"""

from __future__ import annotations

import re
import unicodedata

from kbqa.core.readers.extractive.question import tagged

# The end of the sentence before: a full stop, question or exclamation mark, or a line end.
_SENTENCE_END_RE = re.compile(r"[。！？!?\n]|\.(?=\s)")


def clause_before(text: str, passage: str) -> str:
    """The clause that ends with a semicolon right before ``text`` in ``passage`` (its
    block's original text), back to the sentence's start; "" when ``text`` starts a
    sentence or is not found."""
    norm = unicodedata.normalize("NFKC", passage)
    at = norm.find(unicodedata.normalize("NFKC", text))
    if at <= 0:
        return ""
    before = norm[:at].rstrip()
    if not before.endswith((";", "；")):
        return ""
    start = max((m.end() for m in _SENTENCE_END_RE.finditer(before)), default=0)
    return before[start:].strip()


_NAME_TAGS = frozenset(("nr", "nrt", "nrfg", "ns", "nt", "nz"))
_NAME_EN_RE = re.compile(r"\b[A-Z][a-z]+")
_YEAR_RE = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")


def names_own(text: str) -> bool:
    """Whether clause ``text`` names a subject of its own: a proper name (jieba's person,
    place, organisation and other-name tags; a capitalised Latin word) or a year."""
    return bool(_NAME_EN_RE.search(text) or _YEAR_RE.search(text)
                or any(tag in _NAME_TAGS for _, tag in tagged(text)))
