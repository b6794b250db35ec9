"""When the server stops, the model clients every turn shared are closed, not dropped: aiohttp
reports an SDK client left open ("Unclosed client session", "Unclosed connector") once it
is collected.

Through the real anthropic SDK against the local fake Messages API, on a loop of the test's
own, as an ASGI server with the lifespan protocol (uvicorn) runs the application.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

import pytest

from chat import pipeline_settings
from chat.pipeline_settings import provider_shared, providers_shared_close_at_exit
from kbqa.asgi import application  # imported first: it freezes what exists (gc.freeze)
from kbqa.core.providers.base import Prompt, ProviderCall
from tests.fakes.anthropic_server import FakeAnthropicServer, StreamReply

UNCLOSED = "Unclosed"  # aiohttp: "Unclosed client session", "Unclosed connector"
T = TypeVar("T")
PROMPT = Prompt(task="answer", system="s", messages=({"role": "user", "content": "q"},))


@pytest.fixture
def fake_model(settings: Any) -> Iterator[FakeAnthropicServer]:
    # Clients earlier tests left open are collected now, in setup, not in the test's checks.
    gc.collect()
    with FakeAnthropicServer() as fake:
        settings.KBQA_PROVIDER, settings.ANTHROPIC_API_KEY = "anthropic", "sk-test"
        settings.KBQA_ANTHROPIC_BASE_URL, settings.KBQA_ANTHROPIC_MAX_RETRIES = fake.url, 0
        fake.script(StreamReply(deltas=("Hello ", "there.")))
        yield fake


async def one_answer() -> str:
    provider = provider_shared()
    return "".join([d async for d in provider.stream(PROMPT, ProviderCall(model="m"))])


async def served_and_stopped() -> tuple[str, list[str]]:
    """One answer between ``lifespan.startup`` and ``lifespan.shutdown``; returns its text
    and the event types the application sent back."""
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    sent: list[str] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message["type"])

    await inbox.put({"type": "lifespan.startup"})
    server = asyncio.ensure_future(
        application({"type": "lifespan", "asgi": {"version": "3.0"}}, inbox.get, send)
    )
    text = await one_answer()
    await inbox.put({"type": "lifespan.shutdown"})
    await asyncio.wait_for(server, 10)
    return text, sent


def on_a_loop_that_ends(
    main: Callable[[], Awaitable[T]], *, then: Callable[[], None] = lambda: None
) -> T:
    """Run ``main`` on a new loop, call ``then`` while the loop is stopped, then wind down as
    a server process does: the loop closed, module state dropped (the shared providers'
    registry holds its loop alive until then), garbage collected."""
    loop = asyncio.new_event_loop()
    try:
        result = loop.run_until_complete(main())
        then()
    finally:
        loop.close()
    pipeline_settings._shared.pop(loop, None)
    del loop
    gc.collect()
    return result


def test_lifespan_shutdown_closes_the_shared_model_client(
    fake_model: FakeAnthropicServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger="asyncio")
    text, sent = on_a_loop_that_ends(served_and_stopped)

    assert text == "Hello there."
    assert sent == ["lifespan.startup.complete", "lifespan.shutdown.complete"]
    assert UNCLOSED not in caplog.text


def test_a_stopped_loop_has_its_shared_client_closed_at_exit(
    fake_model: FakeAnthropicServer, caplog: pytest.LogCaptureFixture
) -> None:
    # Daphne sends no lifespan events: its loop stops with the reactor, then the process exits.
    caplog.set_level(logging.ERROR, logger="asyncio")
    text = on_a_loop_that_ends(one_answer, then=providers_shared_close_at_exit)

    assert text == "Hello there."
    assert UNCLOSED not in caplog.text


def test_a_client_left_open_is_reported(
    fake_model: FakeAnthropicServer, caplog: pytest.LogCaptureFixture
) -> None:
    # The check above can fail: without closing, aiohttp reports the client.
    caplog.set_level(logging.ERROR, logger="asyncio")
    on_a_loop_that_ends(one_answer)

    assert UNCLOSED in caplog.text
