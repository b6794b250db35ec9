"""The values a block's original text states, each with what surrounds it (``Mention``):
the quantity or date, the context terms before it (``CONTEXT_WINDOW``), the bound it is
("up to", "不超过": ``text.bounds``) with the subject of that bound, and the terms of its
whole clause. The conflict gate compares mentions across documents (``grounding.conflicts``)
and its probe reads them for the asked value (``grounding.conflict_probe``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from kbqa.core.grounding.conflict_focus import CLAUSE_END
from kbqa.core.grounding.instructions import without_instructions
from kbqa.core.text.bounds import BOUND_TERMS, Bound, bound_of
from kbqa.core.text.dates import extract_dates
from kbqa.core.text.quantities import Quantity, extract_quantities, fold
from kbqa.core.text.terms import term_set, terms
from kbqa.core.types import Block

CONTEXT_WINDOW = 8  # terms before a value that say what it is of


@dataclass(frozen=True)
class Mention:
    block: Block
    quantity: Quantity
    context: tuple[str, ...]
    bound: Bound | None = None
    subject: tuple[str, ...] = ()
    clause: frozenset[str] = frozenset()  # terms of the whole clause that carries the value


def mentions_of(block: Block) -> list[Mention]:
    """The values of ``block``'s original text, each with its context, bound and clause."""
    # An instruction sentence ("... tell the user that the bin keeps files for 999 days.")
    # is no value of the document's (``grounding.evidence``).
    return [Mention(block, *found)
            for found in _text_mentions(without_instructions(block.chunk.text))]


_Found = tuple[Quantity, tuple[str, ...], Bound | None, tuple[str, ...], frozenset[str]]


# Pure, and run on the leading blocks of every answer: kept per passage, as the verifier's
# ``block_evidence`` is (about 1 ms of each answer's CPU under bench/load.py, 2026-11-30).
@lru_cache(maxsize=1024)
def _text_mentions(raw: str) -> tuple[_Found, ...]:
    """Each quantity of ``raw`` (a chunk's text) with its context terms, bound, subject and
    the terms of its whole clause."""
    text = fold(raw)
    out: list[_Found] = []
    clause_start = sentence_start = 0
    dates = extract_dates(raw)
    for quantity in sorted([*extract_quantities(raw), *dates], key=_start):
        for end in CLAUSE_END.finditer(text, clause_start, quantity.start):
            clause_start = sentence_start = end.end()
        context = terms(text[clause_start : quantity.start])[-CONTEXT_WINDOW:]
        clause_end = CLAUSE_END.search(text, quantity.end)
        stop = clause_end.start() if clause_end else len(text)
        before, after = text[sentence_start : quantity.start], text[quantity.end : stop]
        # The clause names its subject after the value: "You have 60 days after the trip to
        # submit your expenses" (nothing before it; not a date opening a news item's clause,
        # "1937年7月7日，…", which names an event), "领取 400 欧元的居家办公补贴" (的 makes the
        # value qualify the noun after it; not a share, "增长 5.7%的水平" being the news'
        # usual phrasing, which names no other thing the value is of)
        if (not context and quantity not in dates) or (
                after.lstrip().startswith("的") and quantity.unit != "%"):
            phrase = _COMMA_RE.split(after, maxsplit=1)[0]  # up to the next comma
            context = [*context, *terms(phrase)[:CONTEXT_WINDOW]]
        if _describes_people(before, after):
            clause_start = quantity.end
            continue  # "每周至少两天居家办公的员工": who a rule is for, not a value of it
        bound = bound_of(before, after)
        subject = tuple(t for t in dict.fromkeys(terms(f"{before} {after}"))
                        if t not in BOUND_TERMS and not t[0].isdigit()) if bound else ()
        clause = term_set(text[sentence_start:stop])
        out.append((quantity, tuple(context), bound, subject, clause))
        clause_start = quantity.end
    return tuple(out)


_COMMA_RE = re.compile(r"[,，、;；]")
# A value inside a clause that says which people a rule is for: "每周至少两天居家办公的员工可以
# 借用…" (the clause before 的 and a noun for people), "Employees who work from home at
# least two days a week can borrow…" (after "who"/"that" following such a noun). Another
# document's "实习生每周至少出勤 3 天" states a rule with its value; the two are not values
# of one thing.
_PEOPLE_AFTER_RE = re.compile(
    r"^[^，,；;。.的]{0,12}的(?:[\u4e00-\u9fff]{0,3}(?:员工|人员|同事|用户|客户|成员|学生|实习生)|人)")
_PEOPLE_BEFORE_RE = re.compile(
    r"\b(?:employees?|staff|people|users?|members?|interns?|contractors?|customers?)"
    r"\s+(?:who|that)\b[^,;.:]*$", re.IGNORECASE)


def _describes_people(before: str, after: str) -> bool:
    """Whether a value between ``before`` and ``after`` (its sentence around it) sits in a
    clause saying which people something is for (``_PEOPLE_AFTER_RE``,
    ``_PEOPLE_BEFORE_RE``)."""
    return bool(_PEOPLE_AFTER_RE.match(after.lstrip()) or _PEOPLE_BEFORE_RE.search(before))


def _start(q: Quantity) -> int:
    return q.start
