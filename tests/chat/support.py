"""Helpers for chat tests (imported by the test modules: no conftest, shared dir).

Websocket tests open sockets with ``chat_socket`` (an async context manager that always
disconnects, even when an assertion fails) against the real ASGI router; the turn service and
pipeline are real, the model is the registered fake provider (``fake_provider``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from html.parser import HTMLParser
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client

from chat.models import Conversation
from kbqa.asgi import application


@sync_to_async
def user_make(username: str, *, staff: bool = False) -> Any:
    return get_user_model().objects.create_user(
        username=username, password="pw-123456", is_staff=staff
    )


@sync_to_async
def conversation_make(owner: Any) -> Conversation:
    return Conversation.objects.create(owner=owner)


@sync_to_async
def session_cookie(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


@asynccontextmanager
async def chat_socket(
    conversation_id: int,
    user: Any = None,
    language: str = "",
    *,
    admitted: bool | None = None,
    query: str = "",
) -> AsyncIterator[WebsocketCommunicator]:
    """A connected communicator through the real ASGI router (origin/auth middleware),
    disconnected on the way out whatever happened (disconnecting twice is harmless).

    ``admitted`` (default: a user is given) reads the "connected" fragment the consumer sends
    once it accepts the conversation, so the next frame read is the first one of a turn.
    ``query`` is appended to the socket path (e.g. ``?lang=zh-hans``).
    """
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]
    if user is not None:
        headers.append((b"cookie", f"sessionid={await session_cookie(user)}".encode()))
    if language:
        headers.append((b"accept-language", language.encode()))
    path = f"/ws/chat/{conversation_id}/{query}"
    comm = WebsocketCommunicator(application, path, headers=headers)
    try:
        connected, _ = await comm.connect()
        assert connected
        if admitted if admitted is not None else user is not None:
            ready = await comm.receive_from(timeout=5)
            assert oob_targets(ready) == [("true", "connection-state")]
        yield comm
    finally:
        await comm.disconnect()


async def receive_until(comm: WebsocketCommunicator, marker: str) -> list[str]:
    """Fragments received up to and including the first that contains ``marker``."""
    frames: list[str] = []
    while not frames or marker not in frames[-1]:
        frames.append(await comm.receive_from(timeout=5))
    return frames


async def receive_turn(comm: WebsocketCommunicator) -> list[str]:
    """Fragments of one turn, up to the out-of-band footer that finalises it."""
    frames: list[str] = []
    while not frames or not any(i.startswith("footer-") for _s, i in oob_targets(frames[-1])):
        frames.append(await comm.receive_from(timeout=5))
    return frames


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, dict[str, str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, {k: v or "" for k, v in attrs}))


def elements(html: str) -> list[tuple[str, dict[str, str]]]:
    """Every start tag in ``html`` as ``(tag, attributes)``, in document order."""
    parser = _Elements()
    parser.feed(html)
    return parser.found


def oob_targets(html: str) -> list[tuple[str, str]]:
    """``(hx-swap-oob, id)`` of every element carrying ``hx-swap-oob``."""
    return [(a["hx-swap-oob"], a.get("id", "")) for _t, a in elements(html) if "hx-swap-oob" in a]


@pytest.fixture(name="limit_clock")
def limit_clock_fixture(monkeypatch: pytest.MonkeyPatch) -> float:
    """Stop the clock django-ratelimit reads, so no one-minute window ends during a test."""
    import time
    from types import SimpleNamespace

    now = time.time()
    monkeypatch.setattr("django_ratelimit.core.time", SimpleNamespace(time=lambda: now))
    return now
