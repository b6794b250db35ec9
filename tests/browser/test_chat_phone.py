"""Browser: a phone-width answer is never left under the composer, and a Chinese browser
(Accept-Language only, no language cookie) gets the streamed fragments in Chinese too."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import LiveServer
from tests.browser.helpers import ask, open_chat

pytestmark = pytest.mark.browser

CONFLICT = "What is the maximum size of a single uploaded file?"  # q-033
RATE_LIMIT = "What is the default rate limit of the open API?"  # q-005
ZH_RATE_LIMIT = "开放 API 的默认速率限制是多少？"  # q-006


@pytest.fixture
def chinese_page(browser: Any, login_state: dict[str, Any]) -> Iterator[Any]:
    """Logged in, no language cookie, the browser asks for zh-CN (Accept-Language)."""
    context = browser.new_context(
        storage_state=login_state,
        viewport={"width": 1000, "height": 700},
        locale="zh-CN",
        # ``locale`` alone changes Accept-Language for pages but not for the websocket
        # handshake (Chromium sends its own en-US there); a Chinese Chromium sends zh-CN on both.
        extra_http_headers={"Accept-Language": "zh-CN,zh;q=0.9"},
    )
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("question", [CONFLICT, RATE_LIMIT])
def test_phone_answer_ends_above_the_composer(
    page: Any, live_server_demo: LiveServer, question: str
) -> None:
    page.set_viewport_size({"width": 375, "height": 667})
    open_chat(page, live_server_demo)
    for _ in range(2):  # enough turns that the page scrolls
        turn = ask(page, question)
    page.wait_for_timeout(300)  # let the last scroll settle (smooth scrolling is off anyway)
    bubble = turn.bounding_box()
    composer = page.locator("#composer").bounding_box()

    assert bubble["y"] + bubble["height"] <= composer["y"]


def test_chinese_browser_gets_streamed_fragments_in_chinese(
    chinese_page: Any, live_server_demo: LiveServer
) -> None:
    open_chat(chinese_page, live_server_demo)
    state = chinese_page.locator("#connection-state").inner_text()
    # a Chinese question: its card and footer speak Chinese (an English one's speak English)
    footer = ask(chinese_page, ZH_RATE_LIMIT).locator(".bubble-footer").inner_text()

    assert chinese_page.locator("html").get_attribute("lang") == "zh-hans"
    assert state == "已连接"
    assert "Answered" not in footer and "Trace" not in footer
