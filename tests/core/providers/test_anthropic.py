"""The Anthropic provider, driving the REAL SDK against the local fake Messages API."""

from __future__ import annotations

import asyncio

import pytest

from kbqa.core.errors import ProviderError, ProviderUnavailable
from kbqa.core.generation.calls import MSG_TIMEOUT, MSG_TIMEOUT_STARTED, Deadlines, call_model
from kbqa.core.generation.prompt import build_answer_prompt, build_compress_prompt
from kbqa.core.providers.anthropic import AnthropicProvider
from kbqa.core.providers.base import Prompt, ProviderCall
from kbqa.core.providers.failures import (
    MSG_ACCOUNT,
    MSG_BROKE_BEFORE,
    MSG_BROKE_OFF,
    MSG_KEY,
    MSG_MODEL,
    MSG_OVERLOADED,
    MSG_REJECTED,
    MSG_SERVER,
    MSG_UNREACHABLE,
)
from kbqa.core.records import TraceRecorder
from tests.fakes import make_block
from tests.fakes.anthropic_server import OVERLOADED, FakeAnthropicServer, StatusReply, StreamReply

BLOCK = make_block(1, "The recycle bin keeps items for 30 days.", title="Recycle bin")
SONNET, HAIKU = "claude-sonnet-5-5", "claude-haiku-4-5-20251001"


def _provider(
    server: FakeAnthropicServer, *, max_retries: int = 2, **kw: float
) -> AnthropicProvider:
    return AnthropicProvider(api_key="sk-test", model=SONNET, fast_model="claude-haiku-4-5",
                             base_url=server.url, max_retries=max_retries, timeout=10.0, **kw)


def _answer_prompt() -> Prompt:
    return build_answer_prompt(question="How long does the recycle bin keep items?",
                               blocks=(BLOCK,))


async def _collect(provider: AnthropicProvider, prompt: Prompt, call: ProviderCall) -> list[str]:
    return [delta async for delta in provider.stream(prompt, call)]


async def _failure(server: FakeAnthropicServer, prompt: Prompt | None = None,
                   **kw: float) -> tuple[list[str], ProviderError]:
    received: list[str] = []
    with pytest.raises(ProviderError) as info:
        async for delta in _provider(server, **kw).stream(prompt or _answer_prompt(),
                                                          ProviderCall()):
            received.append(delta)
    return received, info.value


async def test_normal_stream_yields_deltas_and_records_what_the_api_reported(
    fake_anthropic: FakeAnthropicServer,
) -> None:
    fake_anthropic.script(StreamReply(["Items are kept ", "for 30 days [1]."], input_tokens=321,
                                      output_tokens=9, cache_read_input_tokens=2048,
                                      cache_creation_input_tokens=17, ping_every=1))
    provider = _provider(fake_anthropic)
    call = ProviderCall()
    deltas = await _collect(provider, _answer_prompt(), call)
    await provider.aclose()
    assert deltas == ["Items are kept ", "for 30 days [1]."]
    assert (call.model, call.model_version, call.stop_reason) == (SONNET, SONNET, "end_turn")
    assert (call.input_tokens, call.output_tokens, call.cache_read_input_tokens,
            call.cache_creation_input_tokens) == (321, 9, 2048, 17)
    assert call.request_id.startswith("req_011CV")


async def test_request_carries_system_prompt_model_and_messages(
    fake_anthropic: FakeAnthropicServer,
) -> None:
    prompt = _answer_prompt()
    await _collect(_provider(fake_anthropic), prompt, ProviderCall())
    [request] = fake_anthropic.requests
    assert request.path == "/v1/messages"
    sent_key = request.headers.get("x-api-key") or request.headers["authorization"]
    assert sent_key.removeprefix("Bearer ") == "sk-test"
    assert (request.body["stream"], request.body["model"]) == (True, SONNET)
    assert (request.body["system"], request.body["messages"]) == (prompt.system,
                                                                 list(prompt.messages))
    assert request.body["max_tokens"] == 1024


async def test_compress_uses_the_pinned_fast_model(fake_anthropic: FakeAnthropicServer) -> None:
    call = ProviderCall()
    await _collect(_provider(fake_anthropic), build_compress_prompt(question="bin", block=BLOCK),
                   call)
    assert fake_anthropic.requests[0].body["model"] == "claude-haiku-4-5"
    assert call.model_version == HAIKU  # the alias answers with the dated id


def test_connect_timeout_is_five_seconds_and_the_sdk_does_not_retry_itself() -> None:
    provider = AnthropicProvider(api_key="k", model="m", timeout=30.0)
    assert (provider.client.timeout.connect, provider.client.timeout.read) == (5.0, 30.0)
    assert provider.client.max_retries == 0


def test_idle_connections_are_kept_a_minute_for_the_next_question() -> None:
    """Not the SDK's 5 s: a reader's next question would open (and TLS-handshake) anew."""
    provider = AnthropicProvider(api_key="k", model="m")
    transport = provider.client._client._transport  # the SDK's aiohttp transport
    assert transport.limits.keepalive_expiry == 60.0
    assert transport.limits.max_connections == 1000  # the SDK's own cap, kept


