"""The session ended in another tab: the chat page's forms and its question box lead back
in through the login page, to the conversation the reader was on (kbqa/post_forms.py,
chat.consumers ``session_end``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import LiveServer, login

pytestmark = pytest.mark.browser


@pytest.fixture
def tabs(browser: Any, live_server_demo: LiveServer) -> Iterator[tuple[Any, Any]]:
    """Two tabs of one browser on a session of their own (logging it out leaves the module's
    shared login alone): the first on a fresh conversation, the second on the logout page."""
    context = browser.new_context(storage_state=login(browser, live_server_demo),
                                  viewport={"width": 1000, "height": 700}, locale="en-GB")
    context.set_default_timeout(15_000)
    chat, other = context.new_page(), context.new_page()
    chat.goto(f"{live_server_demo.url}/")
    chat.click("#new-conversation")
    chat.wait_for_selector("#connection-state[data-state=open]")
    other.goto(f"{live_server_demo.url}/accounts/logout/")
    yield chat, other
    context.close()


def log_out(other: Any) -> None:
    with other.expect_navigation():
        other.click("form[action='/accounts/logout/'] button[type=submit]")


def log_in(page: Any, server: LiveServer) -> None:
    page.fill("#id_username", server.username)
    page.fill("#id_password", server.password)
    with page.expect_navigation():
        page.click(".login-form button[type=submit]")


@pytest.mark.parametrize("form", ["new", "rename"])
def test_a_form_sent_after_logging_out_elsewhere_comes_back_to_the_chat(
    tabs: tuple[Any, Any], live_server_demo: LiveServer, form: str
) -> None:
    chat, other = tabs
    here = chat.url
    log_out(other)
    with chat.expect_navigation():
        if form == "new":
            chat.click("#new-conversation")
        else:
            chat.click("#conversation-menu summary")
            chat.fill("#rename-title", "Leave")
            chat.click("#rename-form button[type=submit]")
    on_login = chat.url
    log_in(chat, live_server_demo)

    assert "/accounts/login/" in on_login
    assert chat.url == here  # the page the form was on, not the form's URL (a 405)
    chat.wait_for_selector("#connection-state[data-state=open]")


def test_a_question_after_logging_out_elsewhere_offers_to_log_in(
    tabs: tuple[Any, Any], live_server_demo: LiveServer
) -> None:
    from playwright.sync_api import expect

    chat, other = tabs
    here = chat.url
    log_out(other)
    chat.fill("#question", "How do sharing links work?")
    chat.press("#question", "Enter")
    link = chat.locator("#composer-alert a")
    expect(chat.locator("#composer-alert")).to_contain_text("Your session has ended.")
    expect(link).to_have_text("Log in")
    with chat.expect_navigation():
        link.click()
    log_in(chat, live_server_demo)

    assert re.fullmatch(r".*/c/\d+/", here)
    assert chat.url == here
