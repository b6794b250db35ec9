"""Kinds of the thing asked about: "sick" of "sick days", "paternity" of "paternity leave".

A question's (modifier, head) pairs say which kind of a thing it asks of; a sentence naming
the same head with another modifier ("annual leave" for "paternity leave", "rate limit" for
"mileage rate") speaks of a sibling (``names_a_sibling``, ``names_another_kind``); a block
section stating the asked kind (``kinds_stated``) makes the other kinds' sentences no
candidates; ``asked_kind_modifier`` is the kind right after "how many"/"which"/"what",
which the lead must state when another candidate does (``selection``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from kbqa.core.readers.extractive.focus import ask_clause
from kbqa.core.readers.extractive.question import light_terms, tagged
from kbqa.core.readers.extractive.text import Candidate, folded_terms
from kbqa.core.readers.extractive.value_asks import value_phrase
from kbqa.core.text import bilingual
from kbqa.core.text.normalise import CJK_CHARS
from kbqa.core.text.terms import fold, is_question_word, stem
from kbqa.core.text.thesaurus import morphy, only_modifier
from kbqa.core.types import Block

_CJK_RUN_RE = re.compile(f"[{CJK_CHARS}]+")
_ANY_CJK_RE = re.compile(f"[\u3400-\u9fff{CJK_CHARS}]")  # ``tagged``'s test
_LATIN_RE = re.compile(r"[A-Za-z][A-Za-z'-]*")


def asked_kind_modifier(question: str) -> str | None:
    """The modifier of the English ask's first (modifier, noun) pair, the kind of thing
    asked about ("sick" of "How many sick days do full-time employees get?"; the group
    comes after it), folded; None for Chinese (its words carry the kind: 病假) or with no
    pair, or when the modifier is a question or light word."""
    ask = ask_clause(question)
    opening = _KIND_ASK_RE.match(ask)
    if tagged(ask) or not opening:
        return None
    pairs = _heads_after(opening.group(0), None)
    if not pairs or is_question_word(pairs[0][0]) or pairs[0][0] in light_terms(question):
        return None
    return pairs[0][0]


# "How many sick days", "How much paid leave", "Which premium plan": the words right after
# the interrogative name the kind asked about; later ones are its owner or a condition.
_KIND_ASK_RE = re.compile(r"\s*(?:how (?:many|much|long)|which|what)\s+(?:[A-Za-z-]+\s+){1,3}",
                          re.IGNORECASE)


def _heads_after(question: str, absent: frozenset[str] | None) -> list[tuple[str, str]]:
    """(absent modifier, the word it modifies) pairs of the ask clause: "paternity leave"
    -> ("paternity", "leave") when "paternity" is absent (every pair when ``absent`` is
    None); Chinese by jieba's words."""
    ask = ask_clause(question)
    no_kind: set[str] = set()  # words that qualify no kind
    heads: set[str] | None = None
    if tagged(ask):  # jieba's spaces and punctuation (tag x) are no words
        words = [w for w, tag in tagged(ask) if tag != "x" and w.strip()]
        # A verb before a noun is what is done to it (走审批), not its kind; an adverb,
        # numeral, time or locative (到底, 十点, 晚上, 里) qualifies no kind either.
        no_kind = {w for w, tag in tagged(ask)
                   if tag in ("v", "vd", "vg", "vi", "vq", "d", "m", "t", "f")}
        # ...and the head of a kind is a noun (机房, 审批 as vn), not a verb or 里
        heads = {w for w, tag in tagged(ask) if tag.startswith("n") or tag == "vn"}
    else:
        words = [fold(stem(w.lower())) for w in _LATIN_RE.findall(ask)]
    return [(a, b) for a, b in zip(words, words[1:], strict=False)
            if (absent is None or (a in absent and b not in absent)) and a not in no_kind
            and (heads is None or b in heads)
            and not is_question_word(a) and not is_question_word(b)]  # "old": not a kind


