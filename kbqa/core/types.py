"""Core values and pipeline events: the contract between every part of kbqa.

Values are frozen dataclasses. Events are what the pipeline yields and what every front end
(websocket, SSE, JSON API, CLI, evaluation) renders; each has ``event`` (its wire name) and
``to_dict()`` (its JSON-ready payload, never containing the text of a dropped sentence).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, ClassVar, Literal

Language = Literal["en", "zh"]
Authority = Literal["policy", "manual", "faq", "meeting-note", "archived", "other"]
RefusalReason = Literal[
    "low_score", "conflict", "no_support", "model_declined", "no_documents"
]
DoneStatus = Literal[
    "answered",
    "refused_low_score",
    "refused_conflict",
    "refused_no_support",
    "refused_model_declined",
    "error",
]
ClaimKind = Literal["claim", "gap"]
Mode = Literal["stream", "json"]


@dataclass(frozen=True)
class Chunk:
    """A passage of a stored document, as retrieval and verification see it.

    ``chunk_id`` is stable (``doc-010#c02``); ``text`` is the ORIGINAL chunk text, the only
    text citations are verified against; ``updated`` is an ISO date (``2025-06-30``) or "".
    ``access`` holds the access labels (group ids) of the readers its document is limited
    to; empty means everyone may read it (see ``Audience``).
    """

    chunk_id: str
    doc_id: str
    title: str
    text: str
    section: str = ""
    updated: str = ""
    source_url: str = ""
    authority: str = "other"
    language: str = "en"
    access: tuple[str, ...] = ()


@dataclass(frozen=True)
class Audience:
    """Who asks, as retrieval sees it: the access labels (group ids) the asker holds, or
    ``everything`` for people who may read every document (document administrators).

    A chunk is readable when its ``access`` is empty (everyone) or shares a label with
    ``labels``. Retrieval searches readable chunks only, with BM25 statistics of that set,
    so a hidden document changes no score, rank or refusal (README: Who may read what).
    """

    labels: frozenset[str] = frozenset()
    everything: bool = False

    def may_read(self, access: Sequence[str]) -> bool:
        """Whether a chunk with these access labels is readable by this audience."""
        return self.everything or not access or not self.labels.isdisjoint(access)


EVERYONE = Audience()  # the public audience: only documents visible to everyone
ADMINISTRATOR = Audience(everything=True)


@dataclass(frozen=True)
class ScoredChunk:
    """A retrieval hit.

    ``score`` is the raw BM25 score (no fixed scale), or with semantic recall on the
    reciprocal-rank-fusion score of BM25 and dense search (``retrieval.dense``): hits are
    ranked by it. ``relevance`` is the BM25 score divided by the query's ideal score in this
    index, in [0, 1] (see ``kbqa.core.retrieval.bm25``); ``similarity`` the cosine of the
    chunk's vector with the question's (0.0 without semantic recall or when dense search
    did not rank the chunk); ``agreed``: BM25 and dense search both rank this chunk's
    document first. The low-score gate compares these with their settings.
    """

    chunk: Chunk
    score: float
    relevance: float = 0.0
    similarity: float = 0.0
    agreed: bool = False


@dataclass(frozen=True)
class Block:
    """A numbered source in the prompt: the closed set of numbers the model may cite.

    ``n`` runs 1..N in presentation order. ``text`` is what the model is shown (the original,
    or a compressed extract of it); ``chunk.text`` stays the original. ``tokens`` counts
    ``text`` with tiktoken cl100k_base.
    """

    n: int
    chunk: Chunk
    score: float
    tokens: int
    text: str

    @property
    def chunk_id(self) -> str:
        return self.chunk.chunk_id

    @property
    def doc_id(self) -> str:
        return self.chunk.doc_id

    @property
    def title(self) -> str:
        return self.chunk.title

    @property
    def updated(self) -> str:
        return self.chunk.updated

    def info(self) -> dict[str, Any]:
        """JSON-ready description for ``meta`` and traces (no text)."""
        c = self.chunk
        return {
            "n": self.n,
            "chunk_id": c.chunk_id,
            "doc_id": c.doc_id,
            "title": c.title,
            "section": c.section,
            "updated": c.updated,
            "source_url": c.source_url,
            "authority": c.authority,
            "score": round(self.score, 4),
            "tokens": self.tokens,
        }


@dataclass(frozen=True)
class Assembly:
    """Result of context assembly: blocks in presentation order and tokens used (tiktoken)."""

    blocks: tuple[Block, ...]
    used_tokens: int
    duplicates: tuple[str, ...] = ()
    skipped: tuple[str, ...] = ()


@dataclass(frozen=True)
class Claim:
    """One sentence of a draft: clean prose (markers removed) and the block numbers it cites.

    ``unknown`` holds marker-like text that names no block number (``[Source: Upload
    Policy]``, ``[doc-010#c02]``): a citation of something that was not issued.
    """

    text: str
    citations: tuple[int, ...]
    kind: ClaimKind = "claim"
    unknown: tuple[str, ...] = ()


@dataclass(frozen=True)
class Verdict:
    """The verifier's judgement of one claim.

    ``verified`` lists the cited numbers that passed both gates (the chips to show);
    ``overlaps`` maps each cited, issued number to its substantive overlap in [0, 1];
    ``issues`` are reasons written for a person; empty when ``ok``; ``unsupported`` names
    the sentence's content words found in no cited block, its metadata or the question
    (``kbqa.core.grounding.claim_words``), whether or not they failed it.
    """

    claim: Claim
    ok: bool
    verified: tuple[int, ...] = ()
    overlaps: tuple[tuple[int, float], ...] = ()
    issues: tuple[str, ...] = ()
    unsupported: tuple[str, ...] = ()


@dataclass(frozen=True)
class ConflictSide:
    """One side of a conflict: the value as written and where it comes from."""

    n: int
    chunk_id: str
    doc_id: str
    title: str
    updated: str
    authority: str
    value_text: str


@dataclass(frozen=True)
class Conflict:
    """Two documents giving different values, in the same unit, for the same thing.

    ``unit`` is the normalised unit (``MB``, ``day``, ``req/min``...); ``context`` the shared
    tokens before both numbers; ``preferred`` is the index in ``sides`` of the side chosen by
    an authority signal, or None when nothing justifies choosing; ``preferred_by`` says which
    signal: the documents' authority, the year the question asks about ("in 2022"), or a
    place the question names that one document's title or section names ("深圳办公室的…"),
    ``preferred_for`` that year or place.
    """

    unit: str
    sides: tuple[ConflictSide, ConflictSide]
    context: tuple[str, ...]
    preferred: int | None = None
    preferred_by: Literal["authority", "year", "place"] = "authority"
    preferred_for: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class DocumentRef:
    """A document named in a refusal so the user can look for themselves."""

    doc_id: str
    title: str
    updated: str = ""
    source_url: str = ""
    chunk_id: str = ""


@dataclass(frozen=True)
class Turn:
    """A previous turn of the conversation: informs intent only, never evidence.

    ``text`` of a user turn may be the standalone query built for it; ``typed`` is then what
    the user typed ("那管理员呢？"), from which the offline rewrite re-folds the conversation
    ("" when ``text`` is what they typed). ``uncovered`` marks a user turn whose answer was
    refused for want of evidence (low score, no support): the documents do not cover its
    focus, so a later follow-up does not inherit it.
    """

    role: Literal["user", "assistant"]
    text: str
    typed: str = ""
    uncovered: bool = False


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


# ----------------------------------------------------------------------------- events


@dataclass(frozen=True)
class Event:
    event: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Meta(Event):
    """First event of every answer: what the model was (or would have been) shown."""

    event: ClassVar[str] = "meta"
    trace_id: str
    question: str
    standalone_query: str
    language: Language
    blocks: tuple[dict[str, Any], ...]
    context_tokens: int
    provider: str
    model: str
    compression: dict[str, Any] | None = None
    # Empty: a notice is shown only before a sentence citing the document it is about, which
    # ``Meta`` cannot know (``Notice``); the key stays on the wire for clients that read it.
    notices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Sentence(Event):
    """A verified sentence, safe to show, with its verified citation numbers.

    ``paragraph``: it starts a new paragraph (the draft left a blank line before it).
    """

    event: ClassVar[str] = "sentence"
    index: int
    text: str
    citations: tuple[int, ...]
    kind: ClaimKind = "claim"
    paragraph: bool = False


@dataclass(frozen=True)
class Notice(Event):
    """What qualifies the answer that follows (authority notices: which of two disagreeing
    documents is cited and why), in the question's language.

    Yielded right before the first verified ``Sentence`` citing a document a notice is
    about (the stronger side of an authority-resolved conflict, or an archived document),
    each time with every notice so far (``grounding.standing_notice``); never with a
    refusal, which the notices would contradict, nor with an answer citing none of them.
    """

    event: ClassVar[str] = "notice"
    notices: tuple[str, ...]


@dataclass(frozen=True)
class Dropped(Event):
    """A sentence that failed verification. ``text`` is for the trace only, never shown."""

    event: ClassVar[str] = "dropped"
    index: int
    text: str
    citations: tuple[int, ...]
    reasons: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "citations": list(self.citations),
            "reasons": list(self.reasons),
        }


@dataclass(frozen=True)
class Refusal(Event):
    """The app declines to answer; ``message`` is in the question's language and says what to do."""

    event: ClassVar[str] = "refusal"
    reason: RefusalReason
    message: str
    conflict: Conflict | None = None
    documents: tuple[DocumentRef, ...] = ()


@dataclass(frozen=True)
class Done(Event):
    """Last event of every answer."""

    event: ClassVar[str] = "done"
    status: DoneStatus
    emitted: int
    dropped: int
    trace_id: str = ""


@dataclass(frozen=True)
class Error(Event):
    """The answer broke off (provider failure mid-stream...); ``message`` is safe to show.

    ``retry_after`` (seconds) is set when the provider said when to come back; ``unavailable``
    when the provider cannot serve now (bad key, unreachable, no credit): HTTP front ends
    answer 503 with ``Retry-After`` for either.
    """

    event: ClassVar[str] = "error"
    message: str
    retryable: bool = False
    retry_after: int | None = None
    unavailable: bool = False

    def to_dict(self) -> dict[str, Any]:
        """``{"message", "retryable"}``, plus ``retry_after`` when known; ``unavailable`` is
        for the HTTP status line only."""
        data: dict[str, Any] = {"message": self.message, "retryable": self.retryable}
        if self.retry_after is not None:
            data["retry_after"] = self.retry_after
        return data


def event_payload(ev: Event) -> dict[str, Any]:
    """The wire form used by SSE, CLI --json and the websocket: ``{"event", "data"}``."""
    return {"event": ev.event, "data": ev.to_dict()}


def blocks_info(blocks: Sequence[Block]) -> tuple[dict[str, Any], ...]:
    """``Block.info()`` of each block, in order: the JSON-safe block list of ``Meta``."""
    return tuple(b.info() for b in blocks)
