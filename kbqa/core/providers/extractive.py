"""The offline default: answers by quoting the sources' own sentences, cited, or declines.

For ``answer``/``answer_json`` it takes every quotable sentence of the blocks
(``extractive_text.candidates``: original text, table rows paired with their headers) and
scores each by the question terms it contains, weighted by rarity across the sentences
(``log((N + 1) / (sdf + 0.5))``; a term in more than half of 3+ blocks keeps
``COMMON_FACTOR``), terms only in its section heading or title counting ``CONTEXT_WEIGHT``,
a number earning the rarest term's weight for quantity questions (how long/much, deadline,
多久...), times ``(1 + coverage) / 2`` (share of the question's terms covered); fragments
and bare intros are penalised; ties go to the block retrieval ranked higher, then reading
order. Question words of 1-2 Latin letters carry no weight, and a number counts only with
its unit or next word (40 days is not 40 users). It returns the best sentence that has one of
the question's key (rarest) terms, with its list items when it ends with a colon, then up to
``MAX_SENTENCES`` in all: first the sentence right after the best, then others, each scoring
at least ``KEEP_RATIO`` of the best, having a key term and a specific question term (not an
answer-type word such as "limit") and adding new terms. Each is followed by its block
number: ``... [2]``.

It declines (outputs only a ``Not covered:`` / ``资料未涵盖：`` sentence, which the pipeline
turns into a "no support" refusal) when the question names something no block mentions
(``too_specific``), or when the best sentence covers less than half of the question's
present terms and not its rarest one (``on_topic``). Question words that no block mentions
are named in a final gap sentence (a partial answer), and only those the verifier accepts
in a gap (``gap_names``); never digits, light verbs ("last") or Chinese function words and
single characters (``里``). With none, there is no gap sentence. ``compress`` keeps
the block's sentences that share any question term, verbatim, one per line. ``rewrite`` is
not supported.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import ClassVar

from kbqa.core.citations import Verifier, parse_claim
from kbqa.core.errors import ProviderError
from kbqa.core.providers.base import Prompt, Provider, ProviderCall
from kbqa.core.providers.extractive_text import (
    Candidate,
    candidates,
    cite,
    fold,
    folded_terms,
    function_words,
    gap_sentence,
    qualifiers,
    question_numbers,
    surfaces,
    unwrap,
)
from kbqa.core.providers.fake import word_deltas
from kbqa.core.sentences import split_sentences
from kbqa.core.text import detect_language
from kbqa.core.tokenize import terms
from kbqa.core.tokens import count_tokens
from kbqa.core.types import Block, Language

MAX_SENTENCES = 3  # quoted sentences per answer, list items of the lead intro aside (brief)
MAX_LIST_ITEMS = 5  # list items quoted after an intro that ends with a colon
KEEP_RATIO = 0.5  # an extra sentence must score half the best (measured on demo and RGB)
FOLLOW_RATIO = 0.5  # the same for the sentence right after the best, which is tried first
DUPLICATE_JACCARD = 0.6  # term-set Jaccard at or above which two sentences say the same
COMMON_FACTOR = 0.5  # weight kept by a term in more than half of 3+ blocks (verifier's rule)
KEY_SHARE = 0.5  # a key term weighs at least half the rarest term (measured on the demo set)
MIN_WEIGHT = 0.1  # weight of a term in nearly every sentence
CONTEXT_WEIGHT = 0.5  # a question term only in the sentence's section heading or title
FRAGMENT_FACTOR = 0.25  # score kept by a fragment (or an intro with no list after it)
GENERIC_TERMS = frozenset(
    """long many much get got need want know tell way happen still ever really thing keep
    something anything someone anyone make let like able allowed possible please
    after before during within until since per via
    多久 多长 多长时间 需要 怎样 怎么办 能否 是不是 哪里 时候 知道 告诉""".split()
)
# Verbs that carry the question's grammar, not its subject: never named as not covered
# ("How long does the free trial last?" is answered; "last" is not missing).
LIGHT_VERBS = frozenset(fold(w) for w in (
    "last take use work go come mean run apply happen exist stay become allow do make give "
    "put set find".split()))
# "How long/many/much", "maximum", "deadline", "多久/多少/几": the answer is a quantity, so a
# sentence that states a number earns the weight of the question's rarest term (measured on
# the demo documents: without it "How long does the recycle bin keep items?" quoted how to
# restore, and "What is the deadline for submitting a claim?" missed "within 60 days").
_QUANTITY_RE = re.compile(
    r"\bhow (?:long|many|much|big|large|often|soon)\b|\bwhen\b|\bdeadline|\bdue\b"
    r"|\b(?:max|maximum|minimum|limit)\w*"
    r"|多久|多少|多长|多大|几[天个次年月周小]|上限|最多|最长|截止|期限|时限|什么时候|何时"
)
_DIGIT_RE = re.compile(r"\d")
# Words naming the kind of answer rather than what is asked about: a quoted number answers
# them, and their absence from the blocks is no reason to decline.
ANSWER_TYPE_TERMS = frozenset(fold(t) for t in (
    "limit maximum minimum max min size deadline amount number value price cost period duration "
    "often frequently frequency "
    "上限 最多 最长 大小 期限 截止 时限 金额 数量").split())


@dataclass(frozen=True)
class Selection:
    """What to answer: chosen sentences (empty when declining) and uncovered question words."""

    chosen: tuple[Candidate, ...]
    uncovered: tuple[str, ...]
    declined: bool


def question_terms(question: str) -> list[str]:
    """The question's distinct content terms, folded, in order: generic words and Latin
    tokens of 1-2 letters ("a b recycle bin") removed, a number joined with its unit or next
    word (``40 day``: 40 days is not 40 users; ``extractive_text.question_numbers``)."""
    joined = question_numbers(question)
    out = [joined.get(t, fold(t)) for t in terms(question)
           if t not in GENERIC_TERMS and not (t.isascii() and t.isalpha() and len(t) <= 2)]
    return list(dict.fromkeys(out))


def block_frequency(qterms: Sequence[str], blocks: Sequence[Block]) -> dict[str, int]:
    """How many of ``blocks`` (text, section heading or title) contain each question term."""
    block_terms = [
        folded_terms(f"{b.chunk.text}\n{b.chunk.section}\n{b.chunk.title}") for b in blocks
    ]
    return {t: sum(t in bt for bt in block_terms) for t in qterms}


def too_specific(
    qterms: Sequence[str], df: dict[str, int], n_blocks: int, skip: frozenset[str]
) -> bool:
    """Whether the question asks about something no block mentions, so the blocks only share
    its general topic ("my mobile phone bill" against an expense policy).

    The absent terms are the specific thing asked about: those in no block, except Latin
    words under 4 letters ("old"), Chinese sub-words of a longer absent word, and ``skip``:
    answer-type words ("deadline", answered by a number) and Chinese verbs, adjectives and
    adverbs (``改成任意值``: a qualifier left uncovered makes a partial answer).
    Declines when there are at least 2, or when they are more than a third of the question's
    specific terms (those not common to most blocks): "How long does the trial last?" with
    only "last" absent still gets an answer.
    """
    absent = [t for t in qterms if df[t] == 0 and _significant(t) and t not in skip
              and " " not in t]  # "40 day": a quantity the blocks may state otherwise
    absent = [t for t in absent if not any(t != o and t in o for o in absent)]
    specific = [t for t in qterms if _significant(t) and t not in ANSWER_TYPE_TERMS]
    return len(absent) >= 2 or (bool(absent) and 3 * len(absent) > len(specific))


def _common(df: int, n_blocks: int) -> bool:
    """The verifier's rule: in more than half of the blocks and in at least 3 of them."""
    return df >= 3 and df * 2 > n_blocks


