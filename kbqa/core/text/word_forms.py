"""The same English word in its other forms, from WordNet 3.0 (``thesaurus`` reads the
files): an irregular verb's other forms ("lose", "lost"; the verb exception list) and the
word in other parts of speech ("expire", "expiry"; derivational pointers). The index's
S-stemmer and the reader's suffix folding (``terms.stem``, ``terms.fold``) keep these apart.
Without ``wn`` every lookup is empty."""

from __future__ import annotations

from functools import lru_cache

from kbqa.core.text.thesaurus import (
    DERIVED,
    MAX_SENSES,
    POS,
    POS_OF_LETTER,
    database,
    irregular_bases,
    morphy,
)


@lru_cache(maxsize=1)
def _irregular_forms() -> dict[str, list[str]]:
    """WordNet's verb exception list turned around: base -> its irregular forms."""
    out: dict[str, list[str]] = {}
    for form, bases in (wn.exceptions["verb"].items() if (wn := database()) is not None else ()):
        for base in bases:
            out.setdefault(base, []).append(form)
    return out


def verb_forms(word: str) -> tuple[str, ...]:
    """The other forms of an irregular English verb, either way ("lose" -> lost; "lost" ->
    lose), from WordNet's verb exception list; () for a regular verb or without ``wn``."""
    low = word.lower()
    bases = irregular_bases(low)
    forms = [g for b in (low, *bases) for g in _irregular_forms().get(b, ())]
    return tuple(dict.fromkeys(f for f in (*bases, *forms) if f != low))


FAMILY_PREFIX = 5  # letters a derived word shares with its source: "expir" of expire, expiry


@lru_cache(maxsize=4096)
def word_family(word: str) -> tuple[str, ...]:
    """The one-word forms derived from English ``word`` (any inflection) in its
    ``MAX_SENSES`` most frequent senses, with the other words of each derived form's synset
    that begin as the word as written does (``FAMILY_PREFIX`` letters; "left" is not
    "leave" here): "expire" -> expiration, expiry (WordNet points expire at "expiration";
    "expiry" is that synset's other word).
    The word said in another part of speech, not a synonym; () without ``wn``."""
    wn = database()
    if wn is None or not word.isascii():
        return ()
    found: list[str] = []
    low = word.lower()  # as written: "left" is no form of "leave" here
    for pos in POS:
        for base in morphy(low, pos):
            for offset in wn.index[pos][base][:MAX_SENSES]:
                for symbol, letter, target, word_no in wn.synset(pos, offset)[1]:
                    if symbol not in DERIVED or not word_no:
                        continue
                    found += [w for w in wn.synset(POS_OF_LETTER[letter], target)[0]
                              if w.isalpha() and w != base
                              and w[:FAMILY_PREFIX] == low[:FAMILY_PREFIX]]
    return tuple(dict.fromkeys(found))
