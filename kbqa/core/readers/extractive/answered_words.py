"""Which words a "Not covered" line may name: the question's nouns no block has
(``gap_names``), and never one a shown answer already answers (``unanswered``).

A gap line under an answer must not contradict it. "离职的时候笔记本电脑可以买下来吗？"
answered with "……可以按剩余账面价值购买" has nothing missing about 买下; "Is parking in
the office garage free?" answered with "EUR 5 a day" has settled "free". ``unanswered``
keeps a gap word only when none of these kinds applies:

- the predicate of a yes/no question (``focus.is_yes_no``): a Chinese word inside a token
  jieba tags as a verb or adjective (``买下`` of ``买下来/v``, ``免费/vn``); an English word
  WordNet knows as an adjective ("free", "open"): the answer says whether it holds;
- an adjective that the answer's value settles: a sentence with a number answers "free",
  "cheap", "long" (English adjectives as above; Chinese ``a``-tagged words);
- 颜色 when the answer names a colour (绿色; WordNet's hypernyms do it for "colour");
- a word the answer says in other words: one of its WordNet relatives
  (``thesaurus.related``: "buy" -> "purchase") in the answer (inflections never reach a
  gap line: the reader matches terms stemmed), or a kind of it ("food" answered by a
  "meal allowance": ``thesaurus.kinds_of``, WordNet's hypernyms; a tester read "Not
  covered: … food" under the meal allowance as the answer missing the point), or what it
  is a kind of, one level up ("Spouses and children can be added" answers "my husband").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kbqa.core.grounding.citations import Verifier, parse_claim
from kbqa.core.readers.extractive.absent import OTHER_PLACES_RE, nameable
from kbqa.core.readers.extractive.focus import is_yes_no, names
from kbqa.core.readers.extractive.question import asking_words, function_words, tagged
from kbqa.core.readers.extractive.text import gap_sentence, surfaces
from kbqa.core.retrieval.ellipsis import REMAINDER_RE
from kbqa.core.text.normalise import detect_language
from kbqa.core.text.terms import fold, stem
from kbqa.core.text.thesaurus import kinds_of, morphy, related
from kbqa.core.types import Block

_PREDICATE_TAGS = re.compile(r"^(?:v[a-z]*|a[a-z]*)$")  # jieba: verbs, adjectives (vn, ad, an)
_ADJECTIVE_TAGS = re.compile(r"^a[a-z]*$")
_DIGIT_RE = re.compile(r"\d")
_COLOUR_ZH_RE = re.compile(r"[红橙黄绿青蓝紫黑白灰粉棕褐金银]色")
_WORD_RE = re.compile(r"[a-z]{3,}")


def unanswered(question: str, words: Sequence[str], answer: Sequence[str]) -> tuple[str, ...]:
    """``words`` (a gap line's words, as the question writes them) without those the shown
    ``answer`` sentences already answer (see the module docstring); all of them when
    nothing is shown."""
    if not answer:
        return tuple(words)
    text = " ".join(answer)
    yes_no = is_yes_no(question)
    valued = bool(_DIGIT_RE.search(text))
    # a place the answer's rule for all other places covers ("其他城市每晚不超过 500 元")
    places = names(question) if OTHER_PLACES_RE.search(text) else frozenset()
    return tuple(w for w in words if not _answered(question, w, text, yes_no, valued)
                 and w not in places and fold(stem(w.lower())) not in places)


def _answered(question: str, word: str, text: str, yes_no: bool, valued: bool) -> bool:
    if word == "颜色" and _COLOUR_ZH_RE.search(text):  # 外包人员工牌为绿色
        return True
    if not word.isascii():
        tags = [t for w, t in tagged(question) if word in w]
        return (yes_no and any(_PREDICATE_TAGS.match(t) for t in tags)) or (
            valued and any(_ADJECTIVE_TAGS.match(t) for t in tags))
    low = word.lower()
    if (yes_no or valued) and low in morphy(low, "adj"):
        return True
    return _said_otherwise(low, text.lower())


def _said_otherwise(word: str, text: str) -> bool:
    """Whether ``text`` (lower case) uses one of ``word``'s WordNet relatives (``related``;
    its inflections never reach a gap line: terms are matched stemmed), names a kind of
    it (``kinds_of``: "meal" for "food") or what it is a kind of ("spouses" for "husband":
    the rule for every spouse is the rule for hers)."""
    return any(re.search(rf"\b{re.escape(r)}\b", text) for r in related(word)) or any(
        word in kinds_of(w) for w in dict.fromkeys(_WORD_RE.findall(text))) or any(
        re.search(rf"\b{re.escape(k)}(?:e?s)?\b", text) for k in kinds_of(word, 1))


def gap_names(question: str, absent: Sequence[str], blocks: Sequence[Block]) -> tuple[str, ...]:
    """The question's own words for ``absent`` terms (in no block) that a gap sentence may
    name: nouns only, never digits, verbs or function words (``nameable``,
    ``function_words``), and each one a gap the verifier accepts (``Verifier`` with the
    question: a question word that no block's original text mentions)."""
    # "the rest", "the others" point back to the earlier thing: no word of the question's own
    skip = function_words(question) | frozenset(
        fold(stem(m.group().split()[-1].lower())) for m in REMAINDER_RE.finditer(question))
    asks = asking_words(question)
    words = surfaces(question, [t for t in absent if nameable(t, question) and t not in skip
                                and not any(t in w for w in asks)])
    if not words:
        return ()
    verifier = Verifier(blocks, question=question)
    language = detect_language(question)
    return tuple(w for w in words
                 if verifier.verify(parse_claim(gap_sentence(language, [w]))).ok)