def names_a_sibling(question: str, absent: frozenset[str], sentence: str,
                    answer: str = "", topic: str = "") -> bool:
    """Whether ``sentence``, or ``topic``, the heading or FAQ line it sits under, speaks of
    another kind of the thing asked about: the ask's absent modifier ("paternity leave",
    ``陪产假``) where it has the same head with a modifier sharing nothing with it ("annual
    leave", "rate limit" for "mileage rate"). A modifier sharing a character with the asked
    one is a variant (``医生证明``/``医院证明``). ``answer``: every quoted sentence, which the
    asked group must be named in."""
    degrees = _degrees(question)  # "the biggest file" asks a size, not a kind of file
    kinds = qualities(question)
    every = _heads_after(question, None)
    pairs = [(m, h) for m, h in every if m in absent and h not in absent and m not in degrees]
    # A group named by a compound adjective ("part-time employees") is asked even when the
    # blocks have it: an answer giving only "full-time employees get 26 days" is another
    # group's rule (one that goes on to the part-time rule is not).
    groups = [(m, h) for m, h in every if m in kinds and "-" in m and (m, h) not in pairs]
    return any(
        names_another_kind(pairs, text, qualities=kinds)
        or bool(groups) and names_another_kind(groups, whole, qualities=kinds)
        for text, whole in ((sentence, answer or sentence), (topic, topic)) if text)


def unnamed_kinds(question: str, lead: Candidate, blocks: Sequence[Block]) -> frozenset[str]:
    """The folded nouns before the head of a value ask ("parking" of "What is the parking
    allowance per day?", ``value_asks.value_phrase``; adjectives such as "daily" or
    "minimum" describe, they name no kind) that the English ``lead``, its heading and
    title leave out while another block names them ("Traffic and parking fines…"): the
    blocks know that kind, so a lead naming the head with another modifier ("a one-time
    home office allowance of EUR 300") speaks of a sibling (``names_a_sibling``, which
    takes them as absent). Empty for any other ask or a lead in another language."""
    nouns = [w for w in value_phrase(ask_clause(question)) if not morphy(w, "adj")]
    seen = lead.terms | lead.context | lead.heading
    unseen = {t for w in nouns for t in folded_terms(w) if t not in seen}
    if not unseen or not lead.text.isascii():
        return frozenset()
    elsewhere = frozenset().union(*(folded_terms(f"{b.chunk.text}\n{b.chunk.section}\n"
                                                 f"{b.chunk.title}")
                                    for b in blocks if b.n != lead.n))
    return frozenset(unseen & elsewhere)


# The kinds of leave Chinese HR documents name (年假, 事假, 婚假, 陪产假…), which jieba may cut
# apart (年/假, 陪/产假): longest first, so 陪产假 (paternity) is not 产假 (maternity).
_LEAVE_KINDS_ZH = sorted("""年假 年休假 病假 事假 婚假 产假 陪产假 产检假 丧假 护理假 育儿假 探亲假
    哺乳假 工伤假 调休假""".split(), key=len, reverse=True)
_LEAVE_ZH_RE = re.compile("|".join(_LEAVE_KINDS_ZH))


def other_leave_zh(question: str, sentence: str) -> bool:
    """Whether ``question`` asks of a kind of leave (``_LEAVE_ZH_RE``) and ``sentence`` names
    only other kinds: "事假为无薪假…" for 年假有多少天？ (a tester's, answered so). Such a
    sentence is no candidate (``selection``), so no lead is one."""
    asked = set(_LEAVE_ZH_RE.findall(question))
    said = set(_LEAVE_ZH_RE.findall(sentence))
    return bool(asked and said) and not asked & said


def _degrees(question: str) -> frozenset[str]:
    """The English ask's superlatives and comparatives ("biggest", "larger": WordNet's
    adjective base differs from the word), folded as ``_heads_after`` folds them: a degree
    of a measure, which the answer states as a number, never a kind of the thing."""
    return frozenset(fold(stem(w)) for w in _modifiers(question) if w not in morphy(w, "adj"))


def qualities(question: str) -> frozenset[str]:
    """The English ask's modifiers that WordNet knows only as adjectives or adverbs
    ("proper", "part-time", ``thesaurus.only_modifier``), folded as ``_heads_after`` folds
    them; empty for Chinese."""
    return frozenset(fold(stem(w)) for w in _modifiers(question))


@lru_cache(maxsize=512)
def _modifiers(question: str) -> tuple[str, ...]:
    """The English ask's words (lower case) that WordNet knows only as modifiers; () for a
    Chinese ask."""
    ask = ask_clause(question)
    if tagged(ask):
        return ()
    return tuple(w.lower() for w in _LATIN_RE.findall(ask) if only_modifier(w))


def _noun(word: str) -> bool:
    """Whether WordNet knows the English ``word`` as a noun ("desk"; not "full-time")."""
    return not only_modifier(word) and bool(morphy(word.lower(), "noun"))


