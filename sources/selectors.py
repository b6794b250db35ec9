"""Reads from the knowledge base: BM25 search over current chunks, single chunk look-up.

Search reads the persisted index (``sources.indexing`` writes it, ``kbqa.core.retrieval``
searches it): each process memory-maps the files once and, per question, checks one file's
``stat`` to see whether another process committed a change (a few microseconds; no table
scan). A new generation is opened in milliseconds; a missing or stale index is logged, never
built here. Hits are then read from the chunk table by chunk_id (k rows), and only chunks
still current are returned, so a purge or retire is never served even before the index
catches up.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.models import Q

from kbqa.core import types
from kbqa.core.errors import KbqaError
from kbqa.core.retrieval import cross_language
from kbqa.core.retrieval.cross_language import cross_hits
from kbqa.core.retrieval.dense import DENSE_WEIGHT, DenseHit, dense_search, fuse, vector_model
from kbqa.core.retrieval.index import Hit, IndexSnapshot
from kbqa.core.retrieval.scope import scope_boosted
from kbqa.core.retrieval.store import IndexReader, IndexStore
from kbqa.core.retrieval.synonyms import enabled as synonyms_enabled
from kbqa.core.text.terms import TERMS_VERSION
from sources.models import Chunk, Document, PurgedChunk
from sources.vectors import current_encoder

logger = logging.getLogger(__name__)
_lock = threading.Lock()
_readers: dict[str, IndexReader] = {}  # per index folder (tests change it)
_warned: dict[str, int] = {}  # folder -> generation last warned about


DOCUMENT_ADMIN_PERMISSION = "sources.view_document"
SEARCHES_KEPT = 1024  # per index snapshot (``_lexical_hits``): k hits, a few KB each


def audience_for(user: Any) -> types.Audience:
    """The retrieval ``Audience`` of ``user`` (README: Who may read what), read afresh from
    the database on every call, so a change of groups, permissions or status applies to the
    very next question (nothing is cached per session or socket).

    Active superusers and people with ``sources.view_document`` (held themselves or through
    a group: ``ModelBackend``'s rule, the only backend here that grants it; they can open
    every document in admin anyway) read everything; everyone else reads documents visible
    to everyone plus those limited to one of their groups. None, an anonymous user or one
    deactivated (even since ``user`` was loaded) reads documents visible to everyone only.
    """
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return types.EVERYONE
    rows = _audience_rows(get_user_model(), user.pk)
    if not rows or not rows[0][0]:
        return types.EVERYONE
    if rows[0][1] or rows[0][2]:
        return types.ADMINISTRATOR
    return types.Audience(labels=frozenset(str(g) for *_, g in rows if g is not None))


def _audience_rows(user_model: Any, user_pk: Any) -> list[tuple[Any, ...]]:
    """``[(is_active, is_superuser, holds DOCUMENT_ADMIN_PERMISSION, group id or None)]``,
    one row per group, in one statement. Written as SQL because the ORM's own work (building
    and compiling the query, not running it) was 1.0 ms of CPU per question for the
    permission check and the groups, against 0.03 ms for this statement (in process on the
    demo knowledge base, 2026-12-01): under 200 concurrent chats every millisecond per
    answer is 0.2 s that each answer waits (README: Benchmarks). Table names come from the
    models, so a custom user model works; the SQL is the same on SQLite and PostgreSQL."""
    app_label, codename = DOCUMENT_ADMIN_PERMISSION.split(".")
    users = user_model._meta.db_table
    user_groups = user_model.groups.through._meta.db_table
    user_perms = user_model.user_permissions.through._meta.db_table
    group_perms = Group.permissions.through._meta.db_table
    perms, types_ = Permission._meta.db_table, ContentType._meta.db_table
    sql = (
        f"SELECT u.is_active, u.is_superuser, EXISTS ("  # noqa: S608 - names from _meta
        f" SELECT 1 FROM {perms} p JOIN {types_} t ON t.id = p.content_type_id"
        f" WHERE t.app_label = %s AND p.codename = %s AND ("
        f"  p.id IN (SELECT permission_id FROM {user_perms} WHERE user_id = u.id)"
        f"  OR p.id IN (SELECT gp.permission_id FROM {group_perms} gp"
        f"   JOIN {user_groups} ug ON ug.group_id = gp.group_id WHERE ug.user_id = u.id))),"
        f" g.group_id FROM {users} u LEFT JOIN {user_groups} g ON g.user_id = u.id"
        f" WHERE u.id = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [app_label, codename, user_pk])
        return list(cursor.fetchall())


NO_GROUP = "-"  # the label of a restricted document whose groups were all deleted: nobody holds it


def document_access(document: Document) -> tuple[str, ...]:
    """Access labels of ``document``: its groups' ids as strings, () for everyone."""
    if not document.restricted:
        return ()
    return tuple(sorted(str(g.pk) for g in document.groups.all())) or (NO_GROUP,)


