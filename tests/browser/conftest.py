"""A live Daphne server with the demo knowledge base, and Debian's Chromium driven by Playwright.

The server is a separate process (its own temporary SQLite database, ``KBQA_DEBUG=1`` so
``demo_setup`` creates the ``demo`` superuser), so the tests themselves touch no database and
Django's async-safety check never sees Playwright's event loop. Chromium is Debian's
``/usr/bin/chromium``; Playwright never downloads a browser. Without it the tests are skipped,
unless ``KBQA_REQUIRE_BROWSER=1`` (set by ``.ci/run``), which turns the skip into a failure.
A failed test leaves a screenshot of its page in ``test-artifacts/``.

Server, Playwright and browser are module-scoped on purpose: while ``sync_playwright`` is
open its event loop counts as running in the main thread, and pytest-asyncio could not run
any async test collected after this package.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.kbqa.live import daphne

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]
ARTIFACTS = ROOT / "test-artifacts"


@dataclass(frozen=True)
class LiveServer:
    url: str
    username: str
    password: str


def login_password(data_dir: Path) -> str:
    for line in (data_dir / "demo-login.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith("password: "):
            return line.removeprefix("password: ")
    raise RuntimeError("demo_setup wrote no password")


@pytest.fixture(scope="session")
def chromium_path() -> str:
    if not CHROMIUM.exists():
        reason = f"{CHROMIUM} is missing: install Debian's chromium (`make chromium`)"
        if os.environ.get("KBQA_REQUIRE_BROWSER") == "1":
            pytest.fail(reason + " (KBQA_REQUIRE_BROWSER=1)")
        pytest.skip(reason)
    return str(CHROMIUM)


@contextlib.contextmanager
def demo_server(data_dir: Path, **extra_env: str) -> Iterator[LiveServer]:
    """Daphne on a free localhost port, demo KB ingested, demo superuser created;
    ``extra_env`` adds settings (``KBQA_PROVIDER=anthropic``...). One demo user asks every
    browser test's questions, far more than a person's 20 a minute; the limit itself is
    tested in tests/chat/test_limits.py."""
    settings = {"KBQA_DEBUG": "1", "KBQA_QUESTIONS_PER_MINUTE": "1000"} | extra_env
    with daphne(data_dir, setup=("demo_setup",), **settings) as server:
        yield LiveServer(f"http://127.0.0.1:{server.port}", "demo", login_password(data_dir))


@pytest.fixture(scope="module")
def live_server_demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The demo server with the default (offline extractive) provider."""
    with demo_server(tmp_path_factory.mktemp("kbqa-live")) as server:
        yield server


@pytest.fixture(scope="module")
def browser(chromium_path: str) -> Iterator[Any]:
    from playwright.sync_api import expect, sync_playwright

    # Playwright's expect() waits 5 s by default, unlike the pages' 15 s: a first answer in a
    # fresh server (jieba's dictionary loads then) on a loaded machine can take longer.
    expect.set_options(timeout=15_000)
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(
            executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


def login(browser: Any, server: LiveServer) -> dict[str, Any]:
    """The demo user's logged-in cookies, from logging in once through the login form."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{server.url}/")
    page.fill("#id_username", server.username)
    page.fill("#id_password", server.password)
    page.click(".login-form button[type=submit]")
    page.wait_for_selector("#composer")
    state: dict[str, Any] = context.storage_state()
    context.close()
    return state


@pytest.fixture(scope="module")
def login_state(browser: Any, live_server_demo: LiveServer) -> dict[str, Any]:
    """The demo user's logged-in cookies on ``live_server_demo``."""
    return login(browser, live_server_demo)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if report.when == "call":
        item.stash.setdefault(FAILED, False)
        item.stash[FAILED] = report.failed
    return report


FAILED = pytest.StashKey[bool]()


@pytest.fixture
def page(
    request: pytest.FixtureRequest, browser: Any, login_state: dict[str, Any]
) -> Iterator[Any]:
    """A logged-in page (1000x700, English UI); screenshot into test-artifacts/ on failure."""
    context = browser.new_context(
        storage_state=login_state, viewport={"width": 1000, "height": 700}, locale="en-GB"
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    yield page
    if request.node.stash.get(FAILED, False):
        ARTIFACTS.mkdir(exist_ok=True)
        name = "".join(c if c.isalnum() or c in "-_" else "_" for c in request.node.name)
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    context.close()
