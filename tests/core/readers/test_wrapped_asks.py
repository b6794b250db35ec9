"""Questions people wrap in context and filler (issue 12, natural phrasing): the offline
reader finds the ask inside the wrapping and answers it, and reads a source's phrases where
its punctuation ends them."""

from __future__ import annotations

from kbqa.core.readers.extractive.focus import ask_clause
from tests.core.readers.reading import extractive_answer as _answer
from tests.fakes import make_block

SESSIONS = (
    make_block(1, "A visitor badge stays active for 8 hours; print a new one when the old "
                  "one stops working.", title="Visitors", section="Badges"),
    make_block(2, "Visitors sign in at the kiosk and pick up a badge.",
               title="Reception", section="Signing in"),
    make_block(3, "The supplier portal lists every printer order; paper comes back from "
                  "the supplier on Tuesday.", title="Facilities", section="Printers"),
)


async def test_a_typed_ask_wrapped_in_filler_words_is_answered() -> None:
    # "back" wraps the ask; "how long" wants a duration, which one sentence states
    answer = await _answer(
        "The badge we get back from the kiosk portal, how long before it dies?", SESSIONS)
    assert "8 hours" in answer


def test_a_typed_question_after_the_last_question_mark_is_the_ask() -> None:
    # people leave the mark off their last question: that one still asks
    question = "今年的调休估计用不完了，能不能留到明年？最多能留几天"
    assert ask_clause(question) == "最多能留几天"
    assert ask_clause("Can I keep them for next year? How many days at most") == (
        "How many days at most")
    # a closing remark with no ask of its own changes nothing
    assert ask_clause("Can I keep them for next year? thanks a lot") == (
        "Can I keep them for next year?")


async def test_words_across_punctuation_name_no_kind_of_the_asked_thing() -> None:
    blocks = (
        make_block(1, "Trains: standard class for journeys shorter than 3 hours; quiet class "
                      "is allowed for longer journeys.", title="Travel rules",
                   section="Travel"),
        make_block(2, "All journeys go through the travel portal.", title="Travel rules",
                   section="Portal"),
    )
    # "3 hours; quiet class" is no kind of "quiet" thing called "hours quiet"
    answer = await _answer(
        "going to Lyon by train, about 4 hours. may I book quiet class or is it standard "
        "class only?", blocks)
    assert "quiet class is allowed" in answer


async def test_a_cause_is_not_answered_by_a_sentence_about_its_circumstances() -> None:
    blocks = (
        make_block(1, "Each office desk has two monitors and a docking station. The office app "
                      "shows free rooms.", title="Office equipment", section="Desks"),
        make_block(2, "The calendar app syncs with the phone every hour.", title="Calendar",
                   section="Sync"),
        make_block(3, "The mail app keeps messages for a year.", title="Mail",
                   section="Storage"),
    )
    # "desk" is where the asker is, not why the app logs them out
    answer = await _answer(
        "Why does the app log me out every evening when I get back to my desk?", blocks)
    assert "monitors" not in answer


async def test_a_later_sentence_of_a_list_item_comes_with_the_item() -> None:
    blocks = (make_block(1, "- Pick up your badge at the front desk.\n- Enrol your fingerprint "
                            "at the badge kiosk. The lab doors stay locked for you until it is "
                            "done.\n- Meet your mentor for coffee.",
                         title="Lab onboarding", section="Your first day in the lab"),)
    answer = await _answer("Why do the lab doors stay locked for me?", blocks)
    # "until it is done" says nothing without the item's first sentence
    assert "Enrol your fingerprint at the badge kiosk." in answer
    assert "lab doors stay locked" in answer


async def test_a_phrasal_verb_is_an_action_not_a_missing_thing() -> None:
    # "hang around" says "stay": an action no block words so, never the thing asked about
    blocks = (
        make_block(1, "Guest badges stay valid for 8 hours after they are printed.",
                   title="Visitors", section="Badges"),
        make_block(2, "Lost badges are blocked at the kiosk.", title="Visitors",
                   section="Lost badges"),
    )
    answer = await _answer("how long do guest badges hang around at the kiosk?", blocks)
    assert "8 hours" in answer
    assert "hang" not in answer  # no "not covered" line naming the verb