def chunk_readable(*, chunk: Chunk, user: Any) -> bool:
    """Whether ``user`` may read ``chunk`` (its document is visible to them)."""
    return audience_for(user).may_read(document_access(chunk.document))


def chunk_as_core(chunk: Chunk) -> types.Chunk:
    """The core ``Chunk`` value of a stored chunk (document metadata filled in).

    ``updated`` is the document's effective date as ISO ``YYYY-MM-DD`` or ""; ``access``
    its visibility (``document_access``; prefetch ``document__groups`` for many chunks).
    """
    doc = chunk.document
    return types.Chunk(
        chunk_id=chunk.chunk_id,
        doc_id=doc.doc_id,
        title=doc.title,
        text=chunk.text,
        section=chunk.section,
        updated=doc.updated.isoformat() if doc.updated else "",
        source_url=doc.source_url,
        authority=doc.authority,
        language=doc.language,
        access=document_access(doc),
    )


def chunk_get(*, chunk_id: str) -> Chunk | None:
    """The stored chunk with this id (current or superseded) with its document, or None."""
    return Chunk.objects.select_related("document").filter(chunk_id=chunk_id).first()


def chunk_purged_at(*, chunk_id: str, user: Any) -> dt.datetime | None:
    """When the chunk with this id was purged (``sources.lifecycle.document_purge``), if
    ``user`` could read it then; else None: it never was (it is stored, or the id is
    unknown), or it was in a document hidden from ``user``, whose purge is no more theirs
    to know of than its text was."""
    tombstone = PurgedChunk.objects.filter(chunk_id=chunk_id).only("purged_at", "access").first()
    if tombstone is None or not audience_for(user).may_read(tuple(tombstone.access or ())):
        return None
    return tombstone.purged_at


def current_chunks() -> list[types.Chunk]:
    """Every current chunk of a document in the knowledge base (not retired) as a core
    ``Chunk``, in chunk_id order."""
    rows = (
        Chunk.objects.select_related("document")
        .prefetch_related("document__groups")
        .filter(is_current=True, document__retired_at__isnull=True)
        .order_by("chunk_id")
    )
    return [chunk_as_core(c) for c in rows]


def readable_by(audience: types.Audience) -> Q:
    """The documents ``audience`` may read, as a filter on ``Document``: every one for
    document administrators, else those visible to everyone and those limited to one of
    its groups (README: Who may read what)."""
    if audience.everything:
        return Q()
    groups = [int(label) for label in audience.labels if label.isdigit()]
    return Q(restricted=False) | Q(groups__pk__in=groups)


def documents_readable(*, audience: types.Audience) -> bool:
    """Whether ``audience`` may read at least one document in the knowledge base (not
    retired, with current chunks): False for an empty knowledge base, or one whose documents
    are all limited to groups the asker is not in (README: Who may read what)."""
    current = Document.objects.filter(retired_at__isnull=True, chunks__is_current=True)
    return current.filter(readable_by(audience)).exists()


def index_snapshot() -> IndexSnapshot | None:
    """The index as last committed (reopened only when its manifest changed), or None if
    it was never built. Logs a warning once per generation when it is stale."""
    folder = str(settings.KBQA_INDEX_DIR)
    reader: IndexReader | None = _readers.get(folder)
    if reader is None:
        with _lock:
            reader = _readers.setdefault(folder, IndexReader(IndexStore(folder)))
    opens = reader.opens
    snapshot = reader.snapshot()
    if reader.opens != opens:
        _warn_if_stale(snapshot, folder)
    return snapshot


def _warn_if_stale(snapshot: IndexSnapshot | None, folder: str) -> None:
    status = index_status_of(snapshot)
    if status.problem and _warned.get(folder) != status.generation:
        _warned[folder] = status.generation
        logger.warning("%s (%s)", status.problem, folder)


