"""Whom a document's rules apply to: a document that sends a group elsewhere does not answer
that group's questions.

Company policies state their scope and its exceptions: "Employees of the Chengdu office
follow the Chinese policy 《费用报销制度（中国区）》 instead.",
"欧洲各公司的员工请遵守英文版《Expense and reimbursement policy》。". A question naming that
office or region ("I'm based in the Chengdu office … can I book premium economy?",
"那欧洲的同事呢？") is not answered by the
sending document's rules, however well they match its words: the rule the asker follows
is the other document's. ``redirected_documents`` finds the blocks' documents whose own
scope sentence sends the question's place or organisation elsewhere; the reader leaves their
other sentences out, so the answer comes from the document they point to when a block of it
is at hand, else is the pointing sentence itself or a decline.

A place or organisation is a name: an English word in capitals ("Chengdu"), a Chinese word
jieba tags as a place, organisation or other proper noun (``ns``, ``nt``, ``nz``: 欧洲). The
sentence's form is the one policies use (``_REDIRECT_EN``, ``_REDIRECT_ZH``): people of X
follow (遵守, 适用, 按照) another document.

``for_another_group``: a sentence whose subject is a particular group of people ("Interns
are not entitled to paid annual leave…") states that group's rule; a question naming no
group, asked by an employee of their own case ("how much paid time off for a new dad?",
"my mom passed away, how many days can I take off?"), is not answered by it (a tester's
company: three such answers). A default group ("Full-time employees receive…") is the
asker's unless they say otherwise.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from kbqa.core.readers.extractive.focus import ask_kind
from kbqa.core.readers.extractive.narrowing import specific_groups
from kbqa.core.readers.extractive.question import tagged
from kbqa.core.readers.extractive.text import Candidate
from kbqa.core.text.places import offices, place_in, places_named, title_places
from kbqa.core.text.sentences import split_sentences
from kbqa.core.text.terms import fold, stem, terms
from kbqa.core.types import Block

# "Employees of the Chengdu office follow the Chinese policy … instead."
_REDIRECT_EN = re.compile(
    r"\b(?:employees|staff|people|colleagues|members)\s+(?:of|in|at|from|based in)\s+"
    r"(?P<who>[^.;:]+?)\s+(?:follow|use|apply|are covered by|fall under)\s+\S",
    re.IGNORECASE)
# "欧洲各公司的员工请遵守英文版《…》", "成都办公室员工适用《…》"
_REDIRECT_ZH = re.compile(
    r"(?P<who>[^，。；、：]{1,24}?)的?(?:员工|同事|人员)(?:请|应|须|需|均)?(?:遵守|适用|按照|参照|遵循)")
_NAME_EN = re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z]+)*\b")
_NAME_TAGS = frozenset(("ns", "nt", "nz"))


@lru_cache(maxsize=4096)
def redirects(text: str) -> frozenset[str]:
    """The folded names of the places and organisations that ``text``'s scope sentences send
    to another document ("Chengdu" -> ``chengdu``, 欧洲); empty for any other text. Kept
    per text: the reader asks it of every block and candidate, several times a question."""
    norm = unicodedata.normalize("NFKC", text)
    names: set[str] = set()
    for sentence in split_sentences(norm):
        for m in _REDIRECT_EN.finditer(sentence):
            names |= {fold(stem(w.lower())) for w in _NAME_EN.findall(m.group("who"))}
        for m in _REDIRECT_ZH.finditer(sentence):
            names |= {w for w, tag in tagged(m.group("who")) if tag in _NAME_TAGS}
    return frozenset(names)


def redirected_documents(question: str, blocks: Sequence[Block]) -> frozenset[str]:
    """The doc_ids among ``blocks`` whose text sends a place or organisation the question
    names elsewhere (``redirects``)."""
    asked = {fold(t) for t in terms(question)}
    return frozenset(b.chunk.doc_id for b in blocks if redirects(b.chunk.text) & asked)


def in_scope(question: str, pool: Sequence[Candidate],
             blocks: Sequence[Block]) -> list[Candidate]:
    """``pool`` without the sentences of documents that send a place or organisation the
    question names elsewhere (``redirected_documents``), their sending sentences kept."""
    elsewhere = redirected_documents(question, blocks) | other_offices(question, blocks)
    if not elsewhere:
        return list(pool)
    docs = {b.n: b.chunk.doc_id for b in blocks}
    return [c for c in pool if docs[c.n] not in elsewhere or redirects(c.text)]


# A sentence opening with its subject and a verb of having or being ("Interns are…",
# "Contractors may…", "Part-time staff receive…").
_SUBJECT_RE = re.compile(r"\s*([A-Za-z-]+(?:\s+[A-Za-z-]+)?)\s+(?:are|is|may|must|can|"
                         r"cannot|receive|get|do|have)\b")
# Modifiers of the group everyone asking is in unless they say otherwise.
_DEFAULT_GROUP = ("full-time", "full-timer", "permanent", "regular")
# A rule stated for everyone, whoever the sentence opens with ("Administrators can make 2FA
# mandatory for everyone…; at Nimbus Works it is mandatory for all employees")
_EVERYONE_RE = re.compile(r"\b(?:everyone|everybody|all (?:employees|staff|users|members)"
                          r"|every (?:employee|user|member))\b", re.IGNORECASE)


def for_another_group(question: str, lead: str) -> bool:
    """Whether English sentence ``lead``'s subject is a particular group of people
    (``narrowing.specific_groups``) other than the default one, while ``question`` names
    no group and asks no person or group ("who…?") (module docstring), and ``lead`` states
    nothing for everyone ("…mandatory for all employees")."""
    subject = _SUBJECT_RE.match(lead)
    if subject is None or specific_groups(question) or ask_kind(question) == "person":
        return False  # "Who can archive a shared album?" asks which group
    groups = specific_groups(subject.group(1))
    return (bool(groups) and not any(d in g for g in groups for d in _DEFAULT_GROUP)
            and not _EVERYONE_RE.search(lead))


def other_offices(question: str, blocks: Sequence[Block]) -> frozenset[str]:
    """The doc_ids among ``blocks`` whose title is for another office than the one the
    question names: "北京办公室有几间会议室？" is not answered from 苏州办公室指南, nor "the
    Suzhou office" from "Amsterdam Office Guide". The question names an office as "<place>
    office" / <地名>办公室, or by a place some block's title names an office for ("How many
    rooms are there in Suzhou?"); a capitalised word alone (Friday, a product) names none."""
    titles = {b.chunk.doc_id: title_places(b.chunk.title) for b in blocks}
    named = places_named(question)
    asked = {p for p, _ in offices(question)} | {
        p for p in named if any(place_in(p, o) for names in titles.values() for o in names)}
    if not asked:
        return frozenset()
    return frozenset(doc for doc, names in titles.items()
                     if names and not any(place_in(p, o) for p in asked for o in names))
