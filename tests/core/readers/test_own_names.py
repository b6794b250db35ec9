"""A place ask is not answered by the question's own name given back (issue 12 item 3).

"Which city hosted the Harbour Games?" is not answered by "2016 Harbour Games" however the
sentence writes it, nor "芬兰的首都在哪" by a sentence whose only place is 芬兰 or a common
noun jieba tags as a place (城市).
"""

from __future__ import annotations

import pytest

from kbqa.core.readers.extractive.focus import new_answer
from tests.core.readers.reading import extractive_answer as _answer
from tests.fakes import make_block


@pytest.mark.parametrize(
    ("sentence", "question", "expected"),
    [
        ("Eleven cities applied to host the 2016 Harbour Games.",
         "Which city hosted the harbour games in 2016?", False),
        ("The city of Valdora hosted the 2016 Harbour Games.",
         "Which city hosted the harbour games in 2016?", True),
        ("芬兰驻华大使会见了首都区官员。", "芬兰的首都在哪？", False),
        ("何先生在2016年海港运动会举办城市选举后发言。", "2016年海港运动会在哪举办？", False),
        ("巴西的首都是巴西利亚。", "巴西的首都在哪？", True),
    ],
)
def test_the_questions_own_name_is_no_place_answer(sentence: str, question: str,
                                                   expected: bool) -> None:
    assert new_answer("place", sentence, question) is expected


async def test_a_sentence_naming_only_the_asked_games_is_declined() -> None:
    block = make_block(1, "Eleven cities applied to host the 2016 Harbour Games, and the "
                          "bids were costly.", title="Passage 1")
    draft = await _answer("Which city hosted the harbour games in 2016?", (block,))
    assert draft.startswith("Not covered")


async def test_a_sentence_naming_the_host_city_is_answered() -> None:
    block = make_block(1, "The city of Valdora hosted the 2016 Harbour Games.", title="Passage 1")
    draft = await _answer("Which city hosted the harbour games in 2016?", (block,))
    assert draft == "The city of Valdora hosted the 2016 Harbour Games. [1]"


async def test_another_citys_row_does_not_answer_for_a_city_the_table_lacks() -> None:
    table = make_block(1, "Berlin: Hotel per night EUR 160; Meal allowance per day EUR 50.\n"
                          "Madrid: Hotel per night EUR 150; Meal allowance per day EUR 45.",
                       title="Travel policy (Europe)", section="City rates")
    draft = await _answer("Flying to Chicago for a trade fair. What's the most I can "
                                    "spend on a hotel per night?", (table,))
    assert "EUR 160" not in draft and "EUR 150" not in draft
    assert "EUR 150" in await _answer(
        "What's the hotel limit per night in Madrid?", (table,))
