"""The Anthropic Messages API through the official SDK, its event stream read as JSON.

The request goes through ``client.messages.with_streaming_response.create(..., stream=True)``
(anthropic SDK 2.x): the SDK builds it, authenticates, applies the timeouts and raises its
``APIStatusError`` subclasses for an HTTP error status, as ``messages.stream()`` does. The
body's server-sent events are then cut by the SDK's own decoder (``AsyncStream.raw_events``)
and each event's data is read with ``json.loads``, without the typed event objects and the
running message snapshot ``messages.stream()`` builds per delta: measured on 2026-11-30
(``bench/load.py`` and an in-process comparison against its fake model), 4 ms of CPU per
66-token answer instead of 8-9 ms, half of kbqa's own CPU per answer at the time.

Events read (https://docs.anthropic.com/en/api/messages-streaming): ``message_start``
(``message.model``, the dated model version the API used, and the input side of ``usage``
including ``cache_read_input_tokens``/``cache_creation_input_tokens``),
``content_block_delta`` with a ``text_delta`` per piece of text, ``message_delta``
(``stop_reason`` and cumulative ``usage``) and ``message_stop``; ``ping`` and any other event
are skipped, and an ``event: error`` (``overloaded_error``) at any point is raised as the SDK
raises it in its own streams: ``APIStatusError`` with the stream's status (200) and the
error body.

A stream that ends without ``message_stop`` is broken, not finished: with HTTP/1.1 chunked
transfer a dropped connection raises a read error, but a proxy or server that closes the
body cleanly after a few pings would otherwise look like a complete answer. Any exception
during the stream becomes a ``ProviderError`` (``providers.failures.sdk_error``) that says
whether text had already been yielded.

The HTTP transport is aiohttp (``anthropic.DefaultAioHttpClient``, the SDK's ``aiohttp``
extra: its vendored httpx-aiohttp transport under the SDK's own client), whose C HTTP parser
reads each chunk where httpx's pure-Python h11 and httpcore's pool did: measured on
2026-11-30 (``bench/load.py``, 200 streams from the fake model at once on 2 shared cores)
the model alone went from 1.5-1.7x to 1.2x its pace. The SDK builds, times and raises as
before; aiohttp's errors reach us as httpx's (``ReadError``, ``ConnectError``, timeouts).

Connections are kept for reuse ``KEEPALIVE_SECONDS`` (60 s) after their last stream, not the
SDK's 5 s (httpx's ``Limits`` default): every question after a pause longer than 5 s opened
a new connection (a TLS handshake against the real API); in ``bench/load.py`` half of the
SDK's CPU per answer was ``connect`` (py-spy, 2026-12-01: 200 answers at once, then 200 more
after a pause). The SDK's own cap of 1000 connections stays. A connection the API closed
while idle fails at its next request before any text, which ``with_retries`` retries.

Waits are bounded: connecting 5 s (``CONNECT_TIMEOUT``), each read ``timeout`` seconds, the
SDK's own retries are off and ``failures.with_retries`` retries before the first text only,
never waiting longer than ``max_retry_wait`` seconds; fast tasks (rewrite, compression,
expansion) are never retried: their callers have an offline fallback. Deadlines on the whole
call are the pipeline's (``generation.calls``).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncGenerator, Mapping
from typing import Any, ClassVar, cast

import anthropic

from kbqa.core.errors import ProviderError
from kbqa.core.providers.base import Prompt, ProviderCall
from kbqa.core.providers.failures import (
    MSG_BROKE_BEFORE,
    MSG_BROKE_OFF,
    RetryingSdkProvider,
    sdk_error,
)

CONNECT_TIMEOUT = 5.0  # seconds: the SDK's own default, which a float timeout would replace
# Idle keep-alive, seconds: longer than a reader's pause between two questions, shorter than
# common server and load-balancer idle time-outs (nginx 75 s, AWS ALB 60 s: a server that
# closes first costs one retried connect); the turbopuffer SDK (Stainless, as anthropic's)
# chose 60 s for its aiohttp client too (turbopuffer-python #219).
KEEPALIVE_SECONDS = 60.0
MSG_NO_STOP = "the model provider ended the stream before the answer was complete"

LIMITS = dataclasses.replace(
    anthropic.DEFAULT_CONNECTION_LIMITS, keepalive_expiry=KEEPALIVE_SECONDS
)


class AnthropicProvider(RetryingSdkProvider):
    """Claude via ``anthropic.AsyncAnthropic``; ``supports_rewrite`` is true."""

    name: ClassVar[str] = "anthropic"
    supports_rewrite: ClassVar[bool] = True

    def __init__(
        self,
        *,
        api_key: str,
        model: str,
        fast_model: str = "",
        base_url: str = "",
        max_retries: int = 2,
        timeout: float = 60.0,
        max_retry_wait: float = 10.0,
    ) -> None:
        super().__init__(
            model=model, fast_model=fast_model, max_retries=max_retries,
            max_retry_wait=max_retry_wait,
        )
        timeouts = anthropic.Timeout(timeout, connect=CONNECT_TIMEOUT)
        self.client = anthropic.AsyncAnthropic(
            api_key=api_key,
            base_url=base_url or None,
            max_retries=0,
            timeout=timeouts,
            http_client=anthropic.DefaultAioHttpClient(timeout=timeouts, limits=LIMITS),
        )

    async def _attempt(self, prompt: Prompt, call: ProviderCall) -> AsyncGenerator[str, None]:
        started = stopped = False
        try:
            async with self.client.messages.with_streaming_response.create(
                model=call.model,
                system=prompt.system,
                messages=cast(Any, list(prompt.messages)),
                max_tokens=prompt.max_tokens,
                stream=True,
            ) as response:
                call.request_id = response.request_id or ""
                http = response.http_response
                async for sse in anthropic.AsyncStream.raw_events(http):
                    if sse.event == "error":
                        raise _stream_error(sse.data, http)
                    stopped = stopped or sse.event == "message_stop"
                    text = _record(sse.event, sse.data, call)
                    if text:
                        started = True
                        yield text
        except Exception as exc:  # noqa: BLE001 - any failure mid-stream is a provider error
            raise sdk_error(exc, sdk=anthropic, started=started) from exc
        if not stopped:
            raise ProviderError(
                MSG_BROKE_OFF if started else MSG_BROKE_BEFORE, retryable=True,
                started=started, error_type="incomplete_stream", api_message=MSG_NO_STOP,
                request_id=call.request_id,
            )


def _stream_error(data: str, http: Any) -> anthropic.APIStatusError:
    """An ``event: error`` as the SDK's own streams raise it: its JSON body (or the raw data
    when it is not JSON) on an ``APIStatusError`` carrying the stream's response."""
    body: object = data
    try:
        body = json.loads(data)
    except ValueError:
        pass
    return anthropic.APIStatusError(f"{body}", response=http, body=body)


