"""Follow-ups read in another form before they are made standalone (``standalone``): a
Chinese "那 X 呢？" around a Latin term, "and if it's Paris?", "what about weekends?"."""

from __future__ import annotations

import re

from kbqa.core.retrieval.ellipsis import core, strip_connector
from kbqa.core.text import thesaurus

# "那 webhook 呢？": a Chinese "and what about …?" around a Latin name or term
_LATIN_NE_RE = re.compile(r"^\s*(?:那么|那)?\s*([A-Za-z][A-Za-z0-9 ._+-]*?)\s*呢\s*[？?]?\s*$")


# "and if it's Paris?", "what if it is in Tokyo?": "it" is the situation, not the topic's
# thing; the name is what changes (a place, a product), as in "what about Paris?"
_SITUATION_NAME_RE = re.compile(
    r"^\s*(?:(?:and|but|so)\s+)?(?:what\s+)?if\s+it(?:['’]s|\s+is|\s+was|\s+were)\s+"
    r"(?:(?:in|on|at|for)\s+)?([A-Z][\w-]*(?:\s+[A-Z][\w-]*)*)\s*[?？]?\s*$")


# Words before a time that keep it a time: "the weekend", "next year" ("sick days" is a thing)
_TIME_DETERMINERS = frozenset("the next this last".split())


def as_asked_about(question: str) -> str:
    """"那 webhook 呢？" read as "what about webhook?": the particles are Chinese, the noun and
    so the rewrite English (``_replace_focus_en`` replaces the topic's focus with it); "and
    if it's Paris?" too (``_SITUATION_NAME_RE``: a name the situation is, not a thing "it"
    stands for); "what about weekends?" as "and during weekends?" (a time, ``thesaurus.
    time_noun``, is when the question is asked again); other questions unchanged."""
    found = _LATIN_NE_RE.match(question) or _SITUATION_NAME_RE.match(question)
    if found:
        return f"what about {found.group(1)}?"
    rest, connector = strip_connector(question)
    words = core(rest).split()
    if connector and words and all(w.lower() in _TIME_DETERMINERS for w in words[:-1]) and (
            thesaurus.time_noun(words[-1])):
        return f"and during {core(rest)}?"  # "what about weekends?": when, not what
    return question
