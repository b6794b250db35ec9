"""How-to questions: only a sentence that gives an action for the asked task answers.

A question typed as a procedure (``text.procedures.asks_procedure`` on its ask clause,
when no other answer type fits: "How do I set up 2FA?", 怎么开启两步验证) is answered from
``action_pool``: the sentences that tell the asker what to do (``gives_action``: an
imperative, a modal with a verb), a numbered or bulleted item under a heading naming a task
(``procedural_heading``), or an intro ending with a colon whose list items are such steps;
never a sentence of a meeting note or minutes (``minutes_source``), and each one about the
task: it, its heading, its document title or its passage names an object the question
asks about (its content terms other than verbs and light words; a passage is about its
topic: "To turn it on, open …" under "Two-factor authentication", whose passage says
"2FA"). "Sofia asked for a video about setting up
2FA" or "Password strength is checked when you reset your password" mention the task and do
not say how; with no action left, the reader declines and the pipeline's no-support refusal
names the closest documents.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from kbqa.core.readers.extractive.asks import refined_kind
from kbqa.core.readers.extractive.focus import AskKind, ask_clause
from kbqa.core.readers.extractive.question import (
    VERBS,
    light_parts,
    light_terms,
    qualifiers,
    unit_terms,
)
from kbqa.core.readers.extractive.question_verbs import english_verbs
from kbqa.core.readers.extractive.text import Candidate, Selection, folded_terms
from kbqa.core.text.procedures import (
    PROCEDURE_NOUNS,
    acting_role,
    asks_procedure,
    gives_action,
    minutes_source,
    opening_verbs,
    opens_with_action,
    procedural_heading,
)
from kbqa.core.text.terms import fold, is_question_word, stem
from kbqa.core.types import Block


def is_procedure(question: str, kind: AskKind) -> bool:
    """Whether ``question`` (its ask kind ``kind`` from ``focus.ask_kind``) asks how to do
    something and no typed answer (a quantity, a time, a place...) fits it better."""
    ask = ask_clause(question)
    return refined_kind(ask, kind) == "other" and asks_procedure(ask)


def action_pool(question: str, pool: Sequence[Candidate], blocks: Sequence[Block],
                intros: Mapping[tuple[int, int], Sequence[Candidate]],
                objects: frozenset[str]) -> list[Candidate]:
    """The candidates of ``pool`` that give an action for the task (module docstring):
    ``intros`` the list items after each intro (``text.list_items``), ``objects`` the
    question's folded object terms (empty: any task). When some are the asker's to do, an
    action of a role the question does not name ("Administrators can make 2FA mandatory"
    for "How do I set up 2FA?": ``acting_role``) is left out."""
    actions = _actions(pool, blocks, intros, objects)
    low = question.lower()
    own = [c for c in actions if (role := acting_role(c.text)) == "" or role in low]
    return own or actions


def _actions(pool: Sequence[Candidate], blocks: Sequence[Block],
             intros: Mapping[tuple[int, int], Sequence[Candidate]],
             objects: frozenset[str]) -> list[Candidate]:
    by_n = {b.n: b.chunk for b in blocks}
    passages = {b.n: folded_terms(b.chunk.text) for b in blocks} if objects else {}
    out: list[Candidate] = []
    for c in pool:
        chunk = by_n.get(c.n)
        if chunk is None or minutes_source(chunk.title, chunk.authority):
            continue
        if objects and not objects & (c.terms | c.context | c.lead | passages[c.n]):
            continue
        if _step(c, chunk.section, intros):
            out.append(c)
    return out


def _step(c: Candidate, section: str, intros: Mapping[tuple[int, int], Sequence[Candidate]]
          ) -> bool:
    """Whether ``c`` gives an action: itself, as a list item under a task heading, or as an
    intro whose list items do."""
    if gives_action(c.text):
        return True
    if c.item and procedural_heading(section):
        return True
    items = intros.get((c.n, c.position), ())
    return c.intro and any(gives_action(i.text) for i in items)


def task_objects(question: str, ask: set[str]) -> frozenset[str]:
    """The task's objects in a how-to question: the ask clause's terms (``ask``, as
    matched) that are neither light words nor verbs nor question words ("password" of "How
    do I reset my password?", "2 fa" of "set up 2FA", ``电脑`` of 离职的时候电脑怎么处理)."""
    verbs = VERBS | english_verbs(question) | qualifiers(question) | frozenset(
        fold(stem(w)) for w in opening_verbs(question))  # "Left my laptop…": no object
    light = light_parts(sorted(ask), light_terms(question) | unit_terms(question))
    kinds = frozenset(fold(stem(w)) for w in PROCEDURE_NOUNS)
    return frozenset(t for t in ask if t not in light and t not in verbs and t not in kinds
                     and not is_question_word(t))


MAX_STEPS = 12  # list items quoted for a how-to answer (a long procedure's first dozen)


def whole_list(chosen: Sequence[Candidate], pool: Sequence[Candidate],
               titled: bool = False, procedural: bool = False) -> tuple[Candidate, ...]:
    """A how-to answer whose lead is an item of a numbered list (``Candidate.numbered``),
    or of any list when ``titled`` (its heading names a word of the question, "3. Rotor
    inspection" for "How do I inspect the centrifuge rotor?"), with that item's whole list
    in reading order (the run of items around it in its block under the same heading, at
    most ``MAX_STEPS``) in place of the items quoted, the other quoted sentences after it:
    a numbered procedure shown with a step left out is worse than none (a tester's
    pump-tube change lost its lock-out step, "按照上锁挂牌（LOTO）程序切断电源"). ``chosen``
    as it is otherwise (a first-day checklist's items are each their own answer), and for
    a list of rules: under no task heading (``procedural``: "更换蠕动泵管的步骤"), fewer than
    half its items open with an order (``opens_with_action``; "二、员工工牌": 员工工牌为蓝色…,
    whose lost-badge rule answers 工牌丢了怎么办 alone)."""
    lead = chosen[0]
    if not lead.item or not (titled or lead.numbered):
        return tuple(chosen)
    same = sorted((c for c in pool if c.n == lead.n and c.topic == lead.topic),
                  key=lambda c: c.position)
    at = next((i for i, c in enumerate(same) if c.position == lead.position), None)
    if at is None:
        return tuple(chosen)
    start = at
    while start > 0 and same[start - 1].item:
        start -= 1
    end = at
    while end + 1 < len(same) and same[end + 1].item:
        end += 1
    run = same[start:end + 1][:MAX_STEPS]
    if not procedural and 2 * sum(opens_with_action(c.text) for c in run) < len(run):
        return tuple(chosen)
    return (*run, *(c for c in chosen if c not in run))


def whole_steps(chosen: Selection, pool: Sequence[Candidate], blocks: Sequence[Block],
                qterms: Sequence[str]) -> Selection:
    """``chosen`` (a how-to answer from ``pool``, the candidates of ``blocks``) with its
    lead's whole list (``whole_list``); declined as it is. ``qterms``: the question's terms,
    which the list's heading names when it is about the asked task."""
    if chosen.declined:
        return chosen
    lead = next(b.chunk for b in blocks if b.n == chosen.chosen[0].n)
    titled = bool(folded_terms(lead.section) & frozenset(qterms))
    return replace(chosen, chosen=whole_list(chosen.chosen, pool, titled,
                                             procedural_heading(lead.section)))
