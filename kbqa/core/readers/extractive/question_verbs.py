"""The English verbs of a question, without a tagger: a word after "to" or a modal, a word
after a subject pronoun (the asker's own acts), and the phrasal verbs WordNet lists ("hang
around"); the reader weighs them as actions, never as things a block may lack."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from kbqa.core.retrieval.focus_en import VERB_AFTER_RE
from kbqa.core.text import phrases, thesaurus
from kbqa.core.text.phrases import PARTICLE_RE
from kbqa.core.text.terms import fold, is_question_word, stem, terms

# English has no tagger here: a word in a verb's slot (``focus_en.VERB_AFTER_RE``) is a
# verb; so is a stop-list word (stopwords-iso: "length", "gone"), which says less about
# the topic than a noun does.


def verbs_after(question: str) -> frozenset[str]:
    """The folded English words of ``question`` right after "to" or a modal: verbs, which a
    gap sentence never names ("fetch")."""
    low = unicodedata.normalize("NFKC", question).lower()
    return frozenset(fold(stem(w)) for w in VERB_AFTER_RE.findall(low))


@lru_cache(maxsize=1024)
def english_verbs(question: str) -> frozenset[str]:
    """``verbs_after`` plus the question's English stop-list words ("length", "gone"; a gap
    sentence may still name a stop-list noun such as "bill"), the verbs of its phrasal
    verbs ("hang" of "hang around": ``phrasal_verbs``) and its irregular verb forms that are
    not mostly nouns (WordNet's exception list: "drove", "forgot", the asker's story)."""
    low = unicodedata.normalize("NFKC", question).lower()
    stop = {fold(t) for t in terms(low) if t.isascii() and is_question_word(t)
            and not thesaurus.mostly_noun(t)}
    irregular = {fold(stem(w)) for w in _WORDS_RE.findall(low)
                 if thesaurus.irregular_bases(w) and not thesaurus.mostly_noun(w)}
    return verbs_after(question) | frozenset(stop) | phrasal_verbs(question)[0] | irregular


@lru_cache(maxsize=1024)
def phrasal_verbs(question: str) -> tuple[frozenset[str], frozenset[str]]:
    """The folded verbs and particles of the English phrasal verbs WordNet lists in
    ``question`` ("does deleted stuff hang around", "it logged me out": ``hang``/``around``,
    ``log``/``out``; ``phrases.phrasal_pairs``): the verb says an action, and the particle
    is part of it, no thing a block may lack."""
    pairs = phrasal_pairs(question)
    return (frozenset(w for w, _ in pairs), frozenset(fold(stem(p)) for _, p in pairs))


@lru_cache(maxsize=1024)
def phrasal_pairs(question: str) -> frozenset[tuple[str, str]]:
    """(folded verb, particle as written) of each English phrasal verb WordNet lists in
    ``question`` ("passed away": ``("pass", "away")``)."""
    low = unicodedata.normalize("NFKC", question).lower()
    return frozenset((fold(stem(w)), p) for w, p in phrases.phrasal_pairs(low))


_WORDS_RE = re.compile(r"[a-z]+")


def without_particle(verb: str, particle: str, text: str) -> bool:
    """Whether English ``text`` holds the folded ``verb`` and never with ``particle`` right
    after it (an object pronoun between allowed, as ``phrasal_pairs`` reads them): "have
    passed probation" for "passed away" is another act, not the one asked about."""
    low = unicodedata.normalize("NFKC", text).lower()
    spots = [m for m in PARTICLE_RE.finditer(low) if fold(stem(m.group(1))) == verb]
    said = any(m.group(2) == particle for m in spots)
    return not said and verb in {fold(stem(w)) for w in _WORDS_RE.findall(low)}



#: Subject pronouns: a word right after one is its verb ("if I enter…", "we go over…").
SUBJECT_PRONOUNS = frozenset("i we you they he she".split())
_OWN_ACT_RE = re.compile(rf"\b(?:{'|'.join(sorted(SUBJECT_PRONOUNS))})\s+([a-z]+)")


def own_acts(question: str) -> frozenset[str]:
    """The folded English words right after a subject pronoun in ``question``: the asker's
    own acts ("lost" of "I lost the receipt", "forget" of "What if I forget…"), not the
    relation a question asks about ("won" of "Who won…?")."""
    low = unicodedata.normalize("NFKC", question).lower()
    return frozenset(fold(stem(w)) for w in _OWN_ACT_RE.findall(low))


# A participle before "to" and a verb: "are we required to be in the office?", "allowed to
# bring", "supposed to do", "expected to work"
_CATENATIVE_RE = re.compile(r"\b([a-z]+ed)\s+to\s+([a-z]+)\b", re.IGNORECASE)


@lru_cache(maxsize=512)
def catenative_verbs(question: str) -> frozenset[str]:
    """The folded English participles of ``question`` that take another verb after "to"
    (``_CATENATIVE_RE``; both WordNet verbs): they say that the act after them is required
    or allowed, like a modal, and what is asked is that act and its object ("office" of
    "required to be in the office"), not "required"."""
    found = ((m.group(1).lower(), m.group(2).lower()) for m in _CATENATIVE_RE.finditer(question))
    return frozenset(fold(stem(p)) for p, verb in found  # an inflected form: not "need"
                     if (bases := thesaurus.morphy(p, "verb")) and p not in bases
                     and thesaurus.morphy(verb, "verb"))