def term_weights(
    present: Sequence[str], pool: Sequence[Candidate], df: dict[str, int], n_blocks: int
) -> dict[str, float]:
    """Rarity of each present question term across the sentences of ``pool``:
    ``log((N + 1) / (sdf + 0.5))`` (the BM25 IDF shape), ``COMMON_WEIGHT`` for a term common
    to most blocks (the rule the verifier uses)."""
    n = len(pool)
    weights: dict[str, float] = {}
    for t in present:
        sdf = sum(t in c.terms for c in pool)
        idf = max(math.log((n + 1) / (sdf + 0.5)), MIN_WEIGHT)
        weights[t] = idf * COMMON_FACTOR if _common(df[t], n_blocks) else idf
    return weights


@dataclass(frozen=True)
class Scorer:
    """Scores a sentence for a question: the rarity-weighted question terms it contains
    (those only in its section heading or title count ``CONTEXT_WEIGHT``), plus the weight of
    the rarest term when the question asks for a quantity and the sentence has a number,
    times ``(1 + coverage) / 2`` where coverage is the share of the question's present terms
    it covers (a quantity question's number counting as one more term); fragments and
    intros with no list after them keep ``FRAGMENT_FACTOR`` of their score."""

    weights: dict[str, float]
    quantity: bool
    intros: dict[tuple[int, int], tuple[Candidate, ...]]
    key: frozenset[str] = frozenset()

    def covers(self, c: Candidate) -> frozenset[str]:
        return frozenset(self.weights) & (c.terms | c.context)

    def keyed(self, c: Candidate) -> bool:
        """Whether ``c`` (or its heading) has one of the question's key terms."""
        return not self.key or bool(self.key & (c.terms | c.context))

    def __call__(self, c: Candidate) -> float:
        own = frozenset(self.weights) & c.terms
        base = sum(self.weights[t] for t in own) + CONTEXT_WEIGHT * sum(
            self.weights[t] for t in frozenset(self.weights) & c.context)
        if base <= 0:
            return 0.0
        # A quantity question asks for one thing more, which a number covers.
        number = self.quantity and bool(_DIGIT_RE.search(c.text))
        if number:
            base += max(self.weights.values())
        coverage = (len(self.covers(c)) + number) / (len(self.weights) + self.quantity)
        score = base * (1 + coverage) / 2
        bare_intro = c.intro and not self.intros.get((c.n, c.position))
        score *= FRAGMENT_FACTOR if c.fragment or bare_intro else 1.0
        return round(score, 9)  # equal sums in another order tie, so reading order decides