async def test_529_overloaded_is_retried_then_succeeds(
    fake_anthropic: FakeAnthropicServer,
) -> None:
    fake_anthropic.script(OVERLOADED, StreamReply(["Fine [1]."]))
    assert await _collect(_provider(fake_anthropic), _answer_prompt(), ProviderCall()) == [
        "Fine [1]."]
    assert len(fake_anthropic.requests) == 2


async def test_529_on_every_attempt_is_a_retryable_error_recorded_whole(
    fake_anthropic: FakeAnthropicServer,
) -> None:
    fake_anthropic.script(OVERLOADED, OVERLOADED)
    _, error = await _failure(fake_anthropic, max_retries=1)
    assert (str(error), error.retryable, error.started) == (MSG_OVERLOADED, True, False)
    assert (error.error_type, error.status, error.api_message) == (
        "overloaded_error", 529, "Overloaded")
    assert error.request_id.startswith("req_011CV")
    assert len(fake_anthropic.requests) == 2


async def test_a_fast_task_is_never_retried(fake_anthropic: FakeAnthropicServer) -> None:
    fake_anthropic.script(OVERLOADED)
    await _failure(fake_anthropic, build_compress_prompt(question="bin", block=BLOCK))
    assert len(fake_anthropic.requests) == 1


async def test_retry_after_within_the_cap_is_obeyed(fake_anthropic: FakeAnthropicServer) -> None:
    fake_anthropic.script(StatusReply(429, "rate_limit_error", "rate limited", retry_after="1"),
                          StreamReply(["Fine [1]."]))
    assert await _collect(_provider(fake_anthropic), _answer_prompt(), ProviderCall()) == [
        "Fine [1]."]


async def test_retry_after_beyond_the_cap_is_not_waited_for_but_passed_on(
    fake_anthropic: FakeAnthropicServer,
) -> None:
    fake_anthropic.script(StatusReply(429, "rate_limit_error", "rate limited", retry_after="75"))
    _, error = await _failure(fake_anthropic, max_retry_wait=10.0)
    assert (str(error), error.retryable, error.retry_after) == (MSG_OVERLOADED, True, 75.0)
    assert len(fake_anthropic.requests) == 1


@pytest.mark.parametrize(
    ("reply", "message", "unavailable"),
    [
        (StatusReply(400, "invalid_request_error", "Your credit balance is too low to access "
                     "the Anthropic API. Please go to Plans & Billing to upgrade or purchase "
                     "credits."), MSG_ACCOUNT, True),
        (StatusReply(429, "rate_limit_error", "You have reached your specified workspace API "
                     "usage limits. You will regain access on 2026-12-01 at 00:00 UTC.",
                     retry_after="1"), MSG_ACCOUNT, True),
        (StatusReply(400, "invalid_request_error", "max_tokens: 999999 > 64000, which is the "
                     "maximum allowed number of output tokens"), MSG_REJECTED, False),
        (StatusReply(401, "authentication_error", "invalid x-api-key"), MSG_KEY, True),
    ],
)
async def test_errors_keep_the_apis_message_and_say_the_right_thing(
    fake_anthropic: FakeAnthropicServer, reply: StatusReply, message: str, unavailable: bool
) -> None:
    fake_anthropic.script(reply)
    _, error = await _failure(fake_anthropic)
    assert (str(error), isinstance(error, ProviderUnavailable)) == (message, unavailable)
    assert (error.api_message, error.status, error.retryable) == (
        reply.message, reply.status, False)
    assert "sk-test" not in str(error)
    assert len(fake_anthropic.requests) == 1  # a spending limit is not retried three times


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        (StatusReply(500, "api_error", "Internal server error"), MSG_SERVER),
        (StatusReply(529, "overloaded_error", "Overloaded"), MSG_OVERLOADED),
        (StatusReply(429, "rate_limit_error", "rate limited", retry_after="1"), MSG_OVERLOADED),
    ],
    ids=["500-is-the-providers-fault", "529-is-busy", "429-is-busy"],
)
async def test_a_server_fault_is_not_called_overload(
    fake_anthropic: FakeAnthropicServer, reply: StatusReply, message: str
) -> None:
    fake_anthropic.script(reply)
    _, error = await _failure(fake_anthropic, max_retries=0)
    assert (str(error), error.retryable, error.status) == (message, True, reply.status)


async def test_an_unknown_model_is_provider_unavailable(
    fake_anthropic: FakeAnthropicServer,
) -> None:
    provider = AnthropicProvider(api_key="k", model="claude-sonnet-9", base_url=fake_anthropic.url)
    with pytest.raises(ProviderUnavailable) as info:
        await _collect(provider, _answer_prompt(), ProviderCall())
    assert (str(info.value), info.value.api_message) == (MSG_MODEL, "model: claude-sonnet-9")


