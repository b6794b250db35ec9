"""Database calls from async code, on a pool of threads instead of one.

asgiref runs ``sync_to_async`` and ``database_sync_to_async`` with ``thread_sensitive=True``
by default: outside a request's ``ThreadSensitiveContext`` (every websocket consumer is
outside one) all such calls of the process share ONE thread. Under ``bench/load.py`` with 50
chats (py-spy, 2026-11-30) that thread was busy the whole run while the CPU idled, and every
turn's history read, message writes and trace write queued behind the others' (plus a
connection opened and closed per call). Django's ORM may be called from any thread: each
thread has its own connection. ``db_async`` runs calls on ``KBQA_DB_THREADS`` threads, each
keeping its connection as ``CONN_MAX_AGE`` allows (``database_sync_to_async`` semantics:
obsolete or broken connections are closed before and after each call).

Nothing here makes a write wait less for SQLite's single write lock; the short transactions
in ``chat.turn_records`` do. ``write_retried`` retries a write that lost a lock race anyway.
``rows_insert`` and ``rows_update`` write a turn's rows as the ORM would store them, without
its query building (most of a write's CPU on the database threads).
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable, Coroutine, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from asgiref.sync import SyncToAsync
from channels.db import DatabaseSyncToAsync
from django.conf import settings
from django.db import InterfaceError, OperationalError, connection, models
from django.utils import timezone

logger = logging.getLogger(__name__)
P = ParamSpec("P")
R = TypeVar("R")
_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None


def db_executor() -> ThreadPoolExecutor:
    """The process's database threads (``settings.KBQA_DB_THREADS``), made on first use."""
    global _pool
    with _lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(
                max_workers=settings.KBQA_DB_THREADS, thread_name_prefix="kbqa-db"
            )
        return _pool


def db_async(func: Callable[P, R]) -> Callable[P, Coroutine[Any, Any, R]]:
    """``func`` as a coroutine function run on the database threads (decorator or wrapper).

    Works on methods. With ``KBQA_DB_THREADS = 0`` it is plain ``sync_to_async`` (thread
    sensitive: the one sync thread, or the thread of an enclosing ``async_to_sync``), which
    the test suite uses so that Django's test client sees the test's own transaction. The call's
    own transaction, if any, must begin and end inside ``func``.
    """

    @functools.wraps(func)
    async def run(*args: P.args, **kwargs: P.kwargs) -> R:
        if settings.KBQA_DB_THREADS <= 0:
            call = SyncToAsync(func)
        else:
            call = DatabaseSyncToAsync(func, thread_sensitive=False, executor=db_executor())
        result: R = await call(*args, **kwargs)
        return result

    return run


# Seconds between attempts of a write that lost a lock race (after SQLite's own busy timeout
# of OPTIONS["timeout"] seconds, or PostgreSQL's deadlock detection, already waited).
RETRY_DELAYS = (0.05, 0.2, 0.5, 1.0)
# PostgreSQL's serialization_failure and deadlock_detected (Appendix A, Error Codes).
_RETRY_SQLSTATES = {"40001", "40P01"}


def lock_lost(exc: BaseException) -> bool:
    """True for "database is locked" (SQLite) or a serialization failure or deadlock
    (PostgreSQL): errors that the same write may not meet a moment later."""
    if not isinstance(exc, OperationalError):
        return False
    text = str(exc).lower()
    if "database is locked" in text or "database table is locked" in text:
        return True
    return getattr(exc.__cause__, "sqlstate", None) in _RETRY_SQLSTATES


def database_unreachable(exc: BaseException | None) -> bool:
    """True for an error of not reaching the database at all: an ``OperationalError`` or
    ``InterfaceError`` that is no lost lock (``lock_lost``): refused or timed-out
    connections, a wrong password, a server shutting down (PostgreSQL's AdminShutdown), no
    pooled connection within the pool's timeout, a connection already closed. Coarse: on
    SQLite every other ``OperationalError`` counts too (a file that cannot be opened, but
    also a missing table); the message it picks is for clients, the log has the error."""
    return isinstance(exc, OperationalError | InterfaceError) and not lock_lost(exc)


def write_retried(
    write: Callable[[], R], *, retry_on: Callable[[BaseException], bool] = lock_lost
) -> R:
    """``write()``, tried again after each of ``RETRY_DELAYS`` while it fails with an error
    ``retry_on`` accepts (default ``lock_lost``); the last error is raised. ``write`` must be
    one whole transaction (``transaction.atomic`` inside), so a retry starts it afresh."""
    for delay in (*RETRY_DELAYS, None):
        try:
            return write()
        except Exception as exc:
            if delay is None or not retry_on(exc):
                raise
            logger.warning("write retried in %.2f s after: %s", delay, exc)
            time.sleep(delay)
    raise AssertionError("unreachable")


