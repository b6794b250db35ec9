"""The whole pipeline on the anthropic provider: the real SDK against a local fake API."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kbqa.core.pipeline import AnswerRequest, PipelineConfig, answer
from kbqa.core.providers.anthropic import AnthropicProvider
from kbqa.core.types import Chunk, Event, ScoredChunk, TraceRecorder
from tests.fakes.anthropic_server import FakeAnthropicServer, StatusReply, StreamReply

RECYCLE = Chunk(
    chunk_id="doc-001#c01", doc_id="doc-001", title="Recycle bin", updated="2025-05-01",
    text="Deleted files stay in the recycle bin for 30 days. After that they are purged.",
)
QUESTION = "How long does the recycle bin keep files?"


class OneHit:
    async def search(self, query: str, k: int) -> list[ScoredChunk]:
        return [ScoredChunk(RECYCLE, score=9.0, relevance=0.8)]


@pytest.fixture
def server() -> Iterator[FakeAnthropicServer]:
    with FakeAnthropicServer() as fake:
        yield fake


async def run(server: FakeAnthropicServer) -> tuple[list[Event], TraceRecorder]:
    provider = AnthropicProvider(api_key="sk-test", model="claude-sonnet-4-6",
                                 base_url=server.url, max_retries=2, timeout=10.0)
    trace = TraceRecorder(trace_id="01ANTHROPIC", question=QUESTION)
    try:
        events = [ev async for ev in answer(AnswerRequest(question=QUESTION), retriever=OneHit(),
                                            provider=provider, config=PipelineConfig(),
                                            trace=trace)]
    finally:
        await provider.aclose()
    return events, trace


async def test_answer_streams_verified_sentences_and_records_what_the_api_reported(
    server: FakeAnthropicServer,
) -> None:
    server.script(StreamReply(["Deleted files stay in the recycle ", "bin for 30 days [1]."],
                              input_tokens=410, output_tokens=14))
    events, trace = await run(server)
    assert [ev.event for ev in events] == ["meta", "sentence", "done"]
    assert events[1].to_dict()["citations"] == (1,)
    assert (trace.model_version, trace.usage) == (
        "claude-sonnet-4-6-20250929", {"input_tokens": 410, "output_tokens": 14})
    assert trace.prompts[0]["system"] == server.requests[0].body["system"]


async def test_overload_after_the_first_sentence_keeps_only_verified_text(
    server: FakeAnthropicServer,
) -> None:
    server.script(StreamReply(
        ["Deleted files stay in the recycle bin for 30 days [1]. ", "Admins can keep them fo"],
        error_after=2,
    ))
    events, trace = await run(server)
    assert [ev.event for ev in events] == ["meta", "sentence", "error", "done"]
    assert "Admins" not in str([ev.to_dict() for ev in events])
    assert (events[-1].to_dict()["status"], trace.status) == ("error", "error")
    assert trace.errors and trace.drafts == [
        "Deleted files stay in the recycle bin for 30 days [1]. Admins can keep them fo"]


async def test_overloaded_before_the_stream_is_retried_by_the_sdk(
    server: FakeAnthropicServer,
) -> None:
    server.script(StatusReply(529, "overloaded_error"),
                  StreamReply(["Deleted files stay in the recycle bin for 30 days [1]."]))
    events, _ = await run(server)
    assert [ev.event for ev in events] == ["meta", "sentence", "done"]
    assert len(server.requests) == 2
