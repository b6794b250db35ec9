"""A passage narrowed by a qualifier the question lacks does not lead over the general one.

"How long do deleted files stay in the recycle bin?" was answered from an HR-only document,
"Deleted HR files stay in the recycle bin for 45 days", for people who can see it, instead
of the general "Deleted files remain in the recycle bin for 30 days". The HR sentence
qualifies the asked noun ("HR files", ``HR 文件``) with a word the question does not have:
it states a rule for part of what is asked. So when the best sentence qualifies a noun of
the question that way (``qualifiers``) and another sentence states the same question
words without any such qualifier and states what is asked (a number for "how long"), the
general one leads (``general_first``); the narrower one may still follow it as an extra.

``qualifiers``: a name right before a question noun that the question does not have: in
English an acronym or a capitalised word WordNet does not know ("HR files"), in Chinese a
word jieba tags as a Latin word or an organisation (``HR 文件``). Nouns and names of any
kind were measured and dropped: RGB zh_fact (first 100) lost 2 right answers of 43, and
demo table rows ("Plan: Business; Price: EUR 15 per user…") lost their lead.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TypeVar

from kbqa.core.readers.extractive.question import tagged
from kbqa.core.readers.extractive.text import Candidate, folded_terms
from kbqa.core.text import thesaurus
from kbqa.core.text.terms import (
    acronym_starts,
    fold,
    is_question_word,
    is_stop_en,
    join_short_hyphens,
    stem,
)

T = TypeVar("T")
_WORD_RE = re.compile(r"[A-Za-z]+|[^\sA-Za-z]")
_CJK_RE = re.compile(r"[\u3400-\u9fff]")
_NOUN_TAGS = re.compile(r"^(?:n[a-z]*|eng|j)$")
# A Chinese qualifier naming a part of the organisation or a product: a Latin acronym or
# name (HR, IT, SSO), an organisation's name.
_NAME_TAGS_ZH = frozenset(("eng", "nt"))


@lru_cache(maxsize=512)
def _question_nouns(question: str) -> tuple[frozenset[str], frozenset[str]]:
    """(folded nouns of ``question``, all its folded terms)."""
    own = folded_terms(question) | frozenset(w for w, _ in tagged(question))
    if _CJK_RE.search(question):
        nouns = frozenset(w for w, tag in tagged(question)
                          if _NOUN_TAGS.match(tag) and (len(w) > 1 or w.isascii()))
        return nouns, own
    words = [m.group().lower() for m in _WORD_RE.finditer(question) if m.group().isalpha()]
    nouns = frozenset(fold(stem(w)) for w in words
                      if not is_question_word(w) and thesaurus.morphy(w, "noun"))
    return nouns, own


def qualifiers(question: str, text: str) -> dict[str, str]:
    """The words of ``text`` that qualify a noun of ``question`` and that the question does
    not have (module docstring), folded, each with the noun it qualifies: {"hr": "file"}
    of "Deleted HR files stay…" for "deleted files"."""
    nouns, own = _question_nouns(question)
    if not nouns or not thesaurus.available():
        return {}
    if _CJK_RE.search(text):
        return _qualifiers_zh(text, nouns, own)
    return _qualifiers_en(text, nouns, own)


def _qualifiers_en(text: str, nouns: frozenset[str], own: frozenset[str]) -> dict[str, str]:
    norm = join_short_hyphens(unicodedata.normalize("NFKC", text))  # "Wi-Fi" is one word
    acronyms = acronym_starts(norm)
    tokens = []  # (folded word or "", a name: acronym or capitalised unknown word, lower)
    for m in _WORD_RE.finditer(norm):
        tok = m.group()
        content = tok.isalpha() and tok.isascii() and not is_stop_en(tok, m.start() in acronyms)
        named = content and (m.start() in acronyms or (m.start() > 0 and tok[0].isupper()
                                                       and not _known(tok.lower())))
        low = tok.lower()
        tokens.append((fold(stem(low)) if content else "", bool(named), low))
    found: dict[str, str] = {}
    for i, (word, _, _) in enumerate(tokens):
        if word not in nouns:
            continue
        if i and tokens[i - 1][1] and tokens[i - 1][0] not in own:
            found.setdefault(tokens[i - 1][0], word)
    return found


def _known(word: str) -> bool:
    return any(thesaurus.morphy(word, p) for p in ("noun", "verb", "adj", "adv"))


def _qualifiers_zh(text: str, nouns: frozenset[str], own: frozenset[str]) -> dict[str, str]:
    words = [(w, tag) for w, tag in tagged(text) if w.strip()]
    return {a: b for (a, tag), (b, _) in zip(words, words[1:], strict=False)
            if b in nouns and tag in _NAME_TAGS_ZH and a not in own}


def general_first(question: str, scored: Sequence[tuple[float, Candidate]],
                  covers: Callable[[Candidate], frozenset[str]],
                  states: Callable[[Candidate], bool]) -> tuple[float, Candidate] | None:
    """The sentence to lead instead of the best of ``scored`` when the best is narrowed by
    a qualifier ``question`` lacks: the best-ranked sentence of another block with no such
    qualifier that states the qualified nouns ("files"), covers (``covers``: the question
    terms it has, with heading and title) at least half the terms the best covers and,
    when the best states what is asked (``states``: "45 days" for "how long"), states it
    too; None when the best is not narrowed or no sentence is found."""
    if not scored:
        return None
    best = scored[0][1]
    narrowed = qualifiers(question, best.text)
    if not narrowed:
        return None
    heads = frozenset(narrowed.values())
    wanted = covers(best)
    typed = states(best)
    for score, c in scored[1:]:
        if c.n == best.n or score <= 0 or qualifiers(question, c.text):
            continue
        shared = covers(c) & wanted
        if heads <= c.terms and 2 * len(shared) >= len(wanted) and (not typed or states(c)):
            return score, c
    return None
