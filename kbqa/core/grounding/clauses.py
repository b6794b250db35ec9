"""Clauses: every part of a sentence must be said, the same way, by one source sentence.

Gate two and the claim words judge a sentence as a bag of words over its whole cited block,
so three kinds of wrong sentence pass them while every word they use is in the block:

- *polarity*: "Company laptops are not replaced every 4 years [1]." against "Company laptops
  are replaced every 4 years." (the block says "not" elsewhere: "was not caused on purpose");
- *an extra clause*: "…every 4 years, and you may keep the old one for free [1]." ("keep",
  "old", "free" are each in some other sentence of the block);
- *a quantity moved to another subject*: "Managers can approve a replacement after 1 year
  [1]." (the block's only 1 is the "X1" of a laptop model).

``clause_issues`` reads a sentence as *clauses*: its text cut at ``, ; : ，；：`` and sentence
ends (``split_clauses``). A source is read the same way, once per block
(``source_clauses``): its sentences (``kbqa.core.text.sentences``) and their clauses. Then:

1. Polarity. Each clause is matched with the source clauses (of all cited blocks) sharing
   the most of its terms (``kbqa.core.text.terms``), when they share at least half of them:
   the source clause stating the same claim, as ``kbqa.core.grounding.support`` matches a
   claim with the passage sentences that hold its terms. The clause's polarity (the parity
   of its negation words: English ``not no never none cannot without neither nor`` and any
   ``n't``; Chinese ``不 没 没有 无 未 非 别 勿 不能 无法 不得 不可`` … as jieba words, so
   ``未来`` and ``非常`` are not negations) must equal one matched clause's. Parity makes a
   double negation positive ("not without approval"), and a negation the source also has
   passes ("not deleted after 30 days" against "are not deleted after 30 days"). Bounds
   written with a negation ("no more than", ``不超过``, ``不少于``) are comparisons, not
   negations (the claim words check their direction), and a leading answer word ("No,",
   "不，") answers the question. A matched source clause with a restriction (``only``,
   ``仅``, ``只有``) supports either polarity: "only admins can" implies "guests cannot".
2. Every clause supported. When a sentence has two or more clauses of at least
   ``MIN_CLAUSE_TERMS`` terms each (shorter pieces such as "In 2024," or "free of charge"
   join the clause before them; a leading condition or setting such as "If you leave the
   company," or "在上海出差，" joins the clause after it: it claims nothing alone; a bare
   " and " cuts two statements of three terms or more each), each must
   have more than ``CLAUSE_SUPPORT`` (half) of its terms in ONE sentence of the cited
   blocks, or be written there verbatim. Half is gate two's logic applied to one claim: a
   clause is one statement, and a statement none of whose source sentences holds most of
   its words is not stated there. Single CJK
   characters count only in a clause without longer terms (jieba's search mode cuts
   ``年假`` into ``年``/``假``, which every leave sentence has). A one-clause sentence is
   left to gate two, which lets one sentence join facts from several source sentences.
3. Quantities. Every number with a unit in a clause (``kbqa.core.text.quantities``: "1
   year", "20 天", "200 MB"; so "4 years" equals "48 months") must be a quantity of equal
   value and unit in a source sentence sharing the most of its subject (ties all count): the
   terms before it in its part of the clause (cut at commas), after any earlier quantity
   ("uploads are limited to 200 MB and deleted items stay 30 days" joins two), else the
   clause's other terms; or in any source sentence when none shares one (a sentence in
   another language than its block), bound there to this subject (``bindings``). Gate
   two's number check only asks that the digits appear somewhere: "after 1 year" passed on
   the "1" of "ThinkPad X1". A Markdown table row is read with its header row, so "Uptime
   commitment: 99.9%" is about its column.

Polarity reads both sides in ``predicates.polar_form`` ("are personal costs" is "are not
reimbursed"); an added "only for managers" needs "managers" in the source sentence
(``predicates.restriction_scope``).

Every failure is an issue a person and the regenerating model can act on: which part, which
source clause it was read against. The check is lexical, like the claim words: it cannot see
an antonym ("files are kept" for "files are not deleted" shares too few terms to be compared)
or a clause cut by other punctuation; measured on the demo set, RGB and
``bench/claim_words.py`` (README, "What the claim-word check costs").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from contextvars import ContextVar
from typing import Literal

from kbqa.core.grounding.bindings import quantity_issues
from kbqa.core.grounding.predicates import polar_form, restriction_scope
from kbqa.core.grounding.source_text import (
    NEGATIONS,
    RESTRICTIONS,
    SourceClause,
    SourceText,
    negated_terms,
    parity,
    split_clauses,
)
from kbqa.core.text.normalise import detect_language, normalise
from kbqa.core.text.quantities import extract_quantities
from kbqa.core.text.terms import term_set

#: A clause must have more than this share of its terms in one source sentence (module doc).
CLAUSE_SUPPORT = 0.5
#: Terms a piece of a sentence needs to stand as a clause of its own (module doc).
MIN_CLAUSE_TERMS = 2
# Quotations are checked verbatim (citations, check 4); their commas cut no clause.
_QUOTED_RE = re.compile(r'"[^"\n]+"|“[^”\n]+”|「[^」\n]+」|『[^』\n]+』|‘[^’\n]+’')
# A condition or setting before the clause it belongs to (English subordinators and
# prepositions opening it; Chinese prepositions opening it, or 时/后/前/的话 closing it).
_CONTEXT_RE = re.compile(
    r"^(?:if|when|whenever|while|during|for|in|on|at|after|before|once|unless|until|as|since|"
    r"according to|under|within|by|per|with)\b|^(?:在|如果|若|假如|当|对于|关于|根据|按照|依照|"
    r"除了|凡|由于|为了)|(?:时|之后|以后|之前|以前|后|前|期间|的话)$"
    r"|[\u4e00-\u9fff\d]\s*的$"  # "满 20 年的，": a condition naming who, as 凡…者 does
)



ClauseReason = Literal["polarity", "clause", "quantity"]
#: How each kind of issue of ``clause_issues`` is worded (a reason is text for people and
#: for the regenerating model; ``reason_kind`` reads the kind back for the reviewer page).
_REASON_MARKS: tuple[tuple[str, ClauseReason], ...] = (
    ("the sentence adds a negation", "polarity"),
    ("the sentence states what the source denies", "polarity"),
    ("every part of a sentence needs its source", "clause"),
    ("a number counts only with its unit", "quantity"),
    ("a number counts only for the subject", "quantity"),
)


def reason_kind(reason: str) -> ClauseReason | None:
    """The kind of a drop reason written by ``clause_issues``, None for any other reason."""
    return next((kind for mark, kind in _REASON_MARKS if mark in reason), None)


def _cites(numbers: Sequence[int]) -> str:
    return " or ".join(f"[{n}]" for n in dict.fromkeys(numbers))


def _clause_terms(text: str) -> frozenset[str]:
    """The terms that say what a clause claims: negations and restrictions aside; read once
    per text within one ``clause_issues`` call (its steps ask for the same clause's terms
    about eight times: 0.5 ms of CPU per sentence, the largest share of a turn's
    verification under bench/load.py, 2026-12-01)."""
    memo = _clause_memo.get()
    if memo is None:
        return term_set(text) - NEGATIONS - RESTRICTIONS
    found = memo.get(text)
    if found is None:
        found = memo[text] = term_set(text) - NEGATIONS - RESTRICTIONS
    return found


_clause_memo: ContextVar[dict[str, frozenset[str]] | None] = ContextVar(
    "clause_memo", default=None
)


def clause_issues(
    text: str, sources: Sequence[tuple[int, SourceText]], common: frozenset[str] = frozenset()
) -> list[str]:
    """Issues of sentence ``text`` (the claim's prose) against the cited blocks' clauses:
    ``sources`` pairs each cited block number with its ``source_text``; ``common`` are the
    terms most blocks share (``citations._common_terms``), left out of clause support.
    Returns [] when every clause is supported the same way (module doc). Never raises."""
    if not sources:
        return []
    token = _clause_memo.set({})
    try:
        return _issues(normalise(_QUOTED_RE.sub(" ", text)), sources, common)
    finally:
        _clause_memo.reset(token)


def _issues(
    sentence: str, sources: Sequence[tuple[int, SourceText]], common: frozenset[str]
) -> list[str]:
    pieces = [c for c in split_clauses(sentence) if _clause_terms(c)]
    issues = [i for c in pieces for i in (_polarity_issue(c, sources),
                                          _restriction_issue(c, sources)) if i]
    clauses = _merged(pieces)
    claims = [part for c in clauses for part in _and_parts(c)]
    if len(claims) > 1:
        issues += [i for c in claims if (i := _support_issue(c, sources, common))]
    for clause in clauses:
        issues += _quantity_issues(clause, sources)
    return issues


def _merged(pieces: list[str]) -> list[str]:
    """``pieces`` joined into clauses: one of fewer than ``MIN_CLAUSE_TERMS`` terms joins
    the one before it (the first one the next), and a leading context ("if you leave the
    company,", "在上海出差，", "离职时，") the one after it, since a condition or a setting
    claims nothing by itself."""
    out: list[str] = []
    context = ""
    for piece in pieces:
        piece = f"{context}, {piece}" if context else piece
        context = ""
        if _CONTEXT_RE.search(piece) and piece is not pieces[-1]:
            context = piece
        elif out and (len(_clause_terms(piece)) < MIN_CLAUSE_TERMS
                      or len(_clause_terms(out[-1])) < MIN_CLAUSE_TERMS):
            out[-1] = f"{out[-1]}, {piece}"
        else:
            out.append(piece)
    return out + ([context] if context else [])


def _and_parts(clause: str) -> list[str]:
    """``clause`` cut at a bare " and " when each side has at least ``MIN_CLAUSE_TERMS`` + 1
    terms: two statements ("…every 4 years and you may keep the old one for free"), not a
    list ("files and folders", "webhooks and external sharing controls" keep together)."""
    parts = clause.split(" and ")
    out = [parts[0]]
    for part in parts[1:]:
        if min(len(_clause_terms(out[-1])), len(_clause_terms(part))) > MIN_CLAUSE_TERMS:
            out.append(part)
        else:
            out[-1] = f"{out[-1]} and {part}"
    return out


def _matched(clause: str, sources: Sequence[tuple[int, SourceText]]
             ) -> list[tuple[int, SourceClause]]:
    """The source clauses stating the same claim as ``clause`` (in its ``polar_form``): those
    sharing the most of its terms, when that is at least half of them."""
    wanted = _clause_terms(clause)
    scored = [(len(wanted & c.terms), n, c) for n, s in sources for c in s.clauses]
    best = max((score for score, _, _ in scored), default=0)
    if best == 0 or best * 2 < len(wanted):
        return []
    return [(n, c) for score, n, c in scored if score == best]


def _polarity_issue(clause: str, sources: Sequence[tuple[int, SourceText]]) -> str:
    """"" when ``clause`` has the polarity of a source clause stating the same claim (or no
    source clause shares half its terms and the negated words); else why not. Both are read
    in their ``polar_form`` ("are personal costs" is "are not reimbursed")."""
    clause = polar_form(clause)
    wanted = _clause_terms(clause)
    own = parity(clause)
    focus = negated_terms(clause)
    same = [(n, c) for n, c in _matched(clause, sources)
            if focus <= c.terms and c.negated <= wanted]
    if not same or any(c.restriction or c.parity == own for _, c in same):
        return ""
    n, c = same[0]
    if own:
        return (f"denies what [{n}] states: “{c.text}” (the sentence adds a negation; keep "
                "the source's polarity)")
    return (f"leaves out the negation of [{n}]: “{c.text}” (the sentence states what the "
            "source denies)")


def _restriction_issue(clause: str, sources: Sequence[tuple[int, SourceText]]) -> str:
    """"" unless ``clause`` restricts its claim ("only for managers") while the source
    clauses stating it have no restriction and their sentences lack the word it restricts
    to (``predicates.restriction_scope``); else which restriction."""
    scope = restriction_scope(clause)
    if scope is None:  # most clauses: no source clause need be matched
        return ""
    matched = _matched(polar_form(clause), sources)
    if not matched or any(c.restriction for _, c in matched):
        return ""
    held = {n: src.sentences for n, src in sources}
    if any(scope[1] in held[n][c.sentence][1] for n, c in matched):
        return ""
    n, c = matched[0]
    return (f"adds “{scope[0]}”, a restriction [{n}] does not state: “{c.text}” (every part "
            "of a sentence needs its source)")


def _support_terms(clause: str, common: frozenset[str]) -> frozenset[str]:
    found = (_clause_terms(clause) - common) or _clause_terms(clause)
    longer = frozenset(t for t in found if t.isascii() or len(t) > 1)
    return longer or found


def _support_issue(
    clause: str, sources: Sequence[tuple[int, SourceText]], common: frozenset[str]
) -> str:
    """"" when one source sentence holds more than ``CLAUSE_SUPPORT`` of the clause's terms
    or has the clause verbatim; else which part is unsupported."""
    if detect_language(clause) not in {s.language for _, s in sources}:
        return ""  # another language: gate two's cross-language rule judges it
    wanted = _support_terms(clause, common)
    best = 0
    for _, source in sources:
        for text, held, _ in source.sentences:
            if clause in text:
                return ""
            best = max(best, len(wanted & held))
    if best > CLAUSE_SUPPORT * len(wanted):
        return ""
    cited = _cites([n for n, _ in sources])
    return (f"says “{clause}”, which no sentence of {cited} supports ({best} of its "
            f"{len(wanted)} words in one sentence); every part of a sentence needs its source")


def _quantity_issues(clause: str, sources: Sequence[tuple[int, SourceText]]) -> list[str]:
    """One issue per quantity of ``clause`` that the source sentences about its subject do
    not give, or give for another subject (module doc, check 3; ``bindings``)."""
    sentences = [s for _, src in sources for s in src.sentences]
    pieces = split_clauses(clause)
    conditions = [q for p in pieces[:-1] if _CONTEXT_RE.search(p) for q in extract_quantities(p)]
    return quantity_issues(clause, pieces, sentences, _cites([n for n, _ in sources]),
                           _clause_terms, conditions)
