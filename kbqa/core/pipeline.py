"""The answering pipeline: one async generator of typed events behind every front end.

Sequence per question (README: How an answer is made):
  retrieve (standalone query) -> low-score gate -> assemble -> conflict gate ->
  [compress] -> generate -> split into sentences -> verify each -> emit or drop ->
  regenerate once if nothing survived -> refuse with ``no_support`` if still nothing.

Events: ``Meta`` first, then ``Sentence``/``Dropped`` as they are decided (or one
``Refusal``), then ``Done`` last; ``Error`` precedes ``Done`` when the provider breaks.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

from kbqa.core.providers.base import Provider
from kbqa.core.types import Event, Mode, Retriever, TraceDraft, Turn


@dataclass(frozen=True)
class PipelineConfig:
    """Knobs of one answer; built from Django settings by ``chat`` (README: Configuration).

    ``budget`` is in tiktoken cl100k_base tokens; ``min_relevance`` is the calibrated
    low-score threshold on normalised relevance in [0, 1]; ``overlap_threshold`` is gate
    two's minimum share of a sentence's substantive terms found in the cited block.
    """

    retrieval_k: int = 20
    budget: int = 1200
    max_blocks: int = 5
    min_relevance: float = 0.3
    overlap_threshold: float = 0.3
    compression: bool = False


@dataclass(frozen=True)
class AnswerRequest:
    """One question.

    ``history`` informs intent only (never evidence). ``standalone_query`` None means the
    pipeline builds it from ``question`` and ``history``. ``pasted`` is text the user pasted,
    labelled as user-provided in the prompt and never citable. ``mode`` "stream" asks the
    model for plain text with inline markers; "json" for the JSON claims contract.
    """

    question: str
    history: tuple[Turn, ...] = ()
    standalone_query: str | None = None
    pasted: str = ""
    fabricate: bool = False
    mode: Mode = "stream"


async def answer(
    request: AnswerRequest,
    *,
    retriever: Retriever,
    provider: Provider,
    config: PipelineConfig,
    trace: TraceDraft,
) -> AsyncIterator[Event]:
    """Answer ``request``, yielding events; fills ``trace`` as it goes.

    Never raises for provider failures (they become ``Error`` + ``Done(status="error")``);
    ``asyncio.CancelledError`` propagates after ``trace.status`` is set to "cancelled".
    """
    raise NotImplementedError
    yield  # pragma: no cover
