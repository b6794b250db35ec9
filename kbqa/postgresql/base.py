"""Django's PostgreSQL backend, with each pooled connection checked when it is handed out.

``kbqa.settings`` names this package as the ENGINE when ``DATABASE_URL`` is PostgreSQL.
After PostgreSQL restarts, every connection idle in psycopg's pool is dead; handed out as
it was, each failed its request's first query with ``AdminShutdown: terminating connection
due to administrator command`` (a deployment tester: the next ~5 requests).

Django's ``CONN_HEALTH_CHECKS`` gives the pool psycopg_pool's own check on checkout, but
psycopg_pool 3.3 waits before each further check after one fails (0, 1, 2, 4... s,
``AttemptWithBackoff``): with 4 dead connections in the pool the first query waited 6.7 s,
with 9 it failed after the pool's 20 s timeout (2026-12-06, backends killed with
``pg_terminate_backend``). Here one failed check has the pool check all its idle
connections at once (``ConnectionPool.check``: the dead ones are replaced), and the checkout
is tried once more.
"""

from __future__ import annotations

import logging
from typing import Any

import psycopg
from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool

logger = logging.getLogger(__name__)


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        """A connection, from the pool when there is one: checked with one empty statement
        (``ConnectionPool.check_connection``) and, when the server had closed it, the pool's
        idle connections checked and the checkout tried once more. Raises psycopg's
        ``OperationalError`` (``PoolTimeout`` included) as Django's backend does."""
        connection = super().get_new_connection(conn_params)
        if self.pool is None:
            return connection
        try:
            ConnectionPool.check_connection(connection)
        except psycopg.Error as exc:
            logger.warning("pooled connection found closed (%s): checking the pool", exc)
            self.pool.putconn(connection)  # broken: the pool replaces it
            self.pool.check()
            connection = super().get_new_connection(conn_params)
        return connection
