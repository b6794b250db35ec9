"""The answering pipeline: one async generator of typed events behind every front end.

Sequence per question (README: How an answer is made):
  standalone query -> [expand] -> retrieve -> low-score gate -> assemble -> conflict gate ->
  [compress] -> meta -> generate -> cut sentences -> verify each -> emit or drop ->
  regenerate once (with per-sentence feedback) if nothing survived -> else refuse
  with ``no_support``.

Events: ``Meta`` first, then ``Sentence``/``Dropped`` as they are decided (a ``Notice``
before the first ``Sentence`` citing a document a notice is about: the stronger side of an
authority-resolved conflict, or an archived document; each repeats every notice so far), or one
``Refusal``; ``Error`` when the provider breaks; ``Done`` always last. Only sentences that
passed the verifier are ever yielded as ``Sentence``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, replace

from kbqa.core.context.assembly import assemble
from kbqa.core.context.compression import compress_blocks
from kbqa.core.errors import KbqaError, ProviderError, ProviderUnavailable
from kbqa.core.generation.calls import ANSWER_DEADLINES, FAST_DEADLINES, Deadlines
from kbqa.core.generation.drafts import SentenceGate, declined, elapsed_ms, generate
from kbqa.core.grounding.conflict_probe import probed_blocks, with_probed
from kbqa.core.grounding.conflicts import find_conflicts
from kbqa.core.grounding.no_documents import holds_nothing, refuse_no_documents
from kbqa.core.grounding.refusals import (
    authority_notice_sources,
    closest_documents,
    document_refs,
    refuse_conflict,
    refuse_declined,
    refuse_low_score,
    refuse_no_support,
    refuse_small_talk,
)
from kbqa.core.grounding.standing_notice import NoticeBoard
from kbqa.core.providers.base import Provider
from kbqa.core.readers import typed_answer_possible
from kbqa.core.records import TraceRecorder
from kbqa.core.retrieval.expansion import expand_query
from kbqa.core.retrieval.standalone import standalone_query
from kbqa.core.retriever import Retriever, Speller
from kbqa.core.text import spelling
from kbqa.core.text.courtesy import is_small_talk
from kbqa.core.text.normalise import detect_language, sha256
from kbqa.core.text.number_words import in_digits
from kbqa.core.types import (
    AnswerRequest,
    Block,
    Conflict,
    Done,
    DoneStatus,
    Error,
    Event,
    Language,
    Meta,
    Refusal,
    ScoredChunk,
    Sentence,
    blocks_info,
)


@dataclass(frozen=True)
class PipelineConfig:
    """Knobs of one answer; built from Django settings by ``chat`` (README: Configuration).

    ``budget`` is in tiktoken cl100k_base tokens; ``min_relevance`` is the calibrated
    low-score threshold on normalised relevance in [0, 1] (``manage.py calibrate``);
    ``reader_relevance`` (<= ``min_relevance``; 1.0 = off) lets a question whose best hit
    is below ``min_relevance`` but reaches it go on to the answer: it is answered only with
    verified sentences, and any refusal after that is the low-score one (``weak``).
    ``overlap_threshold`` is gate two's minimum share of a sentence's substantive terms found
    in the cited block. ``query_expansion`` appends a query2doc passage from the fast model to
    the retrieval query. ``min_similarity`` is the calibrated threshold on a hit's cosine
    with the question (semantic recall, ``retrieval.dense``; 0 = the gate looks at
    relevance only); with it, ``agreement`` also passes a question whose first BM25 hit and
    first dense hit come from one document. ``answer_deadlines`` bound each answer draft,
    ``fast_deadlines`` the rewrite, compression and expansion calls (``calls.Deadlines``)."""

    top_k: int = 20
    budget: int = 1200
    max_blocks: int = 5
    min_relevance: float = 0.3
    reader_relevance: float = 1.0
    min_similarity: float = 0.0
    agreement: bool = True
    overlap_threshold: float = 0.3
    compression: bool = False
    query_expansion: bool = False
    answer_deadlines: Deadlines = ANSWER_DEADLINES
    fast_deadlines: Deadlines = FAST_DEADLINES


INTERNAL_ERROR: dict[Language, str] = {
    "en": "The answer stopped because of an internal error. The trace has the details; "
    "please try again.",
    "zh": "由于内部错误，回答已中止。详情已记录在追踪记录中，请重试。",
}


def _renumber(blocks: Sequence[Block]) -> tuple[Block, ...]:
    return tuple(replace(b, n=i) for i, b in enumerate(blocks, start=1))


def _record_hits(trace: TraceRecorder, hits: Sequence[ScoredChunk]) -> None:
    trace.hits = [
        {
            "chunk_id": h.chunk.chunk_id,
            "score": round(h.score, 4),
            "relevance": round(h.relevance, 4),
            **({"similarity": round(h.similarity, 4)} if h.similarity else {}),
        }
        for h in hits
    ]


def passes_low_score_gate(hits: Sequence[ScoredChunk], config: PipelineConfig) -> bool:
    """Whether some hit is close enough to answer from: its BM25 relevance reaches
    ``min_relevance``, or (semantic recall on, ``min_similarity`` > 0) its cosine with the
    question reaches ``min_similarity`` or (``agreement``) BM25 and dense search rank its
    document first. Thresholds come from ``manage.py calibrate``. Without semantic recall
    this is the top hit's relevance test (it has the highest)."""
    if any(h.relevance >= config.min_relevance for h in hits):
        return True
    if config.min_similarity <= 0:
        return False
    return any(h.similarity >= config.min_similarity or (config.agreement and h.agreed)
               for h in hits)


