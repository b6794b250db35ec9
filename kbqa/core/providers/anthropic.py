"""The Anthropic Messages API through the official SDK's async streaming helper.

``client.messages.stream(...)`` yields typed events (anthropic SDK 2.x,
``anthropic/lib/streaming/_messages.py``; https://docs.anthropic.com/en/api/messages-streaming):
``message_start`` (``message.model``, the dated model version the API used, and the input
side of ``usage`` including ``cache_read_input_tokens``/``cache_creation_input_tokens``),
``content_block_delta`` with a ``text_delta`` per piece of text, ``message_delta``
(``stop_reason`` and cumulative ``usage``) and ``message_stop``; ``ping`` events keep the
connection alive and an ``event: error`` (``overloaded_error``) can come at any point.

A stream that ends without ``message_stop`` is broken, not finished: with HTTP/1.1 chunked
transfer a dropped connection raises a read error, but a proxy or server that closes the
body cleanly after a few pings would otherwise look like a complete answer. Any exception
during the stream becomes a ``ProviderError`` (``providers.failures.sdk_error``) that says
whether text had already been yielded.

Waits are bounded: connecting 5 s (``CONNECT_TIMEOUT``), each read ``timeout`` seconds, the
SDK's own retries are off and ``failures.with_retries`` retries before the first text only,
never waiting longer than ``max_retry_wait`` seconds; fast tasks (rewrite, compression,
expansion) are never retried: their callers have an offline fallback. Deadlines on the whole
call are the pipeline's (``generation.calls``).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
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
MSG_NO_STOP = "the model provider ended the stream before the answer was complete"


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
        self.client = anthropic.AsyncAnthropic(
            api_key=api_key,
            base_url=base_url or None,
            max_retries=0,
            timeout=anthropic.Timeout(timeout, connect=CONNECT_TIMEOUT),
        )

    async def _attempt(self, prompt: Prompt, call: ProviderCall) -> AsyncGenerator[str, None]:
        started = stopped = False
        try:
            async with self.client.messages.stream(
                model=call.model,
                system=prompt.system,
                messages=cast(Any, list(prompt.messages)),
                max_tokens=prompt.max_tokens,
            ) as events:
                call.request_id = events.request_id or ""
                async for event in events:
                    stopped = stopped or event.type == "message_stop"
                    text = _record(event, call)
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


def _record(event: Any, call: ProviderCall) -> str:
    """Copy what the API reports onto ``call``; return the event's text delta or ""."""
    if event.type == "message_start":
        call.model_version = event.message.model
        _usage(event.message.usage, call)
    elif event.type == "message_delta":
        call.stop_reason = event.delta.stop_reason or ""
        _usage(event.usage, call)
    elif event.type == "content_block_delta" and event.delta.type == "text_delta":
        return str(event.delta.text)
    return ""


def _usage(usage: Any, call: ProviderCall) -> None:
    """Copy the usage fields the event carries (``message_delta`` counts are cumulative)."""
    for field in (
        "input_tokens",
        "output_tokens",
        "cache_read_input_tokens",
        "cache_creation_input_tokens",
    ):
        value = getattr(usage, field, None)
        if value is not None:
            setattr(call, field, int(value))
