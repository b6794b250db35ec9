"""When a "When are/does …?" question is answered by a condition, not a time: "Taxis are
reimbursed when no reasonable public transport exists", "access to customer data is switched
on only after you pass it" (``binding.bound_answer`` for a time ask)."""

from __future__ import annotations

import re
import unicodedata

from kbqa.core.readers.extractive.focus import ask_clause
from kbqa.core.readers.extractive.text import folded_terms
from kbqa.core.text.terms import fold, stem

_WHEN_DOES_RE = re.compile(r"^(?:and |so |but )?when (?:is|are|do|does|can|will|should|must)\b")
_CONDITION_RE = re.compile(
    r"\b([a-z]+) (?:only )?(?:when|if|unless|as long as|provided|whenever)\b")
# ...or one opening with its condition: "When an illness lasts more than 3 days, a
# doctor's note is required."
_OPENING_CONDITION_RE = re.compile(r"^(?:when|if|whenever|once|after) [^,;]+, (.+)$")
_TIMED_CLAUSE_RE = re.compile(r"^(.+?)\b(?:only )?(?:after|once|as soon as|until)\b")


def states_condition(question: str, text: str, anchor: frozenset[str]) -> bool:
    """Whether ``text`` states the condition a "When are/does … ?" ``question`` asks: a
    word of the question (``anchor``, folded) right before "when", "if", "unless", "as long
    as" ("are reimbursed when…"), or a condition opening the sentence whose main clause
    has such a word ("When an illness lasts…, a doctor's note is required"), or a clause
    holding such words that ends on "after", "once", "as soon as" or "until" ("access to
    customer data is switched on only after you pass it")."""
    if not _WHEN_DOES_RE.match(ask_clause(question).strip().lower()):
        return False
    low = unicodedata.normalize("NFKC", text).lower()
    opening = _OPENING_CONDITION_RE.match(low)
    # ...its main clause about the asked thing, not one word of it: "When in doubt, ask
    # your line manager before you spend the money" shares only "money" with "When do I
    # get my money back?"
    if opening and len(folded_terms(opening.group(1)) & anchor) >= min(2, len(anchor)):
        return True
    if any(fold(stem(m.group(1))) in anchor for m in _CONDITION_RE.finditer(low)):
        return True
    # ...or a clause about the asked thing that ends on when it happens ("access to customer
    # data is switched on only after you pass it")
    return any(m and len(folded_terms(m.group(1)) & anchor) >= min(2, len(anchor))
               for m in map(_TIMED_CLAUSE_RE.match, re.split(r"[,;:]", low)))
