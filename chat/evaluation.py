"""Run evaluation cases through the same pipeline and events as the chat (README: Evaluation).

A case with ``documents`` gets its own temporary in-memory knowledge base (chunked with
``sources.chunking``, searched with ``kbqa.core.retrieval.bm25.InMemoryRetriever``); the
stored one is neither read nor written. A case without documents is answered from the
stored knowledge base.
Traces are not stored unless asked (``store_traces=True``), so evaluation runs leave the
reviewer's trace list alone.

Citation validity is checked independently of the pipeline: every emitted sentence is
re-verified with a fresh ``kbqa.core.grounding.citations.Verifier`` built from the ORIGINAL
text of the blocks the ``Meta`` event listed, looked up by chunk_id (case KB, or the database).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import aclosing
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from matplotlib.figure import Figure
from tqdm import tqdm

from chat.outcomes import AnswerOutcome
from chat.services import HISTORY_MESSAGES, UNCOVERED_STATUSES
from chat.turns import TurnRequest, answer_turn
from kbqa.core.evaluation.calibration import Signals, signals_from_hits
from kbqa.core.evaluation.cases import EvalCase, LineProblem, read_cases
from kbqa.core.evaluation.metrics import CaseResult
from kbqa.core.evaluation.rgb import read_rgb
from kbqa.core.grounding.citations import Verifier
from kbqa.core.pipeline import PipelineConfig
from kbqa.core.providers.base import Provider
from kbqa.core.retrieval.bm25 import InMemoryRetriever
from kbqa.core.retrieval.standalone import rewrite_deterministic
from kbqa.core.retriever import Retriever
from kbqa.core.text.normalise import detect_language
from kbqa.core.types import Audience, Block, Chunk, Claim, Meta, Turn
from sources.chunking import chunk_text
from sources.retriever import KnowledgeBaseRetriever
from sources.selectors import chunk_as_core, chunk_get

# ----------------------------------------------------------------------------- loading


def load_cases(
    paths: Sequence[str | Path], *, fmt: str = "cases", scored: bool = True
) -> tuple[list[EvalCase], list[LineProblem]]:
    """Cases from every file (``fmt`` "cases" or "rgb"), with the lines and files skipped;
    ``scored`` False (``calibrate``): an answer case may leave out ``answer_contains``.

    An unreadable file is one LineProblem with line 0. Never raises for bad input.
    """
    cases: list[EvalCase] = []
    problems: list[LineProblem] = []
    for raw in paths:
        path = Path(raw)
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            problems.append(LineProblem(str(path), 0, f"cannot read file ({exc})"))
            continue
        if fmt == "rgb":
            found, bad = read_rgb(lines, source=str(path), stem=path.stem)
        else:
            found, bad = read_cases(lines, source=str(path), scored=scored)
        cases.extend(found)
        problems.extend(bad)
    return cases, problems


# ----------------------------------------------------------------------------- knowledge base


def case_chunks(case: EvalCase, *, max_tokens: int | None = None) -> list[Chunk]:
    """The case's documents chunked as ingestion would: ``{doc_id}#c{ordinal:02d}``."""
    size = max_tokens or settings.KBQA_CHUNK_TOKENS
    chunks: list[Chunk] = []
    for doc in case.documents or ():
        language = detect_language(doc.text)
        for draft in chunk_text(doc.text, max_tokens=size):
            chunks.append(Chunk(
                chunk_id=f"{doc.doc_id}#c{draft.ordinal:02d}", doc_id=doc.doc_id,
                title=doc.title, text=draft.text, section=draft.section, updated=doc.updated,
                source_url=doc.source_url, authority=doc.authority, language=language,
                access=doc.visibility,
            ))
    return chunks


@dataclass(frozen=True)
class CaseKnowledgeBase:
    """Where a case is answered from; ``chunks`` None means the stored knowledge base."""

    retriever: Retriever
    chunks: Mapping[str, Chunk] | None

    async def chunk(self, chunk_id: str) -> Chunk | None:
        """The original chunk with this id, for independent citation checks."""
        if self.chunks is not None:
            return self.chunks.get(chunk_id)
        return await sync_to_async(_stored_chunk)(chunk_id)


def _stored_chunk(chunk_id: str) -> Chunk | None:
    row = chunk_get(chunk_id=chunk_id)
    return chunk_as_core(row) if row is not None else None


