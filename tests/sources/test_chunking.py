"""Chunking: headings, paragraphs, token budget, unbreakable units, Chinese without spaces."""

from __future__ import annotations

import pytest

from kbqa.core.text.tokens import count_tokens
from sources.chunking import ChunkDraft, chunk_text


def test_headings_start_sections_and_each_chunk_remembers_its_heading() -> None:
    text = "Intro line.\n\n# Hotels\n\nUp to 200 USD.\n\n## Cities\n\nLondon is 300 USD.\n"
    assert chunk_text(text, max_tokens=300) == [
        ChunkDraft(1, "", "Intro line.", count_tokens("Intro line.")),
        ChunkDraft(2, "Hotels", "Up to 200 USD.", count_tokens("Up to 200 USD.")),
        ChunkDraft(3, "Cities", "London is 300 USD.", count_tokens("London is 300 USD.")),
    ]


def test_paragraphs_of_one_section_are_packed_up_to_the_budget() -> None:
    paras = [f"Paragraph number {i} says something short." for i in range(6)]
    drafts = chunk_text("\n\n".join(paras), max_tokens=20)
    assert [d.text for d in drafts] == [
        "\n\n".join(paras[0:2]),
        "\n\n".join(paras[2:4]),
        "\n\n".join(paras[4:6]),
    ]
    assert all(d.tokens <= 20 for d in drafts)


def test_long_paragraph_is_split_at_sentence_boundaries_only() -> None:
    sentences = [
        "Dr. Smith approves trips that cost more than 3.5 thousand dollars.",
        "The finance team checks every receipt within ten working days.",
        "Late claims are rejected without exception by the system.",
    ]
    drafts = chunk_text(" ".join(sentences), max_tokens=16)
    assert [d.text for d in drafts] == sentences


def test_chinese_without_spaces_is_split_after_full_stops() -> None:
    sentences = [
        "员工应在费用发生后三十天内提交报销申请。",
        "逾期申请财务部不予受理！",
        "五千元以下由部门经理审批；",
    ]
    drafts = chunk_text("".join(sentences), max_tokens=25)
    assert [d.text for d in drafts] == sentences
    assert "".join(d.text for d in drafts) == "".join(sentences)


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("- first item is long enough to fill\n  its continuation line\n- second", "- first item"),
        ("```\nline one of code\nline two of code\nline three\n```", "```\nline one"),
    ],
    ids=["list item", "fenced code"],
)
def test_list_items_and_code_blocks_are_never_cut(text: str, unit: str) -> None:
    drafts = chunk_text(text, max_tokens=5)
    first = drafts[0].text
    assert first.startswith(unit)
    assert first in text
    assert "\n".join(d.text for d in drafts) == text


def test_list_items_pack_on_consecutive_lines() -> None:
    text = "- one\n- two\n- three"
    assert [d.text for d in chunk_text(text, max_tokens=300)] == ["- one\n- two\n- three"]


def test_heading_inside_code_fence_is_not_a_section() -> None:
    text = "# Real\n\n```\n# not a heading\n```\n"
    drafts = chunk_text(text, max_tokens=300)
    assert [(d.section, d.text) for d in drafts] == [("Real", "```\n# not a heading\n```")]


@pytest.mark.parametrize("text", ["", "   \n\n ", "# Only a heading\n"])
def test_no_body_text_gives_no_chunks(text: str) -> None:
    assert chunk_text(text, max_tokens=300) == []


def test_special_token_text_is_plain_text() -> None:
    drafts = chunk_text("Before <|endoftext|> after.", max_tokens=300)
    assert [d.text for d in drafts] == ["Before <|endoftext|> after."]


def test_budget_must_be_positive() -> None:
    with pytest.raises(ValueError):
        chunk_text("x", max_tokens=0)
