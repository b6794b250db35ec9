"""What the events of one turn add up to (``AnswerOutcome``): what the user was shown, and
the turn's status, for every front end that renders or stores a turn."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kbqa.core.text.sentences import joined
from kbqa.core.types import Done, Dropped, Error, Event, Meta, Notice, Refusal, Sentence

# Seconds a client is told to wait after a retryable failure the provider gave no time for:
# the anthropic and openai SDKs' longest back-off is 8 s, and their overload messages say
# "in a minute"; 30 s sits between, so a client retrying at once does not pile on.
DEFAULT_RETRY_AFTER = 30


@dataclass
class AnswerOutcome:
    """What the events of one turn add up to: what the user was shown, and its status."""

    trace_id: str = ""
    sentences: list[dict[str, Any]] = field(default_factory=list)
    dropped: int = 0
    dropped_items: list[dict[str, Any]] = field(default_factory=list)
    refusal: dict[str, Any] | None = None
    status: str = "pending"
    error: str = ""
    retry_after: int | None = None  # seconds, when retrying makes sense (Error.retryable)
    blocks: tuple[dict[str, Any], ...] = ()
    language: str = ""
    notices: list[str] = field(default_factory=list)  # authority notices shown with the answer

    def add(self, ev: Event) -> None:
        if isinstance(ev, Meta):
            self.trace_id, self.blocks, self.language = ev.trace_id, ev.blocks, ev.language
        elif isinstance(ev, Notice):
            self.notices = list(ev.notices)
        elif isinstance(ev, Sentence):
            self.sentences.append(ev.to_dict())
        elif isinstance(ev, Dropped):
            self.dropped += 1
            item = {"citations": list(ev.citations), "reasons": list(ev.reasons)}
            self.dropped_items.append(item)
        elif isinstance(ev, Refusal):
            self.refusal = ev.to_dict()
        elif isinstance(ev, Error):
            self.error = ev.message
            if ev.retryable:
                self.retry_after = ev.retry_after or DEFAULT_RETRY_AFTER
        elif isinstance(ev, Done):
            self.status = ev.status
            self.trace_id = self.trace_id or ev.trace_id

    @property
    def text(self) -> str:
        return joined([s["text"] for s in self.sentences])

    def shown(self) -> dict[str, Any]:
        """The assistant message's columns for what was shown so far: ``text``,
        ``citations``, ``sentences``."""
        return {"text": self.text, "citations": self.citations(), "sentences": self.sentences}

    def citations(self) -> list[dict[str, Any]]:
        """The blocks actually cited by shown sentences, as ``{n, chunk_id, title, ...}``."""
        cited = {n for s in self.sentences for n in s["citations"]}
        return [b for b in self.blocks if b["n"] in cited]
