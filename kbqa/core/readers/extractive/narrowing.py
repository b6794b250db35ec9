"""A question narrowed to a group of people is answered only from passages naming it.

"How long does the recycle bin keep deleted files for admins?" (the standalone form of "and
for admins?") quoted the general 30-day sentence, which says nothing of admins: the user
reads it as the admins' rule. A group the question names (``is_person_en``; a Chinese noun
ending in ``PERSON_HEADS_ZH``: 管理员, 实习生) that no chosen sentence's block mentions while
another block does makes the reader decline (a refusal: the "Not covered" line a group no
block mentions gets would be false). Groups that mean everyone (employees, users, people,
员工…) narrow nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kbqa.core.retrieval.focus_en import is_person_en
from kbqa.core.retrieval.focus_zh import PERSON_HEADS_ZH
from kbqa.core.types import Block

# Groups that stand for anyone the documents address: a question naming them is not
# narrowed ("do employees get…", "can users…", "the Chengdu folks", 员工, 用户, 同事).
EVERYONE_EN = frozenset(
    "employee employees staff user users people person folk folks member members team "
    "teams colleague colleagues worker workers customer customers".split()
)
# Words ``is_person_en`` takes for people by their ending alone (-ee, -or) that name none
# here: numbers, things, software (the desktop "client").
NOT_PEOPLE_EN = frozenset(
    "three free degree coffee agree guarantee committee two-factor multi-factor client "
    "clients".split()
)
EVERYONE_ZH = frozenset(
    "员工 用户 人员 同事 个人 客户 工作人员 职工 大家 别人 他人 本人 人".split()
)


def groups_named(question: str) -> list[str]:
    """The groups of people ``question`` narrows to with "for" / 对于 (the form a
    narrowing follow-up is rewritten to), lower-cased and singular in English: ["admin"]
    of "…keep deleted files for admins?", ["管理员"] of "对于管理员，…". A group acting in
    the question ("Can administrators change…?") narrows nothing: the answer about what
    anyone may do is theirs too."""
    found = [_singular(m.group(1).lower()) for m in _FOR_GROUP_RE.finditer(question)
             if m.group(1).lower() not in EVERYONE_EN | NOT_PEOPLE_EN
             and is_person_en(m.group(1))]
    m = _FOR_GROUP_ZH_RE.search(question)
    if m:
        import jieba.posseg

        found += [p.word for p in jieba.posseg.cut(m.group(1))
                  if p.flag.startswith("n") and len(p.word) > 1
                  and p.word[-1] in PERSON_HEADS_ZH and p.word not in EVERYONE_ZH]
    return list(dict.fromkeys(found))


_FOR_GROUP_RE = re.compile(r"\bfor\s+(?:the\s+|all\s+|our\s+)?(?:[A-Za-z-]+\s+)?([A-Za-z-]+)\b",
                           re.IGNORECASE)
_FOR_GROUP_ZH_RE = re.compile(r"对于?([\u4e00-\u9fff]{2,8}?)(?:来说|而言)?[，,]")


def unmentioned_groups(question: str, chosen_blocks: Sequence[int],
                       blocks: Sequence[Block]) -> list[str]:
    """The groups of ``groups_named`` that none of the blocks numbered ``chosen_blocks``
    mentions (original text, section or title; case-insensitive substring)."""
    texts = " ".join(f"{b.chunk.title} {b.chunk.section} {b.chunk.text}".lower()
                     for b in blocks if b.n in set(chosen_blocks))
    return [g for g in groups_named(question) if g not in texts]


def _singular(word: str) -> str:
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word
