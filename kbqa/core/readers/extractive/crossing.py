"""Question words met across languages: a block in the other language says them in its own.

Retrieval may bring only a Chinese passage for an English question (or the reverse): the
knowledge base has the fact in one language. The reader matches the question's words to
the blocks' (``selection``), and "recycle", "deleted", "files" are nowhere in "被删除的文件
会在回收站中保留 30 天", so it declined with a "Not covered" line naming words the passage
does state. ``block_translations`` gives, per question word that no block has, the block
words of the other language that CC-CEDICT (``kbqa.core.text.bilingual``) pairs with it,
either way, through base forms (删除 "to delete" for "deleted"): they join the question's
terms as its WordNet synonyms do (``synonyms.with_synonyms``, ``synonym_groups``), counting
as the word they translate, at the synonyms' weight, and under the same guard
(``synonyms.only_expanded``: a sentence met only through them must meet two question words).
The quoted sentence is the source's own, in its language; the verifier checks it against
its block as any other.

``crossed`` tries that after the reader declines, over all blocks, and then over the other
language's blocks alone: in a knowledge base with documents in both languages the
question's words are in its own language's blocks, so they were never translated, and an
English question about a fact only a Chinese document states ("How many days of paternity
leave?", a Chinese FAQ beside an English leave policy) found nothing to meet there. Two
adjacent English words that are one CC-CEDICT gloss translate as the phrase
(``phrase_translations``: "paternity leave" is 陪产假, which jieba cuts 陪/产假; "paternity"
is read as the piece that does not translate "leave", 陪).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence

from kbqa.core.readers.extractive.focus import ask_clause
from kbqa.core.readers.extractive.question import question_terms
from kbqa.core.readers.extractive.text import Selection, candidates, folded_terms
from kbqa.core.text.bilingual import (
    available,
    base_forms,
    chinese_of_term,
    chinese_words,
    composed_english_terms,
    english_glosses,
)
from kbqa.core.text.normalise import detect_language
from kbqa.core.text.terms import fold, terms
from kbqa.core.types import Block

#: the reader's choice over some blocks, their folded terms, the question's translations,
#: and sentences it may not quote
Choose = Callable[[Sequence[Block], Sequence[frozenset[str]], Mapping[str, tuple[str, ...]],
                   frozenset[str]], Selection]

MAX_TRANSLATIONS = 3  # block words per question word, as many as WordNet synonyms


def block_translations(question: str, block_terms: Sequence[frozenset[str]],
                       phrases: bool = False) -> dict[str, tuple[str, ...]]:
    """Per folded question term that no block has (``block_terms``: the blocks' folded
    terms), the block terms of the other language that translate it, the longest (the
    narrowest) first, at most ``MAX_TRANSLATIONS``; terms with none left out; with
    ``phrases``, a phrase's first word as the phrase's own pieces (``phrase_translations``).
    Folding stands for base forms ("deleted" and 删除's "to delete" both fold to
    ``delet``). {} without the dictionary."""
    everything = frozenset().union(*block_terms) if block_terms else frozenset()
    if not everything or not available():
        return {}
    asked = set(question_terms(question))  # the reader's own: question words left out
    out: dict[str, tuple[str, ...]] = {}
    for t in dict.fromkeys(terms(question)):
        folded = fold(t)
        if folded in everything or folded not in asked or t[0].isdigit():
            continue
        found = _translations(t, folded, everything)
        if found:
            out[folded] = _narrowest(found)
    for folded, whole in _split_word_translations(question, everything).items():
        if folded in asked and folded not in everything and folded not in out:
            out[folded] = whole
    for folded, pieces in (phrase_translations(question, everything) if phrases else {}).items():
        if folded in asked and folded not in everything:
            out[folded] = pieces  # the phrase's word, narrower than a word's translation
    return out


def _narrowest(found: set[str]) -> tuple[str, ...]:
    """The longest (the narrowest) of ``found`` first, at most ``MAX_TRANSLATIONS``."""
    return tuple(sorted(found, key=lambda w: (-len(w), w))[:MAX_TRANSLATIONS])


def _split_word_translations(question: str, everything: frozenset[str]
                             ) -> dict[str, tuple[str, ...]]:
    """Per pair of adjacent one-character Chinese terms of ``question`` written together
    that make a CC-CEDICT word jieba's dictionary lacks (年假 "annual leave", cut 年/假),
    the block terms (``everything``) of that word's English, under the pair's second
    term (the head of a Chinese compound); the first is most often a stop word (年)."""
    words = terms(question)
    out: dict[str, tuple[str, ...]] = {}
    for first, second in zip(words, words[1:], strict=False):
        word = first + second
        if len(word) != 2 or word.isascii() or word not in question:
            continue
        found = _gloss_terms(word, everything)
        if found:
            out[fold(second)] = _narrowest(found)
    return out


def phrase_translations(question: str, everything: frozenset[str]) -> dict[str, tuple[str, ...]]:
    """Per first word of two adjacent English terms of ``question`` that are exactly one
    CC-CEDICT gloss, the block terms (``everything``) of that Chinese word that do not also
    translate the second word (陪 of 陪产假 for "paternity leave"; all its terms when each
    does: 产假 for "maternity leave")."""
    out: dict[str, tuple[str, ...]] = {}
    for first, second, _word, pieces in _phrases(question, everything):
        seconds = {fold(b) for b in base_forms(second)} | {fold(second)}
        own = [p for p in pieces if not seconds & {fold(e) for e in composed_english_terms(p)}]
        out.setdefault(fold(first), tuple(own or pieces))
    return out


def _phrases(question: str, everything: frozenset[str]
             ) -> Iterator[tuple[str, str, str, list[str]]]:
    """(first, second, Chinese word, its terms) for each pair of adjacent English terms of
    ``question`` glossed exactly by a Chinese word whose terms are all in ``everything``."""
    words = [t for t in dict.fromkeys(terms(question)) if t.isascii() and t.isalpha()]
    for first, second in zip(words, words[1:], strict=False):
        for word in chinese_words(f"{first} {second}"):
            pieces = terms(word)
            if pieces and all(p in everything for p in pieces):
                yield first, second, word, pieces


def inside_longer_words(question: str, blocks: Sequence[Block],
                        everything: frozenset[str]) -> frozenset[str]:
    """The sentences of ``blocks`` that hold a phrase's Chinese word (``_phrases``) only
    inside a longer dictionary word: 产假 ("maternity leave") of 陪产假 ("paternity
    leave") says the other leave; jieba cuts both into the same terms."""
    words = {w for _f, _s, w, _p in _phrases(question, everything)}
    return frozenset(c.text for c in candidates(blocks)
                     if any(w in c.text for w in words)
                     and not any(_said_alone(w, c.text) for w in words))


def _said_alone(word: str, text: str) -> bool:
    """Whether ``word`` occurs in ``text`` once at least with no character before or after
    it making a longer CC-CEDICT headword."""
    for at in (m.start() for m in re.finditer(re.escape(word), text)):
        longer = [text[max(at - k, 0):at + len(word)] for k in (1, 2)] + [
            text[at:at + len(word) + k] for k in (1, 2)]
        if not any(len(w) > len(word) and english_glosses(w) for w in longer):
            return True
    return False


def crossed(question: str, blocks: Sequence[Block], terms_of: Sequence[frozenset[str]],
            first: Selection, choose: Choose) -> Selection:
    """After the reader's ``first`` choice: when it declined, ``choose`` with the question's
    words that no block has translated into the block words of the other language
    (``block_translations``), then, if they say a phrase of the ask that the question's
    own language never does (``_phrase_elsewhere``), over the other language's blocks alone
    with all its words translated; ``first`` when neither answers. When it answered, such
    blocks are still read ("can I take it in half days?" got an English carry-over rule,
    where only the Chinese policy says 半天). Without such a phrase the other language's
    blocks are not read alone: a Chinese question about the 2022 APEC meeting was answered
    from an English passage on something else (RGB). Nor are they when nothing answered,
    unless a word of the ask is in none of the question's language's blocks and in theirs
    (``_words_elsewhere``: 年假 beside a Chinese checklist's "前 30 天内" and the English
    "annual leave"); an answer from them must then say it (``_says_all``).
    A translation is weaker evidence than the asker's own word: an answer through it must
    cover the whole question (no "Not covered" word left: "yearly training / conference
    budget" met 会议室 through "conference" alone, with "budget" uncovered) and say every
    translated word of the ask (``_says_translated``)."""
    tries = [(blocks, terms_of)]
    elsewhere: dict[str, set[str]] = {}  # an ask word only the other language's blocks say
    language = detect_language(question)
    other = [(b, t) for b, t in zip(blocks, terms_of, strict=True) if b.chunk.language != language]
    other_terms = [t for _, t in other]
    if other and len(other) < len(blocks):  # blocks of both languages (most answers: one)
        own = frozenset().union(*(t for b, t in zip(blocks, terms_of, strict=True)
                                  if b.chunk.language == language))
        # ...or when the answer in the question's language leaves a word of it uncovered
        # (经理有加班费吗？ got a taxi rule sharing 加班; the English handbook says who
        # gets overtime pay)
        phrase = _phrase_elsewhere(question, own, other_terms) or (
            not first.declined and first.uncovered)
        # ...or, when nothing answered, a word of the ask only they say (年假 beside a
        # Chinese checklist's 天: the English policy's "annual leave")
        elsewhere = {} if phrase or not first.declined else _words_elsewhere(
            question, own, other_terms)
        if phrase or elsewhere:
            tries.append(([b for b, _ in other], other_terms))
    if not first.declined:
        if len(tries) < 2:
            return first
        tries = tries[1:]
    for some, some_terms in tries:
        # a phrase read in the other language only where it alone is read: among blocks
        # of both, 陪 for "paternity" let the English leave sentences answer it
        translations = block_translations(question, some_terms, phrases=some is not blocks)
        if not translations:
            continue
        inside = frozenset() if some is blocks else inside_longer_words(
            question, some, frozenset().union(*some_terms))
        chosen = choose(some, some_terms, translations, inside)
        # among both languages' blocks, the answer must say the translated words (in the
        # other's alone, every word is translated and the reader's coverage decides)
        if not chosen.declined and not chosen.uncovered and (
                _says_translated(chosen, translations, question) if some is blocks
                else _says_all(chosen, elsewhere)):
            return chosen if some is blocks else _with_phrases(chosen, question, some_terms)
    return first


def _with_phrases(chosen: Selection, question: str,
                  some_terms: Sequence[frozenset[str]]) -> Selection:
    """``chosen`` without the sentences after the first that miss a phrase's own pieces
    (``phrase_translations``): with "paternity leave" asked, 产假 158 天 (maternity leave)
    beside 陪产假 15 天 is another leave."""
    pieces = phrase_translations(question, frozenset().union(*some_terms))
    if not pieces:
        return chosen
    kept = [c for i, c in enumerate(chosen.chosen)
            if not i or all(set(p) <= folded_terms(c.text) for p in pieces.values())]
    return Selection(tuple(kept), chosen.uncovered, chosen.declined, chosen.unanswered)


def _phrase_elsewhere(question: str, own: frozenset[str],
                      other_terms: Sequence[frozenset[str]]) -> bool:
    """Whether a two-word phrase of the ask clause is said in the other language's blocks
    (``_phrases``) while its first word is in none of the question's own language's
    (``own``: their folded terms)."""
    everything = frozenset().union(*other_terms) if other_terms else frozenset()
    return any(fold(f) not in own
               for f, _s, _w, _p in _phrases(ask_clause(question), everything))


def _words_elsewhere(question: str, own: frozenset[str],
                     other_terms: Sequence[frozenset[str]]) -> dict[str, set[str]]:
    """The words of the ask clause that none of the question's own language's blocks has
    (``own``) and the other language's blocks say in theirs, with those translations
    (``_translations``; a pair jieba cut apart, ``_split_word_translations``): "年假有多少
    天？" beside a Chinese checklist's "前 30 天内" and the English policy's "25 days of paid
    annual leave"."""
    everything = frozenset().union(*other_terms) if other_terms else frozenset()
    ask = ask_clause(question)
    asked = set(question_terms(ask))
    split = _split_word_translations(ask, everything)  # 年假 cut 年/假: under 假
    out: dict[str, set[str]] = {}
    for t in dict.fromkeys(terms(ask)):
        folded = fold(t)
        if folded in asked and folded not in own and not t[0].isdigit() and (
                found := set(split.get(folded, ())) or _translations(t, folded, everything)):
            out[folded] = found
    return out


def _says_all(chosen: Selection, elsewhere: Mapping[str, set[str]]) -> bool:
    """Whether the chosen sentences say each word ``_words_elsewhere`` found in its
    translation: the other language's blocks were read for those words, and an answer met
    through the rest of the question (a number, 15 of "iOS 15" in "15% cheaper") is not
    about them."""
    said = frozenset().union(*(folded_terms(c.text) for c in chosen.chosen))
    return all(said & found for found in elsewhere.values())


def _says_translated(chosen: Selection, translations: Mapping[str, tuple[str, ...]],
                     question: str) -> bool:
    """Whether at least half of the translated words of the ask clause are said by the
    chosen sentences in their translations: an answer through translations is about what
    they translate ("How many days of maternity leave?" met 产假 in a Chinese block, then
    quoted the English sick-leave sentence); one word's other sense may be said elsewhere
    (操作 met the "Works" of a company name). A translated word of the context before the
    ask need not be ("A prospect with about 40 staff wants to go on Starter. Can they?")."""
    asked = frozenset(question_terms(ask_clause(question)))
    said = frozenset().union(*(folded_terms(c.text) for c in chosen.chosen))
    translated = [bool(said & set(found)) for word, found in translations.items()
                  if word in asked]
    return 2 * sum(translated) >= len(translated)


def _translations(term: str, folded: str, everything: frozenset[str]) -> set[str]:
    """Block terms of the other language for ``term``: for an English word, its dictionary
    words, the Chinese block words one of whose glosses folds to it and the one-character
    ones whose first gloss is that word alone; for a Chinese
    word of two characters or more, the English block terms its glosses fold to."""
    if term.isascii() and term.isalpha() and len(term) > 2:
        bases = {fold(b) for b in base_forms(term)} | {folded}  # "kept": keep
        chinese = {w for w in everything if len(w) > 1 and not w.isascii()}
        # one character only by its first sense: 天 "day", 年 "year" (not 月 "moon")
        single = {w for w in everything if len(w) == 1 and not w.isascii()
                  and (glosses := english_glosses(w)) and len(glosses[0]) == 1
                  and fold(glosses[0][0]) in bases}
        return ({w for w in chinese_of_term(term) if w in everything} | single
                | {w for w in chinese if bases & {fold(e) for e in composed_english_terms(w)}})
    if not term.isascii() and len(term) > 1:
        return _gloss_terms(term, everything)
    return set()


def _gloss_terms(word: str, everything: frozenset[str]) -> set[str]:
    """The block terms (``everything``) of Chinese ``word``'s English: the words of its
    CC-CEDICT glosses that the blocks say whole (带薪 "paid", not "full" of "full pay" nor
    "receive" of "to receive one's regular salary while on vacation"; 年假 "annual leave",
    not "year" of "new year holiday"), else any word of a gloss the blocks have."""
    whole = {fold(e) for g in english_glosses(word) if all(fold(e) in everything for e in g)
             for e in g}
    return whole or {fold(e) for e in composed_english_terms(word)} & everything
