"""Which documents a trace used, and which traces a reviewer may open (README: Who may read
what).

A trace shows the passages and the answer of the documents it used, so a reviewer opens it
only when they may read every one of them, by the rules retrieval applies to an asker
(``sources.selectors.audience_for``), against the documents' visibility and the reviewer's
groups as they are now. The documents are kept as ``TraceDocument`` rows, written in the
transaction that writes the trace's JSON, so the reviewer list filters in SQL:

- its own: every ``chunk_id`` and ``doc_id`` of the hits, blocks, conflicts and block
  sentences that address the assistant (``TraceRecorder.to_dict``). Shown and dropped
  sentences, verdicts and prompts cite blocks by number, so the blocks cover them;
- inherited: those of the earlier traces of its conversation (``trace_documents_inherit``),
  whose answers its prompts quote as the conversation so far.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db import connection
from django.db.models import Exists, OuterRef, Q, QuerySet

from chat.models import Trace, TraceDocument
from kbqa.core.types import Audience
from sources.models import Document, PurgedChunk
from sources.selectors import audience_for, readable_by

# The lists of ``Trace.data`` whose entries name a chunk (``chunk_id``) or a document.
CHUNK_LISTS = ("hits", "blocks", "instruction_sentences")
BATCH = 500  # traces read per query by the backfill


def doc_id_of(chunk_id: str) -> str:
    """The doc_id in ``chunk_id`` (``sources.versioning.chunk_id_for``: ``doc-010#c02v2`` ->
    ``doc-010``; a doc_id may itself hold "#"), or ``chunk_id`` when it has no "#"."""
    head, sep, _ = chunk_id.rpartition("#")
    return head if sep else chunk_id


def trace_doc_ids(data: Mapping[str, Any]) -> set[str]:
    """The doc_ids of the documents the trace JSON ``data`` quotes or names itself (not the
    ones inherited from its conversation); tolerates the missing keys of older traces."""
    found = {
        doc_id_of(str(entry["chunk_id"]))
        for key in CHUNK_LISTS
        for entry in data.get(key) or ()
        if isinstance(entry, Mapping) and entry.get("chunk_id")
    }
    for conflict in data.get("conflicts") or ():
        for side in conflict.get("sides") or () if isinstance(conflict, Mapping) else ():
            if side.get("doc_id"):
                found.add(str(side["doc_id"]))
            elif side.get("chunk_id"):
                found.add(doc_id_of(str(side["chunk_id"])))
    return found


def _table(model: Any) -> str:
    return str(connection.ops.quote_name(model._meta.db_table))


def trace_documents_add(*, trace_id: str, doc_ids: Iterable[str]) -> None:
    """Record that trace ``trace_id`` used ``doc_ids`` (ones already recorded are kept), in
    one INSERT inside the caller's transaction; nothing to do for none. Written as SQL
    like the turn's other writes (``kbqa.db.rows_insert``), on SQLite and PostgreSQL."""
    rows = sorted(set(doc_ids))
    if not rows:
        return
    sql = (
        f"INSERT INTO {_table(TraceDocument)} (trace_id, doc_id) VALUES "  # noqa: S608
        + ", ".join(["(%s, %s)"] * len(rows))
        + " ON CONFLICT DO NOTHING"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [v for doc_id in rows for v in (trace_id, doc_id)])


def trace_documents_inherit(*, trace_id: str, conversation_id: int) -> None:
    """Give trace ``trace_id`` the documents of every other trace of conversation
    ``conversation_id`` (its prompts quote their answers), in one INSERT ... SELECT."""
    documents, traces = _table(TraceDocument), _table(Trace)
    sql = (
        f"INSERT INTO {documents} (trace_id, doc_id)"  # noqa: S608 - names from _meta
        f" SELECT CAST(%s AS VARCHAR(26)), d.doc_id FROM {documents} d"
        f" JOIN {traces} t ON t.id = d.trace_id"
        " WHERE t.conversation_id = %s AND t.id <> %s ON CONFLICT DO NOTHING"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [trace_id, conversation_id, trace_id])


def trace_documents_fill(trace_model: Any, document_model: Any) -> None:
    """Record the documents of every stored trace (own and inherited, conversations read in
    trace id order: ULIDs sort by time); the data migration's step, given its models.
    Rows already there are kept, so running it again changes nothing."""
    seen: dict[int, set[str]] = {}  # conversation -> documents of its traces so far
    rows = trace_model.objects.order_by("id").values_list("id", "conversation_id", "data")
    for trace_id, conversation_id, data in rows.iterator(chunk_size=BATCH):
        own = trace_doc_ids(data if isinstance(data, Mapping) else {})
        earlier = seen.setdefault(conversation_id, set()) if conversation_id else set()
        batch = [document_model(trace_id=trace_id, doc_id=d) for d in sorted(own | earlier)]
        document_model.objects.bulk_create(batch, ignore_conflicts=True)
        earlier |= own


def _hidden_doc_ids(audience: Audience) -> Q:
    """Rows naming a document ``audience`` may not read (``sources.selectors.readable_by``),
    or a purged one it could not have read, by its tombstones' access labels."""
    hidden = Document.objects.exclude(readable_by(audience))
    purged = (
        PurgedChunk.objects.exclude(doc_id__in=Document.objects.values("doc_id"))
        .exclude(access=[])
        .order_by()
        .values_list("doc_id", "access")
        .distinct()
    )
    gone = sorted({d for d, access in purged if not audience.may_read(access)})
    return Q(doc_id__in=hidden.values("doc_id")) | Q(doc_id__in=gone)


def traces_visible(*, traces: QuerySet[Trace], user: Any) -> QuerySet[Trace]:
    """``traces`` without those that used a document ``user`` may not read (the rules and
    the moment of ``audience_for``): one NOT EXISTS over ``TraceDocument``. Document
    administrators (superusers, ``sources.view_document``) keep every trace."""
    audience = audience_for(user)
    if audience.everything:
        return traces
    touching = TraceDocument.objects.filter(trace=OuterRef("pk")).filter(
        _hidden_doc_ids(audience)
    )
    return traces.filter(~Exists(touching))