def passes_typed_gate(query: str, hits: Sequence[ScoredChunk], config: PipelineConfig) -> bool:
    """Whether a question below ``min_relevance`` may still be answered: some hit reaches
    ``reader_relevance`` and the question asks for a typed value (a quantity, an amount, a
    date, a name), which an answer must state with a span of its own, bound to the
    question's words, or for a procedure, which only a sentence giving an action for the
    task answers; a yes/no or open question ("《超越》讲述的是什么内容") is answered by
    any on-topic sentence, so it is not let through on weak words; nor is one whose ask
    names a thing the best hits never mention ("实习生" in a sick-leave policy for
    employees). The reader decides both (``readers.typed_answer_possible``)."""
    return (any(h.relevance >= config.reader_relevance for h in hits)
            and typed_answer_possible(query, [h.chunk for h in hits[:config.max_blocks]]))


def _apply_authority(
    blocks: tuple[Block, ...], conflicts: Sequence[Conflict], lang: Language
) -> tuple[tuple[Block, ...], list[tuple[str, frozenset[str]]]]:
    """Drop the weaker side of each authority-resolved conflict and say so: one notice per
    group of sources that disagree, with the documents it is about
    (``refusals.authority_notice_sources``)."""
    weaker = {c.sides[1 - c.preferred].chunk_id for c in conflicts if c.preferred is not None}
    notices = authority_notice_sources(lang, conflicts)
    kept = tuple(b for b in blocks if b.chunk_id not in weaker)
    return (_renumber(kept) if weaker else blocks), notices


def _finish(
    judge_or_none: SentenceGate | None, trace: TraceRecorder, status: DoneStatus, t0: float
) -> Done:
    trace.status = status
    trace.timings["total_ms"] = elapsed_ms(t0)
    _record_model_version(trace)
    emitted = judge_or_none.emitted if judge_or_none else 0
    dropped = judge_or_none.dropped if judge_or_none else 0
    return Done(status=status, emitted=emitted, dropped=dropped, trace_id=trace.trace_id)


def _record_model_version(trace: TraceRecorder) -> None:
    """The model version the API reported for the last answer draft, if any."""
    reported = [c.model_reported for c in trace.calls if c.purpose == "answer"]
    if reported and reported[-1]:
        trace.model_version = reported[-1]


def _error(exc: KbqaError) -> Error:
    """The ``Error`` event for a failure the pipeline expected (its message is user-safe)."""
    if not isinstance(exc, ProviderError):
        return Error(message=str(exc))
    wait = exc.retry_after
    return Error(
        message=str(exc),
        retryable=exc.retryable,
        retry_after=max(1, round(wait)) if wait is not None and exc.retryable else None,
        unavailable=isinstance(exc, ProviderUnavailable),
    )


def _refusal(trace: TraceRecorder, refusal: Refusal) -> Refusal:
    trace.refusal_reason = refusal.reason
    return refusal


