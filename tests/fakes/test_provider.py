from __future__ import annotations

import pytest

from kbqa.core.errors import ProviderError
from kbqa.core.providers.base import Prompt, ProviderCall, word_deltas
from tests.fakes.provider import FakeOutput, FakeProvider, FakeProviderExhausted

PROMPT = Prompt(task="answer", system="s", messages=({"role": "user", "content": "q"},))


async def _run(provider: FakeProvider, received: list[str]) -> None:
    async for delta in provider.stream(PROMPT, ProviderCall()):
        received.append(delta)


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ("Kept for 30 days [1].", ["Kept ", "for ", "30 ", "days ", "[1]."]),
        (["exact", " deltas"], ["exact", " deltas"]),
        ("回收站保留三十天[1]。", ["回收站保", "留三十天", "[1]。"]),
    ],
)
async def test_canned_outputs_stream_as_deltas(
    output: str | list[str], expected: list[str]
) -> None:
    provider = FakeProvider([output])
    received: list[str] = []
    await _run(provider, received)
    assert received == expected
    assert provider.prompts == [PROMPT]


async def test_error_after_some_deltas_keeps_them() -> None:
    error = ProviderError("overloaded", retryable=True, started=True)
    provider = FakeProvider([FakeOutput(deltas=["First [1]. "], error=error)])
    received: list[str] = []
    with pytest.raises(ProviderError) as info:
        await _run(provider, received)
    assert (received, info.value) == (["First [1]. "], error)


async def test_exception_instance_is_raised_before_text() -> None:
    provider = FakeProvider([ProviderError("down")])
    with pytest.raises(ProviderError, match="down"):
        await _run(provider, [])


async def test_an_empty_queue_says_so() -> None:
    provider = FakeProvider(["one"])
    await _run(provider, [])
    with pytest.raises(FakeProviderExhausted, match="no canned output left for a 'answer'"):
        await _run(provider, [])


def test_word_deltas_rejoin_to_the_text() -> None:
    text = "Items are kept 30 days. 回收站保留三十天。"
    assert "".join(word_deltas(text)) == text
