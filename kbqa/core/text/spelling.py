"""Spelling correction of question words that are no words: "expence", "recyle", "anual".

People type fast; BM25 never meets a misspelled word, and the offline reader names it as
content the knowledge base lacks ("Not covered: … “expence”"). A query word is corrected
only when all of these hold, so a real word the documents do not use ("vacation", "cab")
is never turned into another one ("variation", "cap"):

- it is English, at least ``MIN_LENGTH`` letters, not an acronym, no stop word, and
  without a capital unless it opens a sentence (a capital inside one marks a name:
  "Uber" is no misspelled "user");
- the index lacks it, and WordNet (``thesaurus``) does not know it in any part of speech
  (a name or product the index lacks, "Spotify", also has no correction within reach);
- an index word with the same first letter lies within ``max_edits`` edits: the optimal
  string alignment distance (Damerau 1964, "A technique for computer detection and
  correction of spelling errors", CACM 7(3): insertions, deletions, substitutions and
  transpositions of adjacent letters, the four kinds of most typing errors), computed by
  rapidfuzz; one edit up to 5 letters, two from 6 (Elasticsearch's ``fuzziness: AUTO``).
  The first letter is kept, as Lucene's ``DirectSpellChecker`` does by default
  (``minPrefix`` 1, ``minQueryLength`` 4: ``MIN_LENGTH``): errors in it are rare.

A contraction typed without its apostrophe ("whats", "dont", "cant", "im") gets it back
(``APOSTROPHE_DROPPED``: the interrogative, negative and copula contractions of
Wikipedia's *List of English contractions* whose apostrophe-less spelling is no other
common word; "its", "id", "well", "were", "shell" and "lets" are words and stay): "whats
the yearly outpatient cap" was read as asking about a word "whats" the documents lack,
and not as a "what is" question.

"it" typed after a determiner ("the it helpdesk", "our it team") is the acronym IT when the
index has it: no pronoun follows "the".

Function words are candidates too (stopwords-iso's English list, the language's most
frequent words): "How lnog is…" meant "long", not the index's "log". Among candidates the
fewest edits win, then a function word, then the word more chunks use (the word people
meant is the common one, Norvig 2007, "How to write a spelling corrector"), then the
alphabet. Chinese is not corrected (a wrong character is usually a real word).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from rapidfuzz import process
from rapidfuzz.distance import OSA

from kbqa.core.text.terms import is_question_word, question_words, stem
from kbqa.core.text.thesaurus import known_word, words_starting

MIN_LENGTH = 4
#: contractions typed without the apostrophe (module docstring), lower case
APOSTROPHE_DROPPED = {
    w.replace("'", ""): w for w in (
        "what's", "how's", "where's", "who's", "when's", "why's", "that's", "there's",
        "don't", "doesn't", "didn't", "can't", "couldn't", "won't", "wouldn't", "shouldn't",
        "isn't", "aren't", "wasn't", "weren't", "hasn't", "haven't", "hadn't", "mustn't",
        "i'm", "i've", "you're", "you've", "they're", "they've", "we've")}
_WORD_RE = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]+(?![A-Za-z0-9])")
# "it" after a determiner is no pronoun: "the it helpdesk", "our it team" mean IT, which a
# stop list drops in lower case
_DETERMINED_IT_RE = re.compile(r"\b((?:the|our|my|your|an?)\s+)it\b(?=\s+[a-z])",
                               re.IGNORECASE)
_SENTENCE_START_RE = re.compile(r"(?:^|[.!?。！？]\s*)\W*$")


_LONG_WORD_RE = re.compile(rf"[A-Za-z]{{{MIN_LENGTH},}}")


def may_correct(query: str) -> bool:
    """Whether ``query`` has a word ``corrected`` could change (English, ``MIN_LENGTH``+
    letters, or a contraction without its apostrophe): a cheap test that spares the index
    look-up for, say, a Chinese question."""
    return _LONG_WORD_RE.search(query) is not None or any(
        m.group().lower() in APOSTROPHE_DROPPED for m in _WORD_RE.finditer(query))


def max_edits(word: str) -> int:
    """Edits allowed for ``word``: 1 up to 5 letters, 2 from 6 (Elasticsearch's AUTO)."""
    return 1 if len(word) <= 5 else 2


@lru_cache(maxsize=4096)
def misspelt(word: str) -> bool:
    """Whether the lower-case English ``word`` is no word WordNet knows but lies one edit
    (OSA: a transposition is one) from one with the same first letter ("lenght" of
    "length", "recyle" of "recycle"): a typo, which names nothing the documents lack. Two
    edits reach too far ("webhook" is two from "webfoot"): a word of its own stays one.
    False for a word of fewer than ``MIN_LENGTH`` letters."""
    if len(word) < MIN_LENGTH or not word.isalpha() or not word.islower() or known_word(word):
        return False
    near = process.extractOne(word, words_starting(word[0]), scorer=OSA.distance,
                              score_cutoff=1)
    return near is not None


def correction(word: str, candidates: Sequence[str],
               frequency: Callable[[str], int]) -> str | None:
    """The closest of ``candidates`` (index terms and function words) to the lower-case
    ``word`` within ``max_edits``, ties broken by a function word first, then ``frequency``
    (chunks using it), then the alphabet; None when none is close enough."""
    found = process.extract(word, candidates, scorer=OSA.distance,
                            score_cutoff=max_edits(word), limit=None)
    if not found:
        return None
    best = min(found, key=lambda m: (m[1], not is_question_word(m[0]), -frequency(m[0]), m[0]))
    return str(best[0])


@lru_cache(maxsize=32)
def _function_words(letter: str) -> tuple[str, ...]:
    """stopwords-iso's English words (``terms.question_words``) starting with ``letter``."""
    return tuple(sorted(w for w in question_words() if w.isascii() and w.isalpha()
                        and w.startswith(letter)))


def corrected(query: str, known: Callable[[str], bool],
              candidates: Callable[[str], Sequence[str]],
              frequency: Callable[[str], int]) -> tuple[str, dict[str, str]]:
    """``query`` with each misspelled English word (module docstring) replaced by its
    correction, and the corrections made (word as typed -> index term). ``known`` says
    whether the index has a term; ``candidates(letter)`` gives the index's English terms
    starting with ``letter``; ``frequency`` a term's chunk count."""
    fixes: dict[str, str] = {}

    def fix(match: re.Match[str]) -> str:
        typed = match.group()
        low = typed.lower()
        if low in APOSTROPHE_DROPPED and not (typed.isupper() and len(typed) > 1):  # "IM"
            restored = APOSTROPHE_DROPPED[low]
            restored = restored[0].upper() + restored[1:] if typed[0].isupper() else restored
            fixes[typed] = restored
            return restored
        # a capital inside a sentence marks a name ("Uber" is no misspelled "user")
        named = typed != low and not _SENTENCE_START_RE.search(query[:match.start()])
        term = stem(low)
        if (len(low) < MIN_LENGTH or named or (typed.isupper() and len(typed) > 1)
                or is_question_word(low) or known(term) or known_word(low)):
            return typed
        found = correction(term, [*candidates(low[0]), *_function_words(low[0])], frequency)
        if found is None or found == term:
            return typed
        fixes[typed] = found
        return found

    fixed = _WORD_RE.sub(fix, query)
    if known("it") and _DETERMINED_IT_RE.search(fixed):  # the index has the acronym IT
        fixes["it"] = "IT"
        fixed = _DETERMINED_IT_RE.sub(r"\1IT", fixed)
    return fixed, fixes