# The events whose data kbqa reads; the data of any other (ping, content_block_start/stop,
# message_stop) is never parsed.
_READ = frozenset({"content_block_delta", "message_start", "message_delta"})


def _record(event: str | None, data: str, call: ProviderCall) -> str:
    """Copy what the API reports onto ``call``; return the event's text delta or ""."""
    if event not in _READ or not data:
        return ""
    payload = json.loads(data)
    if event == "content_block_delta":
        delta = payload.get("delta") or {}
        return str(delta.get("text") or "") if delta.get("type") == "text_delta" else ""
    if event == "message_start":
        message = payload.get("message") or {}
        call.model_version = str(message.get("model") or "")
        _usage(message.get("usage"), call)
    else:
        call.stop_reason = str((payload.get("delta") or {}).get("stop_reason") or "")
        _usage(payload.get("usage"), call)
    return ""


def _usage(usage: object, call: ProviderCall) -> None:
    """Copy the usage fields the event carries (``message_delta`` counts are cumulative)."""
    if not isinstance(usage, Mapping):
        return
    for field in (
        "input_tokens",
        "output_tokens",
        "cache_read_input_tokens",
        "cache_creation_input_tokens",
    ):
        value = usage.get(field)
        if value is not None:
            setattr(call, field, int(value))
