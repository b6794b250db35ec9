"""A "Not covered" line never names a word the shown answer already answers (issue 12
item 1; tester's report: an answer followed by a gap line contradicting it)."""

from __future__ import annotations

import pytest

from kbqa.core.readers.extractive.answered_words import unanswered
from kbqa.core.readers.extractive.selection import select
from tests.fakes import make_block


@pytest.mark.parametrize(
    ("question", "text", "language"),
    [
        # the adjective a value settles, and a yes/no question's predicate
        ("Is parking in the staff garage free for employees?",
         "Employees can park in the staff garage for EUR 4 a day.", "en"),
        # a synonym the answer uses ("buy" -> "purchase")
        ("Can I buy my company phone when I leave?",
         "Employees who leave may purchase their company phone at its book value.", "en"),
        # the verb of a yes/no question, cut by the segmenter inside 买下来
        ("离职的时候公司手机可以买下来吗？", "离职员工可以按剩余账面价值购买公司手机。", "zh"),
        ("员工在车库停车免费吗？", "员工在车库停车每天收费 20 元。", "zh"),
    ],
)
def test_an_answer_carries_no_gap_line_naming_what_it_answers(
        question: str, text: str, language: str) -> None:
    block = make_block(1, text, language=language)
    selection = select(question, [block])
    assert [c.text for c in selection.chosen] == [text]
    assert selection.uncovered == ()


def test_a_noun_the_answer_never_mentions_is_still_named() -> None:
    answer = ["Employees can park in the staff garage for EUR 4 a day."]
    question = "Is parking free for visitors?"
    assert unanswered(question, ["free", "visitors"], answer) == ("visitors",)
    assert unanswered(question, ["free", "visitors"], []) == ("free", "visitors")
    # a kind of the asked thing answers it: a meal is food (WordNet's hypernyms)
    assert unanswered("How much do we get for food per day at a trade fair?", ["food"],
                      ["The daily meal allowance at a trade fair is EUR 40 per day."]) == ()
    # a broader thing is no kind of a narrower one: "lunch" is not answered by "food"
    assert unanswered("Is lunch paid?", ["lunch"], ["Food is paid up to EUR 20."]) == ("lunch",)
    # ...but the asked thing's own category answers it one level up: a tester's "can I add
    # my husband to the medical insurance" was told "Not covered: … husband" under
    # "Spouses and children can be added to the medical plan."
    assert unanswered("can I add my husband to the medical insurance", ["husband"],
                      ["Spouses and children can be added to the medical plan."]) == ()
