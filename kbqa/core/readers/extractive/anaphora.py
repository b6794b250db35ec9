"""A clause that leans on the one before it in its sentence.

The reader quotes a sentence split at a semicolon as two (``sentences.split_sentences``),
and a Chinese clause after ``；`` often drops its subject, which the clause before names:
"答：发票遗失的，须填写《发票遗失说明》，由直属经理签字确认；每人每年最多可以使用 2 次。" — the
second clause's "2 次" is the number of times the 《发票遗失说明》 may be used, though it
names nothing itself (zero anaphora: Li & Thompson 1981, *Mandarin Chinese*, ch. 24).
``clause_before`` gives that clause, so the answer's binding to the question
(``binding.answers``) may find the question's words there.
"""

from __future__ import annotations

import re
import unicodedata

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
