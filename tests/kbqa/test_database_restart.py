"""After PostgreSQL restarts, every connection idle in psycopg's pool is dead: the next
requests are still answered (``kbqa.postgresql`` checks each connection it hands out and
then the whole pool), where each of them failed with ``AdminShutdown``.

A restart is what the pool's connections see when their server processes are terminated
(``pg_terminate_backend``, the message is the same): only this pool's idle connections
are, found by process id, so nobody else's work on the shared server is touched. Run with
the PostgreSQL suite (``make test-postgres``).
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connection, connections

from chat.auth import api_token_create
from tests.chat.support import user_make
from tests.kbqa.asgi_requests import asgi_request

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's pool only"),
]


def pool_emptied_and_refilled() -> list[int]:
    """Every connection idle in the pool (and a few more) checked out at once on threads
    and returned: their server process ids, which are then all the pool's idle ones."""
    pool: Any = connections["default"].pool
    count = pool.get_stats().get("pool_available", 0) + 4
    pids: list[int] = []
    together = threading.Barrier(count)

    def hold() -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                pids.append(cursor.fetchone()[0])
            together.wait(timeout=30)
        finally:
            connection.close()  # back to the pool

    threads = [threading.Thread(target=hold) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return pids


def backends_terminate(pids: list[int]) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM unnest(%s::int[]) AS pid "
                       "WHERE pg_terminate_backend(pid)", [pids])
        return int(cursor.fetchone()[0])


async def test_api_requests_after_a_postgresql_restart_are_answered() -> None:
    user = await user_make("api")
    key = (await sync_to_async(api_token_create)(user=user))[1]
    pids = await sync_to_async(pool_emptied_and_refilled, thread_sensitive=False)()
    assert await sync_to_async(backends_terminate)(pids) == len(pids)
    bearer = {"Authorization": f"Bearer {key}"}
    answers = [await asgi_request("GET", "/api/chunks/doc-404%23c01", bearer) for _ in range(3)]
    assert [status for status, _, _ in answers] == [404, 404, 404]
    assert all(b'"code": "chunk_not_found"' in body for _, _, body in answers)
