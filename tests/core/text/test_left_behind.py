"""A thing of one's own left behind on a train or in a taxi is lost: the reader met "left"
as "leave" and quoted what to do with a laptop when leaving the company (a tester's
"I left my laptop on the train!! what now", in three knowledge bases)."""

from __future__ import annotations

import pytest

from chat.questions import question_text
from kbqa.core.text.left_behind import as_lost
from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block


@pytest.mark.parametrize(
    ("question", "read"),
    [
        ("I left my laptop on the train!! what now", "I lost my laptop on the train!! what now"),
        ("Left my work laptop in a taxi last night", "Lost my work laptop in a taxi last night"),
        ("what if I leave our company phone at the airport?",
         "what if I lose our company phone at the airport?"),
        ("昨晚打车把公司笔记本落车上了，要多久之内跟IT说？",
         "昨晚打车把公司笔记本丢在车上了，要多久之内跟IT说？"),
        ("手机忘在出租车上了怎么办", "手机丢在出租车上了怎么办"),
    ],
)
def test_a_thing_left_behind_somewhere_is_read_as_lost(question: str, read: str) -> None:
    assert as_lost(question) == read


@pytest.mark.parametrize(
    "question",
    [
        "I left my laptop at home, can I borrow one?",  # where one keeps it: not lost
        "I left my badge in the office",
        "someone left a USB stick on my desk, can I plug it in?",  # not the asker's
        "When I leave the company, can I keep my laptop?",
        "把工牌忘在家里了",
    ],
)
def test_other_questions_are_left_as_they_are(question: str) -> None:
    assert as_lost(question) == question


async def test_a_laptop_left_on_the_train_is_answered_as_lost() -> None:
    # Orchard's IT policy: the laptop sentence about leaving the company came first
    blocks = (
        make_block(1, "When you leave the company, you may buy your laptop if it is older "
                      "than 3 years, for a fixed price of EUR 150. Laptops are replaced every 4 "
                      "years.", title="IT Equipment and Accounts", section="Laptops"),
        make_block(2, "Report a lost or stolen laptop or phone to the helpdesk within 2 hours, "
                      "also outside office hours, by calling +31 20 555 0142.",
                   title="IT Equipment and Accounts", section="Lost or stolen equipment"),
    )
    answer = await extractive_answer(question_text("I left my laptop on the train!! what now"),
                                     blocks)
    assert "within 2 hours" in answer
    assert "leave the company" not in answer
