"""The answering pipeline: one async generator of typed events behind every front end.

Sequence per question (README: How an answer is made):
  standalone query -> retrieve -> low-score gate -> assemble -> conflict gate ->
  [compress] -> meta -> generate -> cut sentences -> verify each -> emit or drop ->
  regenerate once (with per-sentence feedback) if nothing survived -> else refuse
  with ``no_support``.

Events: ``Meta`` first, then ``Sentence``/``Dropped`` as they are decided, or one
``Refusal``; ``Error`` when the provider breaks; ``Done`` always last. Only sentences that
passed the verifier are ever yielded as ``Sentence``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, replace

from kbqa.core.assemble import assemble
from kbqa.core.citations import (
    DraftFormatError,
    Verifier,
    feedback_lines,
    parse_claim,
    parse_json_draft,
)
from kbqa.core.compress import compress_blocks
from kbqa.core.conflicts import find_conflicts
from kbqa.core.errors import KbqaError, ProviderError
from kbqa.core.prompt import build_answer_prompt
from kbqa.core.providers.base import Provider, ProviderCall
from kbqa.core.providers.fabricate import FabricatingProvider
from kbqa.core.refusal import (
    authority_notice,
    partial_notice,
    refuse_conflict,
    refuse_low_score,
    refuse_no_support,
)
from kbqa.core.sentences import SentenceBuffer
from kbqa.core.standalone import standalone_query
from kbqa.core.text import detect_language, sha256
from kbqa.core.types import (
    Block,
    Claim,
    Conflict,
    DocumentRef,
    Done,
    DoneStatus,
    Dropped,
    Error,
    Event,
    Language,
    Meta,
    Mode,
    Refusal,
    Retriever,
    ScoredChunk,
    Sentence,
    TraceDraft,
    Turn,
    Verdict,
    blocks_info,
)


@dataclass(frozen=True)
class PipelineConfig:
    """Knobs of one answer; built from Django settings by ``chat`` (README: Configuration).

    ``budget`` is in tiktoken cl100k_base tokens; ``min_relevance`` is the calibrated
    low-score threshold on normalised relevance in [0, 1] (``manage.py calibrate``);
    ``overlap_threshold`` is gate two's minimum share of a sentence's substantive terms found
    in the cited block.
    """

    retrieval_k: int = 20
    budget: int = 1200
    max_blocks: int = 5
    min_relevance: float = 0.3
    overlap_threshold: float = 0.3
    compression: bool = False


@dataclass(frozen=True)
class AnswerRequest:
    """One question.

    ``history`` informs intent only (never evidence). ``standalone_query`` None means the
    pipeline builds it from ``question`` and ``history``. ``pasted`` is text the user pasted,
    labelled as user-provided in the prompt and never citable. ``mode`` "stream" asks the
    model for plain text with inline markers; "json" for the JSON claims contract.
    """

    question: str
    history: tuple[Turn, ...] = ()
    standalone_query: str | None = None
    pasted: str = ""
    fabricate: bool = False
    mode: Mode = "stream"


INTERNAL_ERROR: dict[Language, str] = {
    "en": "The answer stopped because of an internal error. The trace has the details; "
    "please try again.",
    "zh": "由于内部错误，回答已中止。详情已记录在追踪记录中，请重试。",
}
MAX_DRAFTS = 2  # one draft plus one regeneration with feedback; never a third try


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 1)


class _Judge:
    """Verifies claims, numbers the shown sentences, and records verdicts on the trace.

    Gap claims are checked against the question (the user's question and the standalone
    query, read from ``trace``). A gap that fails is recorded as failed and never shown; a
    generic gap sentence (``partial_notice``) is held in its place, so a partial answer
    still says that something is not covered without unverified text.
    """

    def __init__(self, blocks: Sequence[Block], threshold: float, trace: TraceDraft, t0: float):
        question = f"{trace.question}\n{trace.standalone_query}"
        self.verifier = Verifier(blocks, threshold=threshold, question=question)
        lang: Language = "zh" if trace.language == "zh" else "en"
        self.generic_gap = Claim(text=partial_notice(lang), citations=(), kind="gap")
        self.trace, self.t0 = trace, t0
        self.emitted = 0
        self.dropped = 0
        self.held_gaps: list[Claim] = []

    def verdict(self, claim: Claim, draft: int) -> Verdict:
        """The recorded verdict on ``claim``; for a failed gap, a passing verdict on the
        generic gap instead (the failure stays in the trace)."""
        v = self.verifier.verify(claim)
        self.trace.verdicts.append(
            {
                "draft": draft,
                "text": claim.text,
                "kind": claim.kind,
                "citations": list(claim.citations),
                "ok": v.ok,
                "verified": list(v.verified),
                "overlaps": {str(n): round(o, 3) for n, o in v.overlaps},
                "issues": list(v.issues),
            }
        )
        if claim.kind == "gap" and not v.ok:
            return Verdict(claim=self.generic_gap, ok=True)
        return v

    def sentence(self, v: Verdict) -> Sentence:
        if not self.emitted:
            self.trace.timings["first_sentence_ms"] = _ms(self.t0)
        self.emitted += 1
        ev = Sentence(
            index=self.emitted, text=v.claim.text, citations=v.verified, kind=v.claim.kind
        )
        self.trace.emitted.append(ev.to_dict())
        return ev

    def drop(self, v: Verdict, draft: int) -> Dropped:
        self.dropped += 1
        ev = Dropped(
            index=self.dropped, text=v.claim.text, citations=v.claim.citations, reasons=v.issues
        )
        self.trace.dropped.append({"draft": draft, "text": v.claim.text, "reasons": list(v.issues)})
        return ev

    def decide(self, claim: Claim, draft: int) -> Event | None:
        """Sentence or Dropped for a claim; gap statements are held until a claim is shown."""
        v = self.verdict(claim, draft)
        if v.ok and v.claim.kind == "gap":
            self.held_gaps.append(v.claim)
            return None
        return self.sentence(v) if v.ok else self.drop(v, draft)

    def release_gaps(self) -> list[Sentence]:
        """The held gaps, each once, the generic one only when no verified gap is held."""
        gaps, self.held_gaps = list(dict.fromkeys(self.held_gaps)), []
        if not self.emitted:
            return []  # a gap alone is not an answer: the refusal says it better
        specific = [g for g in gaps if g != self.generic_gap]
        return [self.sentence(Verdict(claim=g, ok=True)) for g in specific or gaps]


def _renumber(blocks: Sequence[Block]) -> tuple[Block, ...]:
    return tuple(replace(b, n=i) for i, b in enumerate(blocks, start=1))


def _document_refs(blocks: Sequence[Block]) -> tuple[DocumentRef, ...]:
    seen: dict[str, DocumentRef] = {}
    for b in blocks:
        c = b.chunk
        seen.setdefault(
            c.doc_id, DocumentRef(c.doc_id, c.title, c.updated, c.source_url, c.chunk_id)
        )
    return tuple(seen.values())


def _record_call(trace: TraceDraft, call: ProviderCall) -> None:
    if call.model_version:
        trace.model_version = call.model_version
    for key, value in (("input_tokens", call.input_tokens), ("output_tokens", call.output_tokens)):
        trace.usage[key] = trace.usage.get(key, 0) + value


def _record_hits(trace: TraceDraft, hits: Sequence[ScoredChunk]) -> None:
    trace.hits = [
        {
            "chunk_id": h.chunk.chunk_id,
            "score": round(h.score, 4),
            "relevance": round(h.relevance, 4),
        }
        for h in hits
    ]


def _apply_authority(
    blocks: tuple[Block, ...], conflicts: Sequence[Conflict], lang: Language
) -> tuple[tuple[Block, ...], list[str]]:
    """Drop the weaker side of each authority-resolved conflict and say so in a notice."""
    weaker = {c.sides[1 - c.preferred].chunk_id for c in conflicts if c.preferred is not None}
    notices = [authority_notice(lang, c) for c in conflicts if c.preferred is not None]
    kept = tuple(b for b in blocks if b.chunk_id not in weaker)
    return (_renumber(kept) if weaker else blocks), notices


def _finish(judge_or_none: _Judge | None, trace: TraceDraft, status: DoneStatus, t0: float) -> Done:
    trace.status = status
    trace.timings["total_ms"] = _ms(t0)
    emitted = judge_or_none.emitted if judge_or_none else 0
    dropped = judge_or_none.dropped if judge_or_none else 0
    return Done(status=status, emitted=emitted, dropped=dropped, trace_id=trace.trace_id)


def _refusal(trace: TraceDraft, refusal: Refusal) -> Refusal:
    trace.refusal_reason = refusal.reason
    return refusal


async def _draft_stream(
    provider: Provider,
    prompt_kwargs: dict[str, object],
    judge: _Judge,
    draft: int,
    trace: TraceDraft,
) -> AsyncIterator[Event]:
    """One streamed draft: cut sentences from deltas, verify each, emit or drop it."""
    prompt = build_answer_prompt(**prompt_kwargs)  # type: ignore[arg-type]
    trace.prompts.append(prompt.as_sent())
    call, buffer, raw = ProviderCall(model=provider.model), SentenceBuffer(), []
    try:
        async for delta in provider.stream(prompt, call):
            raw.append(delta)
            for text in buffer.feed(delta):
                ev = judge.decide(parse_claim(text), draft)
                if ev is not None:
                    yield ev
        for text in buffer.flush():
            ev = judge.decide(parse_claim(text), draft)
            if ev is not None:
                yield ev
    finally:
        trace.drafts.append("".join(raw))
        _record_call(trace, call)


async def _draft_json(
    provider: Provider,
    prompt_kwargs: dict[str, object],
    judge: _Judge,
    draft: int,
    trace: TraceDraft,
    final: bool,
) -> AsyncIterator[Event]:
    """One JSON draft: verify every claim first; show it only if the draft passes (or is final)."""
    prompt = build_answer_prompt(**prompt_kwargs)  # type: ignore[arg-type]
    trace.prompts.append(prompt.as_sent())
    call, raw = ProviderCall(model=provider.model), []
    try:
        async for delta in provider.stream(prompt, call):
            raw.append(delta)
    finally:
        trace.drafts.append("".join(raw))
        _record_call(trace, call)
    try:
        claims = parse_json_draft("".join(raw))
    except DraftFormatError as exc:
        trace.errors.append(f"draft {draft}: {exc}")
        judge.verdict(Claim(text="(unparseable draft)", citations=()), draft)
        return
    verdicts = [judge.verdict(c, draft) for c in claims]
    if not final and any(not v.ok for v in verdicts):
        return  # rejected: the regeneration gets the reasons; nothing was shown
    for v in verdicts:
        if v.ok and v.claim.kind == "gap":
            judge.held_gaps.append(v.claim)
        else:
            yield judge.sentence(v) if v.ok else judge.drop(v, draft)


def _failing_feedback(trace: TraceDraft, draft: int) -> tuple[str, ...]:
    failing = [v for v in trace.verdicts if v["draft"] == draft and not v["ok"]]
    if not failing:
        return ("The previous answer contained no sentence supported by the sources.",)
    return feedback_lines(
        [
            Verdict(
                claim=Claim(text=v["text"], citations=tuple(v["citations"])),
                ok=False,
                issues=tuple(v["issues"]),
            )
            for v in failing
        ]
    )


async def _generate(
    request: AnswerRequest,
    blocks: tuple[Block, ...],
    query: str,
    provider: Provider,
    judge: _Judge,
    trace: TraceDraft,
) -> AsyncIterator[Event]:
    """Up to two drafts; the second only when the first showed nothing."""
    feedback: tuple[str, ...] = ()
    for draft in range(1, MAX_DRAFTS + 1):
        use = FabricatingProvider(provider) if request.fabricate and draft == 1 else provider
        kwargs: dict[str, object] = {
            "question": query,
            "blocks": blocks,
            "history": request.history,
            "pasted": request.pasted,
            "mode": request.mode,
            "feedback": feedback,
        }
        if request.mode == "json":
            gen = _draft_json(use, kwargs, judge, draft, trace, final=draft == MAX_DRAFTS)
        else:
            gen = _draft_stream(use, kwargs, judge, draft, trace)
        async for ev in gen:
            yield ev
        if judge.emitted:
            return
        judge.held_gaps.clear()
        feedback = _failing_feedback(trace, draft)


async def answer(
    request: AnswerRequest,
    *,
    retriever: Retriever,
    provider: Provider,
    config: PipelineConfig,
    trace: TraceDraft,
) -> AsyncIterator[Event]:
    """Answer ``request``, yielding events; fills ``trace`` as it goes.

    Never raises for provider failures (they become ``Error`` + ``Done(status="error")``);
    ``asyncio.CancelledError`` propagates after ``trace.status`` is set to "cancelled".
    """
    t0 = time.perf_counter()
    lang = detect_language(request.question)
    trace.language, trace.threshold = lang, config.min_relevance
    trace.provider, trace.model = provider.name, provider.model
    judge: _Judge | None = None
    try:
        query = request.standalone_query
        if query is None:
            query, rewrite_call = await standalone_query(
                question=request.question, history=request.history, provider=provider
            )
            if rewrite_call is not None:
                _record_call(trace, rewrite_call)
        trace.standalone_query = query

        t = time.perf_counter()
        hits = await retriever.search(query, config.retrieval_k)
        trace.timings["retrieval_ms"] = _ms(t)
        _record_hits(trace, hits)

        def meta(
            blocks: Sequence[Block] = (),
            compression: dict[str, object] | None = None,
            notices: Sequence[str] = (),
        ) -> Meta:
            trace.blocks = [
                {"n": b.n, "chunk_id": b.chunk_id, "sha256": sha256(b.text), "tokens": b.tokens}
                for b in blocks
            ]
            return Meta(
                trace_id=trace.trace_id,
                question=request.question,
                standalone_query=query,
                language=lang,
                blocks=blocks_info(blocks),
                context_tokens=sum(b.tokens for b in blocks),
                provider=provider.label,
                model=provider.model,
                compression=compression,
                notices=tuple(notices),
            )

        if not hits or hits[0].relevance < config.min_relevance:
            yield meta()
            yield _refusal(trace, refuse_low_score(lang))
            yield _finish(None, trace, "refused_low_score", t0)
            return

        blocks = assemble(hits, budget=config.budget, max_blocks=config.max_blocks).blocks
        conflicts = find_conflicts(blocks, query)
        trace.conflicts = [c.to_dict() for c in conflicts]
        unresolved = [c for c in conflicts if c.preferred is None]
        if unresolved:
            yield meta(blocks)
            yield _refusal(trace, refuse_conflict(lang, unresolved[0]))
            yield _finish(None, trace, "refused_conflict", t0)
            return
        blocks, notices = _apply_authority(blocks, conflicts, lang)
        trace.notices = list(notices)

        compression: dict[str, object] | None = None
        if config.compression:
            blocks, compression = await compress_blocks(blocks, question=query, provider=provider)
            trace.compression = dict(compression)
        yield meta(blocks, compression, notices)

        judge = _Judge(blocks, config.overlap_threshold, trace, t0)
        async for ev in _generate(request, blocks, query, provider, judge, trace):
            yield ev
        if not judge.emitted:
            yield _refusal(trace, refuse_no_support(lang, _document_refs(blocks)))
            yield _finish(judge, trace, "refused_no_support", t0)
            return
        for gap in judge.release_gaps():
            yield gap
        yield _finish(judge, trace, "answered", t0)
    except (asyncio.CancelledError, GeneratorExit):
        trace.status = "cancelled"
        trace.timings["total_ms"] = _ms(t0)
        raise
    except KbqaError as exc:
        trace.errors.append(f"{type(exc).__name__}: {exc}")
        retryable = isinstance(exc, ProviderError) and exc.retryable
        yield Error(message=str(exc), retryable=retryable)
        yield _finish(judge, trace, "error", t0)
    except Exception as exc:  # the catch boundary: a bug must still end the answer cleanly
        trace.errors.append(f"internal error: {exc!r}")
        yield Error(message=INTERNAL_ERROR[lang])
        yield _finish(judge, trace, "error", t0)
