"""Which sentences answer the question, or whether to decline (``select``).

See ``reader.py`` for the whole procedure; scores come from ``scoring.py``, what the
question asks from ``focus.py`` and ``question.py``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from kbqa.core.grounding.instructions import addresses_assistant
from kbqa.core.readers.extractive.absent import (
    absent_topic,
    action_or_time,
    asked_absent,
    leans_on_context,
    misses_topic,
    named_things,
    points_back,
    too_specific,
)
from kbqa.core.readers.extractive.acronyms import acronym_bridges, capped
from kbqa.core.readers.extractive.answered_words import gap_names, unanswered
from kbqa.core.readers.extractive.applicability import for_another_group, in_scope
from kbqa.core.readers.extractive.binding import answers, bound_terms
from kbqa.core.readers.extractive.crossing import crossed
from kbqa.core.readers.extractive.expand import (
    as_read,
    describes_document,
    is_question,
    spell_numbers,
)
from kbqa.core.readers.extractive.focus import (
    ask_clause,
    ask_core,
    ask_kind,
    later_asks,
    new_answer,
)
from kbqa.core.readers.extractive.identifiers import own_values
from kbqa.core.readers.extractive.kinds import kinds_stated, names_another_kind, other_leave_zh
from kbqa.core.readers.extractive.meaning import CONFIDENT_Z, REPLACE_Z, confident, rerank
from kbqa.core.readers.extractive.narrower import general_first
from kbqa.core.readers.extractive.narrowing import (
    EVERYONE,
    answers_another_group,
    consequence_pool,
    group_mentioned,
    recipients,
    unmentioned_groups,
    unquoted_thing,
    with_group_gaps,
)
from kbqa.core.readers.extractive.own_names import contradicts, names_before
from kbqa.core.readers.extractive.parallel import with_parallel
from kbqa.core.readers.extractive.picking import asked_thing_first, deciding_first, pick, read_whole
from kbqa.core.readers.extractive.predicate import undecided
from kbqa.core.readers.extractive.question import (
    ANSWER_TYPE_TERMS,
    PLACE_TYPE_TERMS,
    VERBS,
    function_words,
    groups,
    in_matched_phrase,
    light_parts,
    light_terms,
    qualifiers,
    unit_terms,
)
from kbqa.core.readers.extractive.question_verbs import verbs_after
from kbqa.core.readers.extractive.scoring import (
    Scorer,
    about_own_words,
    beside_the_ask,
    block_frequency,
    block_terms,
    focus_weights,
    key_terms,
    only_light,
    outweighed,
    ranked,
    salience,
    term_weights,
    topical,
    verbs_only_answered,
)
from kbqa.core.readers.extractive.second_look import of_asked_kind, with_asked_group
from kbqa.core.readers.extractive.senses import only_other_senses
from kbqa.core.readers.extractive.standing import settled_pool, with_outcomes
from kbqa.core.readers.extractive.steps import action_pool, is_procedure, task_objects, whole_steps
from kbqa.core.readers.extractive.subjects import off_subject
from kbqa.core.readers.extractive.synonyms import (
    SYNONYM_WEIGHT,
    block_synonyms,
    expanded_question_terms,
    only_expanded,
    ranked_below,
    synonym_groups,
)
from kbqa.core.readers.extractive.text import Candidate, Selection, candidates, list_items
from kbqa.core.readers.extractive.thresholds import asker_amounts, with_beyond
from kbqa.core.readers.extractive.units import asker_measures, pool_units
from kbqa.core.text.procedures import asked_action
from kbqa.core.text.terms import fold
from kbqa.core.types import Block

_DIGIT_RE = re.compile(r"\d")

def select(question: str, blocks: Sequence[Block]) -> Selection:
    """Choose the sentences that answer ``question`` from ``blocks``, or decline; a
    question narrowed to a group of people that no chosen block but another block mentions
    is declined (``narrowing``)."""
    question = as_read(question, blocks)
    chosen = _select(question, blocks)
    if chosen.declined:
        return chosen
    everything = " ".join(f"{b.chunk.title} {b.chunk.section} {b.chunk.text}".lower()
                          for b in blocks)

    def reselect(exclude: frozenset[str]) -> Selection:
        return _select(question, blocks, exclude=exclude)

    chosen = with_asked_group(question, blocks, chosen, everything, reselect)
    if chosen.declined:
        return chosen
    chosen = of_asked_kind(question, blocks, chosen, reselect)
    if chosen.declined:
        return chosen
    # a group no block names gets its "Not covered" line; one only other blocks name: declined
    elsewhere = set(unmentioned_groups(question, [c.n for c in chosen.chosen], blocks))
    nowhere = unmentioned_groups(question, [b.n for b in blocks], blocks)
    if elsewhere - set(nowhere):
        return Selection((), (), True)
    chosen = with_group_gaps(question, chosen, nowhere)  # wherever the question names it
    # A group asked what it receives that no block names: the blocks' rule is someone
    # else's ("Employees receive 10 days…" for contractors), so the answer is a refusal.
    unnamed = [g for g in recipients(question) if not group_mentioned(g, everything)]
    if unnamed:
        return Selection((), tuple(unnamed), True)
    if off_subject(question, chosen.chosen[0].n, blocks) or for_another_group(
            question, chosen.chosen[0].text):  # the earlier focus; "Interns are…" for "I"
        return Selection((), (), True)
    quoted = {c.n for c in chosen.chosen}
    texts = " ".join(f"{b.chunk.title} {b.chunk.section} {b.chunk.text}".lower()
                     for b in blocks if b.n in quoted)
    if answers_another_group(question, [c.text for c in chosen.chosen], texts):
        return Selection((), (), True)
    if unquoted_thing(question, [c.text for c in chosen.chosen],
                      [b for b in blocks if b.n in quoted]):
        return Selection((), (), True)  # "…, for webhook?" answered of the earlier focus
    return chosen


def _select(question: str, blocks: Sequence[Block],
            exclude: frozenset[str] = frozenset()) -> Selection:
    question = spell_numbers(question)
    terms = block_terms(blocks)  # folded once: expanding and counting both need them
    synonyms = block_synonyms(question, terms)
    bridges = acronym_bridges(question, [b.chunk for b in blocks])
    chosen = _select_terms(question, blocks, terms, synonyms, bridges=bridges, exclude=exclude)
    crossed_choice = _select_crossing(question, blocks, terms, synonyms, chosen, bridges, exclude)
    if crossed_choice is not chosen or chosen.declined:  # read across languages, or nothing
        return crossed_choice
    if not only_expanded(chosen.chosen, expanded_question_terms(question, terms, synonyms,
                                                        bridges=bridges), synonyms):
        return chosen
    return Selection((), chosen.uncovered, True)  # only a synonym's other sense matched


def _select_crossing(question: str, blocks: Sequence[Block], terms: Sequence[frozenset[str]],
                     synonyms: Mapping[str, tuple[str, ...]], first: Selection,
                     bridges: Mapping[str, tuple[str, ...]],
                     exclude: frozenset[str] = frozenset()) -> Selection:
    """The question once more with its words read in the other language's block words
    (``crossing.crossed``) when the reader's ``first`` choice declines, or when only the
    other language's blocks say a phrase it asks; ``first`` itself unless that answers."""
    def choose(some: Sequence[Block], some_terms: Sequence[frozenset[str]],
               translations: Mapping[str, tuple[str, ...]], more: frozenset[str]) -> Selection:
        mine = synonyms if len(some) == len(blocks) else {}
        return _select_terms(question, some, some_terms, mine, translations, bridges,
                             exclude | more)

    return crossed(question, blocks, terms, first, choose)


