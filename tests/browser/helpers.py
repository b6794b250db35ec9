"""Steps shared by the browser tests: open a fresh conversation, ask and wait for the answer."""

from __future__ import annotations

import re
from typing import Any

from tests.browser.conftest import LiveServer

FINAL_STATUS = re.compile(r"^(answered|refused_(low_score|conflict|no_support)|error)$")


def open_chat(page: Any, server: LiveServer) -> None:
    """A new, empty conversation with its websocket open."""
    page.goto(f"{server.url}/")
    page.click("#new-conversation")
    page.wait_for_selector("#connection-state[data-state=open]")
    assert page.locator(".bubble-assistant").count() == 0


def ask(page: Any, question: str, *, fabricate: bool = False) -> Any:
    """Send ``question`` (Enter key) and wait for the answer's final status; its bubble."""
    from playwright.sync_api import expect

    before = page.locator(".bubble-assistant").count()
    page.fill("#question", question)
    if fabricate:  # the switch lives in the staff menu
        page.click("#staff-menu summary")
        page.check("#fabricate")
    page.press("#question", "Enter")
    turn = page.locator(".bubble-assistant").nth(before)
    expect(turn.locator(".bubble-footer")).to_have_attribute("data-status", FINAL_STATUS)
    return turn