@dataclass(frozen=True)
class IndexStatus:
    """What ``manage.py index_build --status``, the system check and the log say."""

    built: bool
    generation: int
    chunks: int
    terms_version: int
    problem: str  # "" when the index is usable as it is


def index_status_of(snapshot: IndexSnapshot | None) -> IndexStatus:
    if snapshot is None:
        return IndexStatus(
            False, 0, 0, 0, "no retrieval index: ingest documents or run manage.py index_build"
        )
    problem = ""
    if snapshot.terms_version != TERMS_VERSION:
        problem = (
            f"retrieval index is stale: built with terms version {snapshot.terms_version}, "
            f"the tokenizer is version {TERMS_VERSION}; run manage.py index_build"
        )
    return IndexStatus(True, snapshot.generation, len(snapshot), snapshot.terms_version, problem)


def index_status() -> IndexStatus:
    """Status of the index as committed now."""
    return index_status_of(index_snapshot())


def index_opens() -> int:
    """How many times this process opened an index generation (tests and the admin)."""
    reader = _readers.get(str(settings.KBQA_INDEX_DIR))
    return reader.opens if reader is not None else 0


def chunks_search(
    *, query: str, k: int, audience: types.Audience = types.EVERYONE
) -> list[types.ScoredChunk]:
    """At most ``k`` current chunks ``audience`` may read for ``query``, best first, ties by
    chunk_id ascending.

    Scores are BM25 over the readable chunks only, relevance in [0, 1)
    (``kbqa.core.retrieval.index``). With semantic recall (an encoder configured and every
    segment holding its vectors, ``sources.vectors``) the top ``k`` of dense search over the
    same readable chunks are fused with BM25's by reciprocal rank fusion
    (``kbqa.core.retrieval.dense``): ``score`` is then the fused score and ``similarity``
    the cosine. Returns [] for an empty knowledge base, a missing index or a query without
    terms or meaning (empty, punctuation only). Hits are read back from the chunk table and
    kept only if still current and readable, so a change the index has not caught up with
    yet (under a second) never shows a retired, purged or newly hidden chunk.
    """
    snapshot = index_snapshot()
    if snapshot is None:
        return []
    lexical = _lexical_hits(snapshot, query, k, audience)
    dense = _dense_hits(snapshot, query, k, audience)
    hits = fuse(lexical, dense, k, dense_weight=DENSE_WEIGHT)
    if not hits:
        return []
    found = current_chunks_of([h.chunk_id for h in hits])
    raw = {h.chunk_id: h.score for h in lexical}
    scored = [
        types.ScoredChunk(
            chunk=found[h.chunk_id],
            score=h.score if dense else raw[h.chunk_id],
            relevance=h.relevance,
            similarity=h.similarity,
            agreed=h.agreed,
        )
        for h in hits
        if h.chunk_id in found and audience.may_read(found[h.chunk_id].access)
    ]
    return scored if dense else scope_boosted(scored, query, snapshot.idf)


def _lexical_hits(
    snapshot: IndexSnapshot, query: str, k: int, audience: types.Audience
) -> tuple[Hit, ...]:
    """BM25's top ``k`` for ``query`` with its expansions and, when its own words find
    nothing close, its translation (``cross_language.cross_hits``) among what ``audience``
    may read, kept on ``snapshot`` (``SEARCHES_KEPT`` at most): they follow from the
    snapshot's files, the query, the audience, the thesaurus switch and the threshold below
    which the translation is searched (``evaluate --min-relevance`` sets its own for a run)
    alone, and a change to the knowledge base (in any process) is read as a new snapshot,
    which starts afresh. The pipeline searches three times per question (the question, the conflict
    gate's probe in each language) and users ask the same questions: expanding and scoring
    again was about 60% of a search's CPU (cProfile of ``bench/load.py``'s question's three
    searches, in process); under that bench a search's CPU on the database threads went
    from 1.28 to 0.73 ms (2026-12-02). The chunks are still read afresh
    (``current_chunks_of``)."""
    key = (query, k, audience, synonyms_enabled(), cross_language.threshold())
    found = snapshot.searches.get(key)
    if found is None:
        found = tuple(cross_hits(snapshot, query, k, audience))
        with _lock:
            if len(snapshot.searches) >= SEARCHES_KEPT:
                snapshot.searches.clear()
            snapshot.searches[key] = found
    return found