async def _standalone(
    request: AnswerRequest, provider: Provider, trace: TraceRecorder, config: PipelineConfig
) -> str:
    """The standalone query: the request's own, or rewritten from the history (recorded)."""
    query = request.standalone_query
    if query is None:
        query = await standalone_query(
            question=request.question, history=request.history, provider=provider,
            trace=trace, deadlines=config.fast_deadlines,
        )
    trace.standalone_query = query
    return query


async def _spelled(retriever: Retriever, query: str, trace: TraceRecorder) -> str:
    """``query`` with numbers in words as digits (``text.number_words``) and misspelled words
    corrected against the index when the retriever can (``Speller``, ``text.spelling``);
    both are recorded."""
    query, trace.spelling = in_digits(query)
    if not isinstance(retriever, Speller) or not spelling.may_correct(query):
        return query  # nothing to correct: no hop to the database threads
    fixed, fixes = await retriever.spell(query)
    trace.spelling = {**trace.spelling, **fixes}
    return fixed


async def _search_query(
    query: str, provider: Provider, trace: TraceRecorder, config: PipelineConfig
) -> str:
    """The query retrieval runs: ``query``, with a query2doc passage when expansion is on."""
    if not config.query_expansion:
        return query
    expanded = await expand_query(
        query, provider=provider, trace=trace, deadlines=config.fast_deadlines
    )
    trace.expanded_query = expanded if expanded != query else ""
    return expanded


async def _retrieve(
    retriever: Retriever, query: str, k: int, trace: TraceRecorder
) -> Sequence[ScoredChunk]:
    """The top ``k`` chunks by BM25 score; hits and retrieval time are recorded."""
    t = time.perf_counter()
    hits = await retriever.search(query, k)
    trace.timings["retrieval_ms"] = elapsed_ms(t)
    _record_hits(trace, hits)
    return hits


async def _conflicts(
    retriever: Retriever,
    blocks: tuple[Block, ...],
    query: str,
    config: PipelineConfig,
    trace: TraceRecorder,
) -> tuple[tuple[Block, ...], list[Conflict]]:
    """The conflicts bearing on ``query`` among ``blocks`` and the probe search's blocks
    (``grounding.conflict_probe``), and the blocks with the probed ones that are a side of
    one; recorded on the trace."""
    t = time.perf_counter()
    probed = await probed_blocks(retriever, blocks, query, config.max_blocks)
    blocks, conflicts = with_probed(blocks, probed, find_conflicts(blocks, query, probed))
    trace.timings["conflicts_ms"] = elapsed_ms(t)
    trace.conflicts = [c.to_dict() for c in conflicts]
    return blocks, conflicts


def _in_language(
    conflicts: Sequence[Conflict], blocks: Sequence[Block], lang: Language
) -> Conflict:
    """The first of ``conflicts`` whose two sides are in the question's language (a Chinese
    question is shown the Chinese manuals' 200 MB and 100 MB), else the first."""
    own = {b.n for b in blocks if b.chunk.language == lang}
    return next((c for c in conflicts if all(s.n in own for s in c.sides)), conflicts[0])


def _meta(request: AnswerRequest, provider: Provider, trace: TraceRecorder, lang: Language,
          blocks: Sequence[Block], compression: dict[str, object] | None) -> Meta:
    """The ``Meta`` event for the blocks shown; their hashes and token counts go on the trace."""
    trace.blocks = [
        {"n": b.n, "chunk_id": b.chunk_id, "sha256": sha256(b.text), "tokens": b.tokens}
        for b in blocks
    ]
    return Meta(
        trace_id=trace.trace_id,
        question=request.question,
        standalone_query=trace.standalone_query,
        language=lang,
        blocks=blocks_info(blocks),
        context_tokens=sum(b.tokens for b in blocks),
        provider=provider.label,
        model=provider.model,
        compression=compression,
    )