def key_terms(weights: dict[str, float]) -> frozenset[str]:
    """The question's rarest present terms: weight at least ``KEY_SHARE`` of the top one,
    answer-type words ("limit") and single Chinese characters aside unless nothing else is
    left. Every quoted sentence must have one (measured on the demo set: "the hotel limit"
    took an API rate-limit sentence as an extra)."""
    specific = {t: w for t, w in weights.items()
                if t not in ANSWER_TYPE_TERMS and (t.isascii() or len(t) > 1)} or weights
    if not specific:
        return frozenset()
    top = max(specific.values())
    return frozenset(t for t, w in specific.items() if w >= KEY_SHARE * top - 1e-9)


def list_items(pool: Sequence[Candidate]) -> dict[tuple[int, int], tuple[Candidate, ...]]:
    """For each intro sentence (``(n, position)``), the list items right after it."""
    out: dict[tuple[int, int], tuple[Candidate, ...]] = {}
    for i, c in enumerate(pool):
        if not c.intro:
            continue
        items: list[Candidate] = []
        for nxt in pool[i + 1:]:
            if nxt.n != c.n or not nxt.item or len(items) >= MAX_LIST_ITEMS:
                break
            items.append(nxt)
        out[(c.n, c.position)] = tuple(items)
    return out


def select(question: str, blocks: Sequence[Block]) -> Selection:
    """Choose the sentences that answer ``question`` from ``blocks``, or decline."""
    qterms = question_terms(question)
    df = block_frequency(qterms, blocks)
    absent = [t for t in qterms if df[t] == 0]
    skip = ANSWER_TYPE_TERMS | qualifiers(question)
    if not qterms or too_specific(qterms, df, len(blocks), skip):
        return Selection((), gap_names(question, absent, blocks), True)
    pool = candidates(blocks)
    present = [t for t in qterms if df[t] > 0]
    weights = term_weights(present, pool, df, len(blocks))
    scorer = Scorer(weights, bool(_QUANTITY_RE.search(question.lower())), list_items(pool),
                    key_terms(weights))
    scored = sorted(((scorer(c), c) for c in pool),
                    key=lambda sc: (-sc[0], sc[1].rank, sc[1].n, sc[1].position))
    if not scored or scored[0][0] <= 0 or not on_topic(scored[0][1], scorer):
        return Selection((), gap_names(question, absent, blocks), True)
    chosen = _pick(scored, scorer)
    if any(_DIGIT_RE.search(c.text) for c in chosen):
        absent = [t for t in absent if t not in ANSWER_TYPE_TERMS]  # a number answers them
    return Selection(tuple(chosen), gap_names(question, absent, blocks), False)


