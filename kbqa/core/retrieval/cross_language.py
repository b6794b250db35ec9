"""The question searched once more in the knowledge base's other language.

A company's knowledge base holds both languages: the Shenzhen office guide in Chinese, the
leave policy in English. A Chinese question about leave shares no word with the English
policy, and the Chinese documents it does share words with (年假 in the Suzhou handbook,
天 and 多少 anywhere) fill the top ``k``: measured on the five company sets (2026-12-07),
130 of the 323 answerable questions answered wrongly or refused were asked in the other
language than their answer's document, and that document was not among the hits.
``synonyms.lexical_query`` translates only the words no chunk has, which in a knowledge
base of both languages is almost none.

``translated_query`` writes each content word of the question in the other language
through CC-CEDICT (``kbqa.core.text.bilingual``), keeping the translations the index has:
a Chinese word by its glosses whose every term the index has (年假 "annual leave"), the
longest word first (笔记本 "notebook" covers 笔记); an English word by its Chinese words
(hotel -> 酒店, 饭店, 宾馆), two adjacent English words by the Chinese words glossed as
exactly that phrase first ("sick leave" -> 病假). Numbers and words of the other script
(TMS, VPN in a Chinese question) stay as written. ``cross_hits`` searches it and merges
its hits with the question's own (``merged``): a hit of the translation counts the share
of the translated question it holds (its relevance) times the question's own ideal score,
which is the score a chunk of the question's language holding that share would get.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from kbqa.core.retrieval.index import Hit, IndexSnapshot
from kbqa.core.retrieval.scoring import ideal_score
from kbqa.core.retrieval.synonyms import SYNONYM_WEIGHT, lexical_query
from kbqa.core.retrieval.translations import (
    Memo,
    known_phrase_words,
    known_translations,
    memoised,
)
from kbqa.core.text import bilingual
from kbqa.core.text.terms import cjk_bigrams, is_question_word, relevance_terms, terms
from kbqa.core.types import Audience

MAX_ALTERNATIVES = 3  # translations per word, the dictionary's first (most frequent) ones
#: a translated hit's relevance, as a share of its own: a translation is a thesaurus
#: expansion of every word (``synonyms.SYNONYM_WEIGHT``), and at that weight the best
#: translated hit must pass the low-score threshold by itself
CROSS_WEIGHT = SYNONYM_WEIGHT
MIN_WORDS_HELD = 3  # words of the question a translated hit must hold translations of
_STATE = {"below": 0.15}  # KBQA_MIN_RELEVANCE's default until the sources app sets it


@dataclass(frozen=True)
class Translated:
    """A query in the other language: its terms, the terms its ideal score counts (per
    source word its translation of highest IDF; each untranslated content word itself)."""

    terms: list[str]
    ideal_terms: list[str]
    units: list[frozenset[str]]


def translated_query(query: str, known: Callable[[str], bool], idf: Callable[[str], float],
                     asked: Sequence[str], memo: Memo | None = None) -> Translated | None:
    """``query`` written in the other language (module doc), or None when no word of it
    has a translation the index knows (a knowledge base of one language, a question of
    names and numbers) or without the dictionary. ``asked`` are the query's own ideal
    terms (``terms.relevance_terms``): its untranslated ones count in the translation's."""
    if not bilingual.available():
        return None
    words = list(dict.fromkeys(terms(query)))
    units: list[list[tuple[str, ...]]] = []  # per source word its translations
    untranslated: list[str] = []
    done: set[str] = set()
    for pair, found in _english_phrases(words, known, memo):
        done.update(pair)
        units.append(found)
    crossed = bool(units)
    cjk = sorted((w for w in words if not w.isascii()), key=len, reverse=True)
    cjk += [b for b in dict.fromkeys(cjk_bigrams(query)) if b not in words]
    for word in [*(w for w in words if w.isascii()), *cjk]:
        if word in done or is_question_word(word) or any(word in d for d in done
                                                         if not d.isascii()):
            continue
        if word[0].isdigit():
            units.append([(word,)])
            continue
        translated = memoised(memo, ("cross", word), partial(_translations, word, known))
        if translated:
            units.append([tuple(t.split(" ")) for t in translated])
            done.add(word)
            crossed = True
        elif len(word) > 1 and word in words and known(word) and word.isascii() \
                and _other_script(word, query):
            units.append([(word,)])  # a Latin name in a Chinese question: as written
        elif word in words and len(word) > 1:
            untranslated.append(word)
    if not crossed:
        return None
    query_terms = list(dict.fromkeys(t for u in units for alt in u for t in alt))
    ideal = [t for u in units for t in max(u, key=lambda a: sum(map(idf, a)))]
    ideal += [w for w in asked if w in untranslated]
    return Translated(query_terms, list(dict.fromkeys(ideal)),
                      [frozenset(t for alt in u for t in alt) for u in units])


