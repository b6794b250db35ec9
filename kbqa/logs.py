"""Logging filters for the server log (``settings.LOGGING``)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable


class ClientErrorsWithoutTraceback(logging.Filter):
    """Drops the traceback from ``django.request``'s records of 4xx responses.

    Django logs an ordinary refusal ("Forbidden (Permission denied): /traces/", a staff page
    opened by a user who is not staff) with the ``PermissionDenied`` exception attached, so
    the server log showed a full traceback for a request that went exactly as designed. The
    line itself stays; 5xx records keep their tracebacks.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", 500) < 500:
            record.exc_info = None
            record.exc_text = None
        return True


class RepeatsThrottled(logging.Filter):
    """Lets the first record of each kind through, then at most one each ``seconds``, which
    says how many like it were held back since the last one shown.

    A kind is the logger's message template (``"error connecting in %r: %s"``), whatever its
    arguments. On ``psycopg.pool``: while PostgreSQL was down, the pool's background workers
    logged "error connecting in 'pool-1': … Connection refused" about 55 times for one
    request, in every server process, burying the request's own error line (logged
    elsewhere, untouched here); a Redis outage logs one warning. One outage now reads as one
    line, then one a minute while it lasts. ``clock``: seconds, monotonic (tests pass their
    own). Thread-safe: the pool logs from its worker threads.
    """

    def __init__(self, seconds: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.seconds = seconds
        self.clock = clock
        self._lock = threading.Lock()
        self._shown: dict[tuple[str, str], float] = {}  # kind -> when last let through
        self._held: dict[tuple[str, str], int] = {}  # kind -> records held back since

    def filter(self, record: logging.LogRecord) -> bool:
        kind = (record.name, str(record.msg))
        now = self.clock()
        with self._lock:
            last = self._shown.get(kind)
            if last is not None and now - last < self.seconds:
                self._held[kind] = self._held.get(kind, 0) + 1
                return False
            held = self._held.pop(kind, 0)
            self._shown[kind] = now
        if held and last is not None:
            record.msg = (
                f"{record.getMessage()} ({held} more like it since the last one shown, "
                f"{now - last:.0f} s ago)"
            )
            record.args = ()
        return True