# ----------------------------------------------------------------------------- plain writes


def rows_insert(
    model: type[models.Model], rows: Sequence[Mapping[str, Any]], *, returning: str = ""
) -> list[Any]:
    """INSERT ``rows`` (field attname -> value, e.g. ``conversation_id``) of ``model`` in one
    statement on the default connection, stored as ``bulk_create`` stores them: every
    concrete column but an automatic primary key, a column a row leaves out takes the
    field's default (``auto_now``/``auto_now_add`` dates: now), each value prepared by its
    field (``get_db_prep_save``: JSON encoded, dates adapted to the backend). No signals.

    Returns the ``returning`` column of each row, in the rows' order (``RETURNING``, as
    ``bulk_create`` reads primary keys back on SQLite 3.35+ and PostgreSQL; one INSERT per
    row and ``lastrowid`` on an older SQLite), or [] without ``returning``. Building the
    statement here instead of through the ORM's compiler: the turn's two writes cost 1.3 ms
    of CPU through the ORM against 0.4 ms (in process, 2026-12-01, README: Benchmarks).
    Raises ``django.db.DatabaseError`` as the ORM would; unknown names raise
    ``FieldDoesNotExist``.
    """
    fields, sql, marks = _insert_plan(model)
    if unknown := {name for row in rows for name in row} - {f.attname for f, _ in fields}:
        model._meta.get_field(sorted(unknown)[0])  # raises FieldDoesNotExist (or pk given)
        raise ValueError(f"{model.__name__}: the automatic primary key is not inserted")
    now = timezone.now()
    params = [[f.get_db_prep_save(_value(f, auto, row, now), connection) for f, auto in fields]
              for row in rows]
    with connection.cursor() as cursor:
        if not returning or connection.features.can_return_rows_from_bulk_insert:
            tail = f" RETURNING {_column(model, returning)}" if returning else ""
            cursor.execute(sql + ", ".join([marks] * len(rows)) + tail,
                           [v for values in params for v in values])
            return [r[0] for r in cursor.fetchall()] if returning else []
        found = []
        for values in params:  # SQLite before 3.35 has no RETURNING
            cursor.execute(sql + marks, values)
            found.append(cursor.lastrowid)
        return found


def rows_update(
    model: type[models.Model], values: Mapping[str, Any], *, where: Mapping[str, Any]
) -> int:
    """``UPDATE`` ``model``'s rows whose columns equal ``where`` (attname -> value) with
    ``values`` (attname -> value, prepared by each field as ``rows_insert`` does), as
    ``QuerySet.filter(**where).update(**values)`` would, without the ORM's query building.
    Returns the number of rows changed."""
    get_field = model._meta.get_field
    sql = _update_sql(model, tuple(values), tuple(where))
    params = [get_field(n).get_db_prep_save(v, connection) for n, v in values.items()]
    params += [get_field(n).get_db_prep_save(v, connection) for n, v in where.items()]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return int(cursor.rowcount)


@functools.cache
def _update_sql(model: type[models.Model], values: tuple[str, ...], where: tuple[str, ...]) -> str:
    return (
        f"UPDATE {connection.ops.quote_name(model._meta.db_table)} SET "  # noqa: S608
        + ", ".join(f"{_column(model, n)} = %s" for n in values)
        + " WHERE "
        + " AND ".join(f"{_column(model, n)} = %s" for n in where)
    )


def _column(model: type[models.Model], name: str) -> str:
    return str(connection.ops.quote_name(model._meta.get_field(name).column))


@functools.cache
def _insert_plan(model: type[models.Model]) -> tuple[tuple[tuple[Any, bool], ...], str, str]:
    """``((field, set to now), ...)`` of the columns ``rows_insert`` writes, the statement's
    head up to ``VALUES`` and one row's placeholders."""
    auto = model._meta.pk if isinstance(model._meta.pk, models.AutoField) else None
    fields = tuple(
        (f, bool(getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)))
        for f in model._meta.concrete_fields
        if f is not auto
    )
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f, _ in fields)
    head = f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES "
    return fields, head, f"({', '.join(['%s'] * len(fields))})"


def _value(field: Any, auto_now: bool, row: Mapping[str, Any], now: Any) -> Any:
    if field.attname in row:
        return row[field.attname]
    return now if auto_now else field.get_default()
