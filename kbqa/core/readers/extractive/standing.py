"""The standing of what a sentence says: a settled fact, or a proposal; a current document,
or an archived one.

A meeting note that reports "It was proposed to raise the hotel limit to EUR 400" or
"有人建议出差餐费提高到每天 200 元，但尚未决定" states a value nobody decided: it is no
answer to "what is the hotel limit", whatever words it shares with the question. The
reader's pool leaves such sentences out (``settled_pool``), with the sentences reporting a
proposal's outcome ("The proposal was rejected.", ``该提案在会议上被否决``), unless the
question itself asks about proposals or decisions; then a quoted proposal takes its outcome
sentence along (``with_outcomes``), so the user never reads a proposal without its fate.

An archived document answers only when no current one does (``current_first``): the reader
first chooses among the blocks of documents that are not archived, and falls back to all
blocks when they decline, or when the question names the archived document's year. An
answer that then quotes an archived document carries a notice
(``grounding.standing_notice``).

The markers are the grammar of reporting a proposal, a suggestion, an open decision or an
outcome in English and Chinese (passive "was proposed", "X suggested …ing", "not yet
decided"; 提议, 提案, 有人建议, 建议把…提高, 尚未决定, 被否决), not words of any document.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from kbqa.core.grounding.authority import YEAR_RE, of_year
from kbqa.core.readers.extractive.text import Candidate, with_following
from kbqa.core.types import Block

S = TypeVar("S")

# A person proposing: a name (case-sensitive, so "results suggest" is none) or someone;
# not evidence that "suggests" something ("Research suggests…" says it indicates).
_EVIDENTIAL = r"(?:Research|Evidence|Data|Analysis|Studies|Study|Results|This|That|It|Which)"
_EN_PROPOSAL = (
    r"\b(?:was|were|has been|have been|had been|is being|are being)\s+"
    r"(?:proposed|suggested|floated)\b"
    r"|\bpropos(?:ed|al|als)\s+(?:to|that)\b|\bsuggestions?\s+(?:to|that)\b"
    r"|(?:\b(?:someone|somebody|a colleague|colleagues|one member|members?)"
    rf"|(?-i:\b(?!{_EVIDENTIAL}\b)[A-Z][a-z]+))\s+"
    r"(?:suggested|suggests|proposed|proposes)\b"
)
_EN_OPEN = (
    r"\bnot\s+(?:yet\s+)?(?:been\s+)?(?:decided|agreed|approved|confirmed)\b"
    r"|\bundecided\b|\bunder discussion\b|\bpending (?:approval|a decision)\b"
    r"|\bto be decided\b|\bno decision (?:has been|was|was yet) (?:made|taken)\b"
)
_EN_OUTCOME = (
    r"\b(?:proposals?|suggestions?|ideas?|motions?)\b[^.?!]*"
    r"\b(?:rejected|turned down|voted down|declined|not approved|approved|accepted|adopted)\b"
)
_ZH_PROPOSAL = (
    r"提议|提案|(?:有人|有同事|同事|与会者|与会人员|有员工|员工代表)(?:建议|提出)"
    r"|建议(?:把|将)[^。！？]*?(?:提高|提升|增加|降低|减少|调整|改为|改成)"
)
_ZH_OPEN = (r"尚未决定|尚未确定|未作决定|还没有决定|还未决定|待定|有待讨论|仍在讨论"
            r"|尚无定论|暂无结论")
_ZH_OUTCOME = r"否决|驳回|未获通过|没有通过|未通过"

# A claim its own document labels as false: "Myth: contractors get 30 days…", "误区：…".
_DISOWNED = (r"^\W*(?:myths?|misconceptions?|false|untrue|rumou?rs?|wrong)\s*[:：]"
             r"|^\W*(?:误区|谣言|错误说法|误解|传言)\s*[:：]")
UNSETTLED_RE = re.compile(f"{_EN_PROPOSAL}|{_EN_OPEN}|{_ZH_PROPOSAL}|{_ZH_OPEN}|{_DISOWNED}",
                          re.IGNORECASE)
OUTCOME_RE = re.compile(f"{_EN_OUTCOME}|{_ZH_OUTCOME}", re.IGNORECASE)
# A question about proposals or decisions themselves ("What was proposed…?", "否决了什么？").
ASKS_STATUS_RE = re.compile(
    r"\b(?:propos\w*|suggest\w*|decid\w*|decision\w*|reject\w*|approv\w*|meetings?"
    r"|myths?|misconceptions?|rumou?rs?)\b"
    r"|提议|提案|建议|决定|否决|通过|会议|误区|谣言|传言",
    re.IGNORECASE,
)


def unsettled(text: str) -> bool:
    """Whether ``text`` reports a proposal, a suggestion, an undecided item, a claim its
    document labels as a myth, or a proposal's outcome (``UNSETTLED_RE``, ``OUTCOME_RE``)
    rather than stating a fact."""
    return bool(UNSETTLED_RE.search(text) or OUTCOME_RE.search(text))


def asks_status(question: str) -> bool:
    """Whether ``question`` asks about proposals or decisions (``ASKS_STATUS_RE``)."""
    return bool(ASKS_STATUS_RE.search(question))


def settled_pool(question: str, pool: Sequence[Candidate]) -> list[Candidate]:
    """``pool`` without the sentences that report proposals, open items or outcomes
    (``unsettled``), unless ``question`` asks about them (``asks_status``)."""
    if asks_status(question):
        return list(pool)
    return [c for c in pool if not unsettled(c.text)]


def with_outcomes(chosen: Sequence[Candidate], pool: Sequence[Candidate]) -> list[Candidate]:
    """``chosen`` with, after each sentence reporting a proposal, the sentence right after it
    in its block when that one reports the outcome (``OUTCOME_RE``) and is not chosen yet."""
    return with_following(chosen, pool, lambda c, nxt: bool(
        UNSETTLED_RE.search(c.text) and OUTCOME_RE.search(nxt.text)))


def current_first(question: str, blocks: Sequence[Block],
                     choose: Callable[[str, Sequence[Block]], S],
                     declined: Callable[[S], bool]) -> S:
    """``choose(question, blocks)`` restricted to the blocks of documents that are not
    archived when there are both kinds, unless the question names the year of an archived
    one (``authority.of_year``); all blocks when that choice declines (``declined``)."""
    current = [b for b in blocks if b.chunk.authority != "archived"]
    years = frozenset(YEAR_RE.findall(question))
    if not current or len(current) == len(blocks) or any(
            of_year(b, years) for b in blocks if b.chunk.authority == "archived"):
        return choose(question, blocks)
    first = choose(question, current)
    return choose(question, blocks) if declined(first) else first
