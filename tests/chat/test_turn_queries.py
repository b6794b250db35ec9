"""How many SQL statements one turn costs, pinned so it cannot silently grow.

Under ``bench/load.py`` (200 chats at once, 2026-11-30) the Django ORM on the database
threads was about 10 ms of the 25-31 ms of CPU the server spent per answer, about 17
statements per turn. Every statement is counted, on whatever thread runs it (the count
wraps Django's cursor, not one connection).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db.backends import utils

from tests.chat.kb import LAPTOP_ANSWER, LAPTOP_QUESTION, laptop_kb
from tests.chat.support import chat_socket, conversation_make, receive_turn, user_make
from tests.fakes.provider import FakeProvider
from tests.kbqa.asgi_requests import asgi_request

__all__ = ["laptop_kb"]
pytestmark = pytest.mark.django_db(transaction=True)


# Transaction control differs by backend (SQLite's BEGIN is a statement here, psycopg's is
# not; COMMIT is a connection call on both): not counted.
_CONTROL = ("BEGIN", "SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK")


@contextmanager
def statements() -> Iterator[list[str]]:
    """Every SQL statement any thread runs inside the block, in order, transaction control
    (``_CONTROL``) left out."""
    seen: list[str] = []
    lock = threading.Lock()
    original = utils.CursorWrapper._execute_with_wrappers

    def counted(self: Any, sql: str, params: Any, many: bool, executor: Any) -> Any:
        if not sql.lstrip().upper().startswith(_CONTROL):
            with lock:
                seen.append(sql)
        return original(self, sql, params, many, executor)

    utils.CursorWrapper._execute_with_wrappers = counted  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        utils.CursorWrapper._execute_with_wrappers = original  # type: ignore[method-assign]


async def test_one_websocket_turn_runs_a_pinned_number_of_statements(
    fake_provider: FakeProvider, laptop_kb: None
) -> None:
    fake_provider.add(LAPTOP_ANSWER, LAPTOP_ANSWER)
    user = await user_make("alice")
    conversation = await conversation_make(user)
    async with chat_socket(conversation.pk, user) as comm:
        from tests.chat.test_consumer import ask

        await comm.send_to(text_data=ask(LAPTOP_QUESTION))
        await receive_turn(comm)  # the first turn warms caches (index, jieba)
        with statements() as seen:
            await comm.send_to(text_data=ask(LAPTOP_QUESTION + " Again?"))
            await receive_turn(comm)
    # the session with its user's password and status (still logged in? one statement, two
    # before load7db); the conversation with whether it has a pending turn (one, two before
    # load7db), its history, the user's groups; the trace, both messages (one INSERT); the
    # hits' chunks, read back three times: for the question's search and for the conflict
    # gate's two searches for the asked value ("how often": a duration), in the question's
    # language and in the other (an English-only knowledge base meets the Chinese words by
    # their translations back); the trace and the answer completed. main at c182e2d ran 12
    # (one INSERT per message), 11 before the conflict gate's search; 12 before its search
    # in the other language (branch xlang6), 13 after it. Two more since the trace keeps
    # the documents it used (``chat.trace_access``): the earlier answers' ones at its start,
    # its own when completed.
    assert len(seen) == 13, "\n".join(seen)



async def sse_through_asgi(key: str, question: str) -> tuple[int, bytes]:
    """POST ``/api/answer/stream`` through the whole ASGI application (the body-limit
    middleware's authentication included), as Daphne calls it."""
    import json

    status, _, body = await asgi_request(
        "POST", "/api/answer/stream",
        {"authorization": f"Bearer {key}", "content-type": "application/json"},
        json.dumps({"question": question}).encode())
    return status, body


async def test_one_sse_answer_runs_a_pinned_number_of_statements(
    fake_provider: FakeProvider, laptop_kb: None
) -> None:
    from asgiref.sync import sync_to_async

    from chat.auth import api_token_create

    fake_provider.add(LAPTOP_ANSWER, LAPTOP_ANSWER)
    user = await user_make("alice")
    key = (await sync_to_async(api_token_create)(user=user, name="cli"))[1]
    await sse_through_asgi(key, LAPTOP_QUESTION)  # warms caches; stamps the token's last use
    with statements() as seen:
        status, body = await sse_through_asgi(key, LAPTOP_QUESTION + " Again?")
    assert status == 200 and b"event: done" in body
    # the token and its user, looked up once for the body-limit check and the view; the
    # user's status, permission and groups (one statement: ``audience_for``, 3 before
    # load6); the new conversation, the trace, both
    # messages; the hits' chunks, for the question's search and for the conflict gate's
    # two searches for the asked value (in both languages); the trace and the answer
    # completed. main at c182e2d ran 15 (the token looked up and stamped twice, the
    # conversation created on its own and then titled, one INSERT per message), 10 before
    # the conflict gate's search; 9 before its search in the other language (branch xlang6).
    # One more since the trace keeps the documents it used (``chat.trace_access``).
    assert len(seen) == 11, "\n".join(seen)
