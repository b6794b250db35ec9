"""Asking a follow-up chain of the offline pipeline over a small in-memory knowledge base, and
the offline rewrite of a chain alone."""

from __future__ import annotations

from collections.abc import Sequence

from kbqa.core.pipeline import AnswerRequest, PipelineConfig, answer
from kbqa.core.readers.extractive.reader import ExtractiveProvider
from kbqa.core.records import TraceRecorder
from kbqa.core.retrieval.bm25 import InMemoryRetriever
from kbqa.core.retrieval.standalone import rewrite_deterministic
from kbqa.core.types import Chunk, Sentence, Turn

CONFIG = PipelineConfig(min_relevance=0.13, reader_relevance=0.05)


def rewrite(*questions: str) -> str:
    """The offline standalone form of the last of ``questions``, the others its history."""
    return rewrite_deterministic(questions[-1], tuple(Turn("user", q) for q in questions[:-1]))


async def ask_offline(kb: Sequence[Chunk], questions: list[str]) -> tuple[str, str, str]:
    """The shown text, status and standalone query of the last of ``questions``, each
    earlier one in the history, answered by the extractive reader over ``kb``."""
    history = tuple(Turn("user", q) for q in questions[:-1])
    trace = TraceRecorder(trace_id="01TEST", question=questions[-1])
    events = [ev async for ev in answer(
        AnswerRequest(question=questions[-1], history=history),
        retriever=InMemoryRetriever(list(kb)), provider=ExtractiveProvider(), config=CONFIG,
        trace=trace)]
    shown = " ".join(ev.text for ev in events if isinstance(ev, Sentence))
    return shown, trace.status, trace.standalone_query
