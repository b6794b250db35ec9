"""The fabrication switch: a first draft with two made-up sentences the verifier must drop.

``FabricatingProvider(inner)`` streams ``inner``'s answer, then appends:

1. a sentence citing block ``N + 3`` (N = number of blocks issued): a number that was never
   issued, which gate one rejects;
2. a sentence citing the real block ``[1]`` whose content is unrelated to every block, which
   gate two (substantive overlap) rejects.

Both are in the question's language. In ``answer_json`` mode they are added as two extra
claims. Other tasks pass through untouched. The pipeline decides when to wrap (first draft).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import ClassVar

from kbqa.core.providers.base import Prompt, Provider, ProviderCall, word_deltas
from kbqa.core.readers.extractive.text import cite
from kbqa.core.text.normalise import detect_language

FABRICATED = {
    "en": (
        "Every employee also receives a lifetime storage bonus of unlimited capacity.",
        "The cafeteria on the fourth floor serves free ice cream every Friday.",
    ),
    "zh": (
        "每位员工还可获得终身无限容量的存储奖励。",
        "四楼食堂每周五免费供应冰淇淋。",
    ),
}


def fabricated_claims(prompt: Prompt) -> list[tuple[str, int]]:
    """The two fabricated sentences and the block number each cites."""
    unissued, unrelated = FABRICATED[detect_language(prompt.question)]
    return [(unissued, len(prompt.blocks) + 3), (unrelated, 1)]


def add_to_json(draft: str, extra: list[tuple[str, int]]) -> str:
    """``draft`` with the extra claims appended (before ``not_covered``); a draft that is not a
    JSON object is returned unchanged, since the parser will reject it anyway."""
    try:
        data = json.loads(draft)
    except json.JSONDecodeError:
        return draft
    if not isinstance(data, dict) or not isinstance(data.get("claims"), list):
        return draft
    data["claims"].extend({"text": text, "citations": [n]} for text, n in extra)
    return json.dumps(data, ensure_ascii=False)


class FabricatingProvider(Provider):
    """Wraps ``inner`` and appends two fabricated sentences to its answer."""

    name: ClassVar[str] = "fabricate"

    def __init__(self, inner: Provider) -> None:
        super().__init__(model=inner.model, fast_model=inner.fast_model)
        self.inner = inner
        self.supports_rewrite = inner.supports_rewrite  # type: ignore[misc]

    @property
    def label(self) -> str:
        return self.inner.label

    async def stream(self, prompt: Prompt, call: ProviderCall) -> AsyncIterator[str]:
        """The inner stream plus the fabricated sentences (JSON: buffered, then re-emitted)."""
        if prompt.task == "answer_json":
            draft = "".join([d async for d in self.inner.stream(prompt, call)])
            for delta in word_deltas(add_to_json(draft, fabricated_claims(prompt))):
                yield delta
            return
        text = ""
        async for delta in self.inner.stream(prompt, call):
            text = (text + delta)[-1:]  # only the last character matters
            yield delta
        if prompt.task != "answer":
            return
        for sentence, n in fabricated_claims(prompt):
            # A line break always ends the sentence before (see kbqa.core.text.sentences).
            sep = "\n" if text and text != "\n" else ""
            for delta in word_deltas(sep + cite(sentence, n)):
                yield delta
            text = "."

    async def aclose(self) -> None:
        await self.inner.aclose()
