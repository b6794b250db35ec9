"""The one question check every front end shares: control characters never reach storage,
and one between two words separates them."""

from __future__ import annotations

import pytest

from chat.questions import question_clean


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("How much leave?", "How much leave?"),
        ("How\x00 much leave?", "How much leave?"),
        ("recycle\x00bin", "recycle bin"),
        ("recycle\x00\x01\x1fbin \x7f", "recycle bin"),
        ("\x00\x01\x1f\x7f", ""),
        ("a\x07b\x1bc\x85d", "a b c d"),
        ("回收\x00站", "回收 站"),
        ("line one\r\nline two\rthree", "line one\nline two\nthree"),
        ("tab\tkept\nnewline kept", "tab\tkept\nnewline kept"),
        ("lone \ud800surrogate", "lone surrogate"),
        ("lone\ud800surrogate", "lonesurrogate"),
        ("  年假有几天？\x00  ", "年假有几天？"),
    ],
    ids=[
        "plain", "nul", "nul-between-words", "run-between-words", "only-controls", "c0-c1",
        "cjk-nul", "crlf", "tab-newline", "surrogate", "surrogate-in-word", "cjk",
    ],
)
def test_question_clean(raw: str, clean: str) -> None:
    assert question_clean(raw) == clean
