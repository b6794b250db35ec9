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
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from asgiref.sync import SyncToAsync
from channels.db import DatabaseSyncToAsync
from django.conf import settings
from django.db import OperationalError

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
