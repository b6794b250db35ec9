"""Word terms for BM25 retrieval and citation verification, English and Chinese.

One tokenizer serves both, so a term the index matched is the same term the verifier counts.

- Text is NFKC-folded and lower-cased (full-width ``ＡＰＩ`` becomes ``api``). A word in
  capitals (``IT``, ``HR``) is an acronym, never a stop word, whatever it spells in lower
  case: ``IT 部门`` keeps ``it`` (``acronym_starts``; capitals in a run of three or more words
  are a heading in capitals, where they mark nothing).
- A hyphenated word with a part of one or two letters is one word ("Wi-Fi", "e-mail":
  ``wifi``, ``email``), so it meets the same word written whole.
- Latin runs become word tokens, stemmed with Harman's S-stemmer (Harman 1991, "How
  effective is suffixing?", JASIS 42(1)): ``limits`` -> ``limit``, ``policies`` -> ``policy``.
- Numbers stay tokens, decimals and versions whole: ``3.5``, ``2.1.0``, ``200`` (``200MB``
  gives ``200`` and ``mb``); thousands separators are dropped (``1,500`` -> ``1500``).
- CJK runs are segmented with jieba in search mode (``cut_for_search``: the precise words
  plus their shorter in-dictionary parts), the field's standard Chinese segmenter, after
  folding the spoken negation 没 into the written 未 (``没用完`` meets ``未休完``).
- A short stop list (English function words, Chinese particles) is removed; everything
  else is kept, because the verifier removes terms common to most blocks itself.

Retrieval indexes ``search_terms``: these terms plus the character bigrams of every CJK
run, so a word segmented differently in a question and a document still meets
(``多少天年假`` segments as ``天年/假``, the document's ``带薪年假`` as ``年假``; the
bigram ``年假`` is in both). ``relevance_terms`` says which query terms count in the
relevance's ideal score: a word the knowledge base never uses counts as missing only when
it is a content word, never a question or function word (stopwords-iso's English and
Chinese lists, MIT) and never a segmentation piece.
``TERMS_VERSION`` changes whenever any of these outputs change for some text; stored
per-chunk terms keyed by an older version must be rebuilt.
"""

from __future__ import annotations

import importlib
import logging
import re
import threading
import unicodedata
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from kbqa.core.text import thesaurus
from kbqa.core.text.normalise import CJK_CHARS

# Bump whenever ``search_terms()`` may return something different for some text (tokenising,
# stop lists, stemming, jieba's dictionary). Chunks store their terms with this number; an
# index built with another one is stale until ``manage.py index_build`` re-tokenises it.
# 2: search_terms adds CJK character bigrams; 没 (not 没有) reads as 未.
# 3: a word in capitals is an acronym, not a stop word ("IT" is kept as ``it``).
# 4: a hyphenated word with a part of one or two letters is one word ("Wi-Fi": ``wifi``).
# 5: a number with thousands separators is one term ("1,500": ``1500``, not 1 and 500).
# 6: the pieces of English contractions (I'm, we're, you've, they'll, I'd) are stop words.
TERMS_VERSION = 6

# A number written with thousands separators ("1,500", "10,000") is one number: read as
# "1" and "500" it matched "Rule 500" of an unrelated upload (a tester's report, 2026-12-06).
_TOKEN_RE = re.compile(rf"[{CJK_CHARS}]+|\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d+(?:\.\d+)*|[A-Za-z]+")
_CJK_RUN_RE = re.compile(rf"[{CJK_CHARS}]+")

STOP_EN = frozenset(
    """a an the and or but if then of to in on at by for with from as into onto about over
    is are was were be been being am do does did has have had having it its this that these
    those there here i me my we our you your he she they them their his her what which who
    whom whose when where why how can could shall should will would may might must not no
    so than too very just also any all each such only own same both s t m re ve ll d""".split()
)
STOP_ZH = frozenset(
    "的 了 是 在 和 与 及 或 也 就 都 而 被 把 让 给 向 从 对 于 之 其 这 那 个 吗 呢 吧 啊 "
    "呀 么 什么 怎么 如何 哪些 哪个 多少 几 我 你 他 她 它 我们 你们 他们 请问 一下 可以 能 会 "
    "要 有 没有 是否 还 为 以 等 未".split()
)

# A Latin word of two or more capitals, and a run of three or more capitals words separated
# by blanks ("HOW TO APPLY FOR LEAVE"): text set in capitals, where capitals mark nothing.
_CAPITALS_WORD_RE = re.compile(r"(?<![A-Za-z])[A-Z]{2,}(?![A-Za-z])")
CAPITALS_RUN_RE = re.compile(r"(?<![A-Za-z])[A-Z]+(?:[ \t]+[A-Z]+){2,}(?![A-Za-z])")


