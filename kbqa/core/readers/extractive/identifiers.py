"""The ask's identifiers (years, words with digits, acronyms) and the asker's own values.

``salient_terms``: the identifiers of the ask clause (``focus.ask_clause``: years, words
with digits such as "Q1", acronyms): a sentence quoted as the answer must state each of
them (with its heading and title), or at least its passage must name no other of the same
shape (``covers_salient``); a year in which the lead's document is the rule in force
(``current_years``) asks that rule and needs no stating. ``own_values``: the question's
numbers that are no identifier, the asker's own values ("220 a night"), which the answer
states otherwise.
``shares_more_than_names``: a sentence sharing only a name with the ask is not about it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from datetime import date
from functools import lru_cache

from kbqa.core.readers.extractive.focus import ask_clause, names
from kbqa.core.text.acronyms import initials
from kbqa.core.text.normalise import has_cjk
from kbqa.core.text.quantities import money_at

_IDENTIFIER_RE = re.compile(
    r"(?<![\d.])(?:19|20)\d\d(?![\d.])"  # a year
    r"|\b[A-Za-z]+-?\d+[A-Za-z\d]*\b"  # a word with digits: Q1, GPT-3
    r"|\b[A-Z]{2,6}s?\b")  # an acronym
_NOT_IDENTIFIERS = frozenset(("i", "ok", "id", "faq"))
_LATIN_NAME_RE = re.compile(r"(?<![A-Za-z\d-])[A-Z][a-z]{2,}(?:-[A-Za-z\d]+)*(?![A-Za-z\d-])")


@lru_cache(maxsize=512)
def salient_terms(question: str) -> frozenset[str]:
    """Identifiers of the ask clause, lower-cased, which a quoted sentence must state:
    years ("2021"), words with digits ("q1", "gpt-3"), acronyms ("sso"), and in a Chinese
    ask a capitalised Latin word ("Linux" of 桌面客户端支持 Linux 吗). A plain amount ("3
    years", "220 a night", "2000 euros") is the asker's own value to check, not an
    identifier."""
    ask = ask_clause(question)
    found = {m.group().lower() for m in _IDENTIFIER_RE.finditer(ask)
             if m.group().lower() not in _NOT_IDENTIFIERS
             and not (m.group().isdigit() and money_at(ask, m.start()))}  # "2000 euros"
    if has_cjk(ask):  # a Latin name in a Chinese ask names a product or system
        found |= {w.lower() for w in _LATIN_NAME_RE.findall(ask)}
    return frozenset(found)


def current_years(updated: str, today: date | None = None) -> frozenset[str]:
    """The years (as written: "2025") in which a document last updated on ``updated`` (ISO
    date; "" for none) is the rule: from the year of that update to ``today``'s (default:
    the local date). A question naming one of them ("How many days of sick leave do
    employees get in 2025?") asks the rule in force, which the current document states
    whether or not it writes the year; a year before the update may have had another rule.
    A question naming the year was refused (a new user's report, 2026-12-07)."""
    if not re.fullmatch(r"\d{4}-\d\d-\d\d", updated[:10]):
        return frozenset()
    this_year = (today or date.today()).year
    return frozenset(str(y) for y in range(int(updated[:4]), this_year + 1))


def own_values(question: str, qterms: Sequence[str]) -> frozenset[str]:
    """The question's terms that hold a number and are no identifier (``salient_terms``:
    a year, "Q1"): the asker's own values ("220 a night", "iOS 15", "429s"), which the
    answer states otherwise, so they say little about which sentence answers."""
    ids = salient_terms(question)
    return frozenset(t for t in qterms if any(ch.isdigit() for ch in t)
                     and not any(i in t or t in i for i in ids))


def covers_salient(salient: frozenset[str], text: str, context: frozenset[str]) -> bool:
    """Whether passage ``text`` (or its heading and title, ``context``: folded terms) does
    not contradict the ask's identifiers: each one is stated, or the passage names no other
    of its shape (another year for "2021", another quarter for "q1"). A passage that names
    no year may still answer "in 2021" (measured on RGB en_fact: requiring the year itself
    lost 8 points of accuracy for 11 points of unsupported answers)."""
    low = unicodedata.normalize("NFKC", text).lower()
    return all(names_identifier(t, low) or t in context or not _other_of_shape(t, low)
               for t in salient)


def names_identifier(term: str, low: str) -> bool:
    """Whether ``low`` (NFKC, lower-cased text) states identifier ``term``: written
    (``stated_term``) or, for an acronym, spelled out ("sso": "single sign-on (saml) is
    available…", ``text.acronyms.initials``)."""
    return stated_term(term, low) or (term.isalpha() and bool(initials(term, [low])))


def stated_term(term: str, low: str) -> bool:
    """Whether identifier ``term`` is written in ``low`` (NFKC, lower-cased text)."""
    # ASCII boundaries: a CJK character is a word character, and "2021年" states 2021.
    return re.search(rf"(?<![a-z0-9_-]){re.escape(term)}(?![a-z0-9_-])", low) is not None


def _other_of_shape(term: str, low: str) -> bool:
    """Whether ``low`` names another identifier shaped like ``term``: a year for a year, the
    same letters with other digits for "q1" or "gpt-3"; an acronym has no shape."""
    if re.fullmatch(r"(?:19|20)\d\d", term):
        return re.search(r"(?<![0-9.])(?:19|20)\d\d(?![0-9.])", low) is not None
    letters = re.match(r"[a-z]+-?", term)
    if letters and any(ch.isdigit() for ch in term):
        return re.search(rf"(?<![a-z]){re.escape(letters.group())}\d", low) is not None
    return True


# An ask of what or who something is: any page about it seems to answer (RGB's negatives).
_IDENTITY_ASK_RE = re.compile(
    r"\b(?:what|who)(?:'s|\s+(?:is|are|was|were))\b|\bwhat\s+does\b.*\bmean\b"
    r"|是什么|什么是|是谁|谁是|是啥", re.IGNORECASE)


def shares_more_than_names(question: str, ask: frozenset[str], seen: frozenset[str]) -> bool:
    """Whether a sentence (``seen``: its terms with heading and title) shares with the ask
    clause (``ask``: its terms, expanded) a term that is not a name, a piece of a Chinese
    name (``肯尼`` of ``肯尼迪``) or an identifier ("2010"): sharing only "Nimbus Works", or
    "World Cup" and "2010", is not being about it. An ask of nothing but a name ("where's
    the AED?") shares that, unless it asks what or who the name is (``_IDENTITY_ASK_RE``:
    "俄罗斯瓦格纳是什么" was answered from a negative page on RGB)."""
    named = names(question)
    pieces = {t for t in ask if not t.isascii() and any(t in n for n in named)}
    rest = ask - named - pieces
    if not rest and not _IDENTITY_ASK_RE.search(ask_clause(question)):
        rest = ask
    return bool(rest & seen)
