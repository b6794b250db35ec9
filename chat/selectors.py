"""Reads for the chat app: trace lists and evidence chains for reviewers, conversations.

Selectors take keyword-only arguments and never write. ``trace_evidence`` turns the stored
``TraceRecorder`` JSON (``Trace.data``) into the rows the reviewer detail page lays out; it
tolerates missing keys so traces written by older pipelines still render.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from django.contrib.auth.models import AbstractBaseUser
from django.db import connection
from django.db.models import Q, QuerySet
from django.utils.dateparse import parse_datetime

from chat.models import Conversation, Trace


def chunk_url(chunk_id: str) -> str:
    """Path of the chunk view for ``chunk_id`` (``doc-010#c02`` -> ``/chunks/doc-010%23c02/``)."""
    return f"/chunks/{quote(chunk_id, safe='')}/"


def reader_numbers(sentences: Iterable[Mapping[str, Any]]) -> dict[int, int]:
    """Block number -> the number a reader sees: 1, 2, 3… in order of first citation in
    ``sentences`` (each with ``citations``, block numbers). The prompt's block numbers mean
    nothing to a reader; the trace and the API keep them. Appending sentences never changes
    an earlier entry, so a streamed answer's chips keep their numbers."""
    numbers: dict[int, int] = {}
    for sentence in sentences:
        for n in sentence.get("citations", ()):
            numbers.setdefault(int(n), len(numbers) + 1)
    return numbers


def traces_filter(
    *,
    statuses: Sequence[str] = (),
    provider: str = "",
    date_from: dt.date | None = None,
    date_to: dt.date | None = None,
    search: str = "",
    feedback: str = "",
    user: str = "",
) -> QuerySet[Trace]:
    """Traces newest first, narrowed by status (any of ``statuses``), exact provider,
    inclusive local dates, a case-insensitive search of the question (or standalone query,
    or an exact trace id), the asker's user name (exact, any case) and readers' feedback:
    ``"up"``, ``"down"``, ``"any"`` (rated) or ``"comment"`` (with a comment)."""
    qs = Trace.objects.order_by("-created_at", "-id")
    if user:
        qs = qs.filter(user__username__iexact=user)
    if feedback in ("up", "down"):
        qs = qs.filter(feedback__rating=feedback)
    elif feedback == "any":
        qs = qs.filter(feedback__isnull=False)
    elif feedback == "comment":
        qs = qs.filter(feedback__isnull=False).exclude(feedback__comment="")
    if statuses:
        qs = qs.filter(status__in=statuses)
    if provider:
        qs = qs.filter(provider=provider)
    if date_from:
        qs = qs.filter(created_at__date__gte=date_from)
    if date_to:
        qs = qs.filter(created_at__date__lte=date_to)
    if search.strip():
        term = search.strip()
        qs = qs.filter(
            Q(question__icontains=term) | Q(standalone_query__icontains=term) | Q(id=term.upper())
        )
    return qs


def trace_providers() -> list[str]:
    """Every provider name that appears on a trace, sorted (for the filter drop-down)."""
    names = Trace.objects.exclude(provider="").values_list("provider", flat=True).distinct()
    return sorted(set(names))


def conversation_visible(
    *, conversation_id: int, user: AbstractBaseUser | None
) -> Conversation | None:
    """The conversation if ``user`` may see it (its owner; ``None`` is the operator at the
    terminal, who sees all), else None.

    The one ownership check (turn service, websocket, pages): someone else's conversation
    and a missing one look the same, so ids are not disclosed.
    """
    return conversation_visible_pending(conversation_id=conversation_id, user=user)[0]


def conversation_visible_pending(
    *, conversation_id: int, user: AbstractBaseUser | None
) -> tuple[Conversation | None, bool]:
    """``conversation_visible`` and whether the conversation has a pending trace (a turn
    running, or left over by a server that stopped: ``chat.turn_records``), in one statement:
    the turn's first trip reads both on every question."""
    conversation = _conversation(conversation_id)
    if conversation is None or (user is not None and conversation.owner_id != user.pk):
        return None, False
    return conversation, bool(conversation.pending_turns)


def _conversation(conversation_id: int) -> Conversation | None:
    """The conversation ``conversation_id`` or None, with ``pending_turns`` (1/True if it
    has a pending trace). Read as SQL (``raw``: the fields still converted by the backend):
    the ORM's query building cost 0.32 ms of CPU against 0.06 ms, on every question and
    every socket opened (in process, 2026-12-01)."""
    low, high = connection.ops.integer_field_range("BigAutoField")
    if not low <= conversation_id <= high:  # the ORM finds nothing for such an id: same here
        return None
    conversations, traces = Conversation._meta.db_table, Trace._meta.db_table
    sql = (
        f"SELECT c.*, EXISTS (SELECT 1 FROM {traces} t"  # noqa: S608 - names from _meta
        " WHERE t.conversation_id = c.id AND t.status = %s) AS pending_turns"
        f" FROM {conversations} c WHERE c.id = %s"
    )
    params = [Trace.Status.PENDING.value, conversation_id]
    return next(iter(Conversation.objects.raw(sql, params)), None)


@dataclass(frozen=True)
class DraftView:
    """One generation attempt: the prompt as sent, the raw output, and its verdicts."""

    number: int
    prompt: dict[str, Any] | None
    raw: str
    verdicts: list[dict[str, Any]]
    stop_reason: str = ""


@dataclass(frozen=True)
class TraceEvidence:
    """Everything the reviewer detail page shows, in the order of the evidence chain."""

    data: dict[str, Any]
    hits: list[dict[str, Any]]
    min_relevance: float
    blocks: list[dict[str, Any]]
    conflicts: list[dict[str, Any]]
    compression: dict[str, Any] | None
    drafts: list[DraftView]
    dropped: list[dict[str, Any]]
    emitted: list[dict[str, Any]]
    reader_numbers: list[tuple[int, int]]  # (block number, number the reader saw), by the latter
    usage: list[dict[str, Any]]
    timings: dict[str, Any]
    errors: list[str] = field(default_factory=list)
    calls: list[dict[str, Any]] = field(default_factory=list)
    # A turn the server never finished: when that was found, the note, the server process.
    interrupted: dict[str, Any] | None = None
    # Block sentences that address the assistant, excluded as evidence: n, chunk_id, text,
    # reason (``kbqa.core.grounding.instructions.InstructionReason``; "" in older traces), url.
    instructions: list[dict[str, Any]] = field(default_factory=list)

    @property
    def went_on_below(self) -> bool:
        """Whether the turn went on to an answer though no hit reached the threshold: the
        pipeline's typed gate (``kbqa.core.pipeline.passes_typed_gate``) let a question
        asking for a typed value or a procedure through, to be answered only by a verified
        sentence stating one (a tester read "below" beside an answer as a skipped gate)."""
        return bool(self.hits and self.blocks) and not any(h["passes"] for h in self.hits)

    @property
    def unsent_drops(self) -> int:
        """Sentences the drafts' verdicts drop that never reached the stream (a draft that was
        regenerated, a gap statement with no answer beside it): ``dropped`` lists only those
        withheld while the answer streamed."""
        failing = sum(1 for d in self.drafts for v in d.verdicts if not v.get("ok"))
        return max(0, failing - len(self.dropped))


def _hits(data: dict[str, Any], min_relevance: float) -> list[dict[str, Any]]:
    return [
        {
            **h,
            "url": chunk_url(str(h.get("chunk_id", ""))),
            "passes": float(h.get("relevance", 0.0)) >= min_relevance,
        }
        for h in data.get("hits") or []
    ]


def _block(b: dict[str, Any]) -> dict[str, Any]:
    text_hash = b.get("sha256") or b.get("text_hash") or ""
    return {**b, "url": chunk_url(str(b.get("chunk_id", ""))), "hash": text_hash}


def _verdict(v: dict[str, Any]) -> dict[str, Any]:
    overlaps = v.get("overlaps") or {}
    pairs = overlaps.items() if isinstance(overlaps, dict) else overlaps
    return {**v, "overlap_rows": [(str(n), o) for n, o in pairs]}


def _drafts(data: dict[str, Any]) -> list[DraftView]:
    prompts = data.get("prompts") or []
    raws = data.get("drafts") or []
    stops = [c.get("stop_reason", "") for c in data.get("calls") or []
             if c.get("purpose") == "answer"]
    verdicts = [_verdict(v) for v in data.get("verdicts") or []]
    count = max(len(prompts), len(raws), max((v.get("draft", 1) for v in verdicts), default=0))
    return [
        DraftView(
            number=i,
            prompt=prompts[i - 1] if i <= len(prompts) else None,
            raw=raws[i - 1] if i <= len(raws) else "",
            verdicts=[v for v in verdicts if v.get("draft", 1) == i],
            stop_reason=stops[i - 1] if i <= len(stops) else "",
        )
        for i in range(1, count + 1)
    ]


def _compression(data: dict[str, Any]) -> dict[str, Any] | None:
    """Tokens before/after compression (tiktoken) and the saving in percent, e.g. "30.3%"."""
    comp = data.get("compression")
    if not comp:
        return None
    before, after = comp.get("tokens_before"), comp.get("tokens_after")
    pct = comp.get("saving_pct")
    if pct is None and before and after is not None:
        pct = round((1 - after / before) * 100, 1)
    return {
        "before": before,
        "after": after,
        "saving": f"{pct}%" if pct is not None else None,
        "raw": comp,
    }


def _usage(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Token usage rows, one per model (``{"model", "input_tokens", ...}``); traces stored
    before usage was kept per model have one row with model "" (their sum)."""
    usage = data.get("usage") or {}
    if usage and not all(isinstance(v, dict) for v in usage.values()):
        return [{"model": "", **usage}]
    return [{"model": model, **counts} for model, counts in usage.items()]


def _calls(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Every model call of the turn, in order, numbered from 1 (``ModelCall`` as stored)."""
    return [{"number": i, **c} for i, c in enumerate(data.get("calls") or [], start=1)]


def trace_evidence(*, trace: Trace) -> TraceEvidence:
    """The evidence chain of ``trace`` laid out for the reviewer page (no HTML, no escaping)."""
    data: dict[str, Any] = trace.data or {}
    # traces stored before the rename kept it under "threshold"
    min_relevance = float(data.get("min_relevance", data.get("threshold")) or 0.0)
    return TraceEvidence(
        data=data,
        hits=_hits(data, min_relevance),
        min_relevance=min_relevance,
        blocks=[_block(b) for b in data.get("blocks") or []],
        conflicts=list(data.get("conflicts") or []),
        compression=_compression(data),
        drafts=_drafts(data),
        dropped=list(data.get("dropped") or []),
        emitted=list(data.get("emitted") or []),
        reader_numbers=list(reader_numbers(data.get("emitted") or []).items()),
        usage=_usage(data),
        timings=dict(data.get("timings") or {}),
        errors=[str(e) for e in data.get("errors") or []],
        calls=_calls(data),
        interrupted=_interrupted(data),
        instructions=[_instruction(s) for s in data.get("instruction_sentences") or []],
    )


def _instruction(s: dict[str, Any]) -> dict[str, Any]:
    chunk_id = str(s.get("chunk_id", ""))
    return {
        "n": s.get("n"),
        "chunk_id": chunk_id,
        "text": str(s.get("text", "")),
        "reason": str(s.get("reason") or ""),
        "url": chunk_url(chunk_id),
    }


def _interrupted(data: dict[str, Any]) -> dict[str, Any] | None:
    """``{found_at: datetime | None, note, host, pid}`` of an interrupted turn, else None."""
    found = data.get("interrupted")
    if not isinstance(found, dict):
        return None
    worker = data.get("worker") or {}
    return {
        "found_at": parse_datetime(str(found.get("found_at") or "")),
        "note": str(found.get("note") or ""),
        "host": str(worker.get("host") or ""),
        "pid": worker.get("pid"),
    }
