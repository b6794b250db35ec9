"""Optional context compression: keep only each block's sentences relevant to the question.

Each block is compressed by the provider's fast model (``build_compress_prompt``), all blocks
at once, each as one recorded model call (``generation.calls``, purpose "compress", short
deadline, no retries). The model may only copy WHOLE source sentences: a returned line is kept
only when it equals a run of consecutive sentences of the block's ORIGINAL text
(``split_sentences``; compared with all whitespace removed, since sources are hard-wrapped and
Chinese has no spaces), so "deleted after 30 days" cut out of "not deleted after 30 days."
fails. Lines that fail are left out and the block keeps its verified lines; a block with no
verified line, or whose call failed, keeps its original text ("reverted"). Compression never
fails an answer. Verification always reads ``chunk.text``, so a compressed block can only make
the prompt shorter.
"""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from kbqa.core.errors import ProviderError
from kbqa.core.generation.calls import FAST_DEADLINES, Deadlines, call_model
from kbqa.core.generation.prompt import build_compress_prompt
from kbqa.core.providers.base import Provider
from kbqa.core.records import TraceRecorder
from kbqa.core.text.sentences import split_sentences
from kbqa.core.text.tokens import count_tokens
from kbqa.core.types import Block

_SPACE_RE = re.compile(r"\s+")


def squash(text: str) -> str:
    """``text`` with every whitespace character removed (the verbatim comparison form)."""
    return _SPACE_RE.sub("", text)


def kept_lines(output: str) -> list[str]:
    """The non-empty lines of a compress output, XML escapes undone (the prompt escapes)."""
    return [html.unescape(line).strip() for line in output.splitlines() if line.strip()]


def _boundaries(original: str) -> tuple[str, frozenset[int]]:
    """The squashed original and the offsets in it where a source sentence starts or ends."""
    whole = squash(original)
    cuts, at = {0, len(whole)}, 0
    for sentence in split_sentences(original):
        piece = squash(sentence)
        found = whole.find(piece, at)
        if found >= 0:
            cuts.update((found, found + len(piece)))
            at = found + len(piece)
    return whole, frozenset(cuts)


def whole_sentences(line: str, original: str) -> bool:
    """True when ``line`` equals one or more consecutive whole sentences of ``original``
    (whitespace ignored): it must start and end where a source sentence does."""
    whole, cuts = _boundaries(original)
    piece = squash(line)
    start = whole.find(piece)
    while piece and start >= 0:
        if start in cuts and start + len(piece) in cuts:
            return True
        start = whole.find(piece, start + 1)
    return False


def check_lines(lines: Sequence[str], original: str) -> tuple[list[str], str]:
    """The lines that are whole source sentences, and the reason for the first one that is
    not ("" when all pass; "empty output" when there are none)."""
    if not lines:
        return [], "empty output"
    kept = [line for line in lines if whole_sentences(line, original)]
    bad = [line for line in lines if line not in kept]
    return kept, (f"not whole source sentences: {bad[0][:60]!r}" if bad else "")


async def _compress_one(
    block: Block, *, question: str, provider: Provider, trace: TraceRecorder,
    deadlines: Deadlines,
) -> tuple[Block, dict[str, Any]]:
    record: dict[str, Any] = {"n": block.n, "reverted": False, "reason": ""}
    prompt = build_compress_prompt(question=question, block=block)
    try:
        output = await call_model(
            provider, prompt, trace, purpose="compress", deadlines=deadlines
        ).text()
    except ProviderError as exc:
        output, record["reason"] = "", f"provider failed: {exc}"
    kept, reason = check_lines(kept_lines(output), block.chunk.text)
    record.update(kept=len(kept), reason=record["reason"] or reason)
    if not kept:
        record["reverted"] = True
        return replace(block, text=block.chunk.text, tokens=count_tokens(block.chunk.text)), record
    text = "\n".join(kept)
    tokens = count_tokens(text)
    if tokens >= block.tokens:
        record["reason"] = record["reason"] or "no saving"
        return block, record
    return replace(block, text=text, tokens=tokens), record


async def compress_blocks(
    blocks: Sequence[Block],
    *,
    question: str,
    provider: Provider,
    trace: TraceRecorder,
    deadlines: Deadlines = FAST_DEADLINES,
) -> tuple[tuple[Block, ...], dict[str, Any]]:
    """Compress every block concurrently; returns the new blocks (same order, same ``n`` and
    ``chunk``, ``text`` compressed, ``tokens`` recounted with tiktoken cl100k) and figures:

    ``{"tokens_before": int, "tokens_after": int, "saving_pct": float (1 decimal, percent),
    "reverted": [n, ...], "calls": [{"n", "kept", "reverted", "reason"}, ...]}``; each
    call's model, usage and stop reason are on ``trace.calls`` (purpose "compress").

    Never raises for provider failures; ``asyncio.CancelledError`` propagates.
    """
    results = await asyncio.gather(
        *(
            _compress_one(
                b, question=question, provider=provider, trace=trace, deadlines=deadlines
            )
            for b in blocks
        )
    )
    new_blocks = tuple(block for block, _ in results)
    before = sum(b.tokens for b in blocks)
    after = sum(b.tokens for b in new_blocks)
    figures: dict[str, Any] = {
        "tokens_before": before,
        "tokens_after": after,
        "saving_pct": round(100.0 * (before - after) / before, 1) if before else 0.0,
        "reverted": [record["n"] for _, record in results if record["reverted"]],
        "calls": [record for _, record in results],
    }
    return new_blocks, figures
