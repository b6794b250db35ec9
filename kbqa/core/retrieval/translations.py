"""Query words the knowledge base only has in the other language, for BM25.

A question in English over a knowledge base that states the fact only in Chinese shares
no word with it ("How long does the recycle bin keep deleted files?" and "被删除的文件……在回收站
保留 30 天"), so retrieval never brings the passage and the reader never sees it. For each
content term of the query that no chunk has (the thesaurus's rule: a word the knowledge
base uses already means what its documents mean by it), ``translation_terms`` gives the
index terms of its CC-CEDICT words in the other language (``kbqa.core.text.bilingual``:
an English word's Chinese words, through its WordNet base forms; a Chinese word's glosses
whose every term the index has: 产假 "maternity leave" is not "leave"), and for two
adjacent English words of which the index lacks one, the Chinese words glossed as exactly
that phrase ("paternity leave" -> 陪产假), which count as two. Only when at least
``MIN_WORDS`` (2) words of the query translate: one bridged word ("活动" -> "activity")
finds passages about anything; the reader's synonyms ask the same (``MIN_SOURCES``).
``synonyms.lexical_query`` weighs them as thesaurus expansions (``SYNONYM_WEIGHT``), in the
score and in relevance's ideal score.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache, partial

from kbqa.core.text.bilingual import (
    available,
    chinese_of_term,
    chinese_words,
    english_glosses,
)
from kbqa.core.text.terms import STOP_ZH, cjk_bigrams, is_question_word, terms

MAX_TRANSLATIONS = 4  # index terms per unknown word, as many as thesaurus expansions
MIN_WORDS = 2  # query words that must translate (module doc)
#: Expansions found per query term, for one index snapshot (``synonyms.lexical_query``).
Memo = dict[tuple[str, str], tuple[str, ...]]
MEMO_TERMS = 65_536  # terms a memo holds before it forgets them all at once


def memoised(memo: Memo | None, key: tuple[str, str],
             find: Callable[[], Sequence[str]]) -> list[str]:
    """``find()``, remembered in ``memo`` under ``key`` (always found anew without one)."""
    if memo is None:
        return list(find())
    found = memo.get(key)
    if found is None:
        if len(memo) >= MEMO_TERMS:
            memo.clear()
        found = memo[key] = tuple(find())
    return list(found)


def translation_terms(query: str, known: Callable[[str], bool], memo: Memo | None = None,
                      phrases: dict[str, list[str]] | None = None) -> dict[str, list[str]]:
    """Per content term of ``query`` that ``known`` rejects, the index terms of its words in
    the other language that ``known`` accepts (at most ``MAX_TRANSLATIONS``); terms with
    none left out; {} when fewer than ``MIN_WORDS`` translate or without the dictionary.
    ``memo`` keeps each term's words for the index ``known`` reads
    (``synonyms.lexical_query``)."""
    if not available():
        return {}
    out: dict[str, list[str]] = {}
    words = terms(query)
    compound = cache(partial(_compound, known=known))  # read once per word of this query
    # jieba may cut a word apart (年假有多少天: 年/假): a character pair of the query that
    # is a phrase's word (``_compound``) is looked up as well
    pairs = [b for b in cjk_bigrams(query) if b not in words and not known(b) and compound(b)]
    for term in dict.fromkeys([*words, *pairs]):
        if known(term) or term[0].isdigit() or is_question_word(term):
            continue
        if found := memoised(memo, ("translation", term), partial(_known_words, term, known)):
            out[term] = found[:MAX_TRANSLATIONS]
    if phrases is None:
        phrases = phrase_terms(query, known, memo)
    for word, found in phrases.items():  # a phrase's words count as two
        out[word] = list(dict.fromkeys([*found, *out.get(word, [])]))[:MAX_TRANSLATIONS]
    # A Chinese word glossed as a phrase of two known terms (年假 "annual leave", 试用期
    # "probationary period") names one thing as specifically as the English phrase does.
    compounds = sum(1 for t in out if t not in phrases and compound(t))
    return out if len(out) + len(phrases) + compounds >= MIN_WORDS else {}


def _compound(term: str, known: Callable[[str], bool]) -> bool:
    """Whether Chinese ``term``'s first (main) gloss is two or more terms, all in the index
    (年假 "annual leave"; not 活动, whose first gloss is "exercise" and a later one a
    phrase)."""
    glosses = english_glosses(term) if not term.isascii() else ()
    return bool(glosses) and len(glosses[0]) >= 2 and all(
        known(_inflected(t, known)) for t in glosses[0])


def phrase_terms(query: str, known: Callable[[str], bool],
                 memo: Memo | None = None) -> dict[str, list[str]]:
    """Per pair of adjacent English terms of ``query`` of which ``known`` rejects at least
    one and that is exactly a CC-CEDICT gloss ("paternity leave" -> 陪产假), the index
    terms of those Chinese words, under the first unknown term of the pair. A whole
    phrase's translation is no synonym of one word: ``synonyms.lexical_query`` weighs it
    as the user's own words."""
    if not available():
        return {}
    words = [t for t in dict.fromkeys(terms(query)) if t.isascii()]
    out: dict[str, list[str]] = {}
    for first, second in zip(words, words[1:], strict=False):
        if (known(first) and known(second)) or len(terms(f"{first} {second}")) < 2:
            continue  # a stop word makes no phrase: "what yearly" is "yearly" alone
        key = f"{first} {second}"
        if found := memoised(memo, ("phrase", key), partial(_phrase_words, key, known)):
            out[second if known(first) else first] = found[:MAX_TRANSLATIONS]
    return out


