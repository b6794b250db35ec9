"""The turn service: one answering turn, the same for every front end.

``answer_turn`` is an async generator. It checks the question (``question_checked``), checks
that the asker may see the conversation (``chat.selectors.conversation_visible``: one you
cannot see is "not found", like a missing one), loads its history, builds the provider,
stores the question, runs ``kbqa.core.pipeline.answer`` and yields ``TurnOpened`` then the
core's typed events (``Meta``, ``Notice``, ``Sentence``, ``Dropped``, ``Refusal``, ``Error``,
``Done``). Whatever happens (answered, refused, provider error, client disconnect or cancel)
the trace and the assistant message are stored (before ``Done`` is yielded, so "done" means
stored) and a provider it built is closed. A failure outside the pipeline (which catches its
own) becomes ``Error`` + ``Done(status="error")``: the one error outcome every front end
renders.

The websocket consumer, ``POST /api/answer`` (and ``/stream``), ``manage.py ask`` and
``evaluate`` only render this stream. ``TurnRejected`` is raised before anything is stored
or yielded. A ``limited`` request (websocket, API) passes ``chat.limits`` first (questions
per minute per user and token, one answer in flight per conversation). Database work is in
``*_db`` helpers, one trip each to the database threads: all before the model is asked
(``turn_open_db``), then the turn stored and its slot given back (``turn_close_db``); in
between, the sentences shown are written ``KBQA_CHECKPOINT_SECONDS`` after the first and
every that many seconds (``turn_records.turn_checkpoints``), so a killed server leaves them.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing
from dataclasses import dataclass, replace

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser

from chat import limits
from chat.auth import session_logs_in
from chat.models import Conversation, Message, new_ulid
from chat.outcomes import AnswerOutcome
from chat.pipeline_settings import (
    pipeline_config_from_settings,
    provider_from_settings,
    provider_shared,
)
from chat.questions import TurnRejected, question_checked, question_text
from chat.selectors import conversation_visible_pending
from chat.services import conversation_history, trace_record
from chat.turn_records import (
    TurnCheckpoints,
    TurnRecord,
    turn_begin,
    turn_finish,
    turns_interrupted_close,
)
from kbqa.core.errors import KbqaError, gettext_noop
from kbqa.core.pipeline import AnswerRequest, PipelineConfig, answer
from kbqa.core.providers.base import Provider
from kbqa.core.records import TraceRecorder
from kbqa.core.retriever import Retriever
from kbqa.core.types import EVERYONE, Audience, Done, Error, Event, Meta, Mode, Sentence, Turn
from kbqa.db import db_async
from sources.retriever import KnowledgeBaseRetriever
from sources.selectors import audience_for

log = logging.getLogger(__name__)

FAILED = gettext_noop("The answer could not be produced because of an internal error; "
                      "please try again.")
SESSION_ENDED = gettext_noop("Your session has ended. Log in again to keep asking.")


# ----------------------------------------------------------------------------- the request


@dataclass(frozen=True)
class TurnRequest:
    """One question to answer, as a front end received it.

    ``user`` None is the operator at the terminal (``manage.py``): every conversation is
    visible to them. ``conversation_id`` None with ``start_conversation`` starts one owned by
    ``user``; without it the turn is stored in no conversation (``ask``, ``evaluate``).
    ``provider``/``retriever`` given are borrowed (the caller closes them); without one the
    turn uses the loop's shared provider (``provider_shared``), or with ``provider_name``
    builds one it owns and closes. ``store_trace`` False leaves the trace unstored.
    ``limited`` applies ``chat.limits`` to ``user`` (and ``token_id``, the API token used).
    ``stop``, set by the front end before it cancels the turn, makes the turn "stopped"
    (by the reader) rather than "cancelled". ``session_key`` (the websocket's) is checked
    still to log in ``user`` in the turn's first trip to the database
    (``chat.auth.session_logs_in``): a session ended since is TurnRejected "session_ended".
    """

    question: str
    user: AbstractBaseUser | None = None
    conversation_id: int | None = None
    start_conversation: bool = False
    fabricate: bool | None = None
    mode: Mode = "stream"
    provider_name: str | None = None
    provider: Provider | None = None
    retriever: Retriever | None = None
    config: PipelineConfig | None = None
    store_trace: bool = True
    limited: bool = False
    token_id: int | None = None
    history: tuple[Turn, ...] = ()  # earlier turns when there is no conversation (evaluate)
    stop: asyncio.Event | None = None  # set before cancelling: the reader pressed Stop
    session_key: str | None = None  # None: no session to check (the API, the terminal)


@dataclass(frozen=True)
class TurnOpened:
    """First item of a turn: the question is stored (``message`` None when there is no
    conversation). Not a core event: the wire formats never carry it."""

    conversation: Conversation | None
    message: Message | None


# ----------------------------------------------------------------------------- database


@dataclass
class _Stored:
    """Where the turn is stored; ``record`` once its start is stored in a conversation."""

    conversation: Conversation | None = None
    history: tuple[Turn, ...] = ()
    user: AbstractBaseUser | None = None
    audience: Audience = EVERYONE  # what the asker may read (``audience_for``)
    record: TurnRecord | None = None
    slot: limits.TurnSlot | None = None  # the conversation's slot while the turn runs


def _load(request: TurnRequest) -> _Stored:
    """The conversation (checked; its left-over turns marked interrupted), its history, the
    trace's user and what that user may read (the operator without ``--user``: documents
    visible to everyone). Raises TurnRejected "not_found"."""
    if request.conversation_id is None:
        return _Stored(history=request.history, user=request.user,
                       audience=audience_for(request.user))
    conversation, pending = conversation_visible_pending(
        conversation_id=request.conversation_id, user=request.user
    )
    if conversation is None:
        raise TurnRejected(
            "not_found",
            f"Conversation {request.conversation_id} does not exist (it may have been "
            "deleted); leave out the conversation to start a new one.",
        )
    turns_interrupted_close(conversation=conversation, pending=pending)
    history = conversation_history(conversation=conversation)
    # the operator continuing someone's conversation reads what everyone may, not the owner
    audience = audience_for(request.user)
    return _Stored(conversation, history, request.user or conversation.owner, audience)


def _admit(request: TurnRequest, stored: _Stored) -> None:
    """``chat.limits`` for a ``limited`` request: ``stored.slot`` taken. Raises TurnRejected
    "limited" or "busy"."""
    if not request.limited or request.user is None:
        return
    conversation_id = stored.conversation.pk if stored.conversation is not None else None
    admitted = limits.turn_admit_sync(
        user_id=request.user.pk, conversation_id=conversation_id, token_id=request.token_id
    )
    if isinstance(admitted, limits.LimitRefusal):
        raise TurnRejected(admitted.reason, admitted.message, retry_after=admitted.retry_after)
    stored.slot = admitted


def _question_store(
    stored: _Stored, request: TurnRequest, question: str, trace_id: str, provider: Provider
) -> None:
    """Store the turn's start in its conversation (if any; a new one if asked to start one,
    in the same transaction): the question, the pending trace and assistant message
    (``turn_records.turn_begin``)."""
    conversation = stored.conversation
    if conversation is None and request.start_conversation and request.user is not None:
        # ``turn_begin`` creates it; only the answer API starts one (listed apart: ``via_api``)
        conversation = Conversation(owner=request.user, via_api=True)
    if conversation is None:
        return
    stored.record = turn_begin(
        conversation=conversation, user=stored.user, question=question,
        trace_id=trace_id, provider=provider.name, model=provider.model,
    )
    stored.conversation = stored.record.conversation


@db_async
def turn_open_db(
    request: TurnRequest, question: str, trace_id: str, provider: Provider | TurnRejected
) -> _Stored:
    """Everything a turn reads and writes before the model is asked, in one trip to the
    database threads (each trip costs the event loop and the thread a hand-over: under
    ``bench/load.py`` a turn made seven): the websocket's session checked (still logged
    in?), the conversation checked and loaded (``_load``), the limits passed (``_admit``),
    then the question stored (``_question_store``).

    ``provider`` is the turn's provider, or the TurnRejected "provider_unavailable" that
    building it raised, raised here after the other checks (a missing conversation is "not
    found" whatever the provider). Raises TurnRejected, or ``DatabaseError`` when the
    question cannot be stored; either way nothing is held (the slot is given back).
    """
    if request.session_key is not None and not (
        request.user is not None and session_logs_in(request.session_key, request.user)
    ):
        raise TurnRejected("session_ended", SESSION_ENDED)
    stored = _load(request)
    _admit(request, stored)
    try:
        if isinstance(provider, TurnRejected):
            raise provider
        _question_store(stored, request, question, trace_id, provider)
    except BaseException:
        _release(stored)
        raise
    return stored


def _release(stored: _Stored) -> None:
    if stored.slot is not None:
        limits.turn_release_sync(stored.slot)
        stored.slot = None


@db_async
def turn_close_db(
    stored: _Stored, outcome: AnswerOutcome, trace: TraceRecorder, store_trace: bool
) -> None:
    """Complete the stored turn (trace and assistant message in one transaction), or store
    the trace alone for a turn outside any conversation; then give the conversation's slot
    back (stored or not), so it may be asked again. One trip to the database threads."""
    trace.shown_error = outcome.error
    try:
        if stored.record is not None:
            shown = {**outcome.shown(), "refusal": outcome.refusal,
                     "status": outcome.status if outcome.status != "pending" else trace.status}
            turn_finish(record=stored.record, trace=trace, shown=shown)
        elif store_trace:
            trace_record(trace=trace, user=stored.user, conversation=stored.conversation)
    finally:
        _release(stored)


# ----------------------------------------------------------------------------- the turn


def _provider(request: TurnRequest) -> tuple[Provider, bool]:
    """``(provider, owned)``: the one given, the loop's shared one (``provider_shared``), or
    one built for ``provider_name`` and owned by the turn. Raises TurnRejected
    "provider_unavailable"."""
    if request.provider is not None:
        return request.provider, False
    try:
        if request.provider_name is None:
            return provider_shared(), False
        return provider_from_settings(request.provider_name), True
    except KbqaError as exc:
        raise TurnRejected(
            "provider_unavailable", f"The answer provider is unavailable: {exc}"
        ) from None


def _failure(outcome: AnswerOutcome, trace: TraceRecorder) -> list[Event]:
    """The error outcome of a failure outside the pipeline."""
    trace.status = "error"
    return [
        Error(message=FAILED),
        Done(
            status="error",
            emitted=len(outcome.sentences),
            dropped=outcome.dropped,
            trace_id=trace.trace_id,
        ),
    ]


async def _opened(
    request: TurnRequest, question: str, trace: TraceRecorder, built: Provider | TurnRejected
) -> _Stored:
    """``turn_open_db``, carried to its end on its thread even when the turn is cancelled
    meanwhile (Stop, a client gone): the turn it stored is then stored "cancelled" and the
    conversation's slot given back, so the question never stays pending nor the
    conversation busy. Raises what ``turn_open_db`` raises, or the cancellation."""
    opening = asyncio.ensure_future(turn_open_db(request, question, trace.trace_id, built))
    try:
        return await asyncio.shield(opening)
    except asyncio.CancelledError:
        await asyncio.wait({opening})
        if not opening.cancelled() and opening.exception() is None:
            trace.status = "cancelled"
            await turn_close_db(opening.result(), AnswerOutcome(), trace, request.store_trace)
        raise


async def answer_turn(
    request: TurnRequest, outcome: AnswerOutcome | None = None
) -> AsyncGenerator[TurnOpened | Event, None]:
    """Run one turn; yield ``TurnOpened``, then the pipeline's events, ``Done`` last.

    ``outcome`` (optional) accumulates the events for the caller. Raises ``TurnRejected``
    before the first item. Use inside ``contextlib.aclosing`` so an early exit stores the
    turn promptly; cancellation stores it too (status "cancelled", or "stopped" when
    ``request.stop`` is set) and is re-raised.
    """
    outcome = outcome if outcome is not None else AnswerOutcome()
    question = question_checked(request.question)
    built: Provider | TurnRejected
    try:
        built, owned = _provider(request)
    except TurnRejected as exc:  # raised by turn_open_db after the conversation's checks
        built, owned = exc, False
    trace = TraceRecorder(trace_id=new_ulid(), question=question)
    try:
        stored = await _opened(request, question, trace, built)
    except BaseException:
        if owned and isinstance(built, Provider):
            await built.aclose()
        raise
    assert isinstance(built, Provider)
    provider = built
    outcome.trace_id = trace.trace_id  # the message links its trace even if Meta never came
    started, saved = time.perf_counter(), False
    checkpoints = TurnCheckpoints(stored.record, outcome, trace, lambda: saved)

    async def store() -> None:
        # Before ``Done`` reaches the client, so "done" means stored; on the way out otherwise.
        # The conversation's slot is given back with it: it may be asked again.
        nonlocal saved
        saved = True
        if trace.status in ("pending", "cancelled"):  # the pipeline marks a cancel itself
            stopped = request.stop is not None and request.stop.is_set()
            trace.status = "stopped" if stopped else "cancelled"
            if stopped:
                outcome.status = "stopped"
        trace.timings.setdefault("total_ms", round((time.perf_counter() - started) * 1000, 1))
        await asyncio.shield(turn_close_db(stored, outcome, trace, request.store_trace))

    try:
        record = stored.record
        yield TurnOpened(stored.conversation, record.user_message if record else None)
        try:
            async with aclosing(_pipeline(request, question, stored, provider, trace)) as events:
                async for ev in events:
                    if isinstance(ev, Meta):  # the question as typed, not as the pipeline read it
                        ev = replace(ev, question=question)
                    outcome.add(ev)
                    if isinstance(ev, Done):
                        await store()
                    elif isinstance(ev, Sentence):
                        await checkpoints.shown()
                    yield ev
        except Exception:
            log.exception("answer failed outside the pipeline")
            for ev in _failure(outcome, trace):
                outcome.add(ev)
                if isinstance(ev, Done) and not saved:
                    await store()
                yield ev
    finally:
        checkpoints.close()
        try:
            if not saved:
                await store()
        finally:
            if owned:
                await provider.aclose()


def _pipeline(
    request: TurnRequest,
    question: str,
    stored: _Stored,
    provider: Provider,
    trace: TraceRecorder,
) -> AsyncIterator[Event]:
    # The one place a question enters the pipeline: retrieval, the gate and the reader read
    # its text without pasted markup; the question stored and shown stays as typed.
    history = tuple(
        replace(t, text=question_text(t.text), typed=question_text(t.typed))
        if t.role == "user" else t
        for t in stored.history
    )
    core_request = AnswerRequest(
        question=question_text(question),
        history=history,
        fabricate=settings.KBQA_FABRICATE if request.fabricate is None else request.fabricate,
        mode=request.mode,
    )
    return answer(
        core_request,
        retriever=request.retriever or KnowledgeBaseRetriever(stored.audience),
        provider=provider,
        config=request.config or pipeline_config_from_settings(),
        trace=trace,
    )