# Stop words people set in capitals for stress, not as names ("do NOT share", "ONLY the
# numbered sources", "NO exceptions"): in capitals they are still those words.
EMPHASIS_EN = frozenset("not no never only all any each every both none must do does".split())


def acronym_starts(text: str) -> frozenset[int]:
    """Offsets in ``text`` of the words that are acronyms: two or more Latin capitals ("IT",
    "HR", "VPN") outside a run of three or more capitals words (a heading set in capitals:
    "HOW TO APPLY"), other than a word of stress (``EMPHASIS_EN``: "NOT", "ONLY"). An
    acronym is never an English stop word: "IT" is not "it". The rule (no dictionary of
    acronyms) is this project's choice, tested in tests/core/text/test_terms.py."""
    runs = [m.span() for m in CAPITALS_RUN_RE.finditer(text)]
    return frozenset(
        m.start() for m in _CAPITALS_WORD_RE.finditer(text)
        if m.group().lower() not in EMPHASIS_EN and not any(a <= m.start() < b for a, b in runs)
    )


def is_acronym(word: str) -> bool:
    """Whether ``word``, read on its own, is written as an acronym: two or more Latin
    capitals ("IT", "HR"). In running text prefer ``acronym_starts``, which also knows a
    heading set in capitals."""
    return (len(word) > 1 and word.isascii() and word.isalpha() and word.isupper()
            and word.lower() not in EMPHASIS_EN)


def is_stop_en(word: str, acronym: bool) -> bool:
    """Whether the English ``word`` (any case) is a stop word: in ``STOP_EN`` once
    lower-cased, unless it is an ``acronym`` (see ``acronym_starts``)."""
    return not acronym and word.lower() in STOP_EN


_jieba_lock = threading.Lock()
# jieba logs "Building prefix dict…" at DEBUG to stderr on its first use, whichever module
# uses it first (the part-of-speech tagger too): silenced for every caller here, once
# jieba's import has set its own level (importing it loads no dictionary).
_jieba_module = importlib.import_module("jieba")
_jieba_module.setLogLevel(logging.WARNING)
_jieba: Any = None


def _segmenter() -> Any:
    """jieba's default tokenizer, initialised once (about 0.7 s to load its dictionary).

    It is ``jieba.dt`` itself, the tokenizer ``jieba.posseg`` tags with (``standalone``,
    the extractive provider), so the process loads the dictionary once, not twice.
    """
    global _jieba
    if _jieba is None:
        with _jieba_lock:
            if _jieba is None:
                _jieba_module.dt.initialize()  # its log level is set at import (above)
                _jieba = _jieba_module.dt
    return _jieba


_CJK_CHAR_RE = re.compile(r"[\u3400-\u9fff]")


@lru_cache(maxsize=2048)
def pos_tags(text: str) -> tuple[tuple[str, str], ...]:
    """jieba's ``(word, part-of-speech tag)`` pairs of ``text`` (ICTCLAS tags), as written;
    () without CJK. Loads jieba's part-of-speech model on first use (about 1 s)."""
    if not _CJK_CHAR_RE.search(text):
        return ()
    _segmenter()
    import jieba.posseg

    return tuple((p.word, p.flag) for p in jieba.posseg.cut(text))


def jieba_words(text: str) -> list[str]:
    """jieba's words of ``text`` (accurate mode), from the one shared tokenizer."""
    return list(_segmenter().cut(text))


def jieba_frequency() -> dict[str, int]:
    """jieba's dictionary counts (word -> frequency in its corpus) from the shared tokenizer."""
    counts: dict[str, int] = _segmenter().FREQ
    return counts


def stem(word: str) -> str:
    """Harman's S-stemmer: strip English plural endings only (never touches numbers)."""
    if len(word) <= 3 or not word.endswith("s"):
        return word
    if word.endswith("ies") and not word.endswith(("eies", "aies")):
        return word[:-3] + "y"
    if word.endswith("es") and not word.endswith(("aes", "ees", "oes")):
        return word[:-1]
    if not word.endswith(("us", "ss")):
        return word[:-1]
    return word


# Variants that mean the same, folded before segmentation so jieba cuts both alike:
# 没…完 ("not yet used up", spoken) and 未…完 (written); 没有 stays (a stop word).
_CJK_VARIANTS_RE = re.compile("没(?!有)")


