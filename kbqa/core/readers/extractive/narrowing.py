"""A question narrowed to a group of people is answered only from passages naming it.

"How long does the recycle bin keep deleted files for admins?" (the standalone form of "and
for admins?") quoted the general 30-day sentence, which says nothing of admins: the user
reads it as the admins' rule. A group the question names (``is_person_en``; a Chinese noun
ending in ``PERSON_HEADS_ZH``: 管理员, 实习生) that no chosen sentence's block mentions while
another block does makes the reader decline (a refusal: the "Not covered" line a group no
block mentions gets would be false). Groups that mean everyone (employees, users, people,
员工…) narrow nothing.

The same holds for the thing a question asks about (``subjects``). A question asking
for a consequence ("what happens if we go over it?", "超过了会怎样？") is answered from a
sentence stating a condition or an outcome (``consequence_pool``), not from the one that
restates the limit the earlier question asked.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol, TypeVar

from kbqa.core.readers.extractive.focus import ask_clause
from kbqa.core.readers.extractive.question import ANSWER_TYPE_TERMS
from kbqa.core.readers.extractive.question_verbs import SUBJECT_PRONOUNS
from kbqa.core.readers.extractive.text import Selection
from kbqa.core.retrieval.focus_en import is_person_en
from kbqa.core.retrieval.tags_zh import PERSON_HEADS_ZH
from kbqa.core.text import bilingual
from kbqa.core.text.normalise import detect_language
from kbqa.core.text.procedures import asks_consequence
from kbqa.core.text.terms import fold, is_question_word, stem, terms
from kbqa.core.text.thesaurus import morphy, verb_bases
from kbqa.core.types import Block


class _HasText(Protocol):
    @property
    def text(self) -> str: ...


T = TypeVar("T", bound=_HasText)

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

# The same groups as folded terms: light words of a question (``selection``): "同事离职了"
# says whose account, not what is asked about, so it never makes the rarest term.
EVERYONE = frozenset(fold(stem(w)) for w in EVERYONE_EN) | EVERYONE_ZH


def groups_named(question: str) -> list[str]:
    """The groups of people ``question`` narrows to with "for" / 对于 (the form a
    narrowing follow-up is rewritten to), lower-cased and singular in English: ["admin"]
    of "…keep deleted files for admins?", ["管理员"] of "对于管理员，…". A group acting in
    the question ("Can administrators change…?") narrows nothing: the answer about what
    anyone may do is theirs too."""
    found = [_singular(m.group(1).lower()) for m in _FOR_GROUP_RE.finditer(question)
             if names_people(m.group(1))]
    m = _FOR_GROUP_ZH_RE.search(question)
    if m:
        import jieba.posseg

        found += [p.word for p in jieba.posseg.cut(m.group(1))
                  if p.flag.startswith("n") and names_people(p.word)]
    return list(dict.fromkeys(found))


def names_people(word: str) -> bool:
    """Whether ``word`` names a group of people other than everyone: English by its head
    (``focus_en.is_person_en``: "interns", "part-timers"; not "employees", nor a word such
    as "client" or "committee", ``NOT_PEOPLE_EN``), Chinese of two characters or more ending
    in a person head (``PERSON_HEADS_ZH``: 实习生, 管理员; not 员工, ``EVERYONE_ZH``)."""
    if word.isascii():
        low = word.lower()
        return low not in EVERYONE_EN | NOT_PEOPLE_EN and is_person_en(word)
    return len(word) > 1 and word[-1] in PERSON_HEADS_ZH and word not in EVERYONE_ZH


_FOR_GROUP_RE = re.compile(r"\bfor\s+(?:the\s+|all\s+|our\s+)?(?:[A-Za-z-]+\s+)?([A-Za-z-]+)\b",
                           re.IGNORECASE)
_FOR_GROUP_ZH_RE = re.compile(r"对于?([\u4e00-\u9fff]{2,8}?)(?:来说|而言)?[，,]")


def recipients(question: str) -> list[str]:
    """The groups of people ``question`` asks what they receive ("How many sick days do
    contractors get?", "Do interns qualify for…?", the form a follow-up takes when a group
    replaces the asker: "and for contractors?"), lower-cased and singular; never a group
    meaning everyone (``EVERYONE_EN``) nor the asker ("do we get")."""
    return list(dict.fromkeys(
        _singular(m.group(1).lower()) for m in _RECIPIENT_RE.finditer(question)
        if m.group(1).lower() not in EVERYONE_EN | NOT_PEOPLE_EN and is_person_en(m.group(1))))


_RECIPIENT_RE = re.compile(
    r"\b(?:do|does|did|can|could|will|would|should|may)\s+(?:the\s+|our\s+|all\s+)?"
    r"(?:[A-Za-z-]+\s+)?([A-Za-z-]+)\s+(?:get|receive|have|earn|accrue|qualify|be\s+entitled"
    r"|borrow|take|use|claim|keep|buy|bring|expense|book)\b",
    re.IGNORECASE)


def unmentioned_groups(question: str, chosen_blocks: Sequence[int],
                       blocks: Sequence[Block]) -> list[str]:
    """The groups of ``groups_named`` that none of the blocks numbered ``chosen_blocks``
    mentions (original text, section or title; case-insensitive substring)."""
    texts = " ".join(f"{b.chunk.title} {b.chunk.section} {b.chunk.text}".lower()
                     for b in blocks if b.n in set(chosen_blocks))
    return [g for g in groups_named(question) if g not in texts]


def with_group_gaps(question: str, chosen: Selection, nowhere: Sequence[str]) -> Selection:
    """``chosen`` with a "Not covered" word for each group of ``nowhere`` (those no block
    mentions: ``unmentioned_groups``) the question names up to the end of its ask clause:
    "对于实习生，开放 API 的默认速率限制是多少？" names it before its ask clause, whose words
    alone were checked (a remark after the ask, "…for the dentist", is no group asked about)."""
    said = {fold(stem(w.lower())) for w in chosen.uncovered}
    ask = ask_clause(question)
    upto = (question[:question.find(ask) + len(ask)] if ask in question else question).lower()
    new = [g for g in nowhere if fold(stem(g.lower())) not in said and g.lower() in upto]
    return replace(chosen, uncovered=(*chosen.uncovered, *new)) if new else chosen


def _singular(word: str) -> str:
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


# The form ``standalone`` gives a follow-up naming a thing its rewrite could not put in the
# topic's slot: "那 webhook 呢？" after a rate-limit question is "What is the rate limit of
# the open API, for webhook?".
_FOR_THING_RE = re.compile(r",\s*for\s+([^,?]+?)\s*\?\s*$", re.IGNORECASE)
# "Is there parking at the office?", "Are there any lockers?", "有没有停车位？": the thing
# whose existence is asked, up to a preposition or the end
_THERE_IS_RE = re.compile(
    r"^\s*(?:and\s+|so\s+)?(?:is|are)\s+there\s+(?:an?\s+|any\s+|some\s+)?"
    r"([a-z][\w-]*(?:\s+(?!(?:at|in|for|on|near|to|with|when|if|during|of|here)\b)"
    r"[a-z][\w-]*)?)", re.IGNORECASE)
_HAS_ANY_ZH_RE = re.compile(r"有没有([\u4e00-\u9fff]{2,6}?)(?:[吗呢？?，,。]|$)")


def unquoted_thing(question: str, chosen: Sequence[str], blocks: Sequence[Block]) -> bool:
    """Whether ``question`` names a thing the answer must be about and the ``chosen``
    sentences with the section headings of ``blocks`` (the quoted ones) hold not all of its
    terms: the X of a final ", for X?" (no group of people: ``groups_named`` reads those),
    whose sentence answers the earlier question, not of X ("The default rate limit of the
    open API is 600 requests per minute" says nothing of webhooks, though its page is titled
    "…rate limits and webhooks"); or the X of "is there X…?"/有没有X, whose existence is
    asked ("Is there parking at the Rotterdam office?" is not answered by "The company was
    founded in 2016 in Rotterdam, where the head office still is"), unless X is a word for
    a value (``ANSWER_TYPE_TERMS``: "is there a budget…", 有没有截止时间)."""
    ask = ask_clause(question)
    found = _FOR_THING_RE.search(question)
    if found and is_person_en(found.group(1)):
        found = None
    there = None if found else _THERE_IS_RE.search(ask) or _HAS_ANY_ZH_RE.search(ask)
    found = found or there
    if not found:
        return False
    wanted = frozenset(terms(found.group(1)))
    if there and any(fold(stem(t)) in ANSWER_TYPE_TERMS for t in wanted):
        return False  # "is there a deadline/budget": a value answers, not the word
    held_text = " ".join([*chosen, *(b.chunk.section for b in blocks)])
    held = frozenset(terms(held_text))
    return bool(wanted) and not all(t in held or (not t.isascii() and t in held_text)
                                    for t in wanted)


# Words that state a condition or its outcome in a sentence (a limit passed, an otherwise).
# ("at once" is no condition: "Changes apply to new links at once")
_CONDITION_RE = re.compile(
    r"\b(?:if|when|whenever|(?<!at )once|after|above|beyond|exceeds?|exceeded|exceeding|over"
    r"|more\s+than|otherwise|unless|until|as\s+long\s+as|provided)\b"
    r"|超过|超出|如果|若|否则|逾期|之后|以后"
    # a condition clause ending in 的 or 时 ("未交还的扣除 100 元", "满 10 年的，…", "…时，")
    r"|[未没不][\u4e00-\u9fff]{1,6}?的|的[，,]|时[，,]", re.IGNORECASE)


# The asker's own act in a condition: "if I forget", "if we lose", "if mine breaks".
_OWN_ACT_RE = re.compile(
    rf"\bif\s+(?:{'|'.join(sorted(SUBJECT_PRONOUNS))}|mine|ours)\s+([a-z]+)", re.IGNORECASE)


def consequence_pool(question: str, pool: Sequence[T]) -> list[T]:
    """``pool`` narrowed to the sentences stating a condition or outcome
    (``_CONDITION_RE``) or the asker's own act in the condition (WordNet's verb base forms:
    "forgot" for "What if I forget my password?") when ``question`` asks what follows from a
    condition and some do; else ``pool`` unchanged. Each item has the sentence as
    ``text``."""
    if not asks_consequence(question):
        return list(pool)
    # "What if I forget my password?": a sentence about the asker's own act (forgot) is
    # what follows from it too ("use Forgot password to set a new one")
    acts = frozenset().union(*(morphy(w.lower(), "verb") for w in _OWN_ACT_RE.findall(question)
                               if not is_question_word(w.lower())))  # not "go", "get"
    stating = [c for c in pool if _CONDITION_RE.search(c.text) or (acts and any(
        acts & verb_bases(w) for w in re.findall(r"[a-z]+", c.text.lower())))]
    return stating or list(pool)


def answers_another_group(question: str, chosen: Sequence[str], texts: str) -> bool:
    """Whether the quoted sentences (``chosen``) speak of another group of people than the
    one ``question`` asks about, which their blocks (``texts``, lower-cased) never mention:
    "How many days of annual leave do contractors get?" (the standalone form of "and for
    contractors?") quoting "Full-time employees receive 20 days…". A group the blocks
    mention, or sentences naming no specific group ("Employees receive…", the rule for
    everyone), leave the answer standing."""
    acting = _ACTING_RE.match(question)  # "Can a guest restore…?": the guest acts
    missing = [g for g in specific_groups(question) if not group_mentioned(g, texts)
               and not (acting and g.split()[-1] == (acting.group(1) or acting.group(2)).lower())]
    if not missing:
        return False
    return any(g not in missing for text in chosen for g in specific_groups(text))


def asked_groups(question: str, texts: str) -> list[str]:
    """The groups the question asks what they receive or narrows to (``recipients``,
    ``groups_named``: never a group in a modifier, the "admin" of "admin console") that
    the blocks (``texts``, lower-cased) mention."""
    return [g for g in (*recipients(question), *groups_named(question))
            if group_mentioned(g, texts)]


def sentences_by_group(asked: Sequence[str],
                       sentences: Sequence[str]) -> tuple[frozenset[str], frozenset[str]]:
    """``(others, of_asked)``: the ``sentences`` that speak of other groups of people only,
    and those that speak of one of the ``asked`` groups (``asked_groups``). For "How many
    days of annual leave do part-timers get?": "Full-time employees receive 20 days…" and
    "Part-time employees receive a share…"."""
    others: set[str] = set()
    of_asked: set[str] = set()
    for sentence in sentences:
        named = specific_groups(sentence)
        if named:
            hit = any(group_mentioned(g, " ".join(named)) for g in asked)
            (of_asked if hit else others).add(sentence)
    return frozenset(others), frozenset(of_asked)


_WORD_RE = re.compile(r"[A-Za-z][A-Za-z-]*")
# A group acting in the question, as ``groups_named`` reads it: after an opening modal or
# auxiliary ("Can a guest restore…?"), or before a Chinese modal (管理员可以…).
_ACTING_RE = re.compile(
    r"\s*(?:(?:can|could|may|must|should|will|do|does|are|is)\s+(?:(?:a|an|the)\s+)?"
    r"([A-Za-z-]+)|([\u4e00-\u9fff]{2,6}?)(?:可以|能否|能|是否|可否))", re.IGNORECASE)


def specific_groups(text: str) -> list[str]:
    """The groups of people ``text`` names that are not everyone, lower-cased: a person
    noun outside ``EVERYONE_EN`` ("contractors", "full-timers") or an everyone noun with
    a hyphenated modifier ("full-time employees"); in Chinese a noun ending in
    ``PERSON_HEADS_ZH`` outside ``EVERYONE_ZH`` (实习生), or an everyone noun after a
    modifier jieba tags b or n (全职 员工)."""
    if detect_language(text) == "zh":
        import jieba.posseg

        pairs = [(p.word, p.flag) for p in jieba.posseg.cut(text)]
        found = []
        for i, (word, flag) in enumerate(pairs):
            if not flag.startswith("n") or len(word) < 2 or word[-1] not in PERSON_HEADS_ZH:
                continue
            before = pairs[i - 1] if i else ("", "")
            if word not in EVERYONE_ZH:
                found.append(word)
            elif before[1] in ("b", "n") and len(before[0]) > 1:
                found.append(before[0] + word)
        return found
    words = _WORD_RE.findall(text)
    found = []
    for i, word in enumerate(words):
        low = word.lower()
        if low in NOT_PEOPLE_EN or not is_person_en(low):
            continue
        if low not in EVERYONE_EN:
            found.append(low)
        elif i and "-" in words[i - 1]:
            found.append(f"{words[i - 1].lower()} {low}")
    return found


def group_mentioned(group: str, texts: str) -> bool:
    """Whether ``texts`` mention ``group``: its first word, singular ("contractor"), or the
    base of a hyphenated agent noun ("full-time" of "full-timers"); or in the other
    language, by a one-word CC-CEDICT gloss of a Chinese group (实习生: "intern")."""
    first = _singular(group.split()[0])
    base = re.sub(r"e?r$", "", first) if "-" in first else first
    return first in texts or base in texts or (not first.isascii() and any(
        g[0] in texts for g in bilingual.english_glosses(group) if len(g) == 1))
