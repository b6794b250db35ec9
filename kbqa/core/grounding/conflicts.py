"""Conflicts: two documents giving different values, in the same unit, for the same thing.

A pair of quantities (``kbqa.core.text.quantities``) or dates (``kbqa.core.text.dates``: a
day, a month of a year, a day of a month) is a conflict when all of these hold:

- they come from different documents (one document can discuss several values);
- same normalised unit, different value (``0.2 GB`` and ``200 MB`` agree);
- the same thing is measured: the two clauses are one statement with another number
  (``_same_statement``: 80% of their words in common, a question word among them: a copy of
  a page edited later), or at least ``MIN_SHARED_TERMS`` (2) terms are shared between the
  contexts just before each number; or both state the same kind of bound
  (``kbqa.core.text.bounds``: "maximum 200 MB", "up to", "no more than", "files larger than
  100 MB are rejected", "超过 100 MB 会被拒绝", "上限为 200 MB" are all upper bounds) on the same
  subject: their clauses, without the bound words, share at least ``MIN_SHARED_SUBJECT`` (1)
  term ("file" in "the maximum upload size is 200 MB per file" and "files larger than 100 MB
  are rejected"). A context is the last ``CONTEXT_WINDOW`` (8) terms of
  the same clause: it starts after the previous sentence end, semicolon or quantity, so
  "Deleted items stay in the recycle bin for 30 days" and "The free trial lasts 90 days"
  share nothing and are no conflict. One shared word ("limit") is too common to mean the
  same thing; two ("单个 文件 最大", "maximum upload size") rarely happen by chance;
- the shared words do not hide two subjects (``_other_subjects``): "Deleted files are kept
  in the recycle bin for 30 days" and a manual's "Earlier versions of a file are kept for
  180 days" share "file kept", but each names something the other does not, and the manual
  speaks of the recycle bin elsewhere (another clause, its title) than where its 180 days
  are (the clause and its section "Version history"): the days are the versions';
- neither document also states the other's value about the same thing (a meeting note
  recording "raised the maximum upload size from 100 MB to 200 MB" quotes both and
  contradicts neither; a policy's "meals: up to EUR 80 per person" does not make its "team
  outings: up to EUR 60 per person" agree with another's EUR 80 for outings);
- the conflict is about the question: a shared context term is in the question, or the
  question names the unit ("how many MB", "多少天"; a dated year, "2018年", names no 年) and
  shares a term with either context, or it states a quantity in the unit and both values are
  bounds of one kind ("Will a 150 MB recording go through?" against two upload limits);
  for two bounds, the question shares a term with either subject ("What is the upload
  limit?"), and across two languages names what both bound (a tester's "can I take some
  days off to look after him?" met family care leave's "up to 3 days" and 事假's "不超过 10
  天": both bound some "leave", which the question never says). A question about the
  recycle bin is not blocked by an upload-size conflict;
- two dates count only when the question asks when ("when", "date", "什么时候", "时间") and
  only as one statement given two dates: different events' dates share their words
  ("Marvel's Spider-Man was released ..." and its sequel's release);
- the values are of the asked thing (``kbqa.core.grounding.conflict_focus``): one value's
  clause holds the question's focus (its rarest terms in the blocks: "文件名" of "上传文件时
  文件名有什么限制？", not the "文件" and "上传" every upload paragraph has), and the other's
  holds it too or is of the asked type (in the unit the question names: "能多大", "how
  long", "多少钱"; or a bound, when it asks for a limit). The file-name question is not
  refused with the manuals' 200 MB / 100 MB upload sizes, nor an outcome or a how-to ask
  with no value, unit or bound of its own (网断了上传会怎样);
- neither value is in a sentence addressed to the assistant
  (``kbqa.core.grounding.instructions``): an injected "tell the user that ... 999 days" is
  an order, not the document's value;
- two values of two languages are compared through their bridged forms
  (``kbqa.core.grounding.conflict_bridge``: the other language's context, subject and clause
  in the question's terms, from CC-CEDICT), by every rule above: "单个上传文件的最大大小为
  100 MB" against "The maximum size of a single uploaded file is 200 MB";
- both sides come from leading blocks (``kbqa.core.context.assembly.leading_blocks``) or
  from the blocks of the conflict gate's own search for the asked value
  (``kbqa.core.grounding.conflict_probe``).

Authority (``Chunk.authority``): policy > manual > faq > meeting-note = other > archived.
A question naming a year ("How often were laptops replaced in 2022?") prefers the one side
whose document is of that year (updated that year, or the year in its title): it asks for
that version, whatever its rank. Otherwise, when the two sides differ in rank,
``Conflict.preferred`` is the stronger side's index; equal rank leaves it None and the
pipeline refuses with both values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations

from kbqa.core.context.assembly import leading_blocks
from kbqa.core.grounding.authority import (
    authority_rank,
    preferred_side,
    scoped,
)
from kbqa.core.grounding.bindings import (
    AskedGroups,
    GroupedDocument,
    asked_groups,
    grouped_document,
    other_group,
)
from kbqa.core.grounding.conflict_asked import (
    Asked,
    asked_of,
    named_by_one,
    names_thing,
    rather_thing,
)
from kbqa.core.grounding.conflict_bridge import Bridge
from kbqa.core.grounding.conflict_focus import measured_words, unit_terms
from kbqa.core.grounding.mentions import Mention, mentions_of
from kbqa.core.grounding.passage_terms import (
    chunk_clauses,
    clause_of,
    document_parts,
    heading_terms,
)
from kbqa.core.text.bounds import BOUND_TERMS
from kbqa.core.text.normalise import detect_language, normalise
from kbqa.core.text.terms import is_question_word
from kbqa.core.types import Block, Conflict, ConflictSide

MIN_SHARED_TERMS = 2
MIN_SHARED_SUBJECT = 1
SAME_STATEMENT_SHARE = 0.8
DATE_UNITS = frozenset({"date", "year-month", "month-day"})
MIN_STATEMENT_TERMS = 4


def find_conflicts(
    blocks: Sequence[Block], question: str, probed: Sequence[Block] = ()
) -> list[Conflict]:
    """Conflicts among ``blocks`` (their ORIGINAL chunk text without the sentences that
    address the assistant) that bear on ``question``; ``probed`` blocks (found by searching
    for other statements of the asked value, ``conflict_probe``) count as leading ones.

    Sides are ordered by block number; one conflict per document pair and unit (the one
    with the most shared context). Returns [] when there is none.
    """
    leading = sorted({b.n: b for b in [*leading_blocks(blocks), *probed]}.values(),
                     key=lambda b: b.n)
    mentions = [m for b in leading for m in mentions_of(b)]
    every = list({b.n: b for b in [*blocks, *probed]}.values())
    asked = asked_of(every, leading, mentions, question)
    values = _values_by_document(mentions)
    own_clauses = _clauses_by_document(every)
    # pairs of two languages are compared in the question's terms (conflict_bridge)
    bridge = Bridge.of(detect_language(question), every, question)
    bridged_values = _values_by_document([bridge.mention(m) for m in mentions])
    bridged_clauses = bridge.clauses(every, own_clauses)
    # whether two values of two languages name other things is read in English: a Chinese
    # word bridges to a few English glosses, an English word to every Chinese word glossed
    # with it, whose many alternatives look like words of another subject
    english: tuple[Bridge, dict[str, list[frozenset[str]]]] | None = None  # when needed
    best: dict[tuple[str, str, str], tuple[Conflict, Mention, Mention]] = {}
    documents = _documents(every)
    asked_text = asked_groups(normalise(question))
    kept = [m for m in mentions if not _of_another_subject(m, asked_text, documents)]
    for a, b in combinations(sorted(kept, key=lambda m: m.block.n), 2):
        if bridge.crosses(a, b):
            if english is None:
                into = bridge if bridge.language == "en" else Bridge.of("en", every, question)
                english = (into, into.clauses(every, own_clauses))
            en, en_clauses = english
            conflict = _pair_conflict(
                bridge.mention(a), bridge.mention(b), bridged_values, asked, bridged_clauses,
                subjects=(en.mention(a), en.mention(b), en_clauses))
        else:
            conflict = _pair_conflict(a, b, values, asked, own_clauses)
        if conflict is None:
            continue
        key = (conflict.unit, a.block.doc_id, b.block.doc_id)
        if key not in best or len(conflict.context) > len(best[key][0].context):
            best[key] = (conflict, a, b)
    found = [_contested(c, a, b, kept) for c, a, b in best.values()]
    return sorted(found, key=lambda c: (c.sides[0].n, c.sides[1].n, c.unit))


def _contested(conflict: Conflict, a: Mention, b: Mention,
               mentions: Sequence[Mention]) -> Conflict:
    """``conflict``, unresolved when its weaker side's value is also stated, about the same
    thing, by a document ranked at least as high as its stronger side's: "Answered from the
    Web uploader guide" while the product manual says the weaker side's 200 MB too would
    be a notice the answer can contradict. The weaker side is then that document."""
    if conflict.preferred is None or conflict.preferred_by != "authority":
        return conflict
    strong, weak = (a, b) if conflict.preferred == 0 else (b, a)
    rank = authority_rank(strong.block.chunk.authority)
    what = set(weak.context) - BOUND_TERMS
    for m in mentions:
        if (m.block.doc_id not in (strong.block.doc_id, weak.block.doc_id)
                and m.quantity.unit == weak.quantity.unit and m.quantity.same_value(weak.quantity)
                and authority_rank(m.block.chunk.authority) >= rank
                and len(what & set(m.context)) >= min(MIN_SHARED_TERMS, len(what))):
            one, two = sorted((m, strong), key=lambda x: x.block.n)
            return replace(conflict, sides=(_side(one), _side(two)),
                           preferred=preferred_side(one.block, two.block))
    return conflict


def _documents(blocks: Sequence[Block]) -> list[GroupedDocument]:
    """Each document's normalised title, section headings and block texts, as one."""
    found: dict[str, list[str]] = {}
    for b in blocks:
        c = b.chunk
        found.setdefault(c.doc_id, [c.title]).extend([c.section, c.text])
    return [grouped_document(document_parts(tuple(parts))) for parts in found.values()]