async def answer(
    request: AnswerRequest,
    *,
    retriever: Retriever,
    provider: Provider,
    config: PipelineConfig,
    trace: TraceRecorder,
) -> AsyncIterator[Event]:
    """Answer ``request``, yielding events; fills ``trace`` as it goes.

    Never raises for provider failures (they become ``Error`` + ``Done(status="error")``);
    ``asyncio.CancelledError`` propagates after ``trace.status`` is set to "cancelled".
    """
    t0 = time.perf_counter()
    lang = detect_language(request.question)
    trace.language, trace.min_relevance = lang, config.min_relevance
    trace.provider, trace.model = provider.name, provider.model
    judge: SentenceGate | None = None
    try:
        if is_small_talk(request.question):  # "thanks!", "help": nothing to look up
            yield _meta(request, provider, trace, lang, (), None)
            yield _refusal(trace, refuse_small_talk(lang))
            yield _finish(None, trace, "refused_low_score", t0)
            return
        query = await _spelled(retriever, await _standalone(request, provider, trace, config),
                               trace)
        search = await _search_query(query, provider, trace, config)
        hits = await _retrieve(retriever, search, config.top_k, trace)

        def meta(
            blocks: Sequence[Block] = (), compression: dict[str, object] | None = None
        ) -> Meta:
            return _meta(request, provider, trace, lang, blocks, compression)

        weak = not passes_low_score_gate(hits, config)
        closed = not hits or (weak and not passes_typed_gate(query, hits, config))
        blocks = assemble(hits, budget=config.budget, max_blocks=config.max_blocks).blocks
        blocks, conflicts = await _conflicts(retriever, blocks, query, config, trace)
        unresolved = [c for c in conflicts if c.preferred is None]
        if unresolved:
            # Before the low-score refusal too: the top hits disagreeing on the asked value
            # is what the user must hear, however weakly the question's words matched.
            yield meta(blocks)
            yield _refusal(trace, refuse_conflict(lang, _in_language(unresolved, blocks, lang)))
            yield _finish(None, trace, "refused_conflict", t0)
            return
        if closed:
            yield meta()
            refusal = (refuse_no_documents(lang) if not hits and await holds_nothing(retriever)
                       else refuse_low_score(lang, closest_documents(hits, query), query))
            yield _refusal(trace, refusal)
            yield _finish(None, trace, "refused_low_score", t0)
            return
        blocks, notices = _apply_authority(blocks, conflicts, lang)

        compression: dict[str, object] | None = None
        if config.compression:
            blocks, compression = await compress_blocks(
                blocks, question=query, provider=provider, trace=trace,
                deadlines=config.fast_deadlines,
            )
            trace.compression = dict(compression)
        yield meta(blocks, compression)

        judge = SentenceGate(blocks, config.overlap_threshold, trace, t0)
        # Notices come with the first verified sentence, never with a refusal; a sentence
        # citing an archived document adds its own (``grounding.standing_notice``).
        board = NoticeBoard(notices, blocks, lang, conflicts)
        drafts = generate(
            request, blocks, query, provider, judge, trace, config.answer_deadlines
        )
        async for ev in drafts:
            if isinstance(ev, Sentence) and (notice := board.before(ev)) is not None:
                trace.notices = list(notice.notices)
                yield notice
            yield ev
        if weak and (declined(trace) or not judge.emitted):
            # Below the threshold nothing answered: what the low-score refusal says is true.
            yield _refusal(trace, refuse_low_score(lang, closest_documents(hits, query), query))
            yield _finish(judge, trace, "refused_low_score", t0)
            return
        if declined(trace):
            yield _refusal(trace, refuse_declined(lang))
            yield _finish(judge, trace, "refused_model_declined", t0)
            return
        if not judge.emitted:
            yield _refusal(trace, refuse_no_support(lang, document_refs(blocks, query), query))
            yield _finish(judge, trace, "refused_no_support", t0)
            return
        for gap in judge.release_gaps():  # only after an emitted sentence (and its notices)
            yield gap
        yield _finish(judge, trace, "answered", t0)
    except (asyncio.CancelledError, GeneratorExit):
        trace.status = "cancelled"
        trace.timings["total_ms"] = elapsed_ms(t0)
        _record_model_version(trace)
        raise
    except KbqaError as exc:
        trace.errors.append(f"{type(exc).__name__}: {exc}")
        yield _error(exc)
        yield _finish(judge, trace, "error", t0)
    except Exception as exc:  # the catch boundary: a bug must still end the answer cleanly
        trace.errors.append(f"internal error: {exc!r}")
        yield Error(message=INTERNAL_ERROR[lang])
        yield _finish(judge, trace, "error", t0)
