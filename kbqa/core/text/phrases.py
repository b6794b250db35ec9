"""English multi-word expressions WordNet 3.0 lists (``kbqa.core.text.thesaurus`` reads
its files): phrasal verbs ("passed away", "logged me out") and what they mean in one word,
and phrases that are only modifiers ("in advance").

A phrasal verb means something its verb alone does not ("pass" is no "die"), so the
question's verb is expanded through the phrase, never through the verb: ``phrasal_synonyms``
gives the one-word lemmas of the phrase's most frequent sense whose own most frequent
sense it is ("pass away" -> die, decease, perish: not "go" or "expire", whose first senses
are other meanings), and their derivationally related forms whose most frequent sense is
the target ("death"), each with its third-person form ("dies"): the index's S-stemmer
(``terms.stem``) keeps "dies" apart from "die". Without ``wn`` every lookup is empty.
"""

from __future__ import annotations

import re
from functools import lru_cache

from kbqa.core.text.terms import is_question_word
from kbqa.core.text.thesaurus import DERIVED, POS_OF_LETTER, database, morphy

PARTICLE_RE = re.compile(
    r"\b([a-z]+)\s+(?:(?:me|you|him|her|it|us|them)\s+)?"
    r"(around|about|away|back|down|in|off|on|out|over|through|up)\b")
_SIBILANT_RE = re.compile(r"(?:s|x|z|ch|sh|o)$")
_CONSONANT_Y_RE = re.compile(r"[^aeiou]y$")


def phrasal_verb(word: str, particle: str) -> bool:
    """Whether WordNet lists ``word`` (any inflection) with ``particle`` as one verb:
    "hang around", "logged out", "chip in" (WordNet 3.0's index.verb holds ``hang_around``,
    ``log_out``, ``chip_in``). False without ``wn``."""
    wn = database()
    if wn is None:
        return False
    return any(f"{base}_{particle}" in wn.index["verb"]
               for base in morphy(word.lower(), "verb"))


def phrasal_pairs(text: str) -> tuple[tuple[str, str], ...]:
    """(verb as written, lower case; particle) of each phrasal verb WordNet lists in
    English ``text``, in order: "my mom passed away" -> (("passed", "away"),)."""
    return tuple(dict.fromkeys(
        (w, p) for w, p in PARTICLE_RE.findall(text.lower())
        if not is_question_word(w) and phrasal_verb(w, p)))


@lru_cache(maxsize=1024)
def phrasal_synonyms(verb: str, particle: str) -> tuple[str, ...]:
    """One-word ways to say the phrasal verb ``verb`` (any inflection) + ``particle`` in its
    most frequent sense (the module docstring): "passed", "away" -> ("die", "dies",
    "decease", "deceases", …, "death"); () when WordNet lists no such phrase or lacks the
    data files."""
    wn = database()
    if wn is None:
        return ()
    found: list[str] = []
    for base in morphy(verb.lower(), "verb"):
        for offset in wn.index["verb"].get(f"{base}_{particle}", ())[:1]:
            lemmas, pointers = wn.synset("verb", offset)
            words = [w for w in lemmas if " " not in w and w != base
                     and wn.index["verb"].get(w, (None,))[0] == offset]
            if not words:
                continue
            found += [f for w in words for f in (w, third_person(w))]
            for symbol, letter, target, word_no in pointers:
                pos = POS_OF_LETTER[letter]
                word = wn.synset(pos, target)[0][word_no - 1] if word_no else ""
                if (symbol in DERIVED and word and " " not in word
                        and wn.index[pos].get(word, (None,))[0] == target):
                    found.append(word)
    return tuple(dict.fromkeys(found))


def third_person(verb: str) -> str:
    """The third-person singular of a regular English ``verb``: die -> dies, reach ->
    reaches, apply -> applies."""
    if _CONSONANT_Y_RE.search(verb):
        return verb[:-1] + "ies"
    return verb + ("es" if _SIBILANT_RE.search(verb) else "s")


def modifier_phrases(text: str) -> frozenset[str]:
    """The two- and three-word phrases of English ``text`` (lower case, as written) that
    WordNet lists only as adjectives or adverbs: "in advance", "in person", "on time",
    "for free". Empty without ``wn``."""
    wn = database()
    if wn is None:
        return frozenset()
    words = re.findall(r"[a-z]+", text.lower())
    found = set()
    for n in (2, 3):
        for i in range(len(words) - n + 1):
            key = "_".join(words[i:i + n])
            if (key in wn.index["adj"] or key in wn.index["adv"]) and not (
                    key in wn.index["noun"] or key in wn.index["verb"]):
                found.add(" ".join(words[i:i + n]))
    return frozenset(found)