@lru_cache(maxsize=4096)
def _cjk_terms(run: str) -> tuple[str, ...]:
    folded = _CJK_VARIANTS_RE.sub("未", run)
    return tuple(w for w in _segmenter().cut_for_search(folded) if w.strip())


def terms(text: str) -> list[str]:
    """Terms of ``text`` in reading order (duplicates kept, stop words removed).

    Returns [] for empty or punctuation-only text. Never raises on any str input.
    """
    folded = unicodedata.normalize("NFKC", text)
    folded = join_short_hyphens(folded)
    acronyms = acronym_starts(folded) if _CAPITALS_WORD_RE.search(folded) else frozenset()
    out: list[str] = []
    for match in _TOKEN_RE.finditer(folded):
        tok = match.group()
        if tok[0].isdigit():
            out.append(tok.replace(",", ""))
        elif tok[0].isascii():
            low = tok.lower()
            if low not in STOP_EN or match.start() in acronyms:  # ``is_stop_en``, inlined
                out.append(stem(low))
        else:
            out.extend(w for w in _cjk_terms(tok) if w not in STOP_ZH)
    return out


# A hyphenated word with a part of one or two letters is one word written apart: "Wi-Fi",
# "e-mail", "re-use" (its parts alone are no words, and 1-2 letter tokens are dropped),
# unless that part is a stop word ("sign-in" meets "sign in").
_SHORT_HYPHEN_RE = re.compile(r"\b([A-Za-z]+)-([A-Za-z]+)\b")


_PARTICLES = frozenset("up go".split())  # "runner-up", "follow-up", "go-live": not stop words


def _joined(m: re.Match[str]) -> str:
    """"Wi-Fi" -> "WiFi"; not "sign-in", "add-on", "runner-up", "IT-team": a short part
    that is a stop word or a particle is a word of its own."""
    parts = (m.group(1), m.group(2))
    short = [p for p in parts if len(p) <= 2]
    if not short or any(p.lower() in STOP_EN or p.lower() in _PARTICLES for p in short):
        return m.group(0)
    return parts[0] + parts[1]


def join_short_hyphens(text: str) -> str:
    """``text`` with each hyphenated word that has a part of one or two letters written
    whole ("Wi-Fi" -> "WiFi"; not "sign-in", "runner-up"), as ``terms`` reads it: for
    readers that split words with a pattern of their own."""
    return _SHORT_HYPHEN_RE.sub(_joined, text) if "-" in text else text


_SUFFIXES = ("ments", "ment", "ings", "ing", "ions", "ion", "ed", "er", "es", "s")
_UNDOUBLE = frozenset("bdgkmnprt")  # "submitting" -> "submitt" -> "submit"; "install" stays


@lru_cache(maxsize=65_536)  # the reader and the conflict gate fold the same words per answer
def fold(term: str) -> str:
    """A looser English match than the S-stemmer: ``reimbursed``/``reimbursement`` -> ``reimburs``.

    Latin words lose one common suffix (a doubled final consonant is then undoubled:
    ``submitting`` -> ``submit``; a consonant's ``i`` before ``-ed``/``-es``/``-er`` is
    ``y`` again: ``carried`` -> ``carry``) and a final ``e`` if at least 4 letters remain;
    numbers and Chinese terms are returned unchanged. A noun in "-al" that WordNet derives
    from a verb folds as the verb: ``approval`` -> ``approv`` as ``approves`` does
    (``_al_verb``).
    """
    if not term.isascii() or not term.isalpha():
        return term
    if term.endswith(("al", "als")) and len(term) >= 7:
        term = _al_verb(term[:-1] if term.endswith("s") else term) or term
    for suffix in _SUFFIXES:
        if term.endswith(suffix) and len(term) - len(suffix) >= 4:
            term = term[: -len(suffix)]
            if suffix[0] in "ie" and term[-1] == term[-2] and term[-1] in _UNDOUBLE:
                term = term[:-1]
            elif suffix[0] == "e" and term[-1] == "i" and term[-2] not in "aeiou":
                term = term[:-1] + "y"  # "carried" -> "carry", as "carry" itself
            break
    return term[:-1] if term.endswith("e") and len(term) > 4 else term


def _al_verb(noun: str) -> str | None:
    """The verb an English noun in "-al" is derived from, by WordNet's derivational links
    (``thesaurus.related``): approval -> approve, removal -> remove, withdrawal ->
    withdraw; None for an adjective ("personal", "parental") and for "portal" or "total",
    which no verb's is."""
    if not thesaurus.morphy(noun, "noun") or thesaurus.morphy(noun, "adj"):
        return None  # an adjective ("parental" of "parent") names no act
    base = noun[:-2]
    related = set(thesaurus.related(noun))
    return next((v for v in (base, base + "e") if v in related and thesaurus.morphy(v, "verb")),
                None)


