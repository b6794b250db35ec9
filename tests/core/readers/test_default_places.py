"""A rule with a value for everywhere and another for a list of places covers a place not on
the list ("up to EUR 170 per night, or up to EUR 240 per night in London, Paris, …": Berlin
gets 170). A tester's "and in Berlin?" was refused as if the policy said nothing of Berlin."""

from __future__ import annotations

from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block

BLOCKS = (
    make_block(1, "- **Parking:** up to EUR 20 per day, or up to EUR 35 per day in Milan, Rome\n"
               "  and Madrid. Keep the ticket as your receipt.", title="Travel policy",
               section="Travel", doc_id="travel"),
    make_block(2, "Train travel is second class unless the trip takes longer than four hours.",
               title="Travel policy", section="Trains", doc_id="travel", chunk_no=2),
)


async def test_a_place_off_the_list_gets_the_value_for_everywhere() -> None:
    text = await extractive_answer("What's the parking limit in Lisbon?", BLOCKS)
    assert "up to EUR 20 per day" in text
    assert "Lisbon" not in text  # no "Not covered" line: the rule covers Lisbon