def _of_another_subject(m: Mention, asked: AskedGroups,
                        documents: Sequence[GroupedDocument]) -> bool:
    """Whether ``m``'s clause binds its value to another subject than the question's
    (``bindings.other_group``): "Full-time employees receive 25 days of paid annual leave"
    holds no value of "How many days of sick leave do employees get?", though both say
    "days", "employees" and "leave", when a document (``documents``) contrasts the two
    kinds of leave; such a value is no side of this question's conflict. ``asked`` is what
    ``other_group`` reads of the question."""
    clause = clause_of(m)
    return bool(clause) and bool(other_group(asked, clause, heading_terms(m.block.chunk),
                                             documents))


_Values = dict[tuple[str, str], list[Mention]]


def _values_by_document(mentions: Sequence[Mention]) -> _Values:
    values: _Values = {}
    for m in mentions:
        values.setdefault((m.block.doc_id, m.quantity.unit), []).append(m)
    return values


def _clauses_by_document(blocks: Sequence[Block]) -> dict[str, list[frozenset[str]]]:
    """The term sets of every clause, section heading and title of each document's blocks
    (leading or not)."""
    found: dict[str, list[frozenset[str]]] = {}
    for b in blocks:
        c = b.chunk
        found.setdefault(c.doc_id, []).extend(chunk_clauses(c))
    return found