def term_set(text: str) -> frozenset[str]:
    """Distinct terms of ``text``."""
    return frozenset(terms(text))


def without_parts(found: Sequence[str]) -> list[str]:
    """``found`` (in order) without each term that is part of another one: search mode gives
    ``出租车`` and its parts ``出租``, ``租车``; only the longest word names a thing."""
    return [t for t in found if not any(t != o and t in o for o in found)]


def cjk_bigrams(text: str) -> list[str]:
    """Overlapping character bigrams of each CJK run of ``text`` (NFKC-folded), in order:
    ``年假没用完`` -> ``年假, 假没, 没用, 用完``. A one-character run gives none."""
    folded = unicodedata.normalize("NFKC", text)
    return [run[i:i + 2] for run in _CJK_RUN_RE.findall(folded) for i in range(len(run) - 1)]


def search_terms(text: str) -> list[str]:
    """What retrieval indexes and searches: ``terms(text)`` then the CJK bigrams that are
    not already one of its terms (a two-character word is not counted twice)."""
    found = terms(text)
    words = set(found)
    return found + [b for b in cjk_bigrams(text) if b not in words]


@lru_cache(maxsize=1)
def question_words() -> frozenset[str]:
    """Interrogatives, function words and politeness of both languages: stopwords-iso's
    English and Chinese lists (github.com/stopwords-iso, MIT), folded and stemmed as
    ``terms`` folds them."""
    import stopwordsiso

    words = stopwordsiso.stopwords(["en", "zh"])
    return frozenset(words) | frozenset(stem(w) for w in words if w.isascii())


# Chinese interrogative pronouns: a word that starts with one asks (哪一年, 哪几种, 几种,
# 咋办: 咋 is the spoken 怎).
_INTERROGATIVE_ZH = tuple("哪几啥谁怎咋")
# 多 before an adjective of measure asks for a degree (多久 "how long", 多远, 多大)
_HOW_ZH = frozenset("多" + ch for ch in "久长大远高重宽深厚")


def is_question_word(term: str) -> bool:
    """Whether ``term`` only shapes the question (``which``, ``多大``, ``哪一年``, ``请问``):
    it is a stop word, a Chinese word made only of stop characters, one starting with an
    interrogative pronoun, or 多 with an adjective of measure (多久)."""
    stop = question_words()
    if term in stop:
        return True
    if term.isascii():
        return False
    return (term.startswith(_INTERROGATIVE_ZH) or term in _HOW_ZH
            or all(ch in stop for ch in term))


def relevance_terms(query: str, known: Callable[[str], bool]) -> list[str]:
    """The distinct query terms that count in relevance's ideal score, in order.

    Every term the index knows (``known``) counts: it scores when a chunk has it. A term
    the index does not know counts as missing content only when it is a content word: never
    a question or function word (``is_question_word``: "which", ``哪一年``), never a CJK
    bigram (one straddling two words), never a CJK word overlapped by a known bigram of
    the query (``天年`` of ``多少天年假``, where ``年假`` is known: a segmentation piece).
    """
    words = list(dict.fromkeys(terms(query)))
    bigrams = [b for b in dict.fromkeys(cjk_bigrams(query)) if b not in words and known(b)]
    covered = set("".join(bigrams))
    kept = [w for w in words if known(w) or not (
        is_question_word(w) or (not w.isascii() and covered & set(w)))]
    return kept + bigrams


# A Chinese A-not-A question (能不能, 会不会, 是不是, 可不可以, 有没有): it asks yes or no, and
# its negation says nothing the answer must hold.
A_NOT_A_RE = re.compile(r"可不可以|要不要|([\u4e00-\u9fff]{1,2})[不没]\1")


def a_not_a_pieces(question: str) -> frozenset[str]:
    """The question's terms and CJK bigrams that lie inside an A-not-A question form
    (``A_NOT_A_RE``): ``不能`` and ``能不`` of 外部合作方能不能设成所有者, ``可不``/``不可`` of
    可不可以报销, ``有没有``; not a piece of a word reaching outside it."""
    spans = [m.span() for m in A_NOT_A_RE.finditer(question)]
    if not spans:
        return frozenset()
    inside = "\n".join(question[a:b] for a, b in spans)
    words = terms(question)
    return frozenset(t for t in [*words, *cjk_bigrams(question)]
                     if not t.isascii() and t in inside
                     and not any(t in w for w in words if w not in inside))
