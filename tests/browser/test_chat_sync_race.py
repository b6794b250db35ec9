"""An answer that ends between a websocket reconnect and the page's sync appears once.

The page shows a running turn ("Answering…"), its socket drops (close 1012, as in a server
restart) and the ws extension reconnects. Before the server has answered the page's
``sync`` frame (``chat/turn_sync.py``), the turn ends and the server announces it as a turn
to append (``turn.stored``: the socket does not know yet that this page shows it); then the
sync's answer replaces the running bubble. The events are put in that order by a socket
Playwright plays (``route_web_socket``) with the server's own fragments; the page's own
script (``static/js/chat.js``) must append the turn once.
"""

from __future__ import annotations

import json
import re
from types import SimpleNamespace
from typing import Any

import pytest

from chat.rendering import fragment, turn_view
from tests.browser.conftest import LiveServer

pytestmark = pytest.mark.browser

QUESTION_ID, ANSWER_ID = 41, 42
QUESTION = "How many days of annual leave do full-time employees get?"
SHOWN = "Full-time employees receive 20 days of paid annual leave per calendar year."
SYNCED = "test: the sync was answered"


def running(key: str) -> str:
    """The turn as the page holds it before the drop: streamed ("t…") or, after a reload,
    stored and still pending ("m…")."""
    status = "streaming" if key.startswith("t") else "pending"
    message = SimpleNamespace(pk=QUESTION_ID, text=QUESTION)
    return str(fragment("turn-start", message=message, turn=turn_view(key=key, status=status)))


def stored() -> dict[str, Any]:
    sentence = {"index": 1, "text": SHOWN, "citations": [], "kind": "claim", "paragraph": True}
    return turn_view(key=f"m{ANSWER_ID}", sentences=[sentence], status="answered", language="en")


@pytest.mark.parametrize("key", ["t0a1b2c3d", f"m{ANSWER_ID}"], ids=["streamed", "reloaded"])
def test_an_answer_ending_between_reconnect_and_sync_is_shown_once(
    page: Any, live_server_demo: LiveServer, key: str
) -> None:
    from playwright.sync_api import expect

    sockets: list[Any] = []
    synced: list[Any] = []

    def answer_sync(ws: Any, message: str | bytes) -> None:
        if isinstance(message, str) and '"sync"' in message:
            synced.append(json.loads(message)["turns"])
            ws.send(str(fragment("turn-replace", turn=stored(), replaces=key)))
            ws.send(str(fragment("composer-alert", message=SYNCED, oob="true")))

    def server(ws: Any) -> None:
        first = not sockets
        sockets.append(ws)
        ws.on_message(lambda message: answer_sync(ws, message))
        ws.send(str(fragment("connection-state", state="open", oob="true")))
        if first:
            ws.send(running(key))
        else:  # the turn ended meanwhile: announced as a turn to append, before the sync
            message = SimpleNamespace(pk=QUESTION_ID, text=QUESTION)
            ws.send(str(fragment("turn-start", message=message, turn=stored())))

    page.goto(f"{live_server_demo.url}/")
    page.click("#new-conversation")
    page.wait_for_selector("#connection-state[data-state=open]")
    page.route_web_socket(re.compile(r"/ws/chat/"), server)  # this conversation's next sockets
    page.reload()
    footer = page.locator("#messages .bubble-assistant .bubble-footer")
    expect(footer).to_have_attribute("data-status", re.compile("^(streaming|pending)$"))
    sockets[0].close(code=1012, reason="service restart")
    expect(page.locator("#composer-alert")).to_have_text(SYNCED)

    assert synced == [[{"key": key, "question": QUESTION_ID}]]
    assert page.locator(f"#msg-{QUESTION_ID}").count() == 1
    assert page.locator("#messages .bubble-assistant").count() == 1
    assert footer.get_attribute("data-status") == "answered"
    assert page.locator("#messages .sentence", has_text=SHOWN).count() == 1
    assert page.locator("#messages > *").evaluate_all("els => els.map(e => e.id)") == [
        f"msg-{QUESTION_ID}", f"turn-m{ANSWER_ID}"]