def _phrase_words(phrase: str, known: Callable[[str], bool]) -> list[str]:
    """The index terms of ``known_phrase_words``, each once."""
    return list(dict.fromkeys(t for p in known_phrase_words(phrase, known) for t in p))


def known_phrase_words(phrase: str, known: Callable[[str], bool]) -> list[list[str]]:
    """The terms of each Chinese word one of whose glosses is exactly the two-word
    ``phrase`` (``bilingual.chinese_words``), each word only when the index has all its
    terms (陪产假 is 陪 and 产假) and they are the whole word (``whole_word_terms``)."""
    pieces = whole_word_terms(chinese_words(phrase))
    return [p for p in pieces if p and all(known(t) for t in p)]


def _known_words(term: str, known: Callable[[str], bool]) -> list[str]:
    """The index terms of ``known_translations``, each once."""
    return list(dict.fromkeys(t for p in known_translations(term, known) for t in p))


def known_translations(term: str, known: Callable[[str], bool],
                       one_character: bool = False) -> list[list[str]]:
    """The index terms of each of ``term``'s words in the other language whose terms the
    index all has and that are no function words: an English word's Chinese words (each
    whole: ``whole_word_terms``), a
    Chinese word's glosses (with ``one_character``, a one-character word's first gloss,
    no stop character: 丢 is "lose", and also "put aside" and "throw"; without, none)."""
    if term.isascii():
        found = chinese_of_term(term) if term.isalpha() else ()
        pieces = whole_word_terms(found)
    elif len(term) > 1:
        pieces = [[_inflected(t, known) for t in g] for g in english_glosses(term)]
    elif one_character and term not in STOP_ZH:
        pieces = [[_inflected(t, known) for t in g] for g in english_glosses(term)[:1]]
    else:
        pieces = []
    return [p for p in pieces if p and all(known(t) and not is_question_word(t) for t in p)]


def _inflected(term: str, known: Callable[[str], bool]) -> str:
    """``term`` (a gloss's base form: "close") or the regular inflection of it the index
    has ("closed", "closing"); plurals are already one term (``terms.stem``)."""
    if known(term) or not term.isalpha():
        return term
    stem = term[:-1] if term.endswith("e") else term
    return next((f for f in (term + "d", term + "ed", stem + "ing") if known(f)), term)


def whole_word_terms(words: Sequence[str]) -> list[list[str]]:
    """The terms of each Chinese word of ``words`` whose every character is in one of its
    terms, read once per word: 不在 ("to pass away") is left out, since 在 is a stop word and
    its one term 不 ("not") says nothing of it; "my grandmother passed away" found a salary
    FAQ by 不 (corvane q09, 2026-12-07)."""
    found = [(w, terms(w)) for w in words]
    return [t for w, t in found if set(w) <= set("".join(t))]
