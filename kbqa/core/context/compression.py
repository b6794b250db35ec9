"""Optional context compression: keep only each block's sentences relevant to the question.

Each block is compressed by the provider's fast model (``build_compress_prompt``), all blocks
at once. The model may only copy: every line it returns must occur verbatim in the block's
ORIGINAL text (compared with all whitespace removed, since sources are hard-wrapped and
Chinese has no spaces); otherwise, or when it returns nothing, or the provider fails, that
block keeps its original text ("reverted"). Compression never fails an answer. Verification
always reads ``chunk.text``, so a compressed block can only make the prompt shorter.
"""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from kbqa.core.generation.prompt import build_compress_prompt
from kbqa.core.providers.base import Provider, ProviderCall
from kbqa.core.text.tokens import count_tokens
from kbqa.core.types import Block

_SPACE_RE = re.compile(r"\s+")


def squash(text: str) -> str:
    """``text`` with every whitespace character removed (the verbatim comparison form)."""
    return _SPACE_RE.sub("", text)


def kept_lines(output: str) -> list[str]:
    """The non-empty lines of a compress output, XML escapes undone (the prompt escapes)."""
    return [html.unescape(line).strip() for line in output.splitlines() if line.strip()]


def check_lines(lines: Sequence[str], original: str) -> str:
    """"" when every line occurs verbatim in ``original``; else the reason to revert."""
    if not lines:
        return "empty output"
    whole = squash(original)
    for line in lines:
        if squash(line) not in whole:
            return f"line not found in the source: {line[:60]!r}"
    return ""


async def _compress_one(
    block: Block, *, question: str, provider: Provider
) -> tuple[Block, dict[str, Any]]:
    call = ProviderCall()
    record: dict[str, Any] = {"n": block.n, "reverted": False, "reason": ""}
    try:
        prompt = build_compress_prompt(question=question, block=block)
        output = "".join([d async for d in provider.stream(prompt, call)])
    except Exception as exc:  # noqa: BLE001 - any provider failure reverts this block only
        output, record["reason"] = "", f"provider failed: {exc}"
    lines = kept_lines(output)
    reason = record["reason"] or check_lines(lines, block.chunk.text)
    record.update(
        model=call.model, model_version=call.model_version, input_tokens=call.input_tokens,
        output_tokens=call.output_tokens, stop_reason=call.stop_reason, kept=len(lines),
    )
    if reason:
        record.update(reverted=True, reason=reason)
        return replace(block, text=block.chunk.text, tokens=count_tokens(block.chunk.text)), record
    text = "\n".join(lines)
    tokens = count_tokens(text)
    if tokens >= block.tokens:
        record["reason"] = "no saving"
        return block, record
    return replace(block, text=text, tokens=tokens), record


async def compress_blocks(
    blocks: Sequence[Block], *, question: str, provider: Provider
) -> tuple[tuple[Block, ...], dict[str, Any]]:
    """Compress every block concurrently; returns the new blocks (same order, same ``n`` and
    ``chunk``, ``text`` compressed, ``tokens`` recounted with tiktoken cl100k) and figures:

    ``{"tokens_before": int, "tokens_after": int, "saving_pct": float (1 decimal, percent),
    "reverted": [n, ...], "calls": [{"n", "model", "model_version", "input_tokens",
    "output_tokens", "stop_reason", "kept", "reverted", "reason"}, ...]}``.

    Never raises for provider failures; ``asyncio.CancelledError`` propagates.
    """
    results = await asyncio.gather(
        *(_compress_one(b, question=question, provider=provider) for b in blocks)
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
