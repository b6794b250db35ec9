"""Whether the quoted answer's passage names every thing the question names (``unnamed``).

A sentence may state a span of the asked type, bound to one of the question's words, and
still be about another thing: RGB's negative passages (Chen et al. 2023) give the death toll
of another stampede ("印度拉贾斯坦邦一座寺庙…造成3人死亡" for 印控克什米尔), the women's
champion for the men's (男单), the box office of another film. What gives them away is a
noun of the question that the answer's passage never names, though other passages do. So
each noun of the ask clause (jieba's noun, name, abbreviation and foreign-word tags) that
some block mentions must be named by the quoted sentences, their section heading or
document title, or the lead sentence's passage (block); a noun no block mentions is the
gap checks' business (``too_specific``, ``outweighed``), not this one's. A noun counts as
named when one of its parts the question also holds is (``旧版本`` by ``历史版本``'s
``版本``).

Yes/no questions are left alone: their answer states the rule, whoever asks
("管理员可以把开放 API 的速率限制改成任意值吗？" is answered by the default limit); so is a
noun qualifying a group that means anyone (全职 of 全职员工: "员工每个自然年享有 10 天全薪
病假" answers for full-time employees too, ``narrowing.EVERYONE_ZH``).

Measured 2026-12-01 on RGB whole files (the reader re-run on each case's retrieved blocks)
and on the demo and natural sets; figures in README "Evaluation".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kbqa.core.readers.extractive.focus import ask_clause
from kbqa.core.readers.extractive.narrowing import EVERYONE_ZH
from kbqa.core.readers.extractive.question import groups, tagged
from kbqa.core.text.procedures import asked_action
from kbqa.core.text.terms import jieba_words

# jieba (ICTCLAS) tags of words that name a thing: nouns and names (n, nr, ns, nt, nz...),
# abbreviations (j: 冬奥会), foreign words (eng: RCEP), set phrases (l, i).
_NOUN_TAGS = re.compile(r"^(?:n[a-z]*|j|eng|l|i)$")
# A yes/no question: a final 吗/么, or 是否/能否/可否/是不是/有没有/能不能 before it.
_YES_NO_RE = re.compile(r"[吗么嘛][?？。!！\s]*$|是否|能否|可否|是不是|有没有|能不能|可不可以")
_YEAR_RE = re.compile(r"(?:19|20)\d\d")


def unnamed(question: str, anchor: frozenset[str], qterms: frozenset[str],
            absent: frozenset[str], seen: Sequence[frozenset[str]],
            written: str = "") -> frozenset[str]:
    """The nouns of the ask clause of ``question`` (its ``anchor`` terms that jieba tags as
    nouns, years aside) that some block mentions (not in ``absent``) and none of ``seen``
    (folded term sets: the quoted sentences, their headings and titles, the lead's passage)
    names, itself or by a part of it among ``qterms``, nor ``written`` (their text as
    written) holds: jieba may cut a word otherwise there (外包人员工牌: 外/包人/员工/牌).
    Empty for questions without Chinese (no tags) and for yes/no questions."""
    ask = ask_clause(question)
    tags = dict(tagged(ask))
    if not tags or _YES_NO_RE.search(ask):
        return frozenset()
    terms = sorted(qterms)
    group = groups(terms)
    everything = frozenset().union(*seen) if seen else frozenset()
    nouns = {t for t in anchor if t not in absent and group.get(t) == t
             and _NOUN_TAGS.match(tags.get(t, "")) and not _YEAR_RE.fullmatch(t)}
    # A noun qualifying a group that means anyone (全职员工) names the asker, not the topic.
    words = [w for w, _ in tagged(ask)]
    nouns -= {a for a, b in zip(words, words[1:], strict=False) if b in EVERYONE_ZH}
    # The word after 如何/怎么 is the asked action, however jieba tags it (如何重置密码).
    nouns.discard(asked_action(ask))
    named = {group[t] for t in terms if t in everything and (t.isascii() or len(t) > 1)}
    named |= _written(nouns, written)
    if any(s & _OTHERS_ZH and s & _PLACES_ZH for s in seen):
        named |= {t for t in nouns if tags.get(t) == "ns"}  # 其他城市 names 成都 too
    return frozenset(nouns - named)


def _written(nouns: set[str], written: str) -> set[str]:
    """The Chinese ``nouns`` (two characters or more) that ``written`` holds across jieba's
    words there (外/包人/员/工牌 holds 人员), not inside one longer word (张颂文 holds 张颂, a
    piece the question's cut made of a name: no noun of its own)."""
    found = {t for t in nouns if len(t) > 1 and not t.isascii() and t in written}
    if not found:
        return found
    words = jieba_words(written)
    return {t for t in found if not any(t in w and t != w for w in words)}


# A sentence stating the rule for every other place ("其他城市每晚不超过 500 元") names any
# place the question asks about (成都, jieba's ns) that the listed ones leave out.
_OTHERS_ZH = frozenset("其他 其余 其它".split())
_PLACES_ZH = frozenset("城市 地区 国家 省份 地方 地点".split())