def _select_terms(question: str, blocks: Sequence[Block], terms: Sequence[frozenset[str]],
                  synonyms: Mapping[str, tuple[str, ...]],
                  translations: Mapping[str, tuple[str, ...]] | None = None,
                  bridges: Mapping[str, tuple[str, ...]] | None = None,
                  exclude: frozenset[str] = frozenset()) -> Selection:
    qterms = expanded_question_terms(question, terms, synonyms, translations, bridges)
    df = block_frequency(qterms, terms)
    # Only the ask clause's absent words make the blocks miss it ("flying to Singapore…": no)
    ask = set(expanded_question_terms(ask_clause(question), terms, synonyms, translations, bridges))
    own_ask = bool(ask)  # the ask names something of its own
    if leans_on_context(question, ask, df):
        ask, own_ask = set(), False
    elif points_back(question, ask):
        ask, own_ask = set(qterms), False
    absent = [t for t in qterms if df[t] == 0 and t in ask]
    asked = {t: s for t, s in asked_absent(question, qterms, df, len(blocks),
                                           [b.chunk.text for b in blocks]).items() if t in ask}
    named = (named_things(question, [t for t in qterms if t in ask], df, len(blocks))
             | absent_topic(question, asked, synonyms))
    if not qterms or too_specific([t for t in qterms if t in ask], asked, named):
        return Selection((), gap_names(question, absent, blocks), True)
    pool = [c for c in candidates(blocks)  # never a FAQ's question or an order to the assistant
            if not is_question(c.text) and not addresses_assistant(c.text)
            and not describes_document(c.text) and c.text not in exclude]
    # When a block's section is about the asked kind ("Sick leave"), a sentence under a
    # section about another kind of it ("Annual leave") is no candidate.
    sections = {b.n: b.chunk.section for b in blocks}
    kinds = kinds_stated(question, list(sections.values()))
    pool = [c for c in pool if not other_leave_zh(question, c.text)  # 事假… for 年假
            and not names_another_kind(kinds, sections.get(c.n, ""), frozenset(qterms))]
    # A document sending the asker's office or region elsewhere ("Employees of the Chengdu
    # office follow the Chinese policy instead") answers with that sentence only.
    pool = in_scope(question, pool, blocks)
    pool = consequence_pool(question, pool)  # "what happens if…": a condition's outcome
    pool = settled_pool(question, pool)  # a proposal or open item is no fact (``standing``)
    present = [t for t in qterms if df[t] > 0]
    light = light_parts(qterms, light_terms(question) | unit_terms(question)
                        | own_values(question, qterms)) | EVERYONE
    unasked = frozenset(t for t in present if ask and t not in ask)  # context words only
    topics = frozenset().union(*(c.context | c.lead for c in pool)) if pool else frozenset()
    weights = capped(term_weights(present, pool, df, len(blocks)), bridges or {})
    added = ranked_below(question, synonyms)  # a synonym, not the user's own word
    focus = {t: f * SYNONYM_WEIGHT if t in added else f
             for t, f in salience(present, light).items()}
    kind = ask_kind(question)
    units = pool_units(question, kind, pool)
    if units is None:  # a measure of its own no sentence states ("多少分算及格": points)
        return Selection((), gap_names(question, absent, blocks), True)
    scorer = Scorer(weights, kind, list_items(pool),
                    key_terms(focus_weights(weights, focus, topics), question),
                    synonym_groups(groups(present), {**synonyms, **(bridges or {})}),
                    names_before(question),
                    qualifiers(question) | function_words(question) | VERBS, question,
                    focus, units, unasked, asker_amounts(question), asker_measures(question))
    # A how-to question is answered only by an action for its task (``steps``).
    answering = pool
    if is_procedure(question, kind):
        # An ask naming no object ("What do I need to do?") takes the context's.
        objects = task_objects(question, ask) or task_objects(question, set(qterms))
        answering = action_pool(question, pool, blocks, scorer.intros, objects)
        verb = asked_action(ask_clause(question))  # an action, not a kind of the object
        absent = [t for t in absent if t != verb]
    scored = ranked(((scorer(c), c) for c in answering), scorer, whole=all(df.values()))
    later_ask = later_asks(question)  # usually "": nothing to expand
    later = set(expanded_question_terms(later_ask, terms, synonyms, translations, bridges)
                if later_ask else ())
    # The ask's own words, its condition aside, when the ask names something itself.
    core = (frozenset(expanded_question_terms(ask_core(question), terms, synonyms,
                                              translations, bridges))
            if own_ask else frozenset())
    facts = _Facts(qterms, present, absent, asked, len(pool),
                   [t for t in qterms if df[t] == 0 and t in later and t not in absent],
                   {**synonyms, **(bridges or {})}, core)
    lexical = _decide(question, blocks, scored, scorer, facts)
    lexical = whole_steps(lexical, pool, blocks, qterms) if answering is not pool else lexical
    # A sentence whose meaning stands out from all the others (semantic recall on) answers
    # when it passes the answer checks, even where the question's own words are absent;
    # replacing the lexical reader's answer takes more than answering where it declines.
    by_meaning = confident(question, scored, CONFIDENT_Z if lexical.declined else REPLACE_Z)
    if by_meaning and by_meaning[0] not in lexical.chosen:
        semantic = _decide_meaning(question, blocks, by_meaning, scorer, facts)
        if not semantic.declined:
            return semantic
    if not lexical.declined:
        return lexical
    # Declined: sentence similarity (when semantic recall is on) may put a sentence first
    # that says it in other words; every decline still applies to it (``meaning.rerank``).
    reranked = rerank(question, scored)
    if reranked is scored:
        return lexical
    semantic = _decide(question, blocks, reranked, scorer, facts)
    return lexical if semantic.declined else semantic


