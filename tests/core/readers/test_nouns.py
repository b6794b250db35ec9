from __future__ import annotations

import pytest

from kbqa.core.generation.prompt import build_answer_prompt
from kbqa.core.providers.base import ProviderCall
from kbqa.core.readers.extractive.reader import ExtractiveProvider
from kbqa.core.types import Block
from tests.fakes import make_block


async def _answer(question: str, blocks: tuple[Block, ...]) -> str:
    prompt = build_answer_prompt(question=question, blocks=blocks)
    return "".join([d async for d in ExtractiveProvider().stream(prompt, ProviderCall())])


@pytest.mark.parametrize(
    ("question", "quoted", "other"),
    [
        # Another town's stampede: the toll is bound to 踩踏 and 寺庙, but its passage
        # never names the asked region, which another passage does.
        ("青石县寺庙踩踏事故死亡人数",
         "一个多月前，邻省一座寺庙的入口处发生踩踏事故，造成3人死亡。",
         "青石县位于山区，以寺庙众多闻名。"),
        # The women's final, not the men's.
        ("2023年港口杯男单冠军",
         "2023年港口杯女单决赛中，林小雨夺得冠军。",
         "港口杯男单比赛将于周末进行。"),
    ],
)
async def test_an_answer_whose_passage_never_names_an_asked_noun_is_declined(
    question: str, quoted: str, other: str,
) -> None:
    blocks = (make_block(1, quoted, title="资料 1"), make_block(2, other, title="资料 2"))
    answer = await _answer(question, blocks)
    assert quoted[:8] not in answer
    assert "资料未涵盖" in answer


@pytest.mark.parametrize(
    ("question", "quoted", "expected"),
    [
        # The asked region is named by the passage, not by the quoted sentence.
        ("青石县寺庙踩踏事故死亡人数",
         "青石县一座寺庙昨日发生事故。入口处发生踩踏，造成3人死亡。", "3人死亡"),
        # A yes/no question is answered by the rule, whoever asks.
        ("管理员可以把港口 API 的速率上限改成任意值吗？",
         "港口 API 的默认速率上限为每分钟 600 次请求。", "600"),
    ],
)
async def test_nouns_named_by_the_passage_or_a_yes_no_ask_still_answer(
    question: str, quoted: str, expected: str,
) -> None:
    blocks = (make_block(1, quoted, title="资料 1"),
              make_block(2, "管理员和实习生的账号由信息部开通。", title="资料 2"))
    assert expected in await _answer(question, blocks)
