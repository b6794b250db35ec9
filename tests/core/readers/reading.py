"""What the offline reader shows for a question over given blocks, for the reader tests."""

from __future__ import annotations

from kbqa.core.generation.prompt import build_answer_prompt
from kbqa.core.providers.base import ProviderCall
from kbqa.core.readers.extractive.reader import ExtractiveProvider
from kbqa.core.types import Block


async def extractive_answer(question: str, blocks: tuple[Block, ...]) -> str:
    """The extractive reader's whole streamed text for ``question`` over ``blocks``."""
    prompt = build_answer_prompt(question=question, blocks=blocks)
    return "".join([d async for d in ExtractiveProvider().stream(prompt, ProviderCall())])
