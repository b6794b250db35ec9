"""Writes for the chat app, and the one glue function every front end answers through.

``answer_run`` wraps ``kbqa.core.pipeline.answer`` with the stored knowledge base, the
configured provider, and a trace that is saved whatever happens (answered, refused, provider
error, client disconnect). The websocket consumer, the JSON and SSE API, the ``ask`` command
and ``evaluate`` all render the same events it yields.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser

from chat.models import Conversation, Message, Trace, new_ulid
from kbqa.core.pipeline import AnswerRequest, PipelineConfig, answer
from kbqa.core.providers.base import Provider
from kbqa.core.providers.registry import describe_provider, make_provider
from kbqa.core.types import (
    Done,
    Dropped,
    Error,
    Event,
    Meta,
    Mode,
    Refusal,
    Retriever,
    Sentence,
    TraceRecorder,
    Turn,
)


def pipeline_config_from_settings(**overrides: Any) -> PipelineConfig:
    """The answer knobs from ``KBQA_*`` settings; keyword overrides win (tests, evaluate)."""
    values: dict[str, Any] = {
        "top_k": settings.KBQA_TOP_K,
        "budget": settings.KBQA_CONTEXT_BUDGET,
        "max_blocks": settings.KBQA_MAX_BLOCKS,
        "min_relevance": settings.KBQA_MIN_RELEVANCE,
        "overlap_threshold": settings.KBQA_OVERLAP_THRESHOLD,
        "compression": settings.KBQA_COMPRESSION,
    }
    values.update(overrides)
    return PipelineConfig(**values)


def provider_from_settings(name: str | None = None) -> Provider:
    """Build the provider named ``name`` (default ``KBQA_PROVIDER``). Raises ConfigError."""
    return make_provider(
        name or settings.KBQA_PROVIDER,
        model=settings.KBQA_ANTHROPIC_MODEL,
        fast_model=settings.KBQA_ANTHROPIC_FAST_MODEL,
        api_key=settings.ANTHROPIC_API_KEY,
        base_url=settings.KBQA_ANTHROPIC_BASE_URL,
        max_retries=settings.KBQA_ANTHROPIC_MAX_RETRIES,
        timeout=settings.KBQA_ANTHROPIC_TIMEOUT,
    )


def provider_label_from_settings(name: str | None = None) -> str:
    """Status-line label of the configured provider, e.g. "offline extractive" (nothing is
    built or connected). Raises ConfigError like ``provider_from_settings``."""
    return describe_provider(
        name or settings.KBQA_PROVIDER,
        model=settings.KBQA_ANTHROPIC_MODEL,
        api_key=settings.ANTHROPIC_API_KEY,
    )


def default_retriever() -> Retriever:
    """BM25 over the stored knowledge base's current chunks (``sources.selectors``)."""
    from sources.selectors import KnowledgeBaseRetriever

    return KnowledgeBaseRetriever()


def trace_record(
    *,
    draft: TraceRecorder,
    user: AbstractBaseUser | None = None,
    conversation: Conversation | None = None,
) -> Trace:
    """Store ``draft`` as a Trace (insert or overwrite by trace_id) and return it."""
    timings = draft.timings
    trace, _ = Trace.objects.update_or_create(
        id=draft.trace_id,
        defaults={
            "user": user if user is not None and user.is_authenticated else None,
            "conversation": conversation,
            "question": draft.question,
            "standalone_query": draft.standalone_query,
            "language": draft.language,
            "status": draft.status,
            "refusal_reason": draft.refusal_reason,
            "provider": draft.provider,
            "model": draft.model,
            "model_version": draft.model_version,
            "retrieval_ms": timings.get("retrieval_ms"),
            "first_sentence_ms": timings.get("first_sentence_ms"),
            "total_ms": timings.get("total_ms"),
            "data": draft.to_dict(),
        },
    )
    return trace


