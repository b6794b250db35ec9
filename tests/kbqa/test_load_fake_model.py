"""The load bench's fake model (``bench/fake_model.py``) is as faithful as the tests' fake: the
same reply, read through kbqa's Anthropic provider and the real SDK, gives the same text,
stop reason, model version and errors from both (``tests/fakes/anthropic_server.py`` is the
reference), and the bench's answer streams at the set pace.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from bench.fake_model import ANSWER, DELTAS, TOKENS, PacedModel
from kbqa.core.providers.anthropic import AnthropicProvider
from kbqa.core.providers.base import Prompt, ProviderCall
from tests.fakes.anthropic_server import (
    FakeAnthropicServer,
    Reply,
    StatusReply,
    StreamReply,
)

PROMPT = Prompt(task="answer", system="s", messages=({"role": "user", "content": "q"},))
REPLIES = [
    StreamReply(deltas=("Deleted files ", "stay 30 days.")),
    StreamReply(deltas=("a ", "b."), stop_reason="max_tokens", ping_every=1),
    *[StreamReply(deltas=("a ", "b."), fault=f, after=1)  # type: ignore[arg-type]
      for f in ("error", "error_text", "abort", "end")],
    StatusReply(529, "overloaded_error", "Overloaded", retry_after="3"),
]


async def outcome(url: str, model: str = "claude-sonnet-4-6") -> tuple[Any, ...]:
    """(text, stop reason, model version) or (error type, started) of one answer."""
    provider = AnthropicProvider(api_key="sk-test", model=model, base_url=url, max_retries=0,
                                 timeout=10)
    call, text = ProviderCall(), ""
    try:
        async for delta in provider.stream(PROMPT, call):
            text += delta
        return text, call.stop_reason, call.model_version
    except Exception as exc:  # noqa: BLE001 - the error is the outcome compared
        return type(exc).__name__, getattr(exc, "error_type", ""), getattr(exc, "started", None)
    finally:
        await provider.aclose()


async def paced(reply: Reply, model: str = "claude-sonnet-4-6") -> tuple[Any, ...]:
    return await outcome(await PacedModel(1000.0, reply).serve(), model)


@pytest.mark.parametrize("reply", REPLIES, ids=lambda r: getattr(r, "fault", None) or "ok")
def test_the_same_reply_gives_the_same_outcome_from_both_fakes(reply: Reply) -> None:
    with FakeAnthropicServer() as reference:
        reference.script(reply)
        expected = asyncio.run(outcome(reference.url))
    assert asyncio.run(paced(reply)) == expected


def test_an_unknown_model_is_not_found_on_both_fakes() -> None:
    with FakeAnthropicServer() as reference:
        expected = asyncio.run(outcome(reference.url, "claude-nope"))
    assert expected[1] == "not_found_error"
    assert asyncio.run(paced(StreamReply(), "claude-nope")) == expected


def test_the_bench_answer_streams_two_tokens_a_delta_at_the_set_pace() -> None:
    async def timed() -> tuple[str, float]:
        url = await PacedModel(200.0).serve()  # 66 tokens: 0.33 s
        started = time.monotonic()
        text = (await outcome(url))[0]
        return text, time.monotonic() - started

    text, seconds = asyncio.run(timed())
    assert text == ANSWER
    assert len(DELTAS) == (len(TOKENS) + 1) // 2
    assert len(TOKENS) / 200.0 <= seconds < len(TOKENS) / 200.0 + 2.0