def _other_script(word: str, query: str) -> bool:
    """Whether the ASCII ``word`` sits in a question mostly written in Chinese."""
    return sum(1 for ch in query if "\u4e00" <= ch <= "\u9fff") > len(query) // 4


def _english_phrases(words: Sequence[str], known: Callable[[str], bool],
                     memo: Memo | None) -> list[tuple[tuple[str, str], list[tuple[str, ...]]]]:
    """Pairs of adjacent English ``words`` glossed exactly by Chinese words the index
    has ("annual leave" -> 年假), with those words' terms."""
    english = [w for w in words if w.isascii() and w.isalpha()]
    out = []
    for first, second in zip(english, english[1:], strict=False):
        key = f"{first} {second}"
        found = memoised(memo, ("cross-phrase", key), partial(_phrase_words, key, known))
        if found:
            out.append(((first, second), [tuple(t.split(" ")) for t in found]))
    return out


def _phrase_words(phrase: str, known: Callable[[str], bool]) -> list[str]:
    """``translations.known_phrase_words``, each word's terms joined by a space (a memo
    keeps strings)."""
    return [" ".join(p) for p in known_phrase_words(phrase, known)]


def _translations(word: str, known: Callable[[str], bool]) -> list[str]:
    """``translations.known_translations`` (a one-character Chinese word by its first
    gloss), each joined by a space, at most ``MAX_ALTERNATIVES``."""
    found = known_translations(word, known, one_character=True)
    return list(dict.fromkeys(" ".join(p) for p in found))[:MAX_ALTERNATIVES]


def set_threshold(relevance: float) -> float:
    """Set the low-score threshold below which the translation is searched (the
    ``sources`` app sets ``KBQA_MIN_RELEVANCE``); returns the one it replaces."""
    before, _STATE["below"] = _STATE["below"], relevance
    return before


def threshold() -> float:
    """The low-score threshold below which the translation is searched (``set_threshold``)."""
    return _STATE["below"]


def cross_hits(snapshot: IndexSnapshot, query: str, k: int,
               audience: Audience | None) -> list[Hit]:
    """BM25's top ``k`` for ``query`` and its thesaurus expansions
    (``synonyms.lexical_query``); when the best of them is below the low-score threshold,
    merged with the top ``k`` of its translation (``translated_query``) among the chunks
    holding translations of ``MIN_WORDS_HELD`` of its words, if the best of those, at
    ``CROSS_WEIGHT``, reaches the threshold (``merged``)."""
    asked = relevance_terms(query, snapshot.knows)
    own = lexical_query(query, snapshot.knows, snapshot.idf, asked, snapshot.expansions)
    hits = snapshot.search(own.terms, k, audience=audience, ideal_terms=own.ideal_terms,
                           weights=own.weights)
    below = threshold()
    if hits and hits[0].relevance >= below:
        return hits
    other = translated_query(query, snapshot.knows, snapshot.idf, asked, snapshot.expansions)
    if other is None:
        return hits
    found = snapshot.search(other.terms, k, audience=audience, ideal_terms=other.ideal_terms,
                            groups=other.units, min_groups=MIN_WORDS_HELD)
    if not found or found[0].relevance * CROSS_WEIGHT < below:
        return hits
    weights = own.weights
    ideal = ideal_score(own.ideal_terms,
                        lambda t: snapshot.idf(t, audience) * weights.get(t, 1.0))
    return merged(hits, found, ideal, k)


def merged(own: Sequence[Hit], translated: Sequence[Hit], ideal: float, k: int) -> list[Hit]:
    """The best ``k`` of ``own`` and ``translated`` by score, ties by chunk id; a
    translated hit's relevance counts ``CROSS_WEIGHT`` of its own, and it scores that
    relevance times ``ideal``, the question's own ideal score (what a chunk of the
    question's language holding that share of it would score); a chunk in both keeps its
    better hit."""
    best: dict[str, Hit] = {h.chunk_id: h for h in own}
    for h in translated:
        relevance = h.relevance * CROSS_WEIGHT
        hit = Hit(h.chunk_id, h.doc_key, relevance * ideal, relevance)
        if h.chunk_id not in best or best[h.chunk_id].score < hit.score:
            best[h.chunk_id] = hit
    return sorted(best.values(), key=lambda h: (-h.score, h.chunk_id))[:k]
