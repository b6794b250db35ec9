"""The chat websocket opens only from the page's own origin, port included (issue 15, item 6)."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from kbqa.asgi import application
from tests.chat.support import conversation_make, session_cookie, user_make

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    ("origin", "host", "opens"),
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000", True),
        ("http://127.0.0.1:9999", "127.0.0.1:8000", False),  # same host, another port
        ("http://127.0.0.1", "127.0.0.1:8000", False),
        ("http://evil.example", "127.0.0.1:8000", False),
        ("https://localhost", "localhost", True),  # behind a TLS proxy
        ("", "127.0.0.1:8000", False),
    ],
)
async def test_only_the_pages_own_origin_opens_a_socket(
    origin: str, host: str, opens: bool
) -> None:
    owner = await user_make("bob")
    conversation = await conversation_make(owner)
    headers = [
        (b"host", host.encode()),
        (b"cookie", f"sessionid={await session_cookie(owner)}".encode()),
    ]
    if origin:
        headers.append((b"origin", origin.encode()))
    comm = WebsocketCommunicator(application, f"/ws/chat/{conversation.pk}/", headers=headers)
    connected, _ = await comm.connect()
    await comm.disconnect()
    assert connected is opens


async def test_a_trusted_origin_of_another_port_opens_a_socket(settings) -> None:
    settings.CSRF_TRUSTED_ORIGINS = ["http://127.0.0.1:3000"]
    owner = await user_make("bob")
    conversation = await conversation_make(owner)
    headers = [
        (b"host", b"127.0.0.1:8000"),
        (b"origin", b"http://127.0.0.1:3000"),
        (b"cookie", f"sessionid={await session_cookie(owner)}".encode()),
    ]
    comm = WebsocketCommunicator(application, f"/ws/chat/{conversation.pk}/", headers=headers)
    connected, _ = await comm.connect()
    await comm.disconnect()
    assert connected
