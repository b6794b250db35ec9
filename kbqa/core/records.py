"""Records of model calls: what ``generation.calls`` appends to the trace, one per call.

Frozen values (``asdict``-serialisable); ``TraceRecorder.calls`` holds them and derives usage
per model from them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

CallPurpose = Literal["answer", "rewrite", "compress", "expand"]


@dataclass(frozen=True)
class ModelUsage:
    """Tokens one model consumed, as the API reported them (priceable per model).

    ``input_tokens`` excludes cached tokens; ``cache_read_input_tokens`` were read from the
    prompt cache, ``cache_creation_input_tokens`` written to it (Anthropic's usage fields;
    OpenAI's ``prompt_tokens_details.cached_tokens`` maps to cache reads).
    """

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_input_tokens: int = 0
    cache_creation_input_tokens: int = 0

    def __add__(self, other: ModelUsage) -> ModelUsage:
        return ModelUsage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.cache_read_input_tokens + other.cache_read_input_tokens,
            self.cache_creation_input_tokens + other.cache_creation_input_tokens,
        )


@dataclass(frozen=True)
class CallError:
    """A failed model call, recorded whole: ``type`` is the API's error type
    (``overloaded_error``) or the exception's class name (``ReadTimeout``); ``status`` the HTTP
    status (0 when no response came); ``message`` the API's own message (reviewers only);
    ``request_id`` the provider's id for support; ``shown`` what the user was told."""

    type: str
    status: int
    message: str
    request_id: str
    shown: str
    started: bool = False


@dataclass(frozen=True)
class ModelCall:
    """One call to a model, whatever its purpose, as ``generation.calls`` recorded it.

    ``model_requested`` is what was asked for, ``model_reported`` what the API says answered
    (a dated version); ``prompt`` is ``Prompt.as_sent()``; ``output`` the raw text received
    (also when the call failed part-way); ``duration_ms`` wall time in milliseconds.
    """

    purpose: CallPurpose
    model_requested: str
    model_reported: str
    prompt: dict[str, Any]
    output: str
    stop_reason: str
    usage: ModelUsage
    duration_ms: float
    request_id: str = ""
    error: CallError | None = None
