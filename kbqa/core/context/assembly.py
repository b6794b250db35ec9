"""Context assembly: choose the blocks the model may cite, within a token budget.

Steps: sort hits by BM25 score (descending; ties by chunk_id ascending so the result is
reproducible); drop duplicates by ``fingerprint`` of the text (the best-scored copy stays);
fill the budget from the top, skipping a chunk that does not fit and trying the next, never
cutting a chunk (a cut passage could lose the very sentence that supports the answer, and
the verifier would then check against text the model never saw); stop at ``max_blocks``.

Presentation order is end-weighted: best first, second best last, third second, fourth
second-to-last... Models use information at the start and end of a long context better than
in its middle (Liu et al. 2023, "Lost in the Middle: How Language Models Use Long
Contexts", arXiv:2307.03172), so the weakest blocks go to the middle. Blocks are then
numbered 1..N in that order: the closed set of numbers the model may cite.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TypeVar

from kbqa.core.text.normalise import fingerprint
from kbqa.core.text.tokens import count_tokens
from kbqa.core.types import Assembly, Block, ScoredChunk

T = TypeVar("T")


# Pure, and run on up to ``top_k`` hits of every answer (tiktoken's encoding of a chunk is the
# larger part of assembly): about 1.5 ms of each answer's CPU under bench/load.py (py-spy,
# 2026-11-30) for chunks that come back answer after answer.
@lru_cache(maxsize=4096)
def measure(text: str) -> tuple[str, int]:
    """``(fingerprint, cl100k_base tokens)`` of a chunk's ``text``."""
    return fingerprint(text), count_tokens(text)


def assemble(scored: Sequence[ScoredChunk], *, budget: int = 1200, max_blocks: int = 5) -> Assembly:
    """Blocks for ``scored`` within ``budget`` tokens (tiktoken cl100k_base) and ``max_blocks``.

    ``Assembly.duplicates`` lists chunk_ids dropped as copies of a better-scored chunk;
    ``Assembly.skipped`` those that did not fit the remaining budget. Settings:
    ``KBQA_CONTEXT_BUDGET`` (1200) and ``KBQA_MAX_BLOCKS`` (5).
    """
    ranked = current_first(sorted(scored, key=lambda s: (-s.score, s.chunk.chunk_id)))
    chosen: list[tuple[ScoredChunk, int]] = []
    seen: set[str] = set()
    duplicates: list[str] = []
    skipped: list[str] = []
    used = 0
    for hit in ranked:
        if len(chosen) >= max_blocks:
            break
        fp, tokens = measure(hit.chunk.text)
        if fp in seen:
            duplicates.append(hit.chunk.chunk_id)
            continue
        seen.add(fp)
        if used + tokens > budget:
            skipped.append(hit.chunk.chunk_id)
            continue
        chosen.append((hit, tokens))
        used += tokens
    blocks = tuple(
        Block(n=n, chunk=hit.chunk, score=hit.score, tokens=tokens, text=hit.chunk.text)
        for n, (hit, tokens) in enumerate(end_weighted(chosen), 1)
    )
    return Assembly(
        blocks=blocks, used_tokens=used, duplicates=tuple(duplicates), skipped=tuple(skipped)
    )


def current_first(ranked: Sequence[ScoredChunk]) -> list[ScoredChunk]:
    """``ranked`` with each archived chunk's current counterpart (a chunk of a document not
    archived, under a section of the same name: "Laptops" of the equipment policy for
    "Laptops" of its archived 2022 version) moved right before it: a superseded section
    never takes the place of the one that replaced it. Without the move a follow-up whose
    wording happened to fit the archived text better ("how often do they get swapped
    out?") got only the 2022 policy's "every 3 years"; with both shown, the conflict gate
    prefers the current one, or the archived one for a question naming its year."""
    order = list(ranked)
    for hit in ranked:
        if hit.chunk.authority != "archived":
            continue
        section = hit.chunk.section.strip().lower()
        at = order.index(hit)
        later = next((h for h in order[at + 1:] if h.chunk.authority != "archived"
                      and h.chunk.section.strip().lower() == section), None)
        if later is not None:
            order.remove(later)
            order.insert(at, later)
    return order


def end_weighted(ranked: Sequence[T]) -> list[T]:
    """Reorder best-first items so the best sit at both ends: [1, 3, 5, 4, 2] for 5 items."""
    front = list(ranked[0::2])
    back = list(ranked[1::2])
    return front + back[::-1]


# A block "leads" when its BM25 score is at least this share of the best block's. Blocks below
# were retrieved for a word or two the question shares with them (an upload page for "files"
# in a recycle-bin question): conflicts among them do not block the answer, and a refusal
# does not send the user to them. Chosen on the demo knowledge base (2026-11-29): pages on the
# question's subject score 0.8-1.0 of the top, incidental ones under 0.4.
LEADING_SCORE_SHARE = 0.5


def leading_blocks(blocks: Sequence[Block]) -> list[Block]:
    """The blocks scoring at least ``LEADING_SCORE_SHARE`` of the best, best first."""
    top = max((b.score for b in blocks), default=0.0)
    leading = [b for b in blocks if b.score >= LEADING_SCORE_SHARE * top]
    return sorted(leading, key=lambda b: (-b.score, b.chunk_id))