async def test_unreachable_server_is_provider_unavailable() -> None:
    with FakeAnthropicServer() as server:
        url = server.url
    provider = AnthropicProvider(api_key="k", model="m", base_url=url, max_retries=0)
    with pytest.raises(ProviderUnavailable) as info:
        await _collect(provider, _answer_prompt(), ProviderCall())
    assert str(info.value) == MSG_UNREACHABLE


async def test_overloaded_error_event_mid_stream_keeps_the_text_before_it(
    fake_anthropic: FakeAnthropicServer,
) -> None:
    fake_anthropic.script(StreamReply(["Kept 30 days [1]. ", "Admins get", " 90 days."],
                                      fault="error", after=1))
    received, error = await _failure(fake_anthropic)
    assert received == ["Kept 30 days [1]. "]
    assert (str(error), error.retryable, error.started) == (MSG_OVERLOADED, True, True)
    assert error.error_type == "overloaded_error"
    assert len(fake_anthropic.requests) == 1  # never silently re-run once text has streamed


async def test_an_error_event_that_is_not_json_is_still_a_retryable_error_after_the_text(
    fake_anthropic: FakeAnthropicServer,
) -> None:
    fake_anthropic.script(StreamReply(["Kept 30 days [1]. ", "more"], fault="error_text",
                                      after=1))
    received, error = await _failure(fake_anthropic)
    assert received == ["Kept 30 days [1]. "]
    assert (str(error), error.retryable, error.started, error.status) == (
        MSG_SERVER, True, True, 200)  # nothing says the provider is busy: its own fault
    assert error.api_message == "upstream connect error"


@pytest.mark.parametrize(("after", "message", "started"),
                         [(1, MSG_BROKE_OFF, True), (0, MSG_BROKE_BEFORE, False)])
async def test_a_dropped_connection_is_a_provider_error_saying_whether_text_was_shown(
    fake_anthropic: FakeAnthropicServer, after: int, message: str, started: bool
) -> None:
    fake_anthropic.script(*[StreamReply(["Kept 30 days [1]. ", "more"], fault="abort",
                                        after=after)] * 3)
    _, error = await _failure(fake_anthropic, max_retries=0)
    assert (str(error), error.started, error.retryable) == (message, started, True)
    # an incomplete chunked read: aiohttp's ClientPayloadError, raised by the transport as
    # httpx's ReadError (httpcore raised RemoteProtocolError)
    assert error.error_type == "ReadError"


async def test_a_stream_that_ends_without_message_stop_is_broken_not_finished(
    fake_anthropic: FakeAnthropicServer,
) -> None:
    fake_anthropic.script(StreamReply(["Kept 30 days [1]. ", "Admins"], fault="end", after=2))
    received, error = await _failure(fake_anthropic, max_retries=0)
    assert received == ["Kept 30 days [1]. ", "Admins"]
    assert (str(error), error.started, error.error_type) == (
        MSG_BROKE_OFF, True, "incomplete_stream")


@pytest.mark.parametrize(("after", "message"), [(0, MSG_TIMEOUT), (1, MSG_TIMEOUT_STARTED)])
async def test_a_stalled_stream_hits_the_deadline_and_is_hung_up(
    fake_anthropic: FakeAnthropicServer, after: int, message: str
) -> None:
    fake_anthropic.script(StreamReply(["Kept 30 days [1]. ", "more"], fault="stall", after=after))
    trace = TraceRecorder(trace_id="t", question="q")
    response = call_model(_provider(fake_anthropic), _answer_prompt(), trace, purpose="answer",
                          deadlines=Deadlines(first_byte=0.5, total=1.0))
    with pytest.raises(ProviderError) as info:
        async for _ in response:
            pass
    assert (str(info.value), info.value.started) == (message, after > 0)
    [call] = trace.calls
    assert call.error is not None and call.error.type == "deadline_exceeded"
    assert await asyncio.to_thread(fake_anthropic.disconnected.wait, 5)


async def test_cancelling_closes_the_http_stream(fake_anthropic: FakeAnthropicServer) -> None:
    fake_anthropic.script(StreamReply(["First [1]. ", "never sent"], fault="hold", after=1))
    first = asyncio.Event()

    async def consume() -> None:
        async for _ in _provider(fake_anthropic).stream(_answer_prompt(), ProviderCall()):
            first.set()

    task = asyncio.create_task(consume())
    await first.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await asyncio.to_thread(fake_anthropic.disconnected.wait, 5)


async def test_a_cancelled_call_is_recorded_as_cancelled(
    fake_anthropic: FakeAnthropicServer,
) -> None:
    fake_anthropic.script(StreamReply(["First [1]. ", "never sent"], fault="hold", after=1))
    trace = TraceRecorder(trace_id="t", question="q")
    first = asyncio.Event()

    async def consume() -> None:
        async for _ in call_model(_provider(fake_anthropic), _answer_prompt(), trace,
                                  purpose="answer"):
            first.set()

    task = asyncio.create_task(consume())
    await first.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    [call] = trace.calls
    assert (call.output, call.error.type if call.error else "") == ("First [1]. ", "cancelled")
