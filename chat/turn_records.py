"""What a chat turn writes, in two short transactions, and the turns a dead server left.

1. ``turn_begin`` (before the model is asked): the conversation's title (or the new
   conversation itself), the trace marked "pending" (in progress, with the id of the server
   process running it), then the user's message and the assistant's message marked
   "pending", linked to that trace, in one INSERT.
2. ``turn_finish`` (when the answer is done, failed or was cancelled): the complete trace and
   the assistant's message, together.

No transaction is open while the model streams, so SQLite's one write lock is held for
milliseconds per turn, and both writes are retried when they lose a lock race
(``kbqa.db.write_retried``). A server killed between the two leaves the pending rows:
``turns_interrupted_close`` marks them "interrupted" (trace and message) when their
conversation is read again, so the question never stands without a reply.

A pending turn is left over when its process is gone: the same process no longer runs it,
or the process on this host is dead (or is a new one with the same pid, as pid 1 in a
container after a restart), or it has been pending longer than ``STALE_AFTER`` seconds
(another host's process, which cannot be asked).
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import DatabaseError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from chat.models import Conversation, Message, Trace
from chat.outcomes import AnswerOutcome
from chat.trace_access import trace_doc_ids, trace_documents_add, trace_documents_inherit
from kbqa.core.records import TraceRecorder
from kbqa.db import db_async, lock_lost, rows_insert, rows_update, write_retried

logger = logging.getLogger(__name__)

# This server process, as stored on the pending traces it runs.
WORKER = {"host": socket.gethostname(), "pid": os.getpid(), "token": uuid.uuid4().hex}
# Trace ids this process is answering right now.
IN_FLIGHT: set[str] = set()
# Longer than any turn can run: 2 drafts x (1 + 2 SDK retries) x the 60 s SDK timeout, plus
# a margin. A pending turn of another host's process is declared interrupted after it.
STALE_AFTER = timedelta(minutes=15)
INTERRUPTED_NOTE = gettext_noop(
    "The server stopped before this answer was finished; nothing after the last shown "
    "sentence was verified. Ask again."
)


@dataclass(frozen=True)
class TurnRecord:
    """The rows ``turn_begin`` stored: the user's message, the pending trace's id and the
    pending assistant message's primary key."""

    user_message: Message
    trace_id: str
    answer_message_id: int
    conversation: Conversation


def turn_begin(
    *,
    conversation: Conversation,
    user: AbstractBaseUser | None,
    question: str,
    trace_id: str,
    provider: str = "",
    model: str = "",
) -> TurnRecord:
    """Store the start of a turn in one transaction (retried on a lost lock race).

    An untitled conversation takes the question's first 80 characters as its title; an
    unsaved one (``pk`` None: the answer API's new conversation) is created in the same
    transaction, titled (``TurnRecord.conversation`` is the stored one). The pending trace
    names its ``provider`` and ``model`` already, so a turn the server never finished still
    says which model was answering.
    Raises ``django.db.DatabaseError`` when the database stays unavailable.
    """
    owner = user if user is not None and user.is_authenticated else None
    new = conversation.pk is None

    def write() -> TurnRecord:
        with transaction.atomic():
            stored = conversation_titled(conversation, question, new=new)
            now = timezone.now()
            rows_insert(Trace, [{
                "id": trace_id, "created_at": now, "user_id": owner.pk if owner else None,
                "conversation_id": stored.pk, "question": question,
                "status": Trace.Status.PENDING.value, "provider": provider, "model": model,
                "data": {"trace_id": trace_id, "status": "pending", "worker": WORKER},
            }])
            # one INSERT of both messages, in order (their primary keys come back with them)
            said = {"conversation_id": stored.pk, "created_at": now}
            asked_id, answer_id = rows_insert(Message, [
                {**said, "role": Message.Role.USER.value, "text": question},
                {**said, "role": Message.Role.ASSISTANT.value, "status": "pending",
                 "trace_id": trace_id},
            ], returning="id")
            if not new:  # its prompts quote the earlier answers: their documents are its own
                trace_documents_inherit(trace_id=trace_id, conversation_id=stored.pk)
        asked = _stored(Message(id=asked_id, conversation=stored, role=Message.Role.USER,
                                text=question, created_at=now))
        return TurnRecord(asked, trace_id, answer_id, stored)

    IN_FLIGHT.add(trace_id)  # before the row exists: a concurrent read never sees it orphaned
    try:
        return write_retried(write)
    except BaseException:
        IN_FLIGHT.discard(trace_id)
        raise


