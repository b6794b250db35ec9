"""Courtesy around a question is no part of what it asks (issue 12's first item: politeness
is never content)."""

from __future__ import annotations

import pytest

from kbqa.core.text.courtesy import without_courtesy


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        # a tester padded follow-ups with "please please": the rewrite then asked of "please"
        ("and the printers? please please", "and the printers?"),
        ("and the printers please?", "and the printers?"),
        ("please, and the printers?", "and the printers?"),
        ("and for guests? thanks a lot!", "and for guests?"),
        ("请问那陪产假呢？谢谢", "那陪产假呢？"),
        ("How do I book a desk please", "How do I book a desk"),
        # the words inside a question are its own
        ("what is the thank-you gift for mentors?", "what is the thank-you gift for mentors?"),
        ("Which city hosts the summit?", "Which city hosts the summit?"),
        # thanks for the last answer before the next question (a conversation tester's
        # "ok thx. who do I ask…?"; 好的谢谢，那病假呢？ was read "…几天谢谢，那病假？")
        ("ok thx. who signs off the overtime?", "who signs off the overtime?"),
        ("thanks! and for contractors?", "and for contractors?"),
        ("好的谢谢，那调休呢？", "那调休呢？"),
        ("Thank you. What about the Lisbon office?", "What about the Lisbon office?"),
        ("thanks for the quick reply", "thanks for the quick reply"),
        # nothing but courtesy is left as typed
        ("thanks!", "thanks!"),
    ],
)
def test_courtesy_around_a_question_is_not_read(typed: str, read: str) -> None:
    assert without_courtesy(typed) == read