def _pair_conflict(
    a: Mention,
    b: Mention,
    values: _Values,
    asked: Asked,
    own_clauses: dict[str, list[frozenset[str]]],
    subjects: tuple[Mention, Mention, dict[str, list[frozenset[str]]]] | None = None,
) -> Conflict | None:
    """A conflict between ``a`` and ``b``, or None; ``subjects`` are the two mentions and
    the clauses ``_other_subjects`` reads instead (a pair of two languages, in English)."""
    qa, qb = a.quantity, b.quantity
    if a.block.doc_id == b.block.doc_id or qa.unit != qb.unit or qa.same_value(qb):
        return None
    if _states(values, a.block.doc_id, b) or _states(values, b.block.doc_id, a):
        return None
    if not asked.pair_about(a, b) or (qa.unit in DATE_UNITS and not asked.of_type(a)):
        return None  # news gives dates in passing: only a question asking when weighs them
    other = set(b.context)
    shared = tuple(t for t in dict.fromkeys(a.context) if t in other)
    same = _same_statement(a, b, asked.terms) if asked.of_type(a) else ()
    if same:
        shared = same
    elif qa.unit in DATE_UNITS:
        return None  # two events' dates share their words ("Spider-Man released ..."): only
        # one statement given two dates is a disagreement
    elif len(shared) >= MIN_SHARED_TERMS:
        if not _about_question(shared, a, b, asked) or _other_subjects(
                *(subjects or (a, b, own_clauses))) or (
                subjects is None and _asked_of_one(a, b, asked, own_clauses)):
            return None
    else:
        shared = _same_bound(a, b, asked.terms)
        if not shared or (subjects is not None and not any(map(rather_thing, shared))
                          and named_by_one(a, b, asked)) or (
                subjects is not None and not set(shared) & asked.terms):
            return None
    conflict = Conflict(
        unit=qa.unit,
        sides=(_side(a), _side(b)),
        context=shared,
        preferred=preferred_side(a.block, b.block),
    )
    return scoped(conflict, a.block, b.block, asked.years, asked.places)


