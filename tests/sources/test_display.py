"""How a chunk's stored text is laid out for reading (the text itself never changes)."""

from __future__ import annotations

import pytest

from sources.display import DisplayBlock, Span, display_blocks, join_lines, spans


@pytest.mark.parametrize(
    ("lines", "joined"),
    [
        (["Hotels are reimbursed", "up to 200 USD."], "Hotels are reimbursed up to 200 USD."),
        (["访客车辆应停放在", "B2层，最多", "两小时。"], "访客车辆应停放在B2层，最多两小时。"),
        (["请使用", "NimbusDrive 客户端"], "请使用NimbusDrive 客户端"),
        (["  indented  ", "", "next"], "indented next"),
    ],
)
def test_hard_wrapped_lines_join_like_the_language_does(lines: list[str], joined: str) -> None:
    assert join_lines(lines) == joined


@pytest.mark.parametrize(
    ("line", "result"),
    [
        ("Open **Settings** now", (Span("Open "), Span("Settings", "strong"), Span(" now"))),
        ("a *really* big `x*y`", (Span("a "), Span("really", "em"), Span(" big "),
                                  Span("x*y", "code"))),
        ("see [the guide](https://x.example/g).", (Span("see "), Span("the guide"), Span("."))),
        ("5 * 3 * 2 <b>", (Span("5 * 3 * 2 <b>"),)),
        ("snake_case__name", (Span("snake_case__name"),)),
    ],
)
def test_inline_marks_become_styled_spans(line: str, result: tuple[Span, ...]) -> None:
    assert spans(line) == result


def test_code_block_is_kept_as_it_is_without_fences() -> None:
    assert display_blocks("Run:\n\n```\npip install x\n  --user\n```") == [
        DisplayBlock("para", ((Span("Run:"),),)),
        DisplayBlock("code", code="pip install x\n  --user"),
    ]


def test_prose_then_items_in_one_paragraph_become_a_paragraph_and_a_list() -> None:
    assert display_blocks("You need:\n- a laptop\n- a badge") == [
        DisplayBlock("para", ((Span("You need:"),),)),
        DisplayBlock("list", ((Span("a laptop"),), (Span("a badge"),))),
    ]
