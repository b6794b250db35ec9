"""An OpenAI-compatible chat completions API through the official ``openai`` SDK.

For on-premise models behind Ollama, vLLM or a llama.cpp server (all speak
``POST /v1/chat/completions`` with ``stream: true``): the SDK's ``AsyncStream`` yields
``ChatCompletionChunk`` objects parsed from SSE ``data:`` lines until ``data: [DONE]``
(openai SDK ``_streaming.py``); an error inside the stream (``data: {"error": ...}``) is
raised as ``APIError``. ``stream_options.include_usage`` asks for a last chunk with
``usage`` (servers that ignore it leave usage at 0).

The same robustness as the Anthropic provider: a stream counts as complete only once a
choice reported ``finish_reason`` (a connection closed before it is broken, whatever the
transport says); the same aiohttp transport (``openai.DefaultAioHttpClient``, the SDK's
``aiohttp`` extra); connect 5 s; no SDK retries, ``failures.with_retries`` instead; any
exception mid-stream becomes a ``ProviderError`` that says whether text had been shown.
``finish_reason`` is mapped onto Anthropic's stop reasons, which the pipeline acts on:
``length`` -> ``max_tokens``, ``content_filter`` (or a ``refusal`` delta) -> ``refusal``,
``stop`` -> ``end_turn``.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any, ClassVar, cast

import openai

from kbqa.core.errors import ProviderError
from kbqa.core.providers.base import Prompt, ProviderCall
from kbqa.core.providers.failures import (
    MSG_BROKE_BEFORE,
    MSG_BROKE_OFF,
    RetryingSdkProvider,
    sdk_error,
)

CONNECT_TIMEOUT = 5.0
MSG_NO_FINISH = "the model server ended the stream before any choice finished"
STOP_REASONS = {
    "stop": "end_turn",
    "length": "max_tokens",
    "content_filter": "refusal",
    "tool_calls": "tool_use",
}
# Local servers (Ollama, llama.cpp) accept any key; the SDK refuses to start without one.
PLACEHOLDER_KEY = "not-needed"


class OpenAIProvider(RetryingSdkProvider):
    """A model behind any OpenAI-compatible server via ``openai.AsyncOpenAI``."""

    name: ClassVar[str] = "openai"
    supports_rewrite: ClassVar[bool] = True

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        fast_model: str = "",
        api_key: str = "",
        max_retries: int = 2,
        timeout: float = 60.0,
        max_retry_wait: float = 10.0,
    ) -> None:
        super().__init__(
            model=model, fast_model=fast_model, max_retries=max_retries,
            max_retry_wait=max_retry_wait,
        )
        timeouts = openai.Timeout(timeout, connect=CONNECT_TIMEOUT)
        self.client = openai.AsyncOpenAI(
            api_key=api_key or PLACEHOLDER_KEY,
            base_url=base_url or None,
            max_retries=0,
            timeout=timeouts,
            http_client=openai.DefaultAioHttpClient(timeout=timeouts),
        )

    async def _attempt(self, prompt: Prompt, call: ProviderCall) -> AsyncGenerator[str, None]:
        started = finished = False
        messages = [{"role": "system", "content": prompt.system}, *prompt.messages]
        try:
            chunks = await self.client.chat.completions.create(
                model=call.model,
                messages=cast(Any, messages),
                max_tokens=prompt.max_tokens,
                stream=True,
                stream_options={"include_usage": True},
            )
            call.request_id = chunks.response.headers.get("x-request-id", "")
            async with chunks:
                async for chunk in chunks:
                    finished = _record(chunk, call) or finished
                    for choice in chunk.choices:
                        if choice.delta.content:
                            started = True
                            yield choice.delta.content
        except Exception as exc:  # noqa: BLE001 - any failure mid-stream is a provider error
            raise sdk_error(exc, sdk=openai, started=started) from exc
        if not finished:
            raise ProviderError(
                MSG_BROKE_OFF if started else MSG_BROKE_BEFORE, retryable=True,
                started=started, error_type="incomplete_stream", api_message=MSG_NO_FINISH,
                request_id=call.request_id,
            )


def _record(chunk: Any, call: ProviderCall) -> bool:
    """Copy what a chunk reports onto ``call``; True when a choice finished in it."""
    call.model_version = chunk.model or call.model_version
    usage = chunk.usage
    if usage is not None:
        details = getattr(usage, "prompt_tokens_details", None)
        cached = int(getattr(details, "cached_tokens", 0) or 0)
        call.input_tokens = int(usage.prompt_tokens or 0) - cached
        call.cache_read_input_tokens = cached
        call.output_tokens = int(usage.completion_tokens or 0)
    finished = False
    for choice in chunk.choices:
        if getattr(choice.delta, "refusal", None):
            call.stop_reason = "refusal"
        if choice.finish_reason:
            finished = True
            if call.stop_reason != "refusal":
                reason = str(choice.finish_reason)
                call.stop_reason = STOP_REASONS.get(reason, reason)
    return finished
