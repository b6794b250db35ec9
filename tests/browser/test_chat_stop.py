"""Stop, the progress line and paragraphs in the browser, against a slow model: the real
Anthropic SDK in the live server talks to a local fake of the Messages API
(``tests/fakes/anthropic_server.py``) that holds its stream open until the client hangs up.
Desktop (1280×800) and phone (390×844).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import LiveServer, demo_server, login
from tests.browser.helpers import open_chat
from tests.fakes.anthropic_server import FakeAnthropicServer, StreamReply

pytestmark = pytest.mark.browser

VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
RECYCLE = "How long does the recycle bin keep deleted files?"
BIN_SENTENCE = "Deleted files and folders remain in the recycle bin for 30 days"
VERSIONS_SENTENCE = "Earlier versions of a file are kept for 180 days on all plans"
BOTH = "How long does the recycle bin keep deleted files, and how long are earlier versions kept?"


@pytest.fixture(scope="module")
def fake_model() -> Iterator[FakeAnthropicServer]:
    with FakeAnthropicServer() as server:
        yield server


@pytest.fixture(scope="module")
def slow_server(
    tmp_path_factory: pytest.TempPathFactory, fake_model: FakeAnthropicServer
) -> Iterator[LiveServer]:
    with demo_server(
        tmp_path_factory.mktemp("kbqa-slow"),
        KBQA_PROVIDER="anthropic",
        ANTHROPIC_API_KEY="sk-ant-test-only",
        KBQA_ANTHROPIC_BASE_URL=fake_model.url,
        KBQA_ANTHROPIC_MAX_RETRIES="0",
    ) as server:
        yield server


@pytest.fixture(params=list(VIEWPORTS))
def slow_page(
    request: pytest.FixtureRequest, browser: Any, slow_server: LiveServer
) -> Iterator[Any]:
    context = browser.new_context(
        storage_state=login(browser, slow_server), viewport=VIEWPORTS[request.param]
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    yield page
    context.close()


def block_of(fake: FakeAnthropicServer, text: str) -> int:
    """The block number the last answer prompt gave the passage containing ``text``."""
    prompt = json.dumps(fake.requests[-1].body, ensure_ascii=False)
    for n, body in re.findall(r'<source n=\\"(\d+)\\"[^>]*>(.*?)</source>', prompt):
        if text in body.replace("\\n", " "):
            return int(n)
    raise AssertionError(f"no block holds {text!r}")


def asked_model(fake: FakeAnthropicServer, before: int) -> None:
    """Wait until the model has been sent more than ``before`` requests."""
    deadline = time.monotonic() + 15
    while len(fake.requests) <= before:
        assert time.monotonic() < deadline, "the model was never asked"
        time.sleep(0.05)


def send(page: Any, question: str) -> Any:
    before = page.locator(".bubble-assistant").count()
    page.fill("#question", question)
    page.press("#question", "Enter")
    return page.locator(".bubble-assistant").nth(before)


def stalled_turn(page: Any, server: LiveServer, fake: FakeAnthropicServer, question: str) -> Any:
    """Open a new chat and ask ``question`` of a model that stalls after its first delta;
    returns the answer bubble once the model has been asked (the answer is still streaming)."""
    fake.script(StreamReply(deltas=("Deleted ",), fault="stall", after=0))
    open_chat(page, server)
    before = len(fake.requests)
    turn = send(page, question)
    asked_model(fake, before)
    return turn


def test_progress_then_esc_stops_before_any_sentence(
    slow_page: Any, slow_server: LiveServer, fake_model: FakeAnthropicServer
) -> None:
    from playwright.sync_api import expect

    page = slow_page
    fake_model.disconnected.clear()
    fake_model.script(StreamReply(deltas=("Deleted ",), fault="stall", after=0))
    open_chat(page, slow_server)
    before = len(fake_model.requests)
    turn = send(page, RECYCLE)
    expect(turn.locator(".turn-progress")).to_have_text("Writing the answer…")
    asked_model(fake_model, before)
    expect(page.locator("#stop-button")).to_be_visible()
    send_hidden = page.locator("#send-button").is_hidden()
    page.keyboard.press("Escape")
    expect(turn.locator(".bubble-footer")).to_have_attribute("data-status", "stopped")

    assert send_hidden
    assert fake_model.disconnected.wait(5)  # the provider call was cancelled
    assert turn.locator(".turn-progress").is_hidden()
    assert turn.locator(".turn-status").inner_text() == "Stopped: you stopped this answer"
    expect(page.locator("#send-button")).to_be_visible()
    assert page.locator("#stop-button").is_hidden()


def test_stop_keeps_the_sentences_shown_and_the_trace_says_stopped(
    slow_page: Any, slow_server: LiveServer, fake_model: FakeAnthropicServer
) -> None:
    from playwright.sync_api import expect

    page = slow_page
    first = stalled_turn(page, slow_server, fake_model, RECYCLE)
    page.click("#stop-button")
    expect(first.locator(".bubble-footer")).to_have_attribute("data-status", "stopped")
    n = block_of(fake_model, BIN_SENTENCE)
    fake_model.disconnected.clear()
    fake_model.script(
        StreamReply(deltas=(f"{BIN_SENTENCE} [{n}]. ", "After that "), fault="stall", after=2)
    )
    open_chat(page, slow_server)  # a follow-up would first ask the model for a standalone query
    turn = send(page, RECYCLE)
    expect(turn.locator(".sentence")).to_have_count(1)
    page.click("#stop-button")
    expect(turn.locator(".bubble-footer")).to_have_attribute("data-status", "stopped")
    trace_id = turn.locator(".trace-id").inner_text()
    page.reload()
    kept = page.locator(".bubble-assistant").last

    assert BIN_SENTENCE in kept.locator(".answer").inner_text()
    assert kept.locator(".bubble-footer").get_attribute("data-status") == "stopped"
    page.goto(f"{slow_server.url}/traces/{trace_id}/")
    expect(page.locator("#final-status")).to_have_text("stopped by the user")


def test_reloading_mid_answer_shows_the_answer_when_it_is_finished(
    slow_page: Any, slow_server: LiveServer, fake_model: FakeAnthropicServer
) -> None:
    """A reload does not cancel the answer the reader asked for: the reloaded page says it
    is still being written, then shows it, never "Answering…" for ever."""
    from playwright.sync_api import expect

    page = slow_page
    stalled_turn(page, slow_server, fake_model, RECYCLE)
    page.click("#stop-button")  # this first turn only tells the passage's block number
    n = block_of(fake_model, BIN_SENTENCE)
    fake_model.script(StreamReply(deltas=(f"{BIN_SENTENCE} ", f"[{n}]."), delay=2.0))
    open_chat(page, slow_server)
    before = len(fake_model.requests)
    send(page, RECYCLE)
    asked_model(fake_model, before)
    page.reload()
    turn = page.locator(".bubble-assistant").last
    expect(turn.locator(".turn-progress")).to_have_text(
        "Still writing this answer: its sentences appear here as they are checked."
    )
    expect(turn.locator(".bubble-footer")).to_have_attribute("data-status", "answered")

    assert BIN_SENTENCE in turn.locator(".answer").inner_text()
    assert turn.locator(".turn-progress").count() == 0
    assert page.locator(".bubble-user").count() == 1  # replaced in place, not appended again
    assert turn.locator(".copy-answer").is_visible()


def test_a_reloaded_page_can_still_stop_its_answer(
    slow_page: Any, slow_server: LiveServer, fake_model: FakeAnthropicServer
) -> None:
    """A tester reloaded mid-answer and found no way to stop it: the reloaded page shows
    Stop while the answer runs, and Stop ends it there, keeping what was shown."""
    from playwright.sync_api import expect

    page = slow_page
    stalled_turn(page, slow_server, fake_model, RECYCLE)
    page.reload()
    turn = page.locator(".bubble-assistant").last
    expect(turn.locator(".bubble-footer")).to_have_attribute("data-status", "pending")
    expect(page.locator("#stop-button")).to_be_visible()
    page.click("#stop-button")
    expect(turn.locator(".bubble-footer")).to_have_attribute("data-status", "stopped")
    expect(page.locator("#stop-button")).to_be_hidden()


def test_another_tab_shows_the_question_and_each_sentence_while_it_is_written(
    slow_page: Any, slow_server: LiveServer, fake_model: FakeAnthropicServer
) -> None:
    """Two tabs on one conversation: the one that did not ask shows the question at once and
    each checked sentence while the model is still writing, then the finished answer."""
    from playwright.sync_api import expect

    page = slow_page
    stalled_turn(page, slow_server, fake_model, RECYCLE)
    page.click("#stop-button")
    n = block_of(fake_model, BIN_SENTENCE)
    fake_model.script(StreamReply(
        deltas=(f"{BIN_SENTENCE} [{n}]. ", "After", " that they are purged permanently and "
                f"cannot be brought back, not even by support [{n}]."),
        delay=1.5,
    ))
    open_chat(page, slow_server)
    other = page.context.new_page()
    other.goto(page.url)
    other.wait_for_selector("#connection-state[data-state=open]")
    send(page, RECYCLE)
    turn = other.locator(".bubble-assistant").last
    expect(other.locator(".bubble-user").last).to_contain_text(RECYCLE)
    expect(turn.locator(".sentence")).to_have_count(1)
    assert turn.locator(".bubble-footer").get_attribute("data-status") == "pending"
    assert BIN_SENTENCE in turn.locator(".answer").inner_text()
    expect(turn.locator(".bubble-footer")).to_have_attribute("data-status", "answered")
    expect(turn.locator(".sentence")).to_have_count(2)

    assert other.locator(".bubble-user").count() == 1  # replaced in place, not appended again
    assert turn.locator(".turn-progress").count() == 0


def test_paragraphs_follow_the_models_sources(
    slow_page: Any, slow_server: LiveServer, fake_model: FakeAnthropicServer
) -> None:
    from playwright.sync_api import expect

    page = slow_page
    stalled_turn(page, slow_server, fake_model, BOTH)
    page.click("#stop-button")
    bin_n = block_of(fake_model, BIN_SENTENCE)
    versions_n = block_of(fake_model, VERSIONS_SENTENCE)
    fake_model.script(
        StreamReply(deltas=(
            f"{BIN_SENTENCE} [{bin_n}]. ",
            "After that they are purged permanently and cannot be brought back, not even by "
            f"support [{bin_n}].\n\n",
            f"{VERSIONS_SENTENCE} [{versions_n}].",
        ))
    )
    open_chat(page, slow_server)
    turn = send(page, BOTH)
    expect(turn.locator(".bubble-footer")).to_have_attribute("data-status", "answered")
    paragraphs = turn.locator(".answer > p.para")

    assert paragraphs.count() == 2
    assert paragraphs.nth(0).locator(".sentence").count() == 2
    assert [c for c in turn.locator(".answer .chip").all_inner_texts()] == ["[1]", "[1]", "[2]"]


def test_a_question_typed_while_an_answer_streams_stays_in_the_box(
    slow_page: Any, slow_server: LiveServer, fake_model: FakeAnthropicServer
) -> None:
    """Enter while an answer streams sends nothing and loses nothing: the typed question
    stays in the box with a note saying when it can be sent, and goes once the answer ends."""
    from playwright.sync_api import expect

    page = slow_page
    first = stalled_turn(page, slow_server, fake_model, RECYCLE)
    page.fill("#question", "And earlier versions?")
    page.press("#question", "Enter")
    expect(page.locator("#composer-alert")).to_contain_text("Your question is kept")
    kept = page.input_value("#question")
    asked = page.locator(".bubble-user").count()
    page.keyboard.press("Escape")
    expect(first.locator(".bubble-footer")).to_have_attribute("data-status", "stopped")
    expect(page.locator("#composer-alert")).to_have_text("")
    fake_model.script(StreamReply(deltas=("Deleted ",), fault="stall", after=0))
    page.press("#question", "Enter")
    expect(page.locator(".bubble-user")).to_have_count(asked + 1)

    assert kept == "And earlier versions?"
    assert asked == 1
    assert page.locator(".bubble-user").last.inner_text().strip() == "And earlier versions?"
    page.keyboard.press("Escape")
