"""Acronym help for the offline reader: "2FA" in the question, "two-factor authentication"
in the passage (or the other way round), bridged by what the blocks themselves say
(``kbqa.core.text.acronyms``: a definition in parentheses, else initials of 3+ characters).

``acronym_bridges`` maps a question term to the terms of the other form. Unlike a
thesaurus synonym (``synonyms.py``, one sense among several, half weight), a form the
knowledge base defines is the same thing: the bridged terms are matched as the user's own
words, grouped with the term they stand for so that they count once
(``synonyms.synonym_groups``), and a question acronym no block writes is replaced by its
phrase instead of counting as missing content.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from kbqa.core.readers.extractive.question import question_terms
from kbqa.core.text.acronyms import definitions, initials, is_short_form
from kbqa.core.text.terms import STOP_EN, fold, stem
from kbqa.core.types import Chunk

_WORD_RE = re.compile(r"[A-Za-z0-9]+")

__all__ = ["acronym_bridges", "capped", "with_bridges"]


def acronym_bridges(question: str, chunks: Sequence[Chunk]) -> dict[str, tuple[str, ...]]:
    """Folded question term -> folded terms of its other form, as ``chunks`` (text, section
    heading, title) define it: an acronym of the question -> its phrase's terms ("2 fa" ->
    "two", "factor", "authenticat"); a defined phrase the question spells out -> its
    acronym, keyed by the phrase's last term. {} when nothing is bridged."""
    texts = [f"{c.title}\n{c.section}\n{c.text}" for c in chunks]
    defined: dict[str, str] = {}
    for text in texts:
        for short, long_form in definitions(text).items():
            defined.setdefault(short.lower(), long_form)
    out: dict[str, tuple[str, ...]] = {}
    for word in dict.fromkeys(_WORD_RE.findall(question)):
        low = word.lower()
        phrase: str | None = defined.get(low) if low not in STOP_EN else None
        if phrase is None and is_short_form(word):
            phrase = next(iter(initials(word, texts)), None)
        if phrase:
            _bridge(out, question_terms(word), question_terms(phrase))
    asked = set(question_terms(question))
    for short, phrase in defined.items():
        long_terms = question_terms(phrase)
        if long_terms and asked.issuperset(long_terms):
            _bridge(out, long_terms[-1:], question_terms(short))
    return out


def _bridge(out: dict[str, tuple[str, ...]], keys: Sequence[str], other: Sequence[str]) -> None:
    for key in keys:
        found = tuple(t for t in other if t != key)
        if found:
            out[key] = tuple(dict.fromkeys([*out.get(key, ()), *found]))


def with_bridges(qterms: Sequence[str], bridges: Mapping[str, tuple[str, ...]],
                 block_terms: Sequence[frozenset[str]]) -> list[str]:
    """``qterms`` with each bridged term's other form after it; a bridged term no block has
    is replaced by it (the question's "SSO" is not missing when the blocks say "single
    sign-on"). Order kept, no duplicates."""
    everything = frozenset().union(*block_terms) if block_terms else frozenset()
    out: list[str] = []
    for t in qterms:
        other = bridges.get(t, ())
        if not other or t in everything:
            out.append(t)
        out.extend(other)
    return list(dict.fromkeys(out))


def capped(weights: Mapping[str, float], bridges: Mapping[str, tuple[str, ...]]
           ) -> dict[str, float]:
    """``weights`` with each bridged form weighing at most the question's own term it stands
    for, when that term weighs anything (a block has it): the heading "Single sign-on",
    rarer than "SSO", must not outrank the sentence that says "SSO" and the rest of the
    question ("minimum password length for accounts that don't use SSO")."""
    out = dict(weights)
    for key, others in bridges.items():
        if key in weights:
            for t in others:
                if t in out:
                    out[t] = min(out[t], weights[key])
    return out


_ACRONYM_RE = re.compile(r"\b[A-Z]{3,5}\b")


def acronyms(question: str) -> frozenset[str]:
    """Upper-case words of 3-5 letters in ``question`` (``CEO``, ``VPN``), folded: short,
    but as specific as any word."""
    return frozenset(fold(stem(w.lower())) for w in _ACRONYM_RE.findall(question))
