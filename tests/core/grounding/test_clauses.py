"""Clause reading: polarity, negation focus, clause cuts and table rows."""

from __future__ import annotations

import pytest

from kbqa.core.grounding.clauses import clause_issues
from kbqa.core.grounding.source_text import negated_terms, parity, source_text, split_clauses


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("company laptops are replaced every 4 years", 0),
        ("company laptops are not replaced every 4 years", 1),
        ("laptops aren't replaced every 4 years", 1),
        ("laptops are never replaced", 1),
        ("you cannot upload files without approval", 0),  # double negation
        ("uploads are no more than 200 mb", 0),  # a bound, not a negation
        ("no, laptops are replaced every 4 years", 0),  # an answer word
        ("全职员工每个自然年享有 20 天带薪年假", 0),
        ("全职员工每个自然年不享有 20 天带薪年假", 1),
        ("未来的年假非常多", 0),  # 未来 and 非常 are words, not negations
        ("单个文件不超过 200 mb", 0),
        ("病假不需要提前申请", 1),
    ],
)
def test_parity_counts_negation_words(text: str, expected: int) -> None:
    assert parity(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("company laptops are not replaced every 4 years", {"replaced"}),
        ("guests cannot restore files", {"restore"}),
        ("全职员工每个自然年不享有 20 天带薪年假", {"享有"}),
        ("files are kept", set()),
    ],
)
def test_negated_terms_are_the_first_terms_after_each_negation(
    text: str, expected: set[str]
) -> None:
    assert negated_terms(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("laptops are replaced every 4 years, and phones every 1 year",
         ["laptops are replaced every 4 years", "phones every 1 year"]),
        ("the api allows 1,000 requests at 02:00.", ["the api allows 1,000 requests at 02:00"]),
        ("全职员工享有 20 天年假，并且未休年假可以折现。",
         ["全职员工享有 20 天年假", "未休年假可以折现"]),
    ],
)
def test_split_clauses_cuts_at_clause_punctuation_not_inside_numbers(
    text: str, expected: list[str]
) -> None:
    assert split_clauses(text) == expected


def test_a_table_row_is_read_with_its_header_and_wrapped_lines_are_joined() -> None:
    source = source_text(
        "| Plan | Uptime |\n|---|---|\n| Business | 99.9% |\n\nLaptops are replaced\nevery 4 "
        "years.", "Equipment policy"
    )
    assert [s[0] for s in source.sentences] == [
        "| plan | uptime |", "plan: business; uptime: 99.9%.",
        "laptops are replaced every 4 years.", "equipment policy",
    ]


def test_a_cells_negation_is_its_own_not_the_rows() -> None:
    # the reader quotes a row as "Header: value" clauses; "none" in one cell made the whole
    # row a denial, and the row was withheld under a right answer ("1 sentence withheld")
    source = source_text("| Plan | Price | Uptime commitment |\n|---|---|---|\n"
                         "| Starter | EUR 6 per user per month | none |")
    row = "Plan: Starter; Price: EUR 6 per user per month; Uptime commitment: none"
    assert clause_issues(row, [(1, source)]) == []
