"""Asks of a name alone ("where's the AED?")."""

from __future__ import annotations

import pytest

from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block


async def test_an_ask_naming_only_a_name_is_answered_by_a_sentence_about_it() -> None:
    # "where's the AED" was declined: the sentence shares only the name "AED", and a
    # sentence sharing only a name is no answer, unless the ask names nothing else
    blocks = (make_block(
        1, "The list of trained first aiders is posted at reception. The AED is at the level 9 "
           "lift lobby.\nA mothers' room is available on level 9; book it at reception.",
        title="Singapore Office Guide", section="Safety and wellbeing", doc_id="office"),)
    answer = await extractive_answer("where's the AED", blocks)
    assert "level 9 lift lobby" in answer


@pytest.mark.parametrize(("question", "shared"), [
    ("where's the AED", True),
    ("俄罗斯瓦格纳是什么", False),  # what a name is: any page about it seems to answer
    ("What is NimbusDrive?", False),
])
def test_an_ask_of_a_name_alone_shares_it_unless_it_asks_what_it_is(question: str,
                                                                     shared: bool) -> None:
    from kbqa.core.readers.extractive.identifiers import shares_more_than_names
    from kbqa.core.readers.extractive.question import question_terms

    ask = frozenset(question_terms(question))
    assert shares_more_than_names(question, ask, ask) is shared


@pytest.mark.parametrize("question", [
    "客户问我们的文件到底存在哪些地方的机房里？", "公司在什么地方？",
    "Which countries is the data stored in?"])
def test_which_places_asks_a_place(question: str) -> None:
    from kbqa.core.readers.extractive.focus import ask_kind

    assert ask_kind(question) == "place"