def current_chunks_of(chunk_ids: Sequence[str]) -> dict[str, types.Chunk]:
    """The chunks of ``chunk_ids`` that are current in a document not retired, as core
    ``Chunk`` values by chunk_id (``chunk_as_core``'s fields): read now, so a chunk retired,
    superseded or purged a moment ago is left out and a document's groups are as they are.

    Two SQL statements at most (the chunks with their documents; the groups of the restricted
    ones), written as SQL: through the ORM (``select_related``, ``only``, the groups
    prefetched) the same read cost 0.8 ms of CPU per search, twice per question, mostly
    building the queries and the model instances (in process on the demo knowledge base,
    2026-12-01). The SQL is the same on SQLite and PostgreSQL; names come from the models.
    The rows are found by chunk_id alone (its unique index) and "current, not retired" is
    checked on them here: with those tests in the WHERE clause SQLite's planner chose the
    ``(is_current, document)`` index and read every current chunk's row on each search
    (``EXPLAIN QUERY PLAN``, 2026-12-02), pages that every write elsewhere makes it read again.
    """
    if not chunk_ids:
        return {}
    chunks, documents = Chunk._meta.db_table, Document._meta.db_table
    doc_groups = Document.groups.through._meta.db_table
    marks = ", ".join(["%s"] * len(chunk_ids))
    sql = (
        "SELECT c.chunk_id, c.text, c.section, d.id, d.doc_id, d.title, d.updated,"  # noqa: S608
        " d.source_url, d.authority, d.language, d.restricted, c.is_current, d.retired_at"
        f" FROM {chunks} c JOIN {documents} d ON d.id = c.document_id"
        f" WHERE c.chunk_id IN ({marks})"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, list(chunk_ids))
        rows = [r[:11] for r in cursor.fetchall() if r[11] and r[12] is None]
        restricted = sorted({r[3] for r in rows if r[10]})
        groups: dict[int, list[str]] = {pk: [] for pk in restricted}
        if restricted:
            cursor.execute(
                f"SELECT document_id, group_id FROM {doc_groups}"  # noqa: S608
                f" WHERE document_id IN ({', '.join(['%s'] * len(restricted))})",
                restricted,
            )
            for document_id, group_id in cursor.fetchall():
                groups[document_id].append(str(group_id))
    return {r[0]: _core_chunk(r, groups) for r in rows}


def _core_chunk(row: tuple[Any, ...], groups: dict[int, list[str]]) -> types.Chunk:
    chunk_id, text, section, document_pk, doc_id, title, updated = row[:7]
    source_url, authority, language, restricted = row[7:]
    if isinstance(updated, dt.date):
        updated = updated.isoformat()
    access = (tuple(sorted(groups[document_pk])) or (NO_GROUP,)) if restricted else ()
    return types.Chunk(
        chunk_id=chunk_id, doc_id=doc_id, title=title, text=text, section=section,
        updated=updated or "", source_url=source_url, authority=authority,
        language=language, access=access,
    )


def _dense_hits(
    snapshot: IndexSnapshot, query: str, k: int, audience: types.Audience
) -> list[DenseHit]:
    """Dense search for ``query`` when an encoder is configured and the index holds its
    vectors; [] otherwise (the index is BM25 only: logged once per generation)."""
    encoder = current_encoder()
    if encoder is None or not any(len(s) for s in snapshot.segments):
        return []
    if vector_model(snapshot) != encoder.name:
        if _warned.get(f"vectors:{settings.KBQA_INDEX_DIR}") != snapshot.generation:
            _warned[f"vectors:{settings.KBQA_INDEX_DIR}"] = snapshot.generation
            logger.warning("retrieval index has no %s vectors; run manage.py index_build",
                           encoder.name)
        return []
    if not any(ch.isalnum() for ch in query):
        return []
    try:
        vector = encoder.query(query)
    except Exception:  # the lexical path must answer whatever the encoder does
        logger.exception("encoding the question failed; searching with BM25 alone")
        return []
    return dense_search(snapshot, vector, k, audience=audience)


def audience_of_groups(names: Sequence[str]) -> types.Audience:
    """The audience of a member of the groups called ``names``. Raises ``KbqaError`` naming
    any group that does not exist (an evaluation case must not silently ask as nobody)."""
    found = dict(Group.objects.filter(name__in=list(names)).values_list("name", "pk"))
    if missing := sorted(set(names) - set(found)):
        raise KbqaError(f"unknown group(s): {', '.join(missing)}")
    return types.Audience(labels=frozenset(str(pk) for pk in found.values()))
