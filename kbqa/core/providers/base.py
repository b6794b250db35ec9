"""The provider contract.

A provider turns a ``Prompt`` into streamed text and nothing more. Timing, token usage, the
raw output and the trace are recorded by the pipeline; a provider only reports what the API
told it (model version, token usage, stop reason) on the ``ProviderCall`` it is handed.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from kbqa.core.text.normalise import has_cjk
from kbqa.core.types import Block, Turn

Task = Literal["answer", "answer_json", "compress", "rewrite", "expand"]
#: Tasks run on the fast model, with a short deadline and no retries.
FAST_TASKS = frozenset({"compress", "rewrite", "expand"})


@dataclass(frozen=True)
class Prompt:
    """What a provider is asked.

    ``system`` and ``messages`` (``[{"role": "user" | "assistant", "content": str}]``) are
    what an API model is sent, verbatim. The structured fields repeat the inputs for offline
    providers, which compose from the blocks instead of reading prose: ``question`` is the
    standalone query, ``blocks`` the numbered sources (for ``compress``: the one block to
    compress), ``feedback`` the per-sentence reasons a previous draft failed, ``history``
    the earlier turns (for ``rewrite``).
    """

    task: Task
    system: str
    messages: tuple[dict[str, str], ...]
    question: str = ""
    blocks: tuple[Block, ...] = ()
    feedback: tuple[str, ...] = ()
    history: tuple[Turn, ...] = ()
    max_tokens: int = 1024

    def as_sent(self) -> dict[str, Any]:
        """The prompt as an API receives it, for the trace."""
        return {"task": self.task, "system": self.system, "messages": list(self.messages)}


@dataclass
class ProviderCall:
    """What the provider learned while answering one prompt (filled in by the provider).

    ``model`` is the model requested, ``model_version`` the one the API reported;
    ``stop_reason`` the API's (Anthropic's vocabulary: ``end_turn``, ``max_tokens``,
    ``refusal``...; OpenAI's ``length``/``content_filter`` are mapped onto it); token
    counts as the API reported them; ``request_id`` the API's id of the request.
    """

    model: str = ""
    model_version: str = ""
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_input_tokens: int = 0
    cache_creation_input_tokens: int = 0
    stop_reason: str = ""
    request_id: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


class Provider(ABC):
    """A text generator. Subclasses set ``name`` and implement ``stream``.

    ``model`` answers questions; ``fast_model`` (a Haiku-class model) compresses blocks and
    rewrites follow-ups into standalone queries. ``supports_rewrite`` is false for providers
    that cannot rewrite a follow-up; the pipeline then uses the deterministic rewrite.
    """

    name: ClassVar[str] = "provider"
    supports_rewrite: ClassVar[bool] = False

    def __init__(self, *, model: str = "", fast_model: str = "") -> None:
        self.model = model
        self.fast_model = fast_model or model

    def model_for(self, prompt: Prompt) -> str:
        """The model a prompt goes to: ``fast_model`` for ``FAST_TASKS``, else ``model``."""
        return self.fast_model if prompt.task in FAST_TASKS else self.model

    @property
    def label(self) -> str:
        """Human description for the status line, e.g. ``anthropic claude-sonnet-4-5``."""
        return f"{self.name} {self.model}".strip()

    @abstractmethod
    def stream(self, prompt: Prompt, call: ProviderCall) -> AsyncIterator[str]:
        """Yield text deltas for ``prompt``.

        Raises ``ProviderError`` (``retryable``/``started`` set) or ``ProviderUnavailable``.
        Cancellation (``asyncio.CancelledError``) must close any open connection promptly.
        """

    async def aclose(self) -> None:  # noqa: B027 - optional hook, not abstract
        """Release connections (default: nothing to release)."""


_WORD_RE = re.compile(r"\S+\s*|\s+")


def word_deltas(text: str) -> list[str]:
    """``text`` cut into deltas of one word each, whitespace kept ("a b" -> ["a ", "b"]).

    Chinese text has no spaces, so a piece containing CJK is cut every 4 characters.
    """
    out: list[str] = []
    for piece in _WORD_RE.findall(text):
        if has_cjk(piece):
            out.extend(piece[i : i + 4] for i in range(0, len(piece), 4))
        else:
            out.append(piece)
    return out