def gap_names(question: str, absent: Sequence[str], blocks: Sequence[Block]) -> tuple[str, ...]:
    """The question's own words for ``absent`` terms (in no block) that a gap sentence may
    name: no digits, no function word (``_nameable``, ``function_words``), and each one a
    gap the verifier accepts (``Verifier`` with the question: a question word that no
    block's original text mentions)."""
    skip = function_words(question)
    words = surfaces(question, [t for t in absent if _nameable(t) and t not in skip])
    if not words:
        return ()
    verifier = Verifier(blocks, question=question)
    language = detect_language(question)
    return tuple(w for w in words
                 if verifier.verify(parse_claim(gap_sentence(language, [w]))).ok)


def on_topic(best: Candidate, scorer: Scorer) -> bool:
    """Whether the best sentence is about the question: it covers (with its heading and
    title) at least half of the question's present terms, or the rarest of them. Partial
    answers come from here: "Can administrators change the API rate limit?" quotes the rate
    limit and names "administrators, change" as not covered."""
    covered = scorer.covers(best)
    top = max(scorer.weights.values())
    rarest = {t for t, w in scorer.weights.items() if w >= top - 1e-9}
    return 2 * len(covered) >= len(scorer.weights) or bool(rarest & covered)


def _pick(scored: list[tuple[float, Candidate]], scorer: Scorer) -> list[Candidate]:
    """The best sentence with a key term (with its list items when it is an intro), then up
    to ``MAX_SENTENCES`` in all: first the sentence right after the best if it scores
    ``FOLLOW_RATIO`` of the best (it continues it), then others scoring ``KEEP_RATIO`` of the
    best; each extra has a key term, shares a specific question term (not an answer-type
    word) in its own words, and adds new terms; extras follow in block and reading order."""
    keyed = [(s, c) for s, c in scored if scorer.keyed(c)] or scored
    best_score, best = keyed[0]
    chosen = [best, *scorer.intros.get((best.n, best.position), ())]
    follow = [(s / FOLLOW_RATIO * KEEP_RATIO, c) for s, c in keyed
              if (c.n, c.position) == (best.n, best.position + 1) and not c.item]
    specific = frozenset(scorer.weights) - ANSWER_TYPE_TERMS
    extras: list[Candidate] = []
    for score, cand in [*follow, *keyed[1:]]:
        if len(chosen) + len(extras) >= MAX_SENTENCES:
            break
        if score < KEEP_RATIO * best_score or cand in chosen or cand in extras:
            continue
        if specific & cand.terms and _adds(cand, [*chosen, *extras]):
            extras.append(cand)
    return [*chosen, *sorted(extras, key=lambda c: (c.n, c.position))]


