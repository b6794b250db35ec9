"""The one question check every front end shares: control characters never reach storage."""

from __future__ import annotations

import pytest

from chat.questions import question_clean


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("How much leave?", "How much leave?"),
        ("How\x00 much leave?", "How much leave?"),
        ("\x00\x01\x1f\x7f", ""),
        ("a\x07b\x1bc\x85d", "abcd"),
        ("line one\r\nline two\rthree", "line one\nline two\nthree"),
        ("tab\tkept\nnewline kept", "tab\tkept\nnewline kept"),
        ("lone \ud800surrogate", "lone surrogate"),
        ("  年假有几天？\x00  ", "年假有几天？"),
    ],
    ids=["plain", "nul", "only-controls", "c0-c1", "crlf", "tab-newline", "surrogate", "cjk"],
)
def test_question_clean(raw: str, clean: str) -> None:
    assert question_clean(raw) == clean
