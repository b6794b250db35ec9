"""A scripted provider for tests (after simonw/llm's ``tests/conftest.py`` MockModel).

``FakeProvider(outputs)`` answers each prompt with the next canned output and records every
prompt it was asked in ``.prompts``:

- ``str``: streamed in small deltas (one word, with its trailing space, at a time);
- ``list[str]``: streamed as exactly those deltas;
- an exception instance: raised before any text;
- ``FakeOutput(deltas=[...], error=...)``: those deltas, then the error (a failure mid-stream);
- ``FakeOutput(deltas=[...], hang=True)``: those deltas, then no more until cancelled (a slow
  model the client walks away from); ``.streaming`` is set once the deltas are out and
  ``.cancelled`` records the cancellation.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from typing import ClassVar

from kbqa.core.providers.base import Prompt, Provider, ProviderCall, word_deltas


@dataclass(frozen=True)
class FakeOutput:
    """Exact deltas, then optionally an error raised after them."""

    deltas: tuple[str, ...] | list[str] = ()
    error: BaseException | None = None
    hang: bool = False
    release: asyncio.Event | None = None  # with ``hang``: go on (and end) once it is set
    stop_reason: str = "end_turn"
    usage: dict[str, int] = field(default_factory=dict)


CannedOutput = str | list[str] | BaseException | FakeOutput


class FakeProviderExhausted(AssertionError):
    """The test asked the fake provider more often than it scripted outputs."""


class FakeProvider(Provider):
    """Answers from a queue of canned outputs; ``prompts`` records what it was asked."""

    name: ClassVar[str] = "fake"

    def __init__(
        self,
        outputs: Iterable[CannedOutput] = (),
        *,
        model: str = "fake-model",
        fast_model: str = "fake-fast",
        supports_rewrite: bool = False,
    ) -> None:
        super().__init__(model=model, fast_model=fast_model)
        self.outputs: deque[CannedOutput] = deque(outputs)
        self.prompts: list[Prompt] = []
        self.closed = False
        self.streaming = asyncio.Event()
        self.cancelled = False
        # An instance attribute shadows the ClassVar so one test can enable rewriting.
        self.supports_rewrite = supports_rewrite  # type: ignore[misc]

    def add(self, *outputs: CannedOutput) -> None:
        """Append more canned outputs to the queue."""
        self.outputs.extend(outputs)

    async def stream(self, prompt: Prompt, call: ProviderCall) -> AsyncIterator[str]:
        """Yield the next canned output; raises ``FakeProviderExhausted`` if none is left."""
        self.prompts.append(prompt)
        if not self.outputs:
            raise FakeProviderExhausted(
                f"FakeProvider has no canned output left for a {prompt.task!r} prompt "
                f"(asked {len(self.prompts)} times)"
            )
        output = self.outputs.popleft()
        call.model = self.fast_model if prompt.task in ("compress", "rewrite") else self.model
        call.model_version = call.model
        script = _as_script(output)
        for delta in script.deltas:
            await asyncio.sleep(0)
            yield delta
        if script.hang:
            await self._hang(script.release)
        if script.error is not None:
            raise script.error
        call.stop_reason = script.stop_reason
        call.input_tokens = script.usage.get("input_tokens", 0)
        call.output_tokens = script.usage.get("output_tokens", 0)

    async def _hang(self, release: asyncio.Event | None = None) -> None:
        self.streaming.set()
        try:
            await (release or asyncio.Event()).wait()
        except asyncio.CancelledError:
            self.cancelled = True
            raise

    async def aclose(self) -> None:
        self.closed = True


def _as_script(output: CannedOutput) -> FakeOutput:
    if isinstance(output, FakeOutput):
        return output
    if isinstance(output, BaseException):
        return FakeOutput(error=output)
    if isinstance(output, str):
        return FakeOutput(deltas=word_deltas(output))
    return FakeOutput(deltas=list(output))
