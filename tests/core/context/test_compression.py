from __future__ import annotations

import pytest

from kbqa.core.context.compression import check_lines, compress_blocks, whole_sentences
from kbqa.core.errors import ProviderError
from kbqa.core.readers.extractive.reader import ExtractiveProvider
from kbqa.core.records import TraceRecorder
from kbqa.core.text.tokens import count_tokens
from tests.fakes import make_block
from tests.fakes.provider import FakeProvider

TAXI = make_block(1, (
    "Public transport is the default.\nTaxis are reimbursed when no reasonable public "
    "transport exists, when you carry heavy equipment, or for journeys between 22:00 and 06:00. "
    "Your daily commute between home and the office is never reimbursed."
))


def _trace() -> TraceRecorder:
    return TraceRecorder(trace_id="t", question="q")


HOTEL = make_block(2, "Hotels: up to EUR 170 per night. Minibar and pay-TV are personal costs.")
ZH = make_block(3, (
    "市内交通以公共交通为主。以下情况可以报销出租车费用：\n没有合适的公共交通。"
    "上下班通勤费用一律不予报销。"
))


async def test_kept_lines_replace_the_shown_text_but_not_the_chunk() -> None:
    provider = FakeProvider([
        "Taxis are reimbursed when no reasonable public transport exists, when you carry heavy "
        "equipment, or for journeys between 22:00 and 06:00.",
        "Hotels: up to EUR 170 per night.",
    ])
    trace = _trace()
    blocks, figures = await compress_blocks((TAXI, HOTEL), question="Taxi?", provider=provider,
                                            trace=trace)
    assert blocks[0].text.startswith("Taxis are reimbursed")
    assert (blocks[0].chunk, blocks[0].n) == (TAXI.chunk, 1)
    assert blocks[1].text == "Hotels: up to EUR 170 per night."
    assert [b.tokens for b in blocks] == [count_tokens(b.text) for b in blocks]
    before, after = TAXI.tokens + HOTEL.tokens, blocks[0].tokens + blocks[1].tokens
    assert (figures["tokens_before"], figures["tokens_after"]) == (before, after)
    assert figures["saving_pct"] == round(100 * (before - after) / before, 1)
    assert figures["reverted"] == []
    assert [p.task for p in provider.prompts] == ["compress", "compress"]
    assert [(c.purpose, c.model_requested) for c in trace.calls] == [("compress", "fake-fast")] * 2


@pytest.mark.parametrize(
    ("output", "reason"),
    [
        ("Taxis are always free for everyone.", "not whole source sentences"),
        ("", "empty output"),
        (ProviderError("overloaded", retryable=True), "provider failed: overloaded"),
    ],
)
async def test_a_bad_compression_reverts_that_block_only(
    output: str | ProviderError, reason: str
) -> None:
    provider = FakeProvider([output, "Hotels: up to EUR 170 per night."])
    blocks, figures = await compress_blocks((TAXI, HOTEL), question="Taxi?", provider=provider,
                                            trace=_trace())
    assert blocks[0] == TAXI
    assert blocks[1].text == "Hotels: up to EUR 170 per night."
    assert figures["reverted"] == [1]
    assert figures["calls"][0]["reason"].startswith(reason)


@pytest.mark.parametrize(
    ("line", "whole"),
    [
        ("Taxis are reimbursed when no reasonable public transport exists, when you carry heavy "
         "equipment, or for journeys between 22:00 and 06:00.", True),
        ("Public transport is the default.   Taxis are reimbursed when no reasonable public "
         "transport exists, when you carry heavy equipment, or for journeys between 22:00 and "
         "06:00.", True),
        ("以下情况可以报销出租车费用：没有合适的公共交通。", True),
        ("Taxis  are reimbursed   when no", False),
        ("Taxis are always free.", False),
        ("commute between home and the office is never reimbursed.", False),
    ],
)
def test_a_kept_line_must_be_whole_source_sentences(line: str, whole: bool) -> None:
    assert whole_sentences(line, TAXI.chunk.text + "\n" + ZH.chunk.text) is whole


async def test_a_cut_that_flips_the_meaning_is_not_kept() -> None:
    block = make_block(1, "Files are not deleted after 30 days. Admins can purge them.")
    provider = FakeProvider(["deleted after 30 days."])
    blocks, figures = await compress_blocks((block,), question="Deleted?", provider=provider,
                                            trace=_trace())
    assert (blocks[0].text, figures["reverted"]) == (block.chunk.text, [1])


async def test_a_partly_failing_compression_keeps_its_verified_sentences() -> None:
    provider = FakeProvider(["Your daily commute between home and the office is never "
                             "reimbursed.\nTaxis are always free."])
    blocks, figures = await compress_blocks((TAXI,), question="Commute?", provider=provider,
                                            trace=_trace())
    assert blocks[0].text == (
        "Your daily commute between home and the office is never reimbursed.")
    assert figures["reverted"] == []
    assert figures["calls"][0]["reason"].startswith("not whole source sentences")


def test_check_lines_reports_empty_output() -> None:
    assert check_lines([], TAXI.chunk.text) == ([], "empty output")


async def test_escaped_characters_from_the_prompt_are_undone() -> None:
    block = make_block(1, "R&D staff may book <premium> seats. Others fly economy.")
    provider = FakeProvider(["R&amp;D staff may book &lt;premium&gt; seats."])
    blocks, figures = await compress_blocks((block,), question="R&D seats?", provider=provider,
                                            trace=_trace())
    assert (blocks[0].text, figures["reverted"]) == ("R&D staff may book <premium> seats.", [])


async def test_extractive_compression_of_chinese_keeps_verbatim_sentences() -> None:
    blocks, figures = await compress_blocks(
        (ZH,), question="出租车可以报销吗？", provider=ExtractiveProvider(), trace=_trace()
    )
    assert blocks[0].text == (
        "以下情况可以报销出租车费用：没有合适的公共交通。\n上下班通勤费用一律不予报销。"
    )
    assert figures["reverted"] == []
    assert figures["tokens_after"] < figures["tokens_before"]
