"""Acronyms and the phrases they stand for, learned from the documents' own text.

A question saying "2FA" meets a passage saying "two-factor authentication", and the other
way round, only when something says they are the same. The documents usually do, once:

- ``definitions``: a phrase followed by its acronym in parentheses ("two-factor
  authentication (2FA)", "single sign-on (SSO)") or an acronym followed by its phrase ("API
  (application programming interface)"). The phrase is the shortest run of words just
  before (or inside) the parentheses whose initials spell the acronym, as in Schwartz &
  Hearst 2003 ("A simple algorithm for identifying abbreviation definitions in biomedical
  text", PSB; the search window of ``min(len + 5, 2 * len)`` words is theirs), with an English
  number word standing for its digit ("two" for the "2" of "2FA"), a hyphenated word read
  as its parts and stop words ("of", "and") allowed between the initials. The PyPI package
  ``abbreviations`` (0.2.5, their algorithm) was tried and misses digit initials: it finds
  SSO and not 2FA in the demo's sign-in page.
- ``initials``: with no definition written, a run of consecutive content words whose
  initials spell an acronym of three or more characters ("single sign-on" for "SSO"); two
  letters ("IT", "HR") match too many phrases to be evidence.

Pure functions of text; the offline reader decides what to do with them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from kbqa.core.text.terms import STOP_EN

__all__ = ["definitions", "initials", "is_short_form"]

MIN_INITIALS = 3  # characters of an acronym matched by initials alone (no definition written)

_NUMBERS = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten".split())}
# A short form: 2-8 characters, letters and digits, two or more capitals ("2FA", "SSO", "SaaS").
_SHORT_RE = re.compile(r"(?<![\w-])([0-9]?[A-Za-z][A-Za-z0-9]{1,7})(?![\w-])")
_PAREN_RE = re.compile(r"([^()]*?)\s*\(([^()]{2,80})\)")
_WORD_RE = re.compile(r"[A-Za-z0-9]+(?:['’][A-Za-z]+)?")


def is_short_form(word: str) -> bool:
    """Whether ``word`` is written as an acronym: 2-8 letters or digits, starting with at
    most one digit, two or more capitals ("2FA", "SSO", "SaaS"; not "Paris", not "20")."""
    return bool(_SHORT_RE.fullmatch(word)) and sum(ch.isupper() for ch in word) >= 2


def definitions(text: str) -> dict[str, str]:
    """Acronym (as written) -> the words of the phrase it stands for, space-separated, for
    each definition in ``text`` ("two-factor authentication (2FA)" -> {"2FA": "two factor
    authentication"}; "API (application programming interface)" -> {"API": "application
    programming interface"}); the first definition of an acronym wins."""
    found: dict[str, str] = {}
    for m in _PAREN_RE.finditer(text):
        before, inside = m.group(1), m.group(2).strip()
        words = _WORD_RE.findall(before)
        if is_short_form(inside):  # "phrase (SHORT)"
            window = words[-min(len(inside) + 5, 2 * len(inside)):]
            phrase = _spelling_suffix(inside, window)
            if phrase:
                found.setdefault(inside, phrase)
        elif words and is_short_form(words[-1]):  # "SHORT (phrase)"
            inner = _WORD_RE.findall(inside)
            if _spells(words[-1], inner):
                found.setdefault(words[-1], " ".join(inner))
    return found


def initials(short: str, texts: Iterable[str]) -> list[str]:
    """The phrases of ``texts`` (words space-separated, first seen first) made of consecutive
    words, the first a content word, whose initials spell ``short`` exactly ("single sign
    on" for "SSO"); [] for a
    short form under ``MIN_INITIALS`` characters."""
    key = short.lower()
    if len(key) < MIN_INITIALS:
        return []
    out: list[str] = []
    for text in texts:
        words = _WORD_RE.findall(text)
        for i in range(len(words)):
            phrase = _initials_run(key, words[i:i + len(key)])
            if phrase and phrase.lower() not in (p.lower() for p in out):
                out.append(phrase)
    return out


def _part(word: str) -> str:
    """A word as its initial reads it, lower-cased: a number word as its digit."""
    low = word.lower()
    return _NUMBERS.get(low, low)


def _initials_run(key: str, words: list[str]) -> str | None:
    """The shortest prefix of ``words`` (a content word first, no acronym among them)
    whose initials are ``key``."""
    got = ""
    for n, w in enumerate(words, 1):
        part = _part(w)
        if (n == 1 and part in STOP_EN) or is_short_form(w):
            return None
        got += part[0]
        if not key.startswith(got):
            return None
        if got == key:
            return " ".join(words[:n])
    return None


def _spelling_suffix(short: str, words: list[str]) -> str | None:
    """The shortest run of ``words`` ending with the last one whose initials spell
    ``short`` (stop words may sit between them, never first)."""
    for start in range(len(words) - 1, -1, -1):
        run = words[start:]
        if _part(run[0]) in STOP_EN:
            continue
        if _spells(short, run):
            return " ".join(run)
    return None


def _spells(short: str, words: list[str]) -> bool:
    """Whether the initials of ``words``' content words are ``short`` (case ignored), each
    word's initial used once and in order; stop words may be skipped, content words not."""
    return _match(short.lower(), [_part(w) for w in words])


def _match(key: str, parts: list[str]) -> bool:
    """Whether ``parts`` spell ``key`` by their initials, skipping stop words only."""
    if not parts:
        return not key
    head, rest = parts[0], parts[1:]
    if key and head[0] == key[0] and _match(key[1:], rest):
        return True
    return head in STOP_EN and _match(key, rest)
