"""A chat frame too large for the server is refused with a close the client can read.

Through a real Daphne, whose websocket layer (autobahn) refuses a message over
``--websocket-max-message-size`` (1 MB by default) before the application sees it: a 3 MB
question sent by a client closed the socket with 1006 (the TCP connection dropped, no code,
no reason). It now closes with 1009 "message too big" and autobahn's reason, and the server
goes on answering: a frame under Daphne's limit but over the app's own
(``chat.frames.frame_limit``) gets the app's alert on an open socket.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from types import SimpleNamespace

import aiohttp
import pytest
from aiohttp import ClientWebSocketResponse

from kbqa.websocket_close import install_daphne_close_frames
from tests.kbqa.live import Daphne, daphne, manage, server_env

OWNER = (
    "from django.contrib.auth import get_user_model; from django.test import Client; "
    "from chat.models import Conversation; "
    "u = get_user_model().objects.create_user('frames', password='pw-frames-12345'); "
    "c = Conversation.objects.create(owner=u); client = Client(); client.force_login(u); "
    "print(c.pk, client.cookies['sessionid'].value)"
)
TOO_LONG = "Your question is longer than the limit of 2000 characters."


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Daphne, str, str]]:
    """Daphne, and a conversation id and session id of its owner."""
    with daphne(tmp_path_factory.mktemp("kbqa-ws-frames")) as live:
        out = manage(server_env(live.data_dir), "shell", "-c", OWNER).stdout
        conversation, session = out.strip().splitlines()[-1].split()
        yield live, conversation, session


@asynccontextmanager
async def chat_socket(server: tuple[Daphne, str, str]) -> AsyncIterator[ClientWebSocketResponse]:
    """The conversation's chat socket, opened as the page opens it, once it is admitted."""
    live, conversation, session = server
    origin = f"http://127.0.0.1:{live.port}"
    async with aiohttp.ClientSession(cookies={"sessionid": session}) as http, http.ws_connect(
        f"ws://127.0.0.1:{live.port}/ws/chat/{conversation}/", origin=origin, max_msg_size=0
    ) as ws:
        assert 'id="connection-state"' in await ws.receive_str(timeout=10)
        yield ws


async def test_a_frame_over_the_servers_limit_closes_with_message_too_big(
    server: tuple[Daphne, str, str],
) -> None:
    async with chat_socket(server) as ws:
        # read while sending, as a browser does: the close comes once the frame's length is
        # read, and the server may stop reading the rest (a reset ends the send, not the test)
        sending = asyncio.ensure_future(ws.send_str("x" * 3_000_000))
        closed = await ws.receive(timeout=10)
        await asyncio.gather(sending, return_exceptions=True)
    assert (closed.type, closed.data) == (aiohttp.WSMsgType.CLOSE, 1009)  # not 1006
    assert "exceeds payload limit of 1048576 octets" in closed.extra
    async with chat_socket(server) as ws:  # the server goes on: the next socket is answered
        await ws.send_str("x" * 20_000)
        assert TOO_LONG in await ws.receive_str(timeout=10)


class _FactoryWithoutTheOption:
    def setProtocolOptions(self, maxMessagePayloadSize: int = 0) -> None:  # noqa: N802, N803
        """autobahn's method before ``failByDrop``, or another server's."""


@pytest.mark.parametrize(
    "loaded", [None, SimpleNamespace(WebSocketFactory=_FactoryWithoutTheOption)],
    ids=["daphne-not-serving", "no-failByDrop"],
)
def test_nothing_is_patched_where_daphne_or_the_option_is_missing(
    monkeypatch: pytest.MonkeyPatch, loaded: SimpleNamespace | None
) -> None:
    if loaded is None:
        monkeypatch.delitem(sys.modules, "daphne.server", raising=False)
    else:
        monkeypatch.setitem(sys.modules, "daphne.server", loaded)
    assert install_daphne_close_frames() is False
    if loaded is None:  # not imported either: importing it installs Twisted's reactor
        assert "daphne.server" not in sys.modules
    else:
        assert loaded.WebSocketFactory is _FactoryWithoutTheOption
