"""What a trace records: each model call (what ``generation.calls`` appends, one per call)
and the ``TraceRecorder`` that holds them with everything else a reviewer needs.

Call records are frozen values (``asdict``-serialisable); ``TraceRecorder.calls`` holds them
and derives usage per model from them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass
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


@dataclass
class TraceRecorder:
    """Everything a reviewer needs, filled in by the pipeline as it goes (mutable on purpose).

    The caller creates it, passes it to the pipeline and stores it in a ``finally`` block, so a
    trace exists even when the answer fails or the client disconnects. Times are milliseconds.
    ``calls`` holds every model call (``generation.calls.call_model`` is the only writer);
    ``usage``, ``prompts`` and ``drafts`` are derived from it.
    """

    trace_id: str
    question: str
    standalone_query: str = ""
    expanded_query: str = ""
    #: words of the standalone query read another way before the search: misspellings and
    #: their corrections (``text.spelling``), numbers in words and their digits
    #: (``text.number_words``)
    spelling: dict[str, str] = field(default_factory=dict)
    language: str = "en"
    hits: list[dict[str, Any]] = field(default_factory=list)
    min_relevance: float = 0.0
    blocks: list[dict[str, Any]] = field(default_factory=list)
    compression: dict[str, Any] | None = None
    conflicts: list[dict[str, Any]] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    provider: str = ""
    model: str = ""
    model_version: str = ""
    calls: list[ModelCall] = field(default_factory=list)
    verdicts: list[dict[str, Any]] = field(default_factory=list)
    #: sentences of the blocks that address the assistant (``grounding.instructions``)
    instruction_sentences: list[dict[str, Any]] = field(default_factory=list)
    dropped: list[dict[str, Any]] = field(default_factory=list)
    emitted: list[dict[str, Any]] = field(default_factory=list)
    refusal_reason: str = ""
    status: str = "pending"
    timings: dict[str, float] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    #: the error line the asker was shown (an ``Error`` event's message, a catalogue msgid)
    shown_error: str = ""

    @property
    def usage(self) -> dict[str, ModelUsage]:
        """Token usage summed per reported model (requested model when none was reported)."""
        out: dict[str, ModelUsage] = {}
        for c in self.calls:
            key = c.model_reported or c.model_requested
            out[key] = out.get(key, ModelUsage()) + c.usage
        return out

    @property
    def drafts(self) -> list[str]:
        """The raw text of each answer draft, in order."""
        return [c.output for c in self.calls if c.purpose == "answer"]

    @property
    def prompts(self) -> list[dict[str, Any]]:
        """The prompt of each answer draft as sent, in order."""
        return [c.prompt for c in self.calls if c.purpose == "answer"]

    def to_dict(self) -> dict[str, Any]:
        """The one JSON-ready form of the trace (``Trace.data``), derived fields included:
        what ``dataclasses.asdict`` gives, built by ``plain``."""
        data: dict[str, Any] = plain(self)
        data["usage"] = {model: plain(u) for model, u in self.usage.items()}
        data["prompts"] = self.prompts
        data["drafts"] = self.drafts
        return data


_LEAVES = frozenset({str, int, float, bool, type(None)})


def plain(value: Any) -> Any:
    """``value`` as ``dataclasses.asdict`` would give it (dataclasses as dicts of their
    fields, lists, tuples and dicts rebuilt), without ``asdict``'s ``copy.deepcopy`` of
    every leaf: strings, numbers, booleans and None are immutable, so they are shared.
    A turn's trace holds its prompt, hits and blocks; deep-copying each leaf cost about
    1 ms of CPU per answer (``bench/turn_cpu.py --profile``, 2026-12-02). Those leaves are
    most of a trace's values, so their exact types are recognised first."""
    if type(value) in _LEAVES:
        return value
    if isinstance(value, dict):
        return type(value)((plain(k), plain(v)) for k, v in value.items())
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, tuple):
        return type(value)(*[plain(v) for v in value]) if hasattr(value, "_fields") else (
            tuple(plain(v) for v in value))
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in fields(value)}
    return value
