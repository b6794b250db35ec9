"""Bounds: the words around a quantity that make it a limit, however the limit is phrased.

"The maximum upload size is 200 MB", "uploads of up to 200 MB", "no more than 200 MB",
"Files larger than 100 MB are rejected", "单个文件超过 100 MB 会被拒绝", "上传上限为 200 MB"
all state an upper bound (``max``) on a size; "at least 8 characters", "不少于 8 位" and
"files smaller than 1 KB are rejected" a lower one (``min``). ``bound_of``
reads the clause before and after a quantity (``kbqa.core.text.quantities``) and names the
kind; ``BOUND_TERMS`` are the words that say *that* something is bounded, which are no
part of *what* is bounded (``kbqa.core.grounding.conflicts`` compares subjects without them).

A quantity without bound words (``Backups are kept for 30 days``) has no bound: conflicts
between such statements are found by their shared context words instead.
"""

from __future__ import annotations

import re
from typing import Literal

from kbqa.core.text.terms import term_set

Bound = Literal["max", "min"]

_GAP = r"[^.;:!?。；：！？\n]{0,40}"  # the rest of the clause between the bound word and number
_GAP_ZH = r"[^.;:!?。；：！？，,\n]{0,12}"
_REJECTED = (
    r"(?:rejected|refused|blocked|denied|not\s+(?:allowed|accepted|permitted|supported)"
    r"|cannot\s+be|can't\s+be|will\s+fail|fail)"
)
_REJECTED_ZH = r"(?:拒绝|拦截|禁止|不允许|不予|无法|不能|失败|不支持)"
_PHRASINGS: tuple[tuple[Bound, str, str | None], ...] = (
    ("max", rf"\b(?:maximum|max|at\s+most|up\s+to|no\s+more\s+than|not\s+more\s+than"
            rf"|no\s+(?:larger|bigger|greater)\s+than|(?:not|cannot|can't|never)\s+exceed"
            rf"|limit(?:ed)?|capped|cap|ceiling)\b{_GAP}", None),
    ("max", rf"(?:上限|最大|最多|至多|不超过|不得超过|不能超过|不可超过|限制为|限制在"
            rf"|限额){_GAP_ZH}", None),
    ("max", r"\b(?:larger|bigger|greater|more|longer|over|above|exceeding|in\s+excess\s+of)"
            r"\s+(?:than\s+)?", rf"^{_GAP}\b{_REJECTED}"),
    ("max", r"(?:超过|大于|高于|超出|多于)\s*", rf"^{_GAP_ZH}{_REJECTED_ZH}"),
    ("min", rf"\b(?:minimum|min|at\s+least|no\s+less\s+than|not\s+less\s+than"
            rf"|no\s+fewer\s+than)\b{_GAP}", None),
    ("min", rf"(?:下限|最少|至少|不少于|不低于|最低){_GAP_ZH}", None),
    ("min", r"\b(?:smaller|shorter|less|fewer|under|below)\s+(?:than\s+)?",
     rf"^{_GAP}\b{_REJECTED}"),
    ("min", r"(?:少于|小于|低于|不足|不到)\s*", rf"^{_GAP_ZH}{_REJECTED_ZH}"),
    ("max", "", rf"^\s*(?:max(?:imum)?\b|at\s+most\b|or\s+(?:less|smaller)\b|以内|封顶"
                rf"|(?:及)?以上{_GAP_ZH}{_REJECTED_ZH})"),
    ("min", "", r"^\s*(?:min(?:imum)?\b|at\s+least\b|or\s+more\b)"),
)
_PATTERNS: tuple[tuple[Bound, re.Pattern[str], re.Pattern[str] | None], ...] = tuple(
    (kind, re.compile(before + "$", re.IGNORECASE),
     re.compile(after, re.IGNORECASE) if after else None)
    for kind, before, after in _PHRASINGS
)

#: Terms that say that a value is a bound (``term_set`` forms), not what it bounds.
BOUND_TERMS = term_set(
    "maximum max most up limit limited cap capped ceiling more larger bigger greater longer "
    "over above exceed exceeding excess minimum min least less fewer smaller shorter under "
    "below rejected refused blocked denied allowed accepted permitted supported fail "
    "cannot can't will be get"
) | frozenset(
    "上限 最大 最多 至多 超过 不得 不能 不可 限制 限额 大于 高于 超出 多于 以内 以上 封顶 "
    "下限 最少 至少 不少 不少于 不低于 低于 最低 少于 小于 不足 不到 拒绝 拦截 禁止 允许 "
    "不允许 不予 无法 失败 支持 会 被 将".split()
)


def bound_of(before: str, after: str) -> Bound | None:
    """The kind of bound a quantity states, from the clause ``before`` it (ending right at
    the number) and ``after`` it (starting right after the unit); None when neither
    phrasing is there. Both texts are NFKC-folded (``quantities.fold``)."""
    for kind, before_re, after_re in _PATTERNS:
        if not before_re.search(before):
            continue
        if after_re is not None and not after_re.search(after):
            continue
        return kind
    return None