def conversation_titled(conversation: Conversation, question: str, *, new: bool) -> Conversation:
    """``conversation`` created (``new``) or, untitled, titled with ``question``'s first 80
    characters; inside the caller's transaction. A new one is created afresh on each call, so
    a retried transaction never reuses the primary key of a rolled-back row."""
    if new:
        now = timezone.now()
        values = {"owner_id": conversation.owner_id, "title": question[:80],
                  "via_api": conversation.via_api, "created_at": now}
        (pk,) = rows_insert(Conversation, [values], returning="id")
        return _stored(Conversation(id=pk, **values))
    if not conversation.title:
        conversation.title = question[:80]
        rows_update(Conversation, {"title": conversation.title},
                    where={"id": conversation.pk, "title": ""})
    return conversation


def _stored(instance: Any) -> Any:
    """``instance`` marked as read from the default database (what ``Model.from_db`` does)."""
    instance._state.adding, instance._state.db = False, connection.alias
    return instance


def turn_finish(*, record: TurnRecord, trace: TraceRecorder, shown: dict[str, Any]) -> None:
    """Complete the turn's trace from ``trace`` and its assistant message from ``shown``
    (``text``, ``citations``, ``sentences``, ``refusal``, ``status``: what the user saw) in
    one transaction, retried on a lost lock race. Raises ``DatabaseError`` if it stays down.
    """
    fields = trace_fields(trace)

    def write() -> None:
        with transaction.atomic():
            rows_update(Trace, fields, where={"id": record.trace_id})
            trace_documents_add(trace_id=record.trace_id, doc_ids=trace_doc_ids(fields["data"]))
            rows_update(Message, shown, where={"id": record.answer_message_id})

    try:
        write_retried(write)
    finally:
        IN_FLIGHT.discard(record.trace_id)


def turn_checkpoint(record: TurnRecord, shown: dict[str, Any],
                    fields: dict[str, Any] | None) -> None:
    """Write the sentences shown so far (``shown``: ``AnswerOutcome.shown()``) to the
    turn's assistant message while it is still pending, and the trace as recorded so far
    (``fields``: ``trace_fields``, the standalone query, the hits, the blocks, the verdicts
    and the sentences shown) to its pending trace, so a server killed before
    ``turn_finish`` leaves both: the reviewer sees what the user saw (a tester's interrupted
    trace said "Sentences shown to the user: None" under two shown sentences). The values
    are read by the caller on the event loop, so this database thread never reads a trace
    the pipeline is writing. One transaction; a write that loses a lock race is skipped
    (the next checkpoint or ``turn_finish`` writes it all)."""

    def write() -> None:
        with transaction.atomic():
            rows_update(Message, shown,
                        where={"id": record.answer_message_id, "status": "pending"})
            if fields is not None:
                trace_row = {**fields, "status": Trace.Status.PENDING.value,
                             "data": {**fields["data"], "status": "pending", "worker": WORKER}}
                if rows_update(Trace, trace_row,
                               where={"id": record.trace_id, "status": "pending"}):
                    trace_documents_add(trace_id=record.trace_id,
                                        doc_ids=trace_doc_ids(fields["data"]))

    try:
        write()
    except DatabaseError as exc:
        if not lock_lost(exc):
            raise


turn_checkpoint_db = db_async(turn_checkpoint)


def trace_fields(trace: TraceRecorder) -> dict[str, Any]:
    """The ``Trace`` columns of a finished ``trace`` (not its id, user or conversation)."""
    timings = trace.timings
    return {
        "question": trace.question,
        "standalone_query": trace.standalone_query,
        "language": trace.language,
        "status": trace.status,
        "refusal_reason": trace.refusal_reason,
        "provider": trace.provider,
        "model": trace.model,
        "model_version": trace.model_version,
        "retrieval_ms": timings.get("retrieval_ms"),
        "first_sentence_ms": timings.get("first_sentence_ms"),
        "total_ms": timings.get("total_ms"),
        "data": trace.to_dict(),
    }