def case_knowledge_base(case: EvalCase) -> CaseKnowledgeBase:
    """A temporary in-memory KB for cases with documents, else the stored KB; either is
    searched as a user in the case's ``groups`` (none: documents visible to everyone)."""
    if case.documents is None:
        return CaseKnowledgeBase(KnowledgeBaseRetriever(group_names=case.groups), None)
    chunks = case_chunks(case)
    audience = Audience(labels=frozenset(case.groups))  # a case's documents name groups
    return CaseKnowledgeBase(
        InMemoryRetriever(chunks, audience=audience), {c.chunk_id: c for c in chunks}
    )


# ----------------------------------------------------------------------------- running


async def check_citations(
    observed: AnswerOutcome, kb: CaseKnowledgeBase, *, min_overlap: float, question: str = ""
) -> tuple[int, int, list[str]]:
    """(checked, valid, issues) over emitted (sentence, citation) pairs, re-verified afresh
    (``question``: the question and standalone query, which a sentence may repeat)."""
    issued = {int(b["n"]): str(b["chunk_id"]) for b in observed.blocks}
    blocks = []
    for n, chunk_id in issued.items():
        chunk = await kb.chunk(chunk_id)
        if chunk is not None:
            blocks.append(Block(n=n, chunk=chunk, score=0.0, tokens=0, text=chunk.text))
    verifier = Verifier(blocks, min_overlap=min_overlap, question=question)
    known = {b.n for b in blocks}
    checked = valid = 0
    issues: list[str] = []
    for s in observed.sentences:
        claim = Claim(text=s["text"], citations=tuple(s["citations"]), kind=s["kind"])
        verdict = verifier.verify(claim)
        for n in s["citations"]:
            checked += 1
            if n in known and verdict.ok and n in verdict.verified:
                valid += 1
            elif n not in known:
                issues.append(f"sentence {s['index']}: [{n}] is not an issued block")
            else:
                issues.append(f"sentence {s['index']}: [{n}] fails re-verification: "
                              + "; ".join(verdict.issues or ("not among verified citations",)))
    return checked, valid, issues


def case_history(case: EvalCase) -> tuple[Turn, ...]:
    """The case's earlier user questions as conversation turns, as typed (no answers): what
    calibration's retrieval-only run reads (``collect_signals``)."""
    return tuple(Turn(role="user", text=q) for q in case.history)


async def replayed_history(case: EvalCase, request: TurnRequest) -> tuple[Turn, ...]:
    """The case's earlier questions asked one after another as in one conversation (each
    through the turn service with the turns before it), read back as the chat reads its
    history (``chat.services.conversation_history``): each user turn in the standalone form
    built for it, marked ``uncovered`` when its answer was refused for want of evidence, with
    the answer's text after it; an exchange the model declined left out; the last
    ``HISTORY_MESSAGES``. Asked as typed only, "and in 2022?" after a refused "and
    monitors?" asked of the monitors, where the chat asks of the laptops the user last had
    answered (a tester's case file, 2026-12-06)."""
    turns: list[Turn] = []
    for typed in case.history:
        outcome, standalone = AnswerOutcome(), ""
        earlier = replace(request, question=typed, store_trace=False,
                          history=tuple(turns[-HISTORY_MESSAGES:]))
        async with aclosing(answer_turn(earlier, outcome)) as items:
            async for item in items:
                if isinstance(item, Meta):
                    standalone = item.standalone_query
        if outcome.status == "refused_model_declined":
            continue
        turns.append(Turn(role="user", text=standalone or typed, typed=typed,
                          uncovered=outcome.status in UNCOVERED_STATUSES))
        said = " ".join(s["text"] for s in outcome.sentences)
        if said:
            turns.append(Turn(role="assistant", text=said))
    return tuple(turns[-HISTORY_MESSAGES:])


def _result(case: EvalCase, **fields: Any) -> CaseResult:
    return CaseResult(
        case_id=case.id, question=case.question, lang=case.lang, expect=case.expect,
        answer_contains=case.answer_contains, expected_reason=case.refusal_reason,
        follow_up=bool(case.history), **fields,
    )


