"""Which sentences an answer quotes once its lead is chosen: the lead, its list items, the
sentence that continues it, and extras that add to it (``pick``), at most ``MAX_SENTENCES``.
Thresholds measured on the demo set and RGB (README: How an answer is made)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import partial

from kbqa.core.readers.extractive.applicability import for_another_group
from kbqa.core.readers.extractive.expand import is_question
from kbqa.core.readers.extractive.focus import ask_clause
from kbqa.core.readers.extractive.parallel import value_kinds
from kbqa.core.readers.extractive.predicate import predicate_first
from kbqa.core.readers.extractive.question import ANSWER_TYPE_TERMS
from kbqa.core.readers.extractive.scoring import Scorer
from kbqa.core.readers.extractive.senses import same_ask
from kbqa.core.readers.extractive.text import Candidate, candidates, folded_terms
from kbqa.core.readers.extractive.thresholds import threshold_first
from kbqa.core.readers.extractive.units import other_rate, rate_first
from kbqa.core.types import Block

MAX_SENTENCES = 3  # quoted sentences per answer, list items of the lead intro aside (brief)
KEEP_RATIO = 0.5  # an extra sentence must score half the best (measured on demo and RGB)
FOLLOW_RATIO = 0.5  # the same for the sentence right after the best, which is tried first
SUBJECT_FOLLOW_RATIO = 0.3  # ...when it states the best's subject (key term) again
DUPLICATE_JACCARD = 0.6  # term-set Jaccard at or above which two sentences say the same
# A sentence opening with a bare reply ("Yes, …", "No, …", 可以，, 不需要，) answers the FAQ
# question before it in its passage: beside another question's answer it reads as a reply
# to that one ("病假要提前申请吗" + "可以，年假最小申请单位为半天。").
_REPLY_RE = re.compile(
    r"\s*(?:(?:yes|no|yep|nope)\b|(?:不)?(?:可以|能|行|需要|用|会|是的?|对)(?=[，,]))",
    re.IGNORECASE)


def pick(scored: list[tuple[float, Candidate]], scorer: Scorer,
          docs: Mapping[int, str] | None = None,
          lead: tuple[float, Candidate] | None = None) -> list[Candidate]:
    """The best sentence with a key term or stating what is asked for (with its list items
    when it is an intro), then up to ``MAX_SENTENCES`` in all: first the sentence right
    after the best if it scores ``FOLLOW_RATIO`` of the best (it continues it), then others
    scoring ``KEEP_RATIO`` of the best; each extra has a key term, shares a specific question
    term (not an answer-type word) in its own words, is about the best's subject (same
    block, or a key noun of the question both state) and adds new terms; extras follow in
    block and reading order; an extra from another document (``docs``: block number ->
    document id) answers the lead's ask (``senses.same_ask``); ``lead`` (the sentence that
    decides a yes/no question, ``predicate``) leads instead of the best."""
    keyed = [(s, c) for s, c in scored if scorer.keyed(c)] or scored
    # The best may lack a key term when it states what is asked (a number for "多久").
    best_score, best = lead or next(((s, c) for s, c in scored if scorer.keyed(c) or (
        scorer.states(c))), keyed[0])
    chosen = [best, *scorer.intros.get((best.n, best.position), ())]
    # The next sentence continues the best: compared without the heading the best has.
    plain = scorer(best, heading=False)
    # The unit of the asker's own number ("characters" of "my password is 10 characters")
    # measures; an extra sharing only it ("A file name may be up to 255 characters long.")
    # is about something else.
    measures = scorer.measures
    specific = frozenset(scorer.weights) - ANSWER_TYPE_TERMS - measures
    subject = frozenset(t for t in scorer.own(best) & scorer.key
                        if t not in scorer.verbs and t not in measures
                        and (t.isascii() or len(t) > 1))
    after = [(s, c) for s, c in keyed
             if (c.n, c.position) == (best.n, best.position + 1) and not c.item]
    follow = [(best_score, c) for s, c in after if s >= FOLLOW_RATIO * plain]
    # ...and at a lower score, after the other extras, when it takes up the best's subject
    # ("Carried-over days must be used by 31 March" after "Up to 5 unused days may be…")
    weak = [(best_score, c) for s, c in after
            if SUBJECT_FOLLOW_RATIO * plain <= s < FOLLOW_RATIO * plain and subject & c.terms]
    extras: list[Candidate] = []
    for score, cand in [*follow, *keyed, *weak]:
        if len(chosen) + len(extras) >= MAX_SENTENCES:
            break
        # An extra supports the lead, so it need not state the asked type itself.
        untyped = scorer(cand, typed=False) if score < best_score else score
        if untyped < KEEP_RATIO * best_score or cand in chosen or cand in extras:
            continue
        if _REPLY_RE.match(cand.text):
            continue  # "可以，年假最小申请单位为半天。" replies to its own FAQ question
        if other_rate(scorer.question, cand.text, scorer.kind):
            continue  # a meal allowance per day beside the hotel limit per night
        same = cand.n == best.n or bool(subject & cand.terms)
        same_doc = (docs or {}).get(cand.n) == (docs or {}).get(best.n)
        if same and specific & cand.terms and adds(cand, [*chosen, *extras]) and (
                same_ask(scorer.kind, scorer.question, best, cand, same_doc)):
            extras.append(cand)
    # An extra that introduces a list comes with its items ("NimbusDrive supports two
    # methods:" was shown with nothing after it), or not at all when it has none.
    extras = [c for c in extras if not c.intro or scorer.intros.get((c.n, c.position))]
    return [*chosen, *(item for c in sorted(extras, key=lambda c: (c.n, c.position))
                       for item in (c, *scorer.intros.get((c.n, c.position), ())))]


def adds(cand: Candidate, chosen: Sequence[Candidate]) -> bool:
    """Whether ``cand`` says something new: not a fragment, not a near-duplicate of a chosen
    sentence, and at least 30% of its terms not in the chosen ones."""
    seen = frozenset().union(*(c.terms for c in chosen))
    duplicate = any(_jaccard(cand.terms, c.terms) >= DUPLICATE_JACCARD for c in chosen)
    fresh = len(cand.terms - seen) * 10 >= 3 * len(cand.terms)
    return fresh and not duplicate and not cand.fragment


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0


def deciding_first(question: str, scored: list[tuple[float, Candidate]],
                   scorer: Scorer) -> list[tuple[float, Candidate]]:
    """``scored`` with the sentence that decides the question first, when the best one does
    not: the rule for the asker's own amount (``thresholds.threshold_first``), else the
    sentence stating a yes/no question's predicate (``predicate.predicate_first``) when it
    has every key word the best one has, else
    the rate per the asked unit (``units.rate_first``: per night, 每晚)."""
    deciding = threshold_first(scored, scorer.amounts)
    if deciding[0] is scored[0]:
        # ...never a rule for another group ("Administrators can limit external sharing…"
        # for "Can I share a file…?": what the asker may do is not what admins may)
        deciding = predicate_first(question, scored,
                                   {i: c.text for i, (_, c) in enumerate(scored)},
                                   partial(for_another_group, question))
        # ...one lacking a key word of the ask the best one has speaks of another thing:
        # "give it an expiry date" of a link's password for "give her my Wi-Fi password?"
        # (a key word of a condition before the ask, "if our webhook endpoint is down", is
        # not what is asked about)
        asked = scorer.key & folded_terms(ask_clause(question))
        if asked & scorer.covers(scored[0][1]) - scorer.covers(deciding[0][1]):
            deciding = list(scored)
    if deciding[0] is scored[0]:
        deciding = rate_first(question, scored, lambda c: c.text, scorer.kind)
    return deciding


def read_whole(chosen: Sequence[Candidate], blocks: Sequence[Block]) -> list[Candidate]:
    """``chosen`` with the pieces each needs to be read whole, when not chosen yet: before a
    later sentence of a list item (``Candidate.continued``) the sentence before it in its
    block ("You cannot open NimbusDrive … until it is on." says nothing without "Set up
    two-factor authentication …"); after a clause ending at a semicolon (both scripts) the
    rest of its sentence (half of "超出部分自动作废；如果是经理书面要求推迟休假，可以例外处
    理。" says the opposite of the whole: a tester, 2026-12-06), unless it is another case of
    the same rule (``_parallel``). Shown, not checked: the answer checks ran on ``chosen``."""
    if not any(c.continued or _open(c) for c in chosen):
        return list(chosen)
    at = {(c.n, c.position): c for c in candidates(blocks)}
    out: list[Candidate] = []
    for c in chosen:
        before = at.get((c.n, c.position - 1))
        # never a question (an FAQ's "…可以按半天申请吗？" before its answer)
        if (c.continued and before is not None and before not in chosen and before not in out
                and not is_question(before.text)):
            out.append(before)
        if c not in out:
            out.append(c)
        last = c
        while _open(last) and (after := at.get((last.n, last.position + 1))) is not None \
                and after not in chosen and after not in out and not _parallel(last, after):
            out.append(after)
            last = after
    return out


def _parallel(clause: Candidate, after: Candidate) -> bool:
    """Whether ``after`` states a value of the kind ``clause`` states: another case of one
    rule, which ``parallel.with_parallel`` adds or leaves out by the question's case."""
    return bool(value_kinds(clause.text) & value_kinds(after.text))


def _open(c: Candidate) -> bool:
    """Whether ``c`` ends at a semicolon: its sentence goes on."""
    return c.text.rstrip().endswith(("；", ";"))


ASKED_SHARE = KEEP_RATIO  # of the first's score, for a sentence naming the asked thing to lead
ASKED_WINDOW = 3  # candidates looked at, the first included


def asked_thing_first(scored: list[tuple[float, Candidate]], asked: Mapping[str, float],
                      synonyms: Mapping[str, tuple[str, ...]]) -> list[tuple[float, Candidate]]:
    """``scored`` with a sentence naming the asked thing through a synonym the blocks use
    first, when the first names none and it scores ``ASKED_SHARE`` of the first within
    ``ASKED_WINDOW``: "出差打车能报销吗？" is about 打车, which the policy calls 出租车, so
    "以下情况可以报销出租车…" leads over "出差餐费…最多报销 150 元", which shares only the
    trip and the verb. ``asked``: the question's words no block has, with their weights
    (``absent.asked_absent``); ``synonyms``: their words the blocks have."""
    names = {s for t in asked for s in synonyms.get(t, ())}
    if not names or not scored:
        return scored

    def named(c: Candidate) -> bool:
        return bool(names & (c.terms | c.heading | c.context))

    if named(scored[0][1]):
        return scored
    for i, (value, c) in enumerate(scored[1:ASKED_WINDOW], 1):
        if value >= ASKED_SHARE * scored[0][0] and named(c):
            return [scored[i], *scored[:i], *scored[i + 1:]]
    return scored
