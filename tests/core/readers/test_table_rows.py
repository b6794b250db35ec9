"""Table rows read alike whatever the format ("City: London; Hotel per night: EUR 220; Meal
allowance per day: EUR 65.", which DOCX and HTML tables with a header row now give as
Markdown's do): the row is keyed by its first cell's value, and each cell's label heads its
value. Read the old way ("London: Hotel per night EUR 220; …"), the Tokyo question was
refused because no row is Tokyo's; read the new way without these, the London row answered it
and a learning budget outranked the hotel rows (orchard's DOCX travel policy)."""

from __future__ import annotations

from kbqa.core.readers.extractive.own_names import another_row
from kbqa.core.readers.extractive.text import lead_terms
from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block

_TABLE = ("Hotel costs are reimbursed up to the city limits in the table below, per night, "
          "including breakfast. The daily meal allowance is paid for each travel day and covers "
          "lunch, dinner and snacks.\n\n"
          "City: London; Hotel per night: EUR 220; Meal allowance per day: EUR 65.\n\n"
          "City: Paris; Hotel per night: EUR 190; Meal allowance per day: EUR 60.\n\n"
          "City: Berlin; Hotel per night: EUR 150; Meal allowance per day: EUR 50.\n\n"
          "If a client or conference provides a meal, the meal allowance for that day is reduced "
          "by 50%.")
_BLOCKS = (
    make_block(1, _TABLE, title="Travel and Expense Policy (Europe)",
               section="Hotels and daily allowance", doc_id="travel"),
    make_block(2, "Employees who work from home at least 2 days a week receive a home office "
                  "allowance of EUR 2.35 per home working day.\n\nEach employee has a learning "
                  "budget of EUR 1,200 per calendar year for courses, books and conferences.",
               title="Travel and Expense Policy (Europe)", section="Home office and learning",
               doc_id="travel"),
)


def test_a_row_of_labelled_cells_is_keyed_by_its_first_value() -> None:
    row = "City: London; Hotel per night: EUR 220; Meal allowance per day: EUR 65."
    assert another_row("What's the daily meal allowance in Tokyo?", row, _TABLE)
    assert not another_row("What's the daily meal allowance in London?", row, _TABLE)
    assert {"hotel", "night", "meal", "london"} <= lead_terms(row)
    assert {"酒店", "餐补"} <= lead_terms("城市：北京，酒店：每晚 800 元，餐补：每天 100 元。")


async def test_a_city_no_row_names_is_not_answered_by_another_row() -> None:
    answer = await extractive_answer("What's the daily meal allowance in Tokyo?", _BLOCKS)
    assert "EUR 65" not in answer and "EUR 60" not in answer and "EUR 50" not in answer


async def test_the_asked_rows_value_answers() -> None:
    answer = await extractive_answer("What's the hotel limit per night in Berlin?", _BLOCKS)
    assert "EUR 150" in answer


async def test_the_hotel_rows_outrank_a_budget_sentence_sharing_the_askers_context() -> None:
    answer = await extractive_answer(
        "I've got a conference in New York in May. What's the max hotel rate per night I can "
        "book?", _BLOCKS)
    assert "learning budget" not in answer