def turns_interrupted_close(*, conversation: Conversation, pending: bool | None = None) -> int:
    """Mark the conversation's left-over pending turns "interrupted" (trace and assistant
    message; the trace's data says when and why). Returns how many were marked.

    ``pending``: whether the caller found a pending trace in the conversation just now
    (``chat.selectors.conversation_visible_pending``), None to look here: one short SQL
    statement when nothing is pending (the usual case: read on every question).
    """
    if not (pending if pending is not None else _any_pending(conversation.pk)):
        return 0
    pending = Trace.objects.filter(conversation=conversation, status=Trace.Status.PENDING)
    now = timezone.now()
    left = [t.id for t in pending.only("id", "created_at", "data") if _left_over(t, now)]
    if not left:
        return 0

    def write() -> int:
        with transaction.atomic():
            marked = 0
            # what the user was shown, as the message holds it (the last checkpoint's)
            shown = dict(Message.objects.filter(trace_id__in=left, status="pending")
                         .values_list("trace_id", "sentences"))
            for trace in Trace.objects.filter(id__in=left, status=Trace.Status.PENDING):
                trace.status = Trace.Status.INTERRUPTED
                trace.data = {
                    **trace.data,
                    "emitted": shown.get(trace.id) or trace.data.get("emitted") or [],
                    "status": "interrupted",
                    "interrupted": {"found_at": now.isoformat(), "note": INTERRUPTED_NOTE},
                }
                trace.save(update_fields=["status", "data"])
                marked += 1
            Message.objects.filter(trace_id__in=left, status="pending").update(
                status=Trace.Status.INTERRUPTED
            )
        return marked

    return write_retried(write)


def _any_pending(conversation_pk: int) -> bool:
    """Whether the conversation has a pending trace. SQL: the ORM's query building cost 0.3
    ms of CPU per question against 0.03 ms (in process, 2026-12-01)."""
    sql = f"SELECT 1 FROM {Trace._meta.db_table} WHERE conversation_id = %s AND status = %s"  # noqa: S608
    with connection.cursor() as cursor:
        cursor.execute(sql + " LIMIT 1", [conversation_pk, Trace.Status.PENDING.value])
        return cursor.fetchone() is not None


def _left_over(trace: Trace, now: Any) -> bool:
    worker = trace.data.get("worker") or {}
    if worker.get("token") == WORKER["token"]:
        return trace.id not in IN_FLIGHT
    if now - trace.created_at > STALE_AFTER:
        return True
    if worker.get("host") != WORKER["host"]:
        return False
    pid = worker.get("pid")
    return pid == WORKER["pid"] or not (isinstance(pid, int) and _alive(pid))


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs: it exists and, where Linux's /proc says, is no zombie
    (a killed server not yet reaped by whatever started it: a deployment tester's page
    waited on such a one's turn as if it were still being written)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True  # no /proc (macOS): the signal's answer is all there is
    return stat.rsplit(")", 1)[-1].split()[:1] != ["Z"]


class TurnCheckpoints:
    """The sentences a turn has shown, written while it runs (``turn_checkpoint``): at once
    for each with ``KBQA_CHECKPOINT_SECONDS`` = 0, else ``KBQA_CHECKPOINT_SECONDS`` after
    the first and every that many seconds while there are new ones, until the turn is
    stored (``finished``). On a timer, not on the next sentence: a deployment tester lost a
    sentence whose server was killed 2.5-6 s after it, the model slow to its next one. A
    timed write that fails is logged and tried at the next tick (the turn's end writes it
    all)."""

    def __init__(self, record: TurnRecord | None, outcome: AnswerOutcome,
                 trace: TraceRecorder, finished: Callable[[], bool]) -> None:
        self.record, self.outcome, self.trace, self.finished = record, outcome, trace, finished
        self.timer: asyncio.Future[None] | None = None

    async def shown(self) -> None:
        """A sentence was shown (it is in ``outcome`` already)."""
        if self.record is None:
            return
        if settings.KBQA_CHECKPOINT_SECONDS <= 0:
            await self._write(self.record)
        elif self.timer is None:
            self.timer = asyncio.ensure_future(self._every(self.record))

    def close(self) -> None:
        if self.timer is not None:
            self.timer.cancel()

    async def _every(self, record: TurnRecord) -> None:
        written = 0
        while True:
            await asyncio.sleep(settings.KBQA_CHECKPOINT_SECONDS)
            if self.finished():
                return
            if len(self.outcome.sentences) == written:
                continue
            written = len(self.outcome.sentences)
            try:
                await self._write(record)
            except DatabaseError:
                logger.warning("checkpoint of turn %s failed; the next one writes it",
                               self.trace.trace_id)

    async def _write(self, record: TurnRecord) -> None:
        # read here, on the event loop; written on the database threads
        await turn_checkpoint_db(record, self.outcome.shown(), trace_fields(self.trace))
