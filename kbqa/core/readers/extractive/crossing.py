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
"""

from __future__ import annotations

from collections.abc import Sequence

from kbqa.core.readers.extractive.question import question_terms
from kbqa.core.text.bilingual import (
    available,
    base_forms,
    chinese_of_term,
    composed_english_terms,
)
from kbqa.core.text.terms import fold, terms

MAX_TRANSLATIONS = 3  # block words per question word, as many as WordNet synonyms


def block_translations(question: str,
                       block_terms: Sequence[frozenset[str]]) -> dict[str, tuple[str, ...]]:
    """Per folded question term that no block has (``block_terms``: the blocks' folded
    terms), the block terms of the other language that translate it, the longest (the
    narrowest) first, at most ``MAX_TRANSLATIONS``; terms with none left out. Folding
    stands for base forms ("deleted" and 删除's "to delete" both fold to ``delet``).
    {} without the dictionary."""
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
            out[folded] = tuple(sorted(found, key=lambda w: (-len(w), w))[:MAX_TRANSLATIONS])
    return out


def _translations(term: str, folded: str, everything: frozenset[str]) -> set[str]:
    """Block terms of the other language for ``term``: for an English word, its dictionary
    words and the Chinese block words one of whose glosses folds to it; for a Chinese
    word of two characters or more, the English block terms its glosses fold to."""
    if term.isascii() and term.isalpha() and len(term) > 2:
        bases = {fold(b) for b in base_forms(term)} | {folded}  # "kept": keep
        chinese = {w for w in everything if len(w) > 1 and not w.isascii()}
        return ({w for w in chinese_of_term(term) if w in everything}
                | {w for w in chinese if bases & {fold(e) for e in composed_english_terms(w)}})
    if not term.isascii() and len(term) > 1:
        return {fold(e) for e in composed_english_terms(term)} & everything
    return set()
