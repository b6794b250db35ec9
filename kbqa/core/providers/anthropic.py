"""The Anthropic Messages API through the official SDK's async streaming helper.

``client.messages.stream(...)`` yields typed events (anthropic SDK 2.x,
``anthropic/lib/streaming/_messages.py``): ``message_start`` (carries ``message.model``, the
model version the API actually used, and ``usage.input_tokens``), ``content_block_delta``
with a ``text_delta`` per piece of text, ``message_delta`` (``stop_reason`` and cumulative
``usage.output_tokens``) and ``message_stop``. The SDK retries connection errors, 408/409/429
and 5xx (529 overloaded included) before the stream starts, ``max_retries`` times with
exponential back-off; an ``event: error`` inside a stream is raised as ``APIStatusError``.

Answer tasks use ``model``; compress and rewrite use ``fast_model``. Errors are mapped to
user-safe ``ProviderError``/``ProviderUnavailable`` messages (no key, no request id).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, ClassVar, cast

import anthropic

from kbqa.core.errors import ProviderError, ProviderUnavailable
from kbqa.core.providers.base import Prompt, Provider, ProviderCall

FAST_TASKS = frozenset({"compress", "rewrite"})
_RETRYABLE_TYPES = frozenset(
    {"overloaded_error", "rate_limit_error", "api_error", "timeout_error"}
)
MSG_KEY = "the model provider rejected the API key"
MSG_UNREACHABLE = "the model provider could not be reached"
MSG_OVERLOADED = "the model provider is overloaded or rate-limited; try again in a minute"
MSG_BROKE_OFF = "the connection to the model provider broke off; try again"
MSG_MODEL = "the model provider does not offer the configured model"
MSG_REJECTED = "the model provider rejected the request"


class AnthropicProvider(Provider):
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
    ) -> None:
        super().__init__(model=model, fast_model=fast_model)
        self.client = anthropic.AsyncAnthropic(
            api_key=api_key,
            base_url=base_url or None,
            max_retries=max_retries,
            timeout=timeout,
        )

    async def stream(self, prompt: Prompt, call: ProviderCall) -> AsyncIterator[str]:
        """Yield text deltas; fills ``call`` with model version, usage and stop reason.

        Raises ``ProviderUnavailable`` (bad key, unreachable, unknown model) or
        ``ProviderError`` (``retryable``; ``started`` when text had already been yielded).
        Closing or cancelling the generator closes the HTTP stream (``async with``).
        """
        call.model = self.fast_model if prompt.task in FAST_TASKS else self.model
        started = False
        try:
            async with self.client.messages.stream(
                model=call.model,
                system=prompt.system,
                messages=cast(Any, list(prompt.messages)),
                max_tokens=prompt.max_tokens,
            ) as events:
                async for event in events:
                    text = _record(event, call)
                    if text:
                        started = True
                        yield text
        except anthropic.APIError as exc:
            raise provider_error(exc, started=started) from exc

    async def aclose(self) -> None:
        """Close the SDK's HTTP connection pool."""
        await self.client.close()


def _record(event: Any, call: ProviderCall) -> str:
    """Copy what the API reports onto ``call``; return the event's text delta or ""."""
    if event.type == "message_start":
        call.model_version = event.message.model
        call.input_tokens = event.message.usage.input_tokens
        call.output_tokens = event.message.usage.output_tokens
    elif event.type == "message_delta":
        call.stop_reason = event.delta.stop_reason or ""
        call.output_tokens = event.usage.output_tokens
        if event.usage.input_tokens is not None:
            call.input_tokens = event.usage.input_tokens
    elif event.type == "content_block_delta" and event.delta.type == "text_delta":
        return str(event.delta.text)
    return ""


def error_type(exc: anthropic.APIError) -> str:
    """The API's error type (``overloaded_error``...) from the JSON body, or ""."""
    body = exc.body
    if isinstance(body, dict):
        inner = body.get("error")
        if isinstance(inner, dict):
            return str(inner.get("type", ""))
    return ""


def provider_error(exc: anthropic.APIError, *, started: bool) -> ProviderError:
    """Map an SDK error to kbqa's user-safe provider errors."""
    if isinstance(exc, anthropic.AuthenticationError | anthropic.PermissionDeniedError):
        return ProviderUnavailable(MSG_KEY)
    if isinstance(exc, anthropic.APIConnectionError):
        if started:
            return ProviderError(MSG_BROKE_OFF, retryable=True, started=True)
        return ProviderUnavailable(MSG_UNREACHABLE, retryable=True)
    if isinstance(exc, anthropic.NotFoundError):
        return ProviderUnavailable(MSG_MODEL)
    status = exc.status_code if isinstance(exc, anthropic.APIStatusError) else 0
    if error_type(exc) in _RETRYABLE_TYPES or status == 429 or status >= 500:
        return ProviderError(MSG_OVERLOADED, retryable=True, started=started)
    return ProviderError(MSG_REJECTED, retryable=False, started=started)
