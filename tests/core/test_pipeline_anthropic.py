"""The whole pipeline on the anthropic provider: the real SDK against the local fake API.

One test per fault of issue 13 that a user notices: what they see, and what the trace holds.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict

import pytest

from kbqa.core.generation.calls import Deadlines
from kbqa.core.generation.drafts import CUT_OFF
from kbqa.core.grounding.refusals import refuse_declined
from kbqa.core.pipeline import AnswerRequest, PipelineConfig, answer
from kbqa.core.providers.anthropic import AnthropicProvider
from kbqa.core.providers.failures import MSG_ACCOUNT, MSG_BROKE_OFF, MSG_OVERLOADED
from kbqa.core.records import TraceRecorder
from kbqa.core.types import Chunk, Error, Event, ScoredChunk, Turn
from tests.fakes.anthropic_server import FakeAnthropicServer, StatusReply, StreamReply

RECYCLE = Chunk(
    chunk_id="doc-001#c01", doc_id="doc-001", title="Recycle bin", updated="2025-05-01",
    text="Deleted files stay in the recycle bin for 30 days. After that they are purged.",
)
QUESTION = "How long does the recycle bin keep files?"
SONNET, HAIKU = "claude-sonnet-5-5", "claude-haiku-4-5-20251001"
ANSWER = "Deleted files stay in the recycle bin for 30 days [1]."


class OneHit:
    def __init__(self) -> None:
        self.queries: list[str] = []

    async def search(self, query: str, k: int) -> list[ScoredChunk]:
        self.queries.append(query)
        return [ScoredChunk(RECYCLE, score=9.0, relevance=0.8)]


@pytest.fixture
def server() -> Iterator[FakeAnthropicServer]:
    with FakeAnthropicServer() as fake:
        yield fake


async def run(
    server: FakeAnthropicServer, request: AnswerRequest | None = None,
    retriever: OneHit | None = None, **config: object,
) -> tuple[list[Event], TraceRecorder]:
    provider = AnthropicProvider(api_key="sk-test", model=SONNET, fast_model=HAIKU,
                                 base_url=server.url, max_retries=2, timeout=10.0)
    trace = TraceRecorder(trace_id="01ANTHROPIC", question=QUESTION)
    try:
        events = [ev async for ev in answer(request or AnswerRequest(question=QUESTION),
                                            retriever=retriever or OneHit(), provider=provider,
                                            config=PipelineConfig(**config),  # type: ignore[arg-type]
                                            trace=trace)]
    finally:
        await provider.aclose()
    return events, trace


def kinds(events: list[Event]) -> list[str]:
    return [ev.event for ev in events]


async def test_every_call_is_recorded_with_prompt_stop_reason_and_usage_per_model(
    server: FakeAnthropicServer,
) -> None:
    server.script(
        StreamReply(["How long does the recycle bin keep files for admins?"], input_tokens=90,
                    output_tokens=12),
        StreamReply(["Deleted files stay in the recycle bin for 30 days."], input_tokens=80,
                    output_tokens=10),
        StreamReply([ANSWER], input_tokens=410, output_tokens=14,
                    cache_read_input_tokens=300, cache_creation_input_tokens=20),
    )
    request = AnswerRequest(question="and for admins?", history=(Turn("user", QUESTION),))
    events, trace = await run(server, request, compression=True)
    assert kinds(events) == ["meta", "sentence", "done"]
    assert [(c.purpose, c.model_requested, c.model_reported, c.stop_reason)
            for c in trace.calls] == [("rewrite", HAIKU, HAIKU, "end_turn"),
                                      ("compress", HAIKU, HAIKU, "end_turn"),
                                      ("answer", SONNET, SONNET, "end_turn")]
    assert [c.prompt["system"] for c in trace.calls] == [r.body["system"] for r in
                                                         server.requests]
    assert all(c.request_id.startswith("req_011CV") and c.duration_ms > 0 for c in trace.calls)
    assert trace.to_dict()["usage"] == {
        HAIKU: {"input_tokens": 170, "output_tokens": 22, "cache_read_input_tokens": 0,
                "cache_creation_input_tokens": 0},
        SONNET: {"input_tokens": 410, "output_tokens": 14, "cache_read_input_tokens": 300,
                 "cache_creation_input_tokens": 20},
    }
    assert trace.model_version == SONNET


async def test_a_dropped_connection_after_a_sentence_says_so_and_keeps_only_verified_text(
    server: FakeAnthropicServer,
) -> None:
    server.script(StreamReply([ANSWER + " ", "Admins can keep them fo"], fault="abort",
                              after=2))
    events, trace = await run(server)
    assert kinds(events) == ["meta", "sentence", "error", "done"]
    assert "Admins" not in str([ev.to_dict() for ev in events])
    assert events[2] == Error(message=MSG_BROKE_OFF, retryable=True)
    error = trace.calls[0].error
    # an incomplete chunked body: aiohttp's payload error, raised as httpx's ReadError
    assert error is not None and (error.type, error.started) == ("ReadError", True)
    assert trace.drafts == [ANSWER + " Admins can keep them fo"]


async def test_a_stream_without_message_stop_is_an_error_not_an_answer(
    server: FakeAnthropicServer,
) -> None:
    server.script(StreamReply(["Deleted files stay in the recycle bin for 30 "], fault="end",
                              after=1))
    events, trace = await run(server)
    assert kinds(events) == ["meta", "error", "done"]
    assert (trace.status, trace.calls[0].error.type if trace.calls[0].error else "") == (
        "error", "incomplete_stream")


async def test_overload_mid_stream_is_recorded_whole(server: FakeAnthropicServer) -> None:
    server.script(StreamReply([ANSWER + " Admins", " more"], fault="error", after=1))
    events, trace = await run(server)
    assert kinds(events) == ["meta", "sentence", "error", "done"]
    error = trace.calls[0].error
    assert error is not None
    assert (error.type, error.status, error.message, error.shown, error.started) == (
        "overloaded_error", 200, "Overloaded", MSG_OVERLOADED, True)
    assert error.request_id.startswith("req_011CV")
    assert len(server.requests) == 1


async def test_a_stalled_first_byte_hits_the_deadline(server: FakeAnthropicServer) -> None:
    server.script(StreamReply(["never"], fault="stall", after=0))
    events, trace = await run(server, answer_deadlines=Deadlines(first_byte=0.5, total=2.0))
    assert kinds(events) == ["meta", "error", "done"]
    assert trace.calls[0].error is not None
    assert trace.calls[0].error.type == "deadline_exceeded"


async def test_a_refusal_is_its_own_outcome_and_is_not_regenerated(
    server: FakeAnthropicServer,
) -> None:
    server.script(StreamReply(["I can't help with that."], stop_reason="refusal"))
    events, trace = await run(server)
    assert kinds(events) == ["meta", "refusal", "done"]
    assert events[1] == refuse_declined("en")
    assert (events[-1].to_dict()["status"], trace.refusal_reason) == (
        "refused_model_declined", "model_declined")
    assert len(server.requests) == 1  # not paid twice


async def test_max_tokens_drops_the_unfinished_last_sentence(
    server: FakeAnthropicServer,
) -> None:
    server.script(StreamReply([ANSWER + " ", "After that they are pur"],
                              stop_reason="max_tokens"))
    events, trace = await run(server)
    assert kinds(events) == ["meta", "sentence", "dropped", "done"]
    assert trace.calls[0].stop_reason == "max_tokens"
    assert trace.dropped[-1] == {"draft": 1, "text": "After that they are pur",
                                 "reasons": [CUT_OFF]}


async def test_a_spending_limit_is_provider_unavailable_and_not_retried(
    server: FakeAnthropicServer,
) -> None:
    limit = ("You have reached your specified workspace API usage limits. You will regain "
             "access on 2026-12-01 at 00:00 UTC.")
    server.script(StatusReply(429, "rate_limit_error", limit, retry_after="1"))
    events, trace = await run(server)
    assert events[1] == Error(message=MSG_ACCOUNT, retryable=False, unavailable=True)
    assert trace.calls[0].error is not None
    assert (trace.calls[0].error.status, trace.calls[0].error.message) == (429, limit)
    assert len(server.requests) == 1


async def test_a_long_retry_after_is_passed_on_instead_of_waited_for(
    server: FakeAnthropicServer,
) -> None:
    server.script(StatusReply(429, "rate_limit_error", "rate limited", retry_after="75"))
    events, _ = await run(server)
    assert events[1] == Error(message=MSG_OVERLOADED, retryable=True, retry_after=75)
    assert events[1].to_dict() == {"message": MSG_OVERLOADED, "retryable": True,
                                   "retry_after": 75}


async def test_a_failed_rewrite_falls_back_offline_and_is_recorded(
    server: FakeAnthropicServer,
) -> None:
    server.script(StatusReply(529, "overloaded_error", "Overloaded"), StreamReply([ANSWER]))
    request = AnswerRequest(question="and for admins?", history=(Turn("user", QUESTION),))
    events, trace = await run(server, request)
    assert kinds(events) == ["meta", "sentence", "done"]
    rewrite = trace.calls[0]
    assert (rewrite.purpose, rewrite.error.type if rewrite.error else "") == (
        "rewrite", "overloaded_error")
    assert trace.standalone_query == "How long does the recycle bin keep files for admins?"
    assert len(server.requests) == 2  # the rewrite was not retried


async def test_query_expansion_appends_a_passage_and_is_recorded(
    server: FakeAnthropicServer,
) -> None:
    passage = "Items in the recycle bin are retained for 30 days before permanent deletion."
    server.script(StreamReply([passage]), StreamReply([ANSWER]))
    retriever = OneHit()
    events, trace = await run(server, retriever=retriever, query_expansion=True)
    assert kinds(events) == ["meta", "sentence", "done"]
    # the retrieval query (the conflict gate's own search for the asked value follows it)
    assert retriever.queries[0] == " ".join([QUESTION] * 5 + [passage])
    assert [c.purpose for c in trace.calls] == ["expand", "answer"]
    assert (trace.expanded_query, trace.standalone_query) == (retriever.queries[0], QUESTION)


async def test_query_expansion_failure_searches_with_the_plain_query(
    server: FakeAnthropicServer,
) -> None:
    server.script(StreamReply(["never"], fault="stall"), StreamReply([ANSWER]))
    retriever = OneHit()
    events, trace = await run(server, retriever=retriever, query_expansion=True,
                              fast_deadlines=Deadlines(first_byte=0.3, total=0.6))
    assert kinds(events) == ["meta", "sentence", "done"]
    assert retriever.queries[0] == QUESTION
    assert trace.calls[0].error is not None and trace.expanded_query == ""


def test_the_trace_serialises_once_with_typed_calls() -> None:
    trace = TraceRecorder(trace_id="t", question="q")
    data = trace.to_dict()
    assert (data["calls"], data["usage"], data["prompts"], data["drafts"]) == ([], {}, [], [])
    assert set(asdict(trace)) <= set(data)
