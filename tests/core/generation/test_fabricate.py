from __future__ import annotations

import json

import pytest

from kbqa.core.generation.fabricate import FabricatingProvider
from kbqa.core.generation.prompt import build_answer_prompt
from kbqa.core.grounding.citations import Verifier, parse_claim, parse_json_draft
from kbqa.core.providers.base import ProviderCall
from kbqa.core.text.sentences import split_sentences
from tests.fakes import make_block
from tests.fakes.provider import FakeProvider

BLOCKS = (
    make_block(1, "Deleted files remain in the recycle bin for 30 days."),
    make_block(2, "Earlier versions of a file are kept for 180 days."),
)


@pytest.mark.parametrize(
    ("question", "inner", "expected"),
    [
        (
            "How long does the recycle bin keep files?",
            "Deleted files remain in the recycle bin for 30 days [1].",
            "Deleted files remain in the recycle bin for 30 days [1].\n"
            "Every employee also receives a lifetime storage bonus of unlimited capacity. [5]\n"
            "The cafeteria on the fourth floor serves free ice cream every Friday. [1]",
        ),
        (
            "回收站保留多久？",
            "回收站保留30天[1]。",
            "回收站保留30天[1]。\n每位员工还可获得终身无限容量的存储奖励[5]。\n"
            "四楼食堂每周五免费供应冰淇淋[1]。",
        ),
    ],
)
async def test_two_fabricated_sentences_follow_the_answer(
    question: str, inner: str, expected: str
) -> None:
    prompt = build_answer_prompt(question=question, blocks=BLOCKS)
    provider = FabricatingProvider(FakeProvider([inner]))
    assert "".join([d async for d in provider.stream(prompt, ProviderCall())]) == expected


async def test_the_verifier_drops_both_fabrications() -> None:
    prompt = build_answer_prompt(question="How long are files kept?", blocks=BLOCKS)
    provider = FabricatingProvider(FakeProvider(["Deleted files remain for 30 days [1]."]))
    draft = "".join([d async for d in provider.stream(prompt, ProviderCall())])
    verifier = Verifier(BLOCKS)
    oks = [verifier.verify(parse_claim(s)).ok for s in split_sentences(draft)]
    assert oks == [True, False, False]


async def test_json_mode_adds_two_claims() -> None:
    prompt = build_answer_prompt(question="How long?", blocks=BLOCKS, mode="json")
    inner = json.dumps({"claims": [{"text": "Files stay 30 days.", "citations": [1]}]})
    provider = FabricatingProvider(FakeProvider([inner]))
    draft = "".join([d async for d in provider.stream(prompt, ProviderCall())])
    assert [(c.text, c.citations) for c in parse_json_draft(draft)] == [
        ("Files stay 30 days.", (1,)),
        ("Every employee also receives a lifetime storage bonus of unlimited capacity.", (5,)),
        ("The cafeteria on the fourth floor serves free ice cream every Friday.", (1,)),
    ]