@dataclass(frozen=True)
class _Facts:
    """What ``select`` worked out about the question, for ``_decide``."""

    qterms: list[str]
    present: list[str]
    absent: list[str]
    asked: dict[str, float]
    n_pool: int
    # absent words of a later yes/no ask the answer does not decide (``focus.later_asks``):
    # named as uncovered beside an answer, never a reason to decline
    later_absent: list[str] = field(default_factory=list)
    # each question term's synonyms and acronym forms that blocks have (``block_synonyms``,
    # ``acronym_bridges``): a word met through one is answered, not missing
    synonyms: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # the ask clause's terms without its condition ("…when I get back to my desk"); empty
    # when the ask leans on the context or points back to it
    core: frozenset[str] = frozenset()


def _decide(question: str, blocks: Sequence[Block], scored: list[tuple[float, Candidate]],
            scorer: Scorer, facts: _Facts) -> Selection:
    """Quote from ``scored`` (best first) or decline: ``outweighed``, ``topical`` (the
    first sentence ``on_topic`` and distinguished), then ``answers`` for the sentences
    ``_pick`` chooses."""
    present, absent, asked = facts.present, facts.absent, facts.asked
    if outweighed(asked, scorer, facts.n_pool) and not verbs_only_answered(asked, scored, scorer):
        return Selection((), gap_names(question, list(asked), blocks), True)
    if not topical(scored, scorer):
        return Selection((), gap_names(question, absent, blocks), True)
    # With a thing asked about absent ("Can I bring my cat?"), the asker's verb alone says
    # nothing of it ("bring-your-own-key"); "Who can restore files?" asks who does the act.
    acts = verbs_after(question) if scorer.kind != "person" else frozenset()
    verbs = acts if any(s >= 1.0 for s in asked.values()) else frozenset()
    if asked and only_light(scored[0][1], scorer, verbs):
        return Selection((), gap_names(question, absent, blocks), True)
    scored = about_own_words(scored, scorer, acts)  # [] when only verbs and light words meet
    if not scored:
        return Selection((), gap_names(question, absent, blocks), True)
    # A yes/no question is decided by a sentence stating its predicate ("carried over"),
    # not by one about its subject only ("20 days of annual leave"): ``predicate``.
    # ...and the rule for the asker's own amount, when one states it (``thresholds``).
    scored = asked_thing_first(scored, asked, facts.synonyms)
    deciding = deciding_first(question, scored, scorer)
    # ...and about its subject: one sharing only the asker's verbs and light words ("If you
    # lose a receipt…" for "do I lose those vacation days?") speaks of something else
    if deciding[0] is not scored[0] and only_light(deciding[0][1], scorer, acts):
        deciding = scored
    lead = deciding[0] if deciding[0] is not scored[0] else None
    docs = {b.n: b.chunk.doc_id for b in blocks}
    pool = [c for _, c in scored]
    picked = with_parallel(question, pool, with_beyond(
        with_outcomes(pick(deciding, scorer, docs, lead), pool), pool, scorer.amounts))
    chosen = _checked(question, blocks, picked, scorer, facts)
    if not chosen or beside_the_ask(chosen[0], scorer, facts.core):
        return Selection((), gap_names(question, absent, blocks), True)
    # A lead narrowed by a qualifier the question lacks ("HR files") yields to one stating
    # the same without it, when that one passes the same checks (``narrower``).
    general = None if lead else general_first(question, scored, scorer.covers, scorer.states)
    if general:
        chosen = _checked(question, blocks, pick(scored, scorer, docs, general), scorer,
                          facts) or chosen
    if any(_DIGIT_RE.search(c.text) for c in chosen):
        absent = [t for t in absent if t not in ANSWER_TYPE_TERMS | unit_terms(question)]
    if scorer.kind == "place" and any(new_answer("place", c.text, question) for c in chosen):
        absent = [t for t in absent if t not in PLACE_TYPE_TERMS]  # a place answers 城市
    # A Chinese word qualifying an answered noun phrase is not missing (jieba's noun tags
    # find the phrase; English words carry no tags, so "guest" in "guest restore" stays).
    partial = [t for t in absent
               if t.isascii() or not in_matched_phrase(t, question, frozenset(present))]
    partial += facts.later_absent
    # A word the answer meets through its synonym ("trash": the recycle bin) is answered.
    said = frozenset().union(*(c.terms | c.heading | c.context for c in chosen))
    partial = [t for t in partial
               if not said & {*facts.synonyms.get(t, ()), *facts.synonyms.get(fold(t), ())}]
    # Beside an answer, an action ("if I enter the wrong password", "took") or a time
    # ("yesterday") is no missing thing; a decline still names it ("…when I quit?").
    named = [w for w in gap_names(question, partial, blocks) if not action_or_time(w, question)]
    gaps = unanswered(question, tuple(named), [c.text for c in chosen])
    return Selection(tuple(read_whole(chosen, blocks)), gaps, False)


