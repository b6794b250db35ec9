"""The one model-call path: every call to a model, whatever its purpose, passes here.

As every prompt in simonw/llm passes one ``Response`` (``llm/models.py``), every model call in
kbqa (answer drafts, the standalone rewrite, compression, query expansion) is a
``ModelResponse``: it bounds the wait (``Deadlines``; a missed deadline is a ``ProviderError``
that says whether text had been shown, as every API or network failure already is when it
leaves a provider) and appends one frozen ``ModelCall`` to the trace when the call ends,
however it ends (finished, failed, timed out, cancelled). Providers only stream text and
report what the API said on a ``ProviderCall``; they never touch the trace (haystack's
tracing keeps stages ignorant of the tracer in the same way).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing
from dataclasses import dataclass

from kbqa.core.errors import ProviderError, gettext_noop
from kbqa.core.providers.base import Prompt, Provider, ProviderCall
from kbqa.core.records import CallError, CallPurpose, ModelCall, ModelUsage, TraceRecorder

log = logging.getLogger(__name__)

MSG_TIMEOUT = gettext_noop("the model provider took too long to answer; try again")
MSG_TIMEOUT_STARTED = gettext_noop(
    "the model provider stopped answering after part of the answer was shown; try again"
)


@dataclass(frozen=True)
class Deadlines:
    """Bounds on one model call, in seconds.

    ``first_byte`` runs until the first text delta (it covers connecting, the provider's
    retries and their ``retry-after`` waits); ``total`` bounds the whole call. Defaults:
    answers 20 s / 90 s, fast calls (rewrite, compression, expansion) 5 s / 10 s; chosen so
    a user waits at most as long as the answer page's spinner promises (README: Configuration).
    """

    first_byte: float = 20.0
    total: float = 90.0


ANSWER_DEADLINES = Deadlines()
FAST_DEADLINES = Deadlines(first_byte=5.0, total=10.0)


class ModelResponse:
    """One model call: iterate it for text deltas, or ``await text()`` for the whole output.

    ``record`` is the ``ModelCall`` appended to ``trace.calls`` once the call has ended.
    Raises ``ProviderError`` (``started`` set when text had already been yielded) for every
    failure of the model, including missed deadlines; any other exception (a bug) and
    ``asyncio.CancelledError`` propagate unchanged. Every call is recorded.
    """

    def __init__(
        self,
        provider: Provider,
        prompt: Prompt,
        trace: TraceRecorder,
        *,
        purpose: CallPurpose,
        deadlines: Deadlines = ANSWER_DEADLINES,
    ) -> None:
        self.provider, self.prompt, self.trace = provider, prompt, trace
        self.purpose, self.deadlines = purpose, deadlines
        self.record: ModelCall | None = None

    def __aiter__(self) -> AsyncIterator[str]:
        return self._deltas()

    async def text(self) -> str:
        """The whole output; raises like iteration does."""
        return "".join([d async for d in self._deltas()])

    async def _deltas(self) -> AsyncIterator[str]:
        reported = ProviderCall(model=self.provider.model_for(self.prompt))
        pieces: list[str] = []
        error: ProviderError | None = None
        t0 = time.perf_counter()
        stream = self.provider.stream(self.prompt, reported)
        try:
            async with aclosing(_bounded(stream, self.deadlines, pieces)) as deltas:
                async for delta in deltas:
                    yield delta
        except ProviderError as exc:
            error = exc
            raise
        except (asyncio.CancelledError, GeneratorExit):
            # The client walked away: recorded as such, not as a provider failure.
            error = ProviderError("cancelled", started=bool(pieces), error_type="cancelled")
            raise
        except Exception as exc:
            # Providers wrap every failure of the API or the network (``providers.failures``);
            # anything else is a bug: recorded here, shown by the pipeline as an internal error.
            error = ProviderError("", started=bool(pieces), error_type=type(exc).__name__,
                                  api_message=str(exc))
            raise
        finally:
            aclose = getattr(stream, "aclose", None)
            if aclose is not None:
                await aclose()
            self._record(reported, "".join(pieces), error, t0)

    def _record(
        self, reported: ProviderCall, output: str, error: ProviderError | None, t0: float
    ) -> None:
        self.record = ModelCall(
            purpose=self.purpose,
            model_requested=reported.model,
            model_reported=reported.model_version,
            prompt=self.prompt.as_sent(),
            output=output,
            stop_reason=reported.stop_reason,
            usage=ModelUsage(
                reported.input_tokens,
                reported.output_tokens,
                reported.cache_read_input_tokens,
                reported.cache_creation_input_tokens,
            ),
            duration_ms=round((time.perf_counter() - t0) * 1000, 1),
            request_id=reported.request_id or (error.request_id if error else ""),
            error=_call_error(error) if error else None,
        )
        self.trace.calls.append(self.record)
        if error is not None and error.error_type != "cancelled":
            log.warning(
                "model call failed: purpose=%s model=%s type=%s status=%s request_id=%s "
                "started=%s message=%s",
                self.purpose, reported.model, error.error_type, error.status,
                error.request_id, error.started, error.api_message or error,
            )


async def _bounded(
    stream: AsyncIterator[str], deadlines: Deadlines, pieces: list[str]
) -> AsyncGenerator[str, None]:
    """``stream``'s deltas (appended to ``pieces``) within ``deadlines``; a missed deadline
    cancels the pending read (closing the HTTP stream) and raises ``ProviderError``."""
    loop = asyncio.get_running_loop()
    end_at = loop.time() + deadlines.total
    first_at = min(loop.time() + deadlines.first_byte, end_at)
    while True:
        try:
            async with asyncio.timeout_at(end_at if pieces else first_at):
                delta = await anext(stream)
        except StopAsyncIteration:
            return
        except TimeoutError as exc:
            which = "total" if pieces else "first_byte"
            raise ProviderError(
                MSG_TIMEOUT_STARTED if pieces else MSG_TIMEOUT,
                retryable=True, started=bool(pieces), error_type="deadline_exceeded",
                api_message=f"no {'end' if pieces else 'text'} within the {which} deadline "
                f"of {getattr(deadlines, which)} s",
            ) from exc
        pieces.append(delta)
        yield delta


def _call_error(error: ProviderError) -> CallError:
    return CallError(
        type=error.error_type,
        status=error.status,
        message=error.api_message,
        request_id=error.request_id,
        shown=str(error),
        started=error.started,
    )


def call_model(
    provider: Provider,
    prompt: Prompt,
    trace: TraceRecorder,
    *,
    purpose: CallPurpose,
    deadlines: Deadlines = ANSWER_DEADLINES,
) -> ModelResponse:
    """The one way kbqa calls a model: a recorded, bounded ``ModelResponse`` for ``prompt``."""
    return ModelResponse(provider, prompt, trace, purpose=purpose, deadlines=deadlines)