def _same_statement(a: Mention, b: Mention, question_terms: frozenset[str]) -> tuple[str, ...]:
    """The words two values' clauses share when the clauses are one statement with another
    number (at least ``SAME_STATEMENT_SHARE`` of their words, numbers and unit words aside,
    in common, and ``MIN_STATEMENT_TERMS`` of them), and a question word is among them: a
    copy of a page edited later, "compared to $10.4 billion in revenue in Q1 2021" against
    "compared to $1.39 billion in revenue in Q1 2021". () otherwise. The caller asks it only
    when the question asks for a value of that unit ("What was the revenue", "When was it
    released"): "Which console was it made for?" is answered alike from either copy."""
    unit = _unit_words(a.quantity.unit)
    one, two = ({t for t in m.clause if not t[0].isdigit() and t not in unit} for m in (a, b))
    common, either = one & two, one | two
    if len(common) < MIN_STATEMENT_TERMS or len(common) < SAME_STATEMENT_SHARE * len(either):
        return ()
    if not question_terms & common:
        return ()
    return tuple(sorted(common))


def _other_subjects(
    a: Mention, b: Mention, own_clauses: dict[str, list[frozenset[str]]]
) -> bool:
    """Whether two contexts sharing words still name different things: each has words the
    other lacks, and one side's own words are, together, in the other side's document but
    not where its value is (its clause and its chunk's section heading, or the title when
    the chunk has none). "Deleted files are kept in the recycle bin for 30 days" and a
    manual's "Earlier versions of a file are kept for 180 days" share "file kept", but the
    manual ("… Recycle bin and version history") gives its 180 days under "Version
    history": they are the versions' days, not the bin's."""
    for one, two in ((a, b), (b, a)):
        own = _own_words(one, two)
        if not own or not _own_words(two, one):
            continue
        need = min(MIN_SHARED_TERMS, len(own))
        chunk = two.block.chunk
        where = two.clause | heading_terms(chunk)
        if len(own & where) >= need:
            continue
        if any(len(own & c) >= need for c in own_clauses.get(chunk.doc_id, ())):
            return True
    return False


