"""The chat page while Redis is down (a deployment tester's B5), in the browser: the server's
channel layer and the limits' cache point at a loopback port where nothing listens.

Before, the socket said "connected", closed with 1011 at once and was reopened about once
a second; a question typed meanwhile vanished or was never sent, and nothing said why.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import LiveServer, demo_server, login
from tests.browser.helpers import open_chat

pytestmark = pytest.mark.browser

CLOSED_REDIS = "redis://127.0.0.1:6399/0"  # nothing listens here
QUESTION = "How long does the recycle bin keep deleted files?"
LAYER_DOWN = (
    "The chat service is temporarily unavailable. It will reconnect by itself; until then "
    "a question that cannot be answered stays in the box."
)
NOT_SENT = (
    "The chat service is temporarily unavailable; your question was not sent. "
    "Send it again in a moment."
)


@pytest.fixture(scope="module")
def redis_down_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with demo_server(tmp_path_factory.mktemp("kbqa-redis-down"),
                     KBQA_REDIS_URL=CLOSED_REDIS) as server:
        yield server


@pytest.fixture
def down_page(browser: Any, redis_down_server: LiveServer) -> Iterator[Any]:
    """A logged-in page (English UI) on the server whose Redis is down."""
    context = browser.new_context(
        storage_state=login(browser, redis_down_server), viewport={"width": 1000, "height": 700},
        locale="en-GB",
    )
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


def test_a_question_asked_while_redis_is_down_stays_in_the_box_and_the_page_says_why(
    down_page: Any, redis_down_server: LiveServer
) -> None:
    from playwright.sync_api import expect

    page = down_page
    sockets: list[Any] = []
    page.on("websocket", lambda socket: sockets.append(socket))
    open_chat(page, redis_down_server)
    alert = page.locator("#composer-alert")
    expect(alert).to_have_text(LAYER_DOWN)
    page.fill("#question", QUESTION)
    page.press("#question", "Enter")
    expect(alert).to_have_text(NOT_SENT)

    expect(page.locator("#question")).to_have_value(QUESTION)
    assert page.locator("#messages .bubble").count() == 0
    assert page.locator("#connection-state").get_attribute("data-state") == "open"
    this_page = [s for s in sockets if s.url == sockets[-1].url]  # ?tab= is per page load
    assert len(this_page) == 1 and not this_page[0].is_closed()  # never dropped nor reopened


def test_reconnect_waits_grow_while_sockets_close_right_after_opening(
    down_page: Any, redis_down_server: LiveServer
) -> None:
    """The ws extension restarts its backoff at every open; the page's own wait does not
    while each socket closes within seconds of opening, and does once one stayed open."""
    open_chat(down_page, redis_down_server)
    waits = down_page.evaluate("""() => {
        Math.random = () => 1;  // the upper bound of each full-jitter wait
        let now = 1e12;
        Date.now = () => now;
        const opened = () => document.body.dispatchEvent(
            new CustomEvent('htmx:wsOpen', {detail: {socketWrapper: null}}));
        const waits = [];
        for (let i = 0; i < 3; i++) {  // three sockets dropped a second after opening
            opened(); now += 1000; waits.push(htmx.config.wsReconnectDelay(0));
        }
        opened(); now += 60000; waits.push(htmx.config.wsReconnectDelay(0));  // a steady one
        return waits;
    }""")
    assert waits == [2000, 4000, 8000, 1000]
