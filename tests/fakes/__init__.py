"""Test doubles shared across the suite: block builders and the fake Anthropic server."""

from __future__ import annotations

from kbqa.core.text.tokens import count_tokens
from kbqa.core.types import Block, Chunk


def make_block(
    n: int,
    text: str,
    *,
    title: str = "",
    updated: str = "",
    doc_id: str = "",
    section: str = "",
    language: str = "en",
    authority: str = "other",
    score: float = 1.0,
    chunk_no: int = 1,
) -> Block:
    """A numbered block whose shown text is its chunk's original text (chunk ``chunk_no`` of
    its document)."""
    doc = doc_id or f"doc-{n:03d}"
    chunk = Chunk(
        chunk_id=f"{doc}#c{chunk_no:02d}",
        doc_id=doc,
        title=title or f"Document {n}",
        text=text,
        section=section,
        updated=updated,
        language=language,
        authority=authority,
    )
    return Block(n=n, chunk=chunk, score=score, tokens=count_tokens(text), text=text)