def kinds_stated(question: str, texts: Sequence[str]) -> list[tuple[str, str]]:
    """The ask's (modifier, head) pairs ("sick leave", ``病假`` is one word so Chinese pairs
    are jieba's words) that one of ``texts`` states as written, or, for a Chinese pair, an
    English text by one of its CC-CEDICT glosses (病假 "sick leave"): the blocks speak of
    the asked kind, so a sentence about another kind of it is not the answer."""
    joined = [_phrase_words(t) for t in texts]
    pairs = _heads_after(question, None) + _zh_focus_pair(question)
    return [(a, b) for a, b in pairs
            if any(_adjacent(a, b, words, low) or words and _glossed(a + b, words)
                   for words, low in joined)]


def _glossed(word: str, words: list[str]) -> bool:
    """Whether the folded English ``words`` hold a gloss of two or more terms of the
    Chinese ``word`` in a row."""
    if word.isascii():
        return False
    for gloss in bilingual.english_glosses(word):
        folded = [fold(stem(t)) for t in gloss]
        n = len(folded)
        if n > 1 and any(words[i:i + n] == folded for i in range(len(words) - n + 1)):
            return True
    return False


def _zh_focus_pair(question: str) -> list[tuple[str, str]]:
    """The Chinese ask's focus noun split into (modifier, head character): the last noun
    of two or more characters (``多少天病假`` -> ("病", "假")), as jieba cuts a document's
    ``年假`` into two words while the question's ``病假`` stays one."""
    nouns = [w for w, tag in tagged(ask_clause(question))
             if tag.startswith("n") and len(w) >= 2 and _CJK_RUN_RE.fullmatch(w)]
    return [(nouns[-1][:-1], nouns[-1][-1])] if nouns else []


def names_another_kind(pairs: Sequence[tuple[str, str]], sentence: str,
                       own: frozenset[str] = frozenset(),
                       qualities: frozenset[str] = frozenset()) -> bool:
    """Whether ``sentence`` names a head of ``pairs`` with another modifier (not one of the
    question's own terms, ``own``: "unused leave" is the asked "unused annual leave") and
    never the asked one (``names_a_sibling``'s test for given (modifier, head) pairs).

    A modifier in ``qualities`` (``qualities``: an adjective, "a proper chair") describes the
    thing, while a noun before the head ("desk chair") names a kind of it: a proper chair
    may be a desk chair, so only another adjective ("full-time" for "part-time") is another
    kind of it."""
    words, low = _phrase_words(sentence)
    if words is not None:
        asked = {w for pair in pairs for w in pair} | own  # "unused leave" is asked too
        # A word modifies the head only within one phrase: "Flights: economy class…" (a
        # label, then the rule) names no "flight economy".
        phrases = [(spelled, [fold(stem(w)) for w in spelled])  # as written, folded
                   for spelled in (_LATIN_RE.findall(p) for p in _PHRASE_END_RE.split(low))]
        for modifier, head in pairs:
            if modifier in words:
                continue
            for spelled, folded in phrases:
                before = [i for i, b in enumerate(folded[1:]) if b == head]
                if any(folded[i] not in asked and not is_question_word(spelled[i])
                       and not (modifier in qualities and _noun(spelled[i])) for i in before):
                    return True
        return False
    for modifier, head in pairs:
        if modifier in low:
            continue
        for m in re.finditer(re.escape(head), low):
            other = low[max(0, m.start() - len(modifier)):m.start()]
            if _CJK_RUN_RE.fullmatch(other or "-") and not set(other) & set(modifier):
                return True
    return False


_PHRASE_END_RE = re.compile(r"[:;,!?()\[\]\u2013\u2014]|\.(?:\s|$)")


def _phrase_words(text: str) -> tuple[list[str] | None, str]:
    """(folded Latin words, or None for Chinese text, the NFKC lower-case text)."""
    low = unicodedata.normalize("NFKC", text).lower()
    if not _ANY_CJK_RE.search(low):  # what ``tagged`` would tag, without tagging it
        return [fold(stem(w)) for w in _LATIN_RE.findall(low)], low
    return None, low


def _adjacent(a: str, b: str, words: list[str] | None, low: str) -> bool:
    if words is None:
        return a + b in low
    return any(x == a and y == b for x, y in zip(words, words[1:], strict=False))