@dataclass
class AnswerOutcome:
    """What a front end accumulates from the events, to store the assistant message.

    Authority notices arrive with ``Meta`` but belong to an answer: front ends show them with
    the first verified sentence, never above a refusal they would contradict.
    """

    trace_id: str = ""
    sentences: list[dict[str, Any]] = field(default_factory=list)
    dropped: int = 0
    refusal: dict[str, Any] | None = None
    status: str = "pending"
    error: str = ""
    blocks: tuple[dict[str, Any], ...] = ()
    notices: tuple[str, ...] = ()

    def add(self, ev: Event) -> None:
        if isinstance(ev, Meta):
            self.trace_id, self.blocks, self.notices = ev.trace_id, ev.blocks, ev.notices
        elif isinstance(ev, Sentence):
            self.sentences.append(ev.to_dict())
        elif isinstance(ev, Dropped):
            self.dropped += 1
        elif isinstance(ev, Refusal):
            self.refusal = ev.to_dict()
        elif isinstance(ev, Error):
            self.error = ev.message
        elif isinstance(ev, Done):
            self.status = ev.status

    @property
    def text(self) -> str:
        return " ".join(s["text"] for s in self.sentences)

    def citations(self) -> list[dict[str, Any]]:
        """The blocks actually cited by shown sentences, as ``{n, chunk_id, title, ...}``."""
        cited = {n for s in self.sentences for n in s["citations"]}
        return [b for b in self.blocks if b["n"] in cited]


def conversation_start(*, owner: AbstractBaseUser) -> Conversation:
    """A new, untitled conversation for ``owner`` (its first question will name it)."""
    return Conversation.objects.create(owner=owner)


def message_record_user(*, conversation: Conversation, text: str) -> Message:
    """Store the user's question; an untitled conversation takes its first 80 characters."""
    if not conversation.title:
        conversation.title = text[:80]
        conversation.save(update_fields=["title"])
    return Message.objects.create(conversation=conversation, role=Message.Role.USER, text=text)


def message_record_answer(*, conversation: Conversation, outcome: AnswerOutcome) -> Message:
    """Store what the user was shown (verified sentences or the refusal), linked to the trace."""
    return Message.objects.create(
        conversation=conversation,
        role=Message.Role.ASSISTANT,
        text=outcome.text,
        citations=outcome.citations(),
        sentences=outcome.sentences,
        refusal=outcome.refusal,
        status=outcome.status if outcome.status != "pending" else "cancelled",
        trace_id=outcome.trace_id or None,
    )


def conversation_history(*, conversation: Conversation, limit: int = 6) -> tuple[Turn, ...]:
    """The last ``limit`` messages as Turns (oldest first): intent only, never evidence.

    A user turn is given in the standalone form the pipeline built for it (from the trace of
    the answer that followed), so "and for admins?" two turns back reads as the full question
    it stood for and a later follow-up inherits that topic, not the fragment.
    """
    # Only the trace's standalone query is read: leave its JSON ``data`` in the database.
    recent = conversation.messages.select_related("trace").defer("trace__data")
    rows = list(recent.order_by("-created_at", "-id")[:limit])[::-1]
    turns: list[Turn] = []
    for i, m in enumerate(rows):
        if m.role == Message.Role.USER:
            answer = rows[i + 1] if i + 1 < len(rows) else None
            standalone = answer.trace.standalone_query if answer and answer.trace else ""
            text = standalone or m.text
            turns.append(Turn(role="user", text=text))
        elif m.text:
            turns.append(Turn(role="assistant", text=m.text))
    return tuple(t for t in turns if t.text)


async def answer_run(
    *,
    question: str,
    user: AbstractBaseUser | None = None,
    conversation: Conversation | None = None,
    history: Sequence[Turn] = (),
    provider: Provider | None = None,
    retriever: Retriever | None = None,
    fabricate: bool | None = None,
    mode: Mode = "stream",
    config: PipelineConfig | None = None,
) -> AsyncIterator[Event]:
    """Run the pipeline for one question and yield its events; the trace is always stored.

    Use inside ``contextlib.aclosing`` so an early exit still stores the trace promptly.
    Raises ``ConfigError`` (bad provider settings) before any event. A provider built here
    from settings is closed here; a ``provider`` passed in stays open for its owner.
    """
    owned = provider is None
    provider = provider or provider_from_settings()
    draft = TraceRecorder(trace_id=new_ulid(), question=question)
    request = AnswerRequest(
        question=question,
        history=tuple(history),
        fabricate=settings.KBQA_FABRICATE if fabricate is None else fabricate,
        mode=mode,
    )
    started = time.perf_counter()
    try:
        async for ev in answer(
            request,
            retriever=retriever or default_retriever(),
            provider=provider,
            config=config or pipeline_config_from_settings(),
            trace=draft,
        ):
            yield ev
    except (asyncio.CancelledError, GeneratorExit):
        draft.status = "cancelled"
        raise
    finally:
        if draft.status == "pending":
            draft.status = "cancelled"
        draft.timings.setdefault("total_ms", round((time.perf_counter() - started) * 1000, 1))
        await asyncio.shield(
            sync_to_async(trace_record)(draft=draft, user=user, conversation=conversation)
        )
        if owned:
            await provider.aclose()