def _checked(question: str, blocks: Sequence[Block], chosen: list[Candidate], scorer: Scorer,
             facts: _Facts) -> list[Candidate]:
    """``chosen`` without the extras that share the question's words only in another sense
    (``senses``), or [] when they do not answer: a yes/no question none of them decides
    (``predicate.undecided``), a lead sharing words only in another sense ("client ID" for
    a client dinner), or ``binding.answers`` false."""
    if undecided(question, chosen) or misses_topic(question, chosen[0], scorer.weights, blocks):
        return []
    light = frozenset(t for t, f in scorer.salience.items() if f < 1.0)
    other = [c for c in chosen if only_other_senses(question, c, blocks, scorer.covers(c), light)]
    if chosen[0] in other:
        return []
    chosen = [c for c in chosen if c not in other]
    bound = bound_terms(question, facts.qterms, [*facts.present, *facts.absent])
    return chosen if answers(question, chosen, bound, blocks, frozenset(facts.absent)) else []


def _decide_meaning(question: str, blocks: Sequence[Block], quoted: Sequence[Candidate],
                    scorer: Scorer, facts: _Facts) -> Selection:
    """Quote ``quoted`` (a lead and the sentence after it, chosen by their meaning:
    ``meaning.confident``; the lead's list items when it is an intro), or decline: the
    lexical declines that count the question's words (``too_specific``, ``outweighed``,
    ``on_topic``) do not apply, the checks of what it says do (a fragment, another place or
    name, ``answers`` with ``by_meaning``); it declines when no block states any of the
    question's words (``facts.present`` empty)."""
    lead = quoted[0]
    chosen = [lead, *scorer.intros.get((lead.n, lead.position), ()), *quoted[1:]]
    declined = Selection((), (), True)
    # No block states any word of the question: meaning is then the only link, and
    # similarity within one knowledge base's domain is no evidence ("团建活动的预算" is
    # closest to the meal allowance); at least one word must meet.
    if lead.fragment or contradicts(scorer.names, lead.text) or not facts.present:
        return declined
    if not answers(question, chosen, frozenset(facts.qterms), blocks, frozenset(facts.absent),
                   by_meaning=True):
        return declined
    return Selection(tuple(chosen), (), False)
