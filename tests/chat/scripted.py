"""A scripted stand-in for ``kbqa.core.pipeline.answer`` for front-end tests.

Front ends (API, SSE, CLI) are thin renderers of pipeline events, so their tests replace the
pipeline with a script of events and check what the user receives. ``ScriptedAnswer`` fills
the ``TraceRecorder`` the way the pipeline does (status, provider, verdicts) so the stored trace
is realistic, and records each ``AnswerRequest`` so tests can check the history it got.
Tests that run the real pipeline instead serve it ``LEAVE`` through ``ListRetriever``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from kbqa.core.pipeline import AnswerRequest
from kbqa.core.types import (
    Chunk,
    Done,
    Dropped,
    Error,
    Event,
    Meta,
    Refusal,
    ScoredChunk,
    Sentence,
    TraceRecorder,
)
from tests.fakes.provider import FakeProvider

BLOCKS = (
    {
        "n": 1,
        "chunk_id": "doc-001#c01",
        "doc_id": "doc-001",
        "title": "Leave policy",
        "section": "",
        "updated": "2025-06-30",
        "source_url": "",
        "authority": "policy",
        "score": 7.5,
        "tokens": 40,
    },
    {
        "n": 2,
        "chunk_id": "doc-002#c03",
        "doc_id": "doc-002",
        "title": "Travel FAQ",
        "section": "",
        "updated": "",
        "source_url": "",
        "authority": "faq",
        "score": 3.1,
        "tokens": 35,
    },
)
SECRET_DROPPED = "Employees get 99 days of leave."


def meta(trace: TraceRecorder, question: str) -> Meta:
    return Meta(
        trace_id=trace.trace_id,
        question=question,
        standalone_query=question,
        language="en",
        blocks=BLOCKS,
        context_tokens=75,
        provider="fake fake-model",
        model="fake-model",
    )


def answered(trace: TraceRecorder, request: AnswerRequest) -> list[Event]:
    trace.verdicts = [
        {
            "draft": 1,
            "text": "Employees get 20 days of leave.",
            "kind": "claim",
            "citations": [1],
            "ok": True,
            "verified": [1],
            "overlaps": {"1": 0.8},
            "issues": [],
        },
        {
            "draft": 1,
            "text": SECRET_DROPPED,
            "kind": "claim",
            "citations": [2],
            "ok": False,
            "verified": [],
            "overlaps": {"2": 0.1},
            "issues": ["[2] does not support it"],
        },
    ]
    trace.dropped = [{"draft": 1, "text": SECRET_DROPPED, "reasons": ["[2] does not support it"]}]
    trace.status = "answered"
    return [
        meta(trace, request.question),
        Sentence(index=1, text="Employees get 20 days of leave.", citations=(1,)),
        Dropped(index=1, text=SECRET_DROPPED, citations=(2,), reasons=("[2] does not support it",)),
        Done(status="answered", emitted=1, dropped=1, trace_id=trace.trace_id),
    ]


def refused(trace: TraceRecorder, request: AnswerRequest) -> list[Event]:
    trace.status, trace.refusal_reason = "refused_low_score", "low_score"
    return [
        Meta(
            trace_id=trace.trace_id,
            question=request.question,
            standalone_query=request.question,
            language="en",
            blocks=(),
            context_tokens=0,
            provider="fake",
            model="fake-model",
        ),
        Refusal(reason="low_score", message="The knowledge base has nothing on this; ask HR."),
        Done(status="refused_low_score", emitted=0, dropped=0, trace_id=trace.trace_id),
    ]


def failed(trace: TraceRecorder, request: AnswerRequest) -> list[Event]:
    trace.status = "error"
    trace.errors = ["ProviderError: overloaded"]
    return [
        meta(trace, request.question),
        Error(message="The model provider is overloaded; try again.", retryable=True),
        Done(status="error", emitted=0, dropped=0, trace_id=trace.trace_id),
    ]


Script = Callable[[TraceRecorder, AnswerRequest], list[Event]]


class ScriptedAnswer:
    """Replaces ``chat.services.answer``; ``script`` may be swapped per test."""

    def __init__(self, script: Script = answered) -> None:
        self.script = script
        self.requests: list[AnswerRequest] = []

    async def __call__(
        self, request: AnswerRequest, *, trace: TraceRecorder, **_: Any
    ) -> AsyncIterator[Event]:
        self.requests.append(request)
        trace.provider, trace.model = "fake", "fake-model"
        trace.standalone_query = request.question
        for ev in self.script(trace, request):
            yield ev


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> ScriptedAnswer:
    """Scripted pipeline, a dummy retriever and a FakeProvider for every front end."""
    fake = ScriptedAnswer()
    monkeypatch.setattr("chat.services.answer", fake)
    monkeypatch.setattr("chat.services.default_retriever", lambda: object())
    for module in ("chat.api", "chat.management.commands.ask", "chat.services"):
        monkeypatch.setattr(f"{module}.provider_from_settings", lambda name=None: FakeProvider([]))
    return fake


# ------------------------------------------------- the real pipeline over a fixed retriever


class ListRetriever:
    """Returns its chunks as hits, best first, with a fixed relevance."""

    def __init__(self, *chunks: Chunk, relevance: float = 0.9) -> None:
        self.chunks, self.relevance = chunks, relevance

    async def search(self, query: str, k: int) -> list[ScoredChunk]:
        return [ScoredChunk(chunk=c, score=5.0, relevance=self.relevance) for c in self.chunks][:k]


LEAVE = Chunk(
    chunk_id="doc-001#c01",
    doc_id="doc-001",
    title="Leave policy",
    text="Full-time employees get 20 days of annual leave each calendar year.",
    updated="2025-06-30",
    authority="policy",
)
