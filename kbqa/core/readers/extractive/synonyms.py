"""Thesaurus help for the offline reader: a question's words said the blocks' way.

"Can I take a client to lunch?" meets "Meals with customers are reimbursed up to EUR 80
per person", in blocks that never say "client", only through WordNet ("client" and
"customer" share a synset; ``kbqa.core.text.thesaurus``).

- ``block_synonyms``: per English content term of the question, the folded terms of its
  WordNet synonyms (same-synset lemmas and derivationally related forms, no hypernyms:
  ``thesaurus.related``) that some block has and the question has not. They are added to
  the question's terms, never put in place of a word: a word no block has stays missing
  content for every decline (measured: replacing it by its synonyms answered "paternity
  leave" and "mileage rate" questions with other policies once hypernyms were in).
- ``synonym_groups``: a word and its synonyms count once in a sentence's score and
  coverage; they rank at ``SYNONYM_WEIGHT`` of the user's own word
  (``kbqa.core.retrieval.synonyms``, Voorhees 1994), through the ranking salience.
- ``only_expanded``: a sentence that shares none of the question's own terms may answer
  only when it meets at least ``MIN_SOURCES`` of the question's words through their
  synonyms (two words, each said another way); one expanded word alone is the word-sense noise
  (a different sense of one word) that must never flip a refusal into an answer.

Same switch as retrieval's (``kbqa.core.retrieval.synonyms.enabled``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from kbqa.core.readers.extractive.acronyms import with_bridges
from kbqa.core.readers.extractive.expand import camel_case_names, expand, with_bigrams, with_family
from kbqa.core.readers.extractive.question import question_terms
from kbqa.core.readers.extractive.question_verbs import own_acts, phrasal_verbs
from kbqa.core.readers.extractive.text import Candidate
from kbqa.core.retrieval.focus_en import same_kind_en
from kbqa.core.retrieval.synonyms import SYNONYM_WEIGHT, enabled
from kbqa.core.text import phrases, thesaurus
from kbqa.core.text.synonyms_zh import chinese_synonyms, lookup_words
from kbqa.core.text.terms import fold, is_question_word, stem, terms
from kbqa.core.text.word_forms import verb_forms

MAX_SYNONYMS = 3  # block terms per question word, the most frequent senses' first
MIN_SOURCES = 2  # question words a sentence must meet through synonyms when it shares none

__all__ = ["SYNONYM_WEIGHT", "block_synonyms", "expanded_terms", "only_expanded",
           "inflections", "phrasal_synonyms", "ranked_below",
           "synonym_groups", "with_synonyms"]


def block_synonyms(question: str, block_terms: Sequence[frozenset[str]]
                   ) -> dict[str, tuple[str, ...]]:
    """Per folded English content term of ``question``, the folded terms of its WordNet
    words that a block of ``block_terms`` has and the question has not (at most
    ``MAX_SYNONYMS``), per phrasal verb's verb the phrase's (``phrasal_synonyms``); terms
    with none left out. {} when expansion is off."""
    if not enabled():
        return {}
    everything = frozenset().union(*block_terms) if block_terms else frozenset()
    own = [t for t in dict.fromkeys(terms(question))
           if t.isascii() and t.isalpha() and len(t) > 2 and not is_question_word(t)]
    folded_own = {fold(t) for t in own}
    # the verb of a phrasal verb ("passed away") means the phrase: its own synonyms
    # ("travel") are another sense
    phrasal = phrasal_verbs(question)[0]
    out: dict[str, tuple[str, ...]] = {}
    for t in own:
        if fold(t) in everything or fold(t) in phrasal:
            continue  # the blocks use the word itself: its other senses are noise
        def in_blocks(word: str, asked: str = t) -> str | None:
            word_terms = question_terms(word)  # folded; generic words ("get") dropped
            if len(terms(word)) == 1 and len(word_terms) == 1 and word_terms[0] in everything \
                    and word_terms[0] not in folded_own and same_kind_en(asked, word):
                return word_terms[0]
            return None

        if found := thesaurus.one_word_relatives(t, in_blocks, MAX_SYNONYMS):
            out[fold(t)] = tuple(found)
    return (out | phrasal_synonyms(question, everything) | _chinese_synonyms(question, everything)
            | inflections(question, everything))


def inflections(question: str, everything: frozenset[str]) -> dict[str, tuple[str, ...]]:
    """Per folded English term of ``question`` that no block has, the block terms
    (``everything``) that are the same verb in another form, one of the two irregular
    (``word_forms.verb_forms``, WordNet's verb exception list): "my laptop is broken" meets
    "If your laptop breaks", "what if someone steals my badge?" meets "a stolen badge". A
    block's irregular form that is an adjective of its own ("paid leave") does not meet
    "pays". Stemming already joins the regular forms; these are the asker's own word, not
    a synonym."""
    out: dict[str, tuple[str, ...]] = {}
    for t in dict.fromkeys(terms(question)):
        if not (t.isascii() and t.isalpha() and len(t) > 2) or fold(t) in everything \
                or is_question_word(t):
            continue
        found = [f for form in verb_forms(t) if (f := fold(stem(form))) in everything
                 and not (thesaurus.irregular_bases(form) and thesaurus.morphy(form, "adj"))]
        if found:
            out[fold(t)] = tuple(dict.fromkeys(found))[:MAX_SYNONYMS]
    return out


def phrasal_synonyms(question: str, everything: frozenset[str]
                     ) -> dict[str, tuple[str, ...]]:
    """Per folded verb of an English phrasal verb in ``question`` ("passed away": ``pass``),
    the folded one-word synonyms of the phrase that ``everything`` (the blocks' terms) has
    and the question has not (``phrases.phrasal_synonyms``: ``death``, ``dy`` of "dies"), at
    most ``MAX_SYNONYMS``. They say what the asker said, in the sense the asker meant (the
    phrase's most frequent one), so they count as the asker's own word, not as a synonym
    ranking below it (``selection``)."""
    own = {fold(t) for t in terms(question)}
    out: dict[str, tuple[str, ...]] = {}
    for verb, particle in phrases.phrasal_pairs(question):
        said = [f[0] for w in phrases.phrasal_synonyms(verb, particle)
                if len(f := [fold(t) for t in terms(w)]) == 1 and f[0] in everything
                and f[0] not in own]
        if said:
            out[fold(stem(verb))] = tuple(dict.fromkeys(said))[:MAX_SYNONYMS]
    return out


def _chinese_synonyms(question: str, everything: frozenset[str]) -> dict[str, tuple[str, ...]]:
    """Per Chinese word of ``question`` no block has (``synonyms_zh.lookup_words``), its
    CC-CEDICT near-synonyms some block has as a term (at most ``MAX_SYNONYMS``)."""
    out: dict[str, tuple[str, ...]] = {}
    for word in lookup_words(question):
        if word in everything:
            continue
        found = [s for s in chinese_synonyms(word) if s in everything and not is_question_word(s)]
        if found:
            out[word] = tuple(found[:MAX_SYNONYMS])
    return out


def with_synonyms(qterms: Sequence[str], synonyms: Mapping[str, tuple[str, ...]]) -> list[str]:
    """``qterms`` followed by the synonyms of its terms that it lacks (order kept), and of
    the question's words that its terms hold only as pieces (``弄丢``: ``弄``, ``丢``)."""
    extra = [s for t in [*qterms, *synonyms] for s in synonyms.get(t, ()) if s not in qterms]
    return list(dict.fromkeys([*qterms, *extra]))


def ranked_below(question: str, synonyms: Mapping[str, tuple[str, ...]]) -> frozenset[str]:
    """The terms of ``synonyms`` (``block_synonyms``) that rank below the user's own words:
    all but a phrasal verb's, found under its verb (``phrasal_synonyms``: "passed away"
    said as "death")."""
    verbs = phrasal_verbs(question)[0]
    own = {s for w, found in synonyms.items() for s in found
           if w in verbs or thesaurus.verb_bases(w) & thesaurus.verb_bases(s)}
    return expanded_terms(synonyms) - own


def expanded_terms(synonyms: Mapping[str, tuple[str, ...]]) -> frozenset[str]:
    """Every term ``block_synonyms`` added."""
    return frozenset(s for found in synonyms.values() for s in found)


def synonym_groups(group: Mapping[str, str], synonyms: Mapping[str, tuple[str, ...]]
                   ) -> dict[str, str]:
    """``group`` (``question.groups``: a term and its parts count once) with each synonym
    in its question word's group, so a word and its synonyms count once in a sentence's
    score and coverage (``scoring.Scorer``) instead of lowering the coverage of every
    sentence that states the word one way."""
    out = dict(group)
    for word, found in synonyms.items():
        for s in found:
            if s in out and s not in synonyms:
                out[s] = group.get(word, word)
    return out


def only_expanded(chosen: Iterable[Candidate], qterms: Iterable[str],
                  synonyms: Mapping[str, tuple[str, ...]]) -> bool:
    """Whether ``chosen`` (with headings and titles) shares a synonym but none of the
    question's own terms (``qterms`` minus the expansions) and meets fewer than
    ``MIN_SOURCES`` question words through their synonyms. A choice that shares no
    synonym (semantic recall's, a follow-up's) is left to the other checks."""
    added = expanded_terms(synonyms)
    own = frozenset(qterms) - added
    shared = frozenset().union(*(c.terms | c.heading | c.context for c in chosen))
    if shared & own or not shared & added:
        return False  # a word of the question's own, or chosen without any synonym
    sources = [t for t, found in synonyms.items() if shared & set(found)]
    return len(sources) < MIN_SOURCES


def expanded_question_terms(question: str, terms: Sequence[frozenset[str]],
                            synonyms: Mapping[str, tuple[str, ...]],
                            translations: Mapping[str, tuple[str, ...]] | None = None,
                            bridges: Mapping[str, tuple[str, ...]] | None = None) -> list[str]:
    """The question's terms as the reader matches them: expanded (``expand.expand``; with
    ``translations``, a word no block has by its other-language block words), the
    blocks' CJK bigrams, then the WordNet synonyms of its words that blocks have
    (``synonyms.with_synonyms``). A word no block has stays too: it is still missing
    content for the declines, whatever its synonyms match; an acronym the blocks define
    (``bridges``, ``acronyms.acronym_bridges``) is matched by its other form too, and
    replaced by it when no block writes it."""
    qterms = with_bigrams(question, with_family(question, expand(
        question_terms(question), terms, translations, own_acts(question),
        camel_case_names(question)), terms), terms)
    return with_bridges(with_synonyms(qterms, synonyms), bridges or {}, terms)