def _adds(cand: Candidate, chosen: Sequence[Candidate]) -> bool:
    """Whether ``cand`` says something new: not a fragment, not a near-duplicate of a chosen
    sentence, and at least 30% of its terms not in the chosen ones."""
    seen = frozenset().union(*(c.terms for c in chosen))
    duplicate = any(_jaccard(cand.terms, c.terms) >= DUPLICATE_JACCARD for c in chosen)
    fresh = len(cand.terms - seen) * 10 >= 3 * len(cand.terms)
    return fresh and not duplicate and not cand.fragment


def _significant(term: str) -> bool:
    """Whether an absent term says what is asked about: numbers, Chinese, 4+ Latin letters."""
    return not term.isascii() or not term.isalpha() or len(term) >= 4


def _nameable(term: str) -> bool:
    """Worth naming in a gap: no digits, Latin words of 4+ letters ("old" says little) that
    are not light verbs ("last", "work"), Chinese words of 2+ characters (never ``里``)."""
    if any(ch.isdigit() for ch in term) or term in LIGHT_VERBS:
        return False
    return len(term) >= (4 if term.isascii() else 2)


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0


def render_stream(selection: Selection, language: Language) -> str:
    """The plain-text draft: one cited sentence per line, then the gap sentence if any."""
    lines = [cite(c.text, c.n) for c in selection.chosen]
    if selection.declined or selection.uncovered:
        lines.append(gap_sentence(language, selection.uncovered))
    return "\n".join(lines)


def render_json(selection: Selection, language: Language) -> str:
    """The JSON draft (``{"claims": [...], "not_covered": ...}``, the citations contract)."""
    data: dict[str, object] = {
        "claims": [{"text": c.text, "citations": [c.n]} for c in selection.chosen]
    }
    if selection.declined or selection.uncovered:
        data["not_covered"] = gap_sentence(language, selection.uncovered)
    return json.dumps(data, ensure_ascii=False)


def compress_text(question: str, block: Block) -> str:
    """The block's sentences sharing any question term, verbatim, one per line ("" if none)."""
    qterms = set(question_terms(question))
    kept = [
        s for s in split_sentences(unwrap(block.chunk.text)) if qterms & folded_terms(s)
    ]
    return "\n".join(kept)


class ExtractiveProvider(Provider):
    """Offline answers quoted from the blocks; no network, no model."""

    name: ClassVar[str] = "extractive"
    supports_rewrite: ClassVar[bool] = False

    def __init__(self) -> None:
        super().__init__(model="extractive", fast_model="extractive")

    @property
    def label(self) -> str:
        return "offline extractive"

    def compose(self, prompt: Prompt) -> str:
        """The whole output for ``prompt``; raises ``ProviderError`` for ``rewrite``."""
        if prompt.task == "compress":
            return compress_text(prompt.question, prompt.blocks[0]) if prompt.blocks else ""
        if prompt.task == "rewrite":
            raise ProviderError("the offline extractive provider cannot rewrite questions")
        # Feedback needs no special handling: every sentence is quoted from its block.
        selection = select(prompt.question, prompt.blocks)
        language = detect_language(prompt.question)
        if prompt.task == "answer_json":
            return render_json(selection, language)
        return render_stream(selection, language)

    async def stream(self, prompt: Prompt, call: ProviderCall) -> AsyncIterator[str]:
        """Yield the composed output a word (or 4 CJK characters) at a time."""
        call.model = call.model_version = "extractive"
        text = self.compose(prompt)
        for delta in word_deltas(text):
            await asyncio.sleep(0)
            yield delta
        call.input_tokens = count_tokens(prompt.system) + sum(
            count_tokens(m["content"]) for m in prompt.messages
        )
        call.output_tokens = count_tokens(text)
        call.stop_reason = "end_turn"