async def run_case(
    case: EvalCase,
    *,
    provider: Provider,
    config: PipelineConfig,
    store_traces: bool = False,
) -> CaseResult:
    """Answer one case through the turn service (no conversation, ``provider`` borrowed) and
    score what was emitted. Never raises (except cancellation): a failure becomes a result
    with status "error" and the exception in ``error``."""
    observed = AnswerOutcome()
    started = time.perf_counter()
    try:
        kb = case_knowledge_base(case)
        request = TurnRequest(question=case.question, fabricate=False, provider=provider,
                              retriever=kb.retriever, config=config, store_trace=store_traces)
        if case.history:
            request = replace(request, history=await replayed_history(case, request))
        async with aclosing(answer_turn(request, observed)) as items:
            async for _ in items:
                pass
        latency = (time.perf_counter() - started) * 1000
        checked, valid, issues = await check_citations(
            observed, kb, min_overlap=config.overlap_threshold,
            question=case.question)  # no history: the question is the standalone query
    except Exception as exc:  # noqa: BLE001 - one failing case must not stop the run
        return _result(case, status="error", error=f"{type(exc).__name__}: {exc}",
                       latency_ms=(time.perf_counter() - started) * 1000,
                       sentences=tuple(observed.sentences),
                       dropped=observed.dropped)
    refusal = observed.refusal
    return _result(
        case, status=observed.status if observed.status != "pending" else "error",
        sentences=tuple(observed.sentences),
        dropped=observed.dropped, refusal_reason=refusal["reason"] if refusal else "",
        refusal_message=refusal["message"] if refusal else "", latency_ms=latency,
        citations_checked=checked, citations_valid=valid, citation_issues=tuple(issues),
        error=observed.error, trace_id=observed.trace_id,
        blocks=tuple(observed.blocks),
    )


async def run_cases(
    cases: Sequence[EvalCase],
    *,
    provider: Provider,
    config: PipelineConfig,
    store_traces: bool = False,
    progress: bool = True,
    on_result: Callable[[CaseResult], None] | None = None,
) -> list[CaseResult]:
    """Run ``cases`` one after another (tqdm bar on stderr); results in case order."""
    results: list[CaseResult] = []
    bar = tqdm(total=len(cases), file=sys.stderr, disable=not progress, unit="case")
    try:
        for case in cases:
            result = await run_case(case, provider=provider, config=config,
                                    store_traces=store_traces)
            results.append(result)
            if on_result is not None:
                on_result(result)
            bar.update(1)
    finally:
        bar.close()
    return results


# ----------------------------------------------------------------------------- calibration


async def collect_signals(
    cases: Sequence[EvalCase], *, top_k: int, progress: bool = True
) -> list[Signals]:
    """Retrieval signals for every case (no generation), labelled by what the gate should do.

    The low-score gate should stop only questions the knowledge base has nothing on. Cases
    expected to be refused as ``no_support`` have related documents (the refusal names them)
    and conflict cases must reach the conflict check, so both count as "answer" here.
    """
    out: list[Signals] = []
    for case in tqdm(cases, file=sys.stderr, disable=not progress, unit="case"):
        kb = case_knowledge_base(case)
        query = rewrite_deterministic(case.question, case_history(case))
        hits = await kb.retriever.search(query, top_k)
        source = case.origin.rsplit(":", 1)[0]
        out.append(signals_from_hits(case.question, hits, case_id=case.id,
                                     expect=gate_label(case), lang=case.lang, source=source))
    return out


def gate_label(case: EvalCase) -> str:
    """'refuse' when the low-score gate should stop ``case``, else 'answer'."""
    if case.expect == "refuse" and case.refusal_reason != "no_support":
        return "refuse"
    return "answer"


def plot_distributions(
    signals: Sequence[Signals], *, min_relevance: float, path: str | Path
) -> None:
    """PNG of top-relevance histograms (answerable vs unanswerable) with the threshold line.

    Drawn on a bare ``Figure`` (no pyplot, so no GUI backend or global figure state).
    """
    answerable = [s.relevance for s in signals if s.expect == "answer"]
    unanswerable = [s.relevance for s in signals if s.expect == "refuse"]
    bins = [i / 20 for i in range(21)]
    fig = Figure(figsize=(8, 4.5))
    ax = fig.subplots()
    ax.hist(answerable, bins=bins, alpha=0.6, label=f"answerable (n={len(answerable)})")
    ax.hist(unanswerable, bins=bins, alpha=0.6, label=f"unanswerable (n={len(unanswerable)})")
    ax.axvline(min_relevance, color="black", linestyle="--",
               label=f"KBQA_MIN_RELEVANCE={min_relevance:.2f}")
    ax.set_xlabel("top hit normalised relevance (BM25 score / ideal score)")
    ax.set_ylabel("questions")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def write_results(results: Sequence[CaseResult], *, out_dir: str | Path, markdown: str) -> Path:
    """``results.jsonl`` (one case per line) and ``results.md`` (for people) in ``out_dir``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    with (out / "results.jsonl").open("w", encoding="utf-8") as fh:
        for r in results:
            fh.write(json.dumps(r.to_dict(), ensure_ascii=False) + "\n")
    (out / "results.md").write_text(markdown, encoding="utf-8")
    return out
