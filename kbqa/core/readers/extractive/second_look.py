"""A second look at a chosen answer: is it about the group or the kind that was asked?

``select`` chooses sentences by their words; two things it cannot see from them alone:

- ``with_asked_group``: the answer speaks of other groups of people only ("Full-time
  employees receive 20 days…" for "and part-timers?") while a block names the asked one:
  the lead gets its block's sentence about the asked group beside it ("Part-time employees
  receive a share…"), or the choice is made again without the other groups' sentences.
  An answer naming no group (a rule for everyone) gets its document's sentence about the
  asked group beside it ("Contractors follow the terms of their own contract.").
- ``of_asked_kind``: the lead lacks the kind asked about ("sick" of "How many sick days do
  full-time employees get?", answered with the annual leave) while another candidate states
  it with the asked type: the choice is made again from the candidates that state it.

Both choose again through ``reselect`` (``select``'s own choice, without the sentences
given), so every decline applies to what they give.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kbqa.core.readers.extractive.focus import ask_kind, new_answer
from kbqa.core.readers.extractive.kinds import asked_kind_modifier
from kbqa.core.readers.extractive.narrowing import asked_groups, sentences_by_group
from kbqa.core.readers.extractive.text import Candidate, Selection, candidates, folded_terms
from kbqa.core.types import Block

Reselect = Callable[[frozenset[str]], Selection]


def with_asked_group(question: str, blocks: Sequence[Block], chosen: Selection,
                     everything: str, reselect: Reselect) -> Selection:
    """``chosen``, when the question asks of no group the blocks (``everything``, their
    lower-cased titles, sections and texts) name, or one of its sentences speaks of it;
    else the lead with its block's sentence about the asked group, or ``reselect`` without
    the other groups' sentences (module docstring)."""
    asked = asked_groups(question, everything)
    if not asked:
        return chosen  # most questions: no pass over the blocks' sentences
    pool = candidates(blocks)
    others, of_asked = sentences_by_group(asked, [c.text for c in pool])
    lead = chosen.chosen[0]
    if not any(c.text in others | of_asked for c in chosen.chosen):
        # a rule for everyone ("Employees receive a meal per diem…") while the same
        # document says what the asked group gets ("Contractors follow the terms of their
        # own contract."): the exception leads, the rule follows
        # ...unless it states a value of the asked kind, which answers of something else
        # ("and sick days?" after full-time employees' annual leave: "Full-time employees
        # receive 20 days of paid annual leave")
        doc = {b.n: b.chunk.doc_id for b in blocks}
        kind = ask_kind(question)
        own = [c for c in pool if c.text in of_asked and doc.get(c.n) == doc.get(lead.n)
               and (kind == "other" or not new_answer(kind, c.text, question))]
        return Selection((own[0], lead), chosen.uncovered, False) if own else chosen
    if not others or not all(c.text in others for c in chosen.chosen):
        return chosen
    beside = [c for c in pool if c.n == lead.n and c.text in of_asked]
    if beside:
        return Selection((lead, beside[0]), chosen.uncovered, False)
    return reselect(others)


def of_asked_kind(question: str, blocks: Sequence[Block], chosen: Selection,
                  reselect: Reselect) -> Selection:
    """``chosen``, unless its lead lacks the kind the question asks of while another
    candidate states it with the asked type: then ``reselect`` without the candidates that
    do not state it (module docstring). A candidate states the kind in its own words, its
    label or its section heading: a title naming two kinds names neither."""
    modifier = asked_kind_modifier(question)
    kind = ask_kind(question)
    if modifier is None or kind == "other":
        return chosen
    sections = {b.n: folded_terms(b.chunk.section) for b in blocks}

    def states(c: Candidate) -> bool:
        return modifier in c.terms | c.lead | sections.get(c.n, frozenset())

    pool = candidates(blocks)
    if states(chosen.chosen[0]) or not any(
            states(c) and new_answer(kind, c.text, question) for c in pool):
        return chosen
    return reselect(frozenset(c.text for c in pool if not states(c)))
