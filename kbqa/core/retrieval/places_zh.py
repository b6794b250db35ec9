"""Places and times in a Chinese follow-up: where or when the earlier question is asked
again, and where the earlier thing was (``focus_zh.combine_zh``)."""

from __future__ import annotations

import re
from functools import lru_cache

# A locative right after a replaced thing (marked by NUL): 在回收站里, 在系统中
_LOCATIVE_AFTER_ZH_RE = re.compile(r"\0在[^，。？?！\s]{1,8}?[里中内上]")


def without_locative(marked: str) -> str:
    """``marked`` (a NUL after a thing just put in) without the locative that followed the
    thing it replaced ("旧版本\\0在回收站里能放几天" -> "旧版本能放几天"), NUL removed: the new
    thing is not in the earlier thing's place."""
    return _LOCATIVE_AFTER_ZH_RE.sub("", marked).replace("\0", "")


def new_place_zh(noun: str, topic: str) -> str:
    """``noun`` as where the topic's question is asked (``在成都``, ``去成都`` as written) when
    it is a place name (jieba tag ns, after a leading 去/在/到) and ``topic`` names none,
    so no place of the topic's can be replaced (``parallel_zh``); "" otherwise."""
    import jieba.posseg

    verb = noun[0] if noun[:1] in ("去", "在", "到") else ""
    name = noun[len(verb):]
    tags = [p.flag for p in jieba.posseg.cut(name)]
    if not name or tags != ["ns"] or any(p.flag == "ns" for p in jieba.posseg.cut(topic)):
        return ""
    return "" if _described_thing(name) else f"{verb or '在'}{name}"


def _described_thing(name: str) -> bool:
    """Whether a word jieba tags as a place is a thing: one describing character before a
    common noun of jieba's dictionary (旧版本: 旧 + 版本), not a place's name."""
    import jieba.posseg

    rest = name[1:]
    return len(rest) >= 2 and [(p.word, p.flag) for p in jieba.posseg.cut(rest)] == [(rest, "n")]


@lru_cache(maxsize=1024)  # asked by the focus replacement and the rewrite of one follow-up
def new_time_zh(noun: str, topic: str) -> str:
    """``noun`` as when the topic's question is asked ("周末", "春节期间") when it is a time
    expression (jieba tags: time words, t, with locatives, f) and ``topic`` names no time
    of its own to replace: "周末呢？" after "深圳办公室几点关门？" asks the office's weekend
    hours, not the hours of "the weekend"; "" otherwise."""
    import jieba.posseg

    tags = [p.flag for p in jieba.posseg.cut(noun)]
    if not tags or "t" not in tags or any(t not in ("t", "f") for t in tags):
        return ""
    return "" if any(p.flag == "t" for p in jieba.posseg.cut(topic)) else noun