def _asked_of_one(a: Mention, b: Mention, asked: Asked,
                  own_clauses: dict[str, list[frozenset[str]]]) -> bool:
    """Whether the question names, beside the words two contexts share, a thing only one
    side's context holds and the other side's document never mentions, while that other
    side names a thing of its own: "How often are the air filters replaced?" is not
    weighed against "Company laptops are replaced every 4 years" (the equipment policy
    says nothing of air filters), however many "replaced every" they share. Pairs of two
    languages are left to ``_other_subjects``: their bridged words are too few to say what a
    document never mentions."""
    for one, two in ((a, b), (b, a)):
        named = frozenset(t for t in _own_words(one, two) & asked.terms if names_thing(t))
        chunk = two.block.chunk
        if not named or not _own_words(two, one) or named & heading_terms(chunk):
            continue
        if not any(named & c for c in own_clauses.get(chunk.doc_id, ())):
            return True
    return False


def _own_words(one: Mention, two: Mention) -> frozenset[str]:
    """Content words of ``one``'s context that ``two``'s context lacks."""
    unit = _unit_words(one.quantity.unit)
    return frozenset(t for t in one.context
                     if t not in two.context and t not in unit and not t[0].isdigit())


def _same_bound(a: Mention, b: Mention, question_terms: frozenset[str]) -> tuple[str, ...]:
    """The subject terms two bounds of one kind share, when the question is about them;
    () otherwise (module doc)."""
    if a.bound is None or a.bound != b.bound:
        return ()
    other = set(b.subject) - _unit_words(a.quantity.unit) - measured_words(a.quantity.unit)
    # a function word is no subject: "at least 8 weeks before it starts" (parental leave)
    # and "at least 14 days before departure" (trips) share only "before"
    shared = tuple(t for t in a.subject if t in other and not is_question_word(t))
    if len(shared) < MIN_SHARED_SUBJECT or not question_terms & {*a.subject, *b.subject}:
        return ()
    return shared


def _unit_words(unit: str) -> frozenset[str]:
    """Words naming the unit itself ("mb", "天"): they say what is measured in, not what."""
    return unit_terms(unit) | {"mb", "gb", "kb", "tb", "day", "hour", "天"}


def _states(values: _Values, doc_id: str, other: Mention) -> bool:
    """Whether document ``doc_id`` also states ``other``'s value about the same thing: in a
    clause holding ``MIN_SHARED_TERMS`` of the words of ``other``'s context that name what is
    measured (not its bound or unit words): "We raised the maximum upload size from 100 MB
    to 200 MB" quotes both values. The same number said of another thing ("Meals with
    customers are reimbursed up to EUR 80 per person" beside "Team outings are reimbursed up
    to EUR 60 per person") does not count: the document still disagrees about outings."""
    what = set(other.context) - BOUND_TERMS - _unit_words(other.quantity.unit)
    need = min(MIN_SHARED_TERMS, len(what))
    return any(other.quantity.same_value(own.quantity) and len(own.clause & what) >= need
               for own in values.get((doc_id, other.quantity.unit), []))


def _about_question(shared: tuple[str, ...], a: Mention, b: Mention, asked: Asked) -> bool:
    """A shared context term is in the question; or the question names the unit and shares
    a term with either context; or it states a quantity in the unit and both values are
    bounds of one kind: "Will a 150 MB recording go through?" is weighed against the upload
    limits, whatever words ("uploaded", "上传") their sentences use."""
    if asked.substance.intersection(shared):
        return True
    if a.quantity.unit in asked.units and a.bound is not None and a.bound == b.bound:
        return True
    naming = unit_terms(a.quantity.unit)
    rest = asked.substance - naming
    names = bool(asked.unit_words & naming) or a.quantity.unit in asked.units
    return names and bool(rest.intersection(a.context + b.context))


def _side(m: Mention) -> ConflictSide:
    c = m.block.chunk
    return ConflictSide(
        n=m.block.n,
        chunk_id=c.chunk_id,
        doc_id=c.doc_id,
        title=c.title,
        updated=c.updated,
        authority=c.authority,
        value_text=m.quantity.text,
    )
