"""The Anthropic provider, driving the REAL SDK against a local fake Messages API."""

from __future__ import annotations

import asyncio

import pytest

from kbqa.core.errors import ProviderError, ProviderUnavailable
from kbqa.core.generation.prompt import build_answer_prompt, build_compress_prompt
from kbqa.core.providers.anthropic import (
    MSG_KEY,
    MSG_OVERLOADED,
    MSG_UNREACHABLE,
    AnthropicProvider,
)
from kbqa.core.providers.base import Prompt, ProviderCall
from tests.fakes import make_block
from tests.fakes.anthropic_server import FakeAnthropicServer, StatusReply, StreamReply

BLOCK = make_block(1, "The recycle bin keeps items for 30 days.", title="Recycle bin")


def _provider(server: FakeAnthropicServer, *, max_retries: int = 2) -> AnthropicProvider:
    return AnthropicProvider(
        api_key="sk-test",
        model="claude-sonnet-4-6",
        fast_model="claude-haiku-4-5",
        base_url=server.url,
        max_retries=max_retries,
        timeout=10.0,
    )


def _answer_prompt() -> Prompt:
    return build_answer_prompt(question="How long does the recycle bin keep items?",
                               blocks=(BLOCK,))


async def _collect(provider: AnthropicProvider, prompt: Prompt, call: ProviderCall) -> list[str]:
    return [delta async for delta in provider.stream(prompt, call)]


async def test_normal_stream_yields_deltas_and_records_what_the_api_reported(
    fake_anthropic: FakeAnthropicServer,
) -> None:
    fake_anthropic.script(StreamReply(["Items are kept ", "for 30 days [1]."],
                                      input_tokens=321, output_tokens=9))
    provider = _provider(fake_anthropic)
    call = ProviderCall()
    deltas = await _collect(provider, _answer_prompt(), call)
    await provider.aclose()
    assert deltas == ["Items are kept ", "for 30 days [1]."]
    assert (call.model, call.model_version) == ("claude-sonnet-4-6", "claude-sonnet-4-6-20250929")
    assert (call.input_tokens, call.output_tokens, call.stop_reason) == (321, 9, "end_turn")


async def test_request_carries_system_prompt_model_and_messages(
    fake_anthropic: FakeAnthropicServer,
) -> None:
    prompt = _answer_prompt()
    provider = _provider(fake_anthropic)
    await _collect(provider, prompt, ProviderCall())
    [request] = fake_anthropic.requests
    assert request.path == "/v1/messages"
    sent_key = request.headers.get("x-api-key") or request.headers["authorization"]
    assert sent_key.removeprefix("Bearer ") == "sk-test"
    assert request.body["stream"] is True
    assert request.body["model"] == "claude-sonnet-4-6"
    assert request.body["system"] == prompt.system
    assert request.body["messages"] == list(prompt.messages)
    assert request.body["max_tokens"] == 1024


async def test_compress_uses_the_fast_model(fake_anthropic: FakeAnthropicServer) -> None:
    call = ProviderCall()
    prompt = build_compress_prompt(question="recycle bin", block=BLOCK)
    await _collect(_provider(fake_anthropic), prompt, call)
    assert fake_anthropic.requests[0].body["model"] == "claude-haiku-4-5"
    assert call.model_version == "claude-haiku-4-5-20250929"


async def test_529_overloaded_is_retried_by_the_sdk_then_succeeds(
    fake_anthropic: FakeAnthropicServer,
) -> None:
    fake_anthropic.script(StatusReply(529, "overloaded_error"), StreamReply(["Fine [1]."]))
    deltas = await _collect(_provider(fake_anthropic), _answer_prompt(), ProviderCall())
    assert deltas == ["Fine [1]."]
    retry_counts = [r.headers["x-stainless-retry-count"] for r in fake_anthropic.requests]
    assert retry_counts == ["0", "1"]


async def test_529_on_every_attempt_is_a_retryable_error_before_any_text(
    fake_anthropic: FakeAnthropicServer,
) -> None:
    fake_anthropic.script(*[StatusReply(529, "overloaded_error")] * 2)
    with pytest.raises(ProviderError) as info:
        await _collect(_provider(fake_anthropic, max_retries=1), _answer_prompt(), ProviderCall())
    assert (str(info.value), info.value.retryable, info.value.started) == (
        MSG_OVERLOADED, True, False)
    assert len(fake_anthropic.requests) == 2


async def test_overloaded_error_mid_stream_keeps_the_text_before_it(
    fake_anthropic: FakeAnthropicServer,
) -> None:
    fake_anthropic.script(
        StreamReply(["Items are kept for 30 days [1]. ", "Admins get", " 90 days."], error_after=1)
    )
    received: list[str] = []
    with pytest.raises(ProviderError) as info:
        async for delta in _provider(fake_anthropic).stream(_answer_prompt(), ProviderCall()):
            received.append(delta)
    assert received == ["Items are kept for 30 days [1]. "]
    assert (info.value.retryable, info.value.started) == (True, True)
    assert str(info.value) == MSG_OVERLOADED
    assert len(fake_anthropic.requests) == 1  # never silently re-run once text has streamed


async def test_401_is_provider_unavailable_with_a_safe_message(
    fake_anthropic: FakeAnthropicServer,
) -> None:
    fake_anthropic.script(StatusReply(401, "authentication_error", "invalid x-api-key sk-test"))
    with pytest.raises(ProviderUnavailable) as info:
        await _collect(_provider(fake_anthropic), _answer_prompt(), ProviderCall())
    assert str(info.value) == MSG_KEY
    assert "sk-test" not in str(info.value)
    assert len(fake_anthropic.requests) == 1  # the SDK does not retry a bad key


async def test_unreachable_server_is_provider_unavailable() -> None:
    with FakeAnthropicServer() as server:
        url = server.url
    provider = AnthropicProvider(api_key="k", model="m", base_url=url, max_retries=0, timeout=5)
    with pytest.raises(ProviderUnavailable) as info:
        await _collect(provider, _answer_prompt(), ProviderCall())
    assert str(info.value) == MSG_UNREACHABLE


async def test_cancelling_closes_the_http_stream(fake_anthropic: FakeAnthropicServer) -> None:
    fake_anthropic.script(StreamReply(["First [1]. ", "never sent"], hold_after=1))
    first = asyncio.Event()

    async def consume() -> None:
        async for _ in _provider(fake_anthropic).stream(_answer_prompt(), ProviderCall()):
            first.set()

    task = asyncio.create_task(consume())
    await first.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # The server sees the hang-up while it is still holding the stream open.
    assert await asyncio.to_thread(fake_anthropic.disconnected.wait, 5)
