"""Issue 16 in the browser, as a new reader meets it on a desktop (1280×800) and a phone
(390×844): reader numbering and the source list, highlighted support in the passage, the
pinned composer and its staff menu, paragraphs, copy, feedback, rename/delete, ``?lang=``
and the admin document list. Stop and the progress line need an answer that takes time:
they are in ``test_chat_stop.py`` (a local fake of the Anthropic API that holds the stream).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.conftest import LiveServer
from tests.browser.helpers import ask, open_chat

pytestmark = pytest.mark.browser

VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
RECYCLE = "How long does the recycle bin keep deleted files?"  # q-001
UPLOAD = "What is the maximum size of a single uploaded file?"  # two documents disagree
PHONE_BILL = "手机话费能不能按照费用报销制度报销？"  # related documents, not covered


@pytest.fixture(params=list(VIEWPORTS))
def sized(request: pytest.FixtureRequest, page: Any) -> Any:
    page.set_viewport_size(VIEWPORTS[request.param])
    return page


def chip_numbers(turn: Any) -> list[int]:
    return [int(n) for n in turn.locator(".answer .chip").evaluate_all(
        "els => els.map(e => e.dataset.n)"
    )]


def test_chips_count_from_one_in_reading_order_with_a_source_list(
    sized: Any, live_server_demo: LiveServer
) -> None:
    from playwright.sync_api import expect

    page = sized
    open_chat(page, live_server_demo)
    turn = ask(page, RECYCLE)
    numbers = chip_numbers(turn)
    first_seen = list(dict.fromkeys(numbers))
    sources = turn.locator(".sources .source")
    blocks = turn.locator(".answer .chip").evaluate_all("els => els.map(e => e.dataset.block)")

    assert first_seen == list(range(1, len(first_seen) + 1))
    assert all(b.isdigit() for b in blocks)  # the prompt's block number stays on the chip
    assert sources.count() == len(first_seen)
    first = sources.first.inner_text()
    assert first.startswith("[1] NimbusDrive product manual: Recycle bin and version history")
    assert "updated 2025-02-03" in first and "manual" in first
    sources.first.locator("a").click()
    expect(page.locator("#citation-dialog")).to_be_visible()
    expect(page.locator("#citation-body .chunk-title")).to_contain_text("Recycle bin")


def test_a_conflict_card_numbers_its_own_chips(sized: Any, live_server_demo: LiveServer) -> None:
    page = sized
    open_chat(page, live_server_demo)
    turn = ask(page, UPLOAD)
    card_chips = turn.locator(".refusal .chip").all_inner_texts()
    assert card_chips == ["[1]", "[2]"]


def test_a_chip_opens_the_passage_with_its_support_highlighted_in_view(
    sized: Any, live_server_demo: LiveServer
) -> None:
    from playwright.sync_api import expect

    page = sized
    open_chat(page, live_server_demo)
    turn = ask(page, RECYCLE)
    turn.locator(".answer .chip").first.click()
    mark = page.locator("#citation-body mark.support").first
    expect(mark).to_be_visible()
    box, dialog = mark.bounding_box(), page.locator("#citation-dialog").bounding_box()

    assert "30 days" in " ".join(page.locator("#citation-body mark.support").all_inner_texts())
    assert dialog["y"] <= box["y"] and box["y"] + box["height"] <= dialog["y"] + dialog["height"]
    # the chunk page itself, opened from the same link, marks the same sentence
    href = turn.locator(".answer .chip").first.get_attribute("href")
    page.goto(live_server_demo.url + href)
    assert "30 days" in page.locator("#support").inner_text()


def test_composer_is_pinned_and_the_newest_answer_shows_when_a_conversation_opens(
    sized: Any, live_server_demo: LiveServer
) -> None:
    page = sized
    height = page.viewport_size["height"]
    open_chat(page, live_server_demo)
    empty_dock = page.locator(".composer-dock").bounding_box()
    head = page.locator(".chat-head").bounding_box()
    switcher = page.locator("#new-conversation").bounding_box()
    if page.viewport_size["width"] < 700:  # the chat follows the switcher row, no gap
        assert head["y"] - (switcher["y"] + switcher["height"]) < 24
    for _ in range(3):
        ask(page, RECYCLE)
    page.reload()
    page.wait_for_selector("#connection-state[data-state=open]")
    dock = page.locator(".composer-dock").bounding_box()
    newest = page.locator("#messages .bubble").last.bounding_box()

    assert abs(empty_dock["y"] + empty_dock["height"] - height) <= 2  # at the bottom, not afloat
    assert abs(dock["y"] + dock["height"] - height) <= 2
    assert newest["y"] + newest["height"] <= dock["y"] + 1  # fully above the composer
    assert newest["y"] + newest["height"] > dock["y"] - 80  # and scrolled down to
    assert dock["height"] < 0.15 * height  # the composer leaves the screen to the answers


def test_the_fabrication_switch_is_in_a_staff_menu(
    sized: Any, live_server_demo: LiveServer
) -> None:
    page = sized
    open_chat(page, live_server_demo)
    hidden_at_first = page.locator("#fabricate").is_hidden()
    page.click("#staff-menu summary")
    assert hidden_at_first and page.locator("#fabricate").is_visible()


def test_sentences_are_grouped_into_paragraphs(sized: Any, live_server_demo: LiveServer) -> None:
    page = sized
    open_chat(page, live_server_demo)
    turn = ask(page, RECYCLE)
    sentences = turn.locator(".answer .sentence").count()
    in_paragraphs = turn.locator(".answer > p.para > .sentence").count()
    assert sentences > 0 and in_paragraphs == sentences


def test_copy_puts_the_answer_and_its_sources_on_the_clipboard(
    sized: Any, live_server_demo: LiveServer
) -> None:
    page = sized
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_chat(page, live_server_demo)
    turn = ask(page, RECYCLE)
    turn.locator(".copy-answer").click()
    copied = page.evaluate("navigator.clipboard.readText()")

    assert "30 days" in copied and "[1]" in copied
    assert re.search(r"\nSources:\n\[1\] NimbusDrive product manual", copied)
    assert turn.locator(".copy-answer").inner_text() == "Copied"


def _thumbs_down(page: Any, live: LiveServer, label: str) -> tuple[Any, str]:
    """An answer in a new chat, rated "not helpful": (its bubble, the question asked)."""
    from playwright.sync_api import expect

    open_chat(page, live)
    question = f"{RECYCLE} ({label}{page.viewport_size['width']})"
    turn = ask(page, question)
    turn.locator(".feedback-down").click()
    expect(turn.locator(".feedback-down")).to_have_attribute("aria-pressed", "true")
    return turn, question


def _reviewer_sees_comment(page: Any, live: LiveServer, question: str, comment: str) -> None:
    from playwright.sync_api import expect

    page.goto(f"{live.url}/traces/?feedback=down")
    row = page.locator(".trace-row", has_text=question)
    expect(row).to_have_count(1)
    row.locator(".trace-question a").click()
    expect(page.locator("#feedback-comment")).to_have_text(comment)


def test_thumbs_down_with_a_comment_reaches_the_reviewer(
    sized: Any, live_server_demo: LiveServer
) -> None:
    from playwright.sync_api import expect

    page = sized
    turn, question = _thumbs_down(page, live_server_demo, "")
    turn.locator(".feedback-comment textarea").fill("It should mention admins.")
    turn.locator(".feedback-send").click()
    expect(turn.locator(".feedback-thanks")).to_be_visible()
    page.reload()
    pressed = page.locator(".bubble-assistant").last.locator(".feedback-down")
    expect(pressed).to_have_attribute("aria-pressed", "true")
    _reviewer_sees_comment(page, live_server_demo, question, "It should mention admins.")


def test_a_comment_is_sent_with_enter_and_a_new_line_takes_shift_enter(
    sized: Any, live_server_demo: LiveServer
) -> None:
    """As in the composer (a tester pressed Enter, and the comment sat unsent)."""
    page = sized
    turn, question = _thumbs_down(page, live_server_demo, "enter ")
    box = turn.locator(".feedback-comment textarea")
    box.fill("Two lines:")
    box.press("Shift+Enter")
    box.type("the second one.")
    assert box.input_value() == "Two lines:\nthe second one."  # Shift+Enter sent nothing
    with page.expect_response(lambda r: r.request.method == "POST" and "feedback" in r.url):
        box.press("Enter")
    _reviewer_sees_comment(page, live_server_demo, question, "Two lines:\nthe second one.")


def test_rename_then_delete_a_conversation(sized: Any, live_server_demo: LiveServer) -> None:
    from playwright.sync_api import expect

    page = sized
    open_chat(page, live_server_demo)
    question = f"{RECYCLE} (delete me {page.viewport_size['width']})"
    ask(page, question)
    page.click("#conversation-menu summary")
    page.fill("#rename-title", "Recycle bin notes")
    page.click("#rename-form button")
    expect(page.locator("#chat-title")).to_have_text("Recycle bin notes")
    expect(page.locator(".conversation-link[aria-current=page]")).to_have_text("Recycle bin notes")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#conversation-menu summary")
    page.click("#delete-form button")
    page.wait_for_url(f"{live_server_demo.url}/")
    expect(page.locator(".conversation-link", has_text="Recycle bin notes")).to_have_count(0)

    page.goto(f"{live_server_demo.url}/traces/?q=delete+me")
    expect(page.locator(".trace-row", has_text=question)).to_have_count(1)


def test_lang_switches_the_page_and_socket_and_footers_follow_their_card(
    browser: Any, login_state: dict[str, Any], live_server_demo: LiveServer
) -> None:
    from playwright.sync_api import expect

    for viewport in VIEWPORTS.values():
        # a Chinese browser asking for the English page
        context = browser.new_context(storage_state=login_state, viewport=viewport, locale="zh-CN")
        page = context.new_page()
        page.goto(f"{live_server_demo.url}/?lang=en")
        page.click("#new-conversation")
        page.wait_for_selector("#connection-state[data-state=open]")
        turn = ask(page, PHONE_BILL)
        html_lang = page.get_attribute("html", "lang")
        card_lang = turn.locator(".refusal").get_attribute("lang")
        footer = turn.locator(".turn-status").inner_text()
        page.goto(f"{live_server_demo.url}/?lang=zh-hans")
        chinese_footer = page.locator(".bubble-assistant").last.locator(".turn-status").inner_text()
        expect(page.locator("#send-button")).to_have_text("发送")
        context.close()

        assert (html_lang, card_lang) == ("en", "zh-hans")  # the card speaks the question's
        assert footer.startswith("未回答")  # and so does its footer, on either page
        assert chinese_footer.startswith("未回答")


def test_admin_document_list_fits_1280(page: Any, live_server_demo: LiveServer) -> None:
    page.set_viewport_size(VIEWPORTS["desktop"])
    page.goto(f"{live_server_demo.url}/admin/sources/document/")
    results = page.locator("#changelist .results")
    header = page.locator("#result_list thead th").last
    box = header.bounding_box()

    assert header.inner_text().strip().lower() == "last changed"
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    # the table is not cut off inside its own scrolling box either
    assert results.evaluate("e => e.scrollWidth <= e.clientWidth")
    assert box["x"] + box["width"] <= results.bounding_box()["x"] + results.bounding_box()["width"]


def test_a_reviewer_opens_an_answers_trace_from_its_footer(
    page: Any, live_server_demo: LiveServer
) -> None:
    # the demo user is staff, so a reviewer: the trace id under the answer is a link, both
    # on the answer that just arrived over the websocket and after a reload
    from playwright.sync_api import expect

    open_chat(page, live_server_demo)
    turn = ask(page, RECYCLE)
    link = turn.locator(".trace a.trace-link")
    expect(link).to_have_count(1)
    trace_id = link.inner_text().strip()
    page.reload()
    link = page.locator(".bubble-assistant").last.locator(".trace a.trace-link")
    expect(link).to_have_text(trace_id)
    link.click()
    expect(page).to_have_url(re.compile(rf"/traces/{trace_id}/$"))
    expect(page.locator("body")).to_contain_text(RECYCLE)


def test_the_comment_box_opens_below_the_footer_row(
    sized: Any, live_server_demo: LiveServer
) -> None:
    # thumbs down opens the comment box; status, Copy, the thumbs and the trace id keep
    # their row instead of each dropping to a line of its own
    turn, _question = _thumbs_down(page=sized, live=live_server_demo, label="row")
    rows = [turn.locator(s).bounding_box() for s in
            (".turn-status", ".copy-answer", ".feedback-down", ".trace")]
    box = turn.locator(".feedback-comment textarea").bounding_box()
    assert all(r is not None for r in rows) and box is not None
    middles = [r["y"] + r["height"] / 2 for r in rows if r is not None]
    if sized.viewport_size["width"] >= 700:
        assert max(middles) - min(middles) < 8  # one row
    else:
        assert max(middles[:3]) - min(middles[:3]) < 8  # the trace id may wrap on a phone
    assert box["y"] > max(middles)
