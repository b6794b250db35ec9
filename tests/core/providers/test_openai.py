"""The OpenAI-compatible provider, driving the REAL openai SDK against a local fake server."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from kbqa.core.errors import ProviderError, ProviderUnavailable
from kbqa.core.generation.calls import MSG_TIMEOUT, Deadlines, call_model
from kbqa.core.generation.prompt import build_answer_prompt, build_rewrite_prompt
from kbqa.core.pipeline import AnswerRequest, PipelineConfig, answer
from kbqa.core.providers.base import Prompt, ProviderCall
from kbqa.core.providers.failures import (
    MSG_ACCOUNT,
    MSG_BROKE_OFF,
    MSG_KEY,
    MSG_SERVER,
    MSG_UNREACHABLE,
)
from kbqa.core.providers.openai import OpenAIProvider
from kbqa.core.records import TraceRecorder
from kbqa.core.types import Chunk, ScoredChunk, Turn
from tests.fakes import make_block
from tests.fakes.openai_server import ChatReply, ChatStatusReply, FakeOpenAIServer

BLOCK = make_block(1, "The recycle bin keeps items for 30 days.", title="Recycle bin")
MODEL, FAST = "qwen3:8b", "qwen3:1.7b"


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as fake:
        yield fake


def _provider(server: FakeOpenAIServer, *, max_retries: int = 2) -> OpenAIProvider:
    return OpenAIProvider(base_url=server.url + "/v1", model=MODEL, fast_model=FAST,
                          max_retries=max_retries, timeout=10.0)


def _prompt() -> Prompt:
    return build_answer_prompt(question="How long does the recycle bin keep items?",
                               blocks=(BLOCK,))


async def _failure(server: FakeOpenAIServer, **kw: int) -> tuple[list[str], ProviderError]:
    received: list[str] = []
    with pytest.raises(ProviderError) as info:
        async for delta in _provider(server, **kw).stream(_prompt(), ProviderCall()):
            received.append(delta)
    return received, info.value


async def test_stream_yields_deltas_and_records_usage_model_and_request_id(
    server: FakeOpenAIServer,
) -> None:
    server.script(ChatReply(["Items are kept ", "for 30 days [1]."], prompt_tokens=300,
                            completion_tokens=9, cached_tokens=256))
    call = ProviderCall()
    provider = _provider(server)
    deltas = [d async for d in provider.stream(_prompt(), call)]
    await provider.aclose()
    assert deltas == ["Items are kept ", "for 30 days [1]."]
    assert (call.model, call.model_version, call.stop_reason) == (MODEL, MODEL, "end_turn")
    assert (call.input_tokens, call.cache_read_input_tokens, call.output_tokens) == (44, 256, 9)
    assert call.request_id.startswith("req_")
    [request] = server.requests
    assert request.path == "/v1/chat/completions"
    assert request.body["messages"][0] == {"role": "system", "content": _prompt().system}
    assert (request.body["stream"], request.body["stream_options"]) == (
        True, {"include_usage": True})


async def test_the_rewrite_goes_to_the_fast_model(server: FakeOpenAIServer) -> None:
    prompt = build_rewrite_prompt(question="and admins?", history=(Turn("user", "Bin?"),))
    [_ async for _ in _provider(server).stream(prompt, ProviderCall())]
    assert server.requests[0].body["model"] == FAST


@pytest.mark.parametrize(("finish", "stop"), [("length", "max_tokens"),
                                              ("content_filter", "refusal")])
async def test_finish_reasons_map_onto_the_stop_reasons_the_pipeline_acts_on(
    server: FakeOpenAIServer, finish: str, stop: str
) -> None:
    server.script(ChatReply(["Items are"], finish_reason=finish))
    call = ProviderCall()
    [_ async for _ in _provider(server).stream(_prompt(), call)]
    assert call.stop_reason == stop


async def test_a_dropped_connection_mid_stream_says_text_was_shown(
    server: FakeOpenAIServer,
) -> None:
    server.script(ChatReply(["Kept 30 days [1]. ", "more"], fault="abort", after=1))
    received, error = await _failure(server)
    assert received == ["Kept 30 days [1]. "]
    assert (str(error), error.started, error.retryable) == (MSG_BROKE_OFF, True, True)
    assert len(server.requests) == 1


async def test_a_stream_ending_without_finish_reason_is_broken(server: FakeOpenAIServer) -> None:
    server.script(ChatReply(["Kept 30 days [1]. ", "more"], fault="end", after=1))
    _, error = await _failure(server, max_retries=0)
    assert (error.error_type, error.started) == ("incomplete_stream", True)


async def test_an_error_chunk_mid_stream_is_a_retryable_error_recorded_whole(
    server: FakeOpenAIServer,
) -> None:
    server.script(ChatReply(["Kept 30 days [1]. ", "more"], fault="error", after=1))
    _, error = await _failure(server)
    assert (str(error), error.started) == (MSG_SERVER, True)  # the type, not the prose, decides
    assert (error.error_type, error.api_message) == ("server_error", "The server is overloaded")


async def test_503_with_retry_after_is_retried_then_succeeds(server: FakeOpenAIServer) -> None:
    server.script(ChatStatusReply(503, "server_error", "loading model", retry_after="1"),
                  ChatReply(["Fine [1]."]))
    assert [d async for d in _provider(server).stream(_prompt(), ProviderCall())] == [
        "Fine [1]."]
    assert len(server.requests) == 2


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        (ChatStatusReply(429, "insufficient_quota", "You exceeded your current quota, please "
                         "check your plan and billing details.", code="insufficient_quota"),
         MSG_ACCOUNT),
        (ChatStatusReply(401, "invalid_request_error", "Incorrect API key provided"), MSG_KEY),
    ],
)
async def test_quota_and_key_errors_are_provider_unavailable_and_not_retried(
    server: FakeOpenAIServer, reply: ChatStatusReply, message: str
) -> None:
    server.script(reply)
    _, error = await _failure(server)
    assert (isinstance(error, ProviderUnavailable), str(error)) == (True, message)
    assert (error.status, error.api_message) == (reply.status, reply.message)
    assert len(server.requests) == 1


async def test_unreachable_server_is_provider_unavailable() -> None:
    with FakeOpenAIServer() as gone:
        url = gone.url
    provider = OpenAIProvider(base_url=url + "/v1", model=MODEL, max_retries=0)
    with pytest.raises(ProviderUnavailable) as info:
        [_ async for _ in provider.stream(_prompt(), ProviderCall())]
    assert str(info.value) == MSG_UNREACHABLE


async def test_a_stall_hits_the_deadline_and_hangs_up(server: FakeOpenAIServer) -> None:
    server.script(ChatReply(["never"], fault="stall"))
    trace = TraceRecorder(trace_id="t", question="q")
    with pytest.raises(ProviderError) as info:
        await call_model(_provider(server), _prompt(), trace, purpose="answer",
                         deadlines=Deadlines(first_byte=0.5, total=1.0)).text()
    assert str(info.value) == MSG_TIMEOUT
    assert await asyncio.to_thread(server.disconnected.wait, 5)


class OneHit:
    async def search(self, query: str, k: int) -> list[ScoredChunk]:
        chunk = Chunk(chunk_id="doc-001#c01", doc_id="doc-001", title="Recycle bin",
                      text="Deleted files stay in the recycle bin for 30 days.")
        return [ScoredChunk(chunk, score=9.0, relevance=0.8)]


async def test_the_same_pipeline_answers_through_an_openai_compatible_server(
    server: FakeOpenAIServer,
) -> None:
    server.script(ChatReply(["Deleted files stay in the recycle ", "bin for 30 days [1]."]))
    provider = _provider(server)
    trace = TraceRecorder(trace_id="t", question="How long are deleted files kept?")
    events = [ev async for ev in answer(AnswerRequest(question=trace.question),
                                        retriever=OneHit(), provider=provider,
                                        config=PipelineConfig(), trace=trace)]
    await provider.aclose()
    assert [ev.event for ev in events] == ["meta", "sentence", "done"]
    assert [(c.purpose, c.model_reported, c.stop_reason) for c in trace.calls] == [
        ("answer", MODEL, "end_turn")]
