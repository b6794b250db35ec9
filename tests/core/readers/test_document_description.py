"""A sentence describing its own document says what the document covers, not a rule."""

from __future__ import annotations

import pytest

from kbqa.core.readers.extractive.expand import describes_document
from kbqa.core.readers.extractive.selection import select
from tests.fakes import make_block


@pytest.mark.parametrize(
    ("sentence", "describes"),
    [
        ("This policy explains which business expenses the company pays back.", True),
        ("This guide describes how to book a meeting room.", True),
        ("本制度说明公司报销哪些业务费用。", True),
        # the other ways documents introduce themselves
        ("This page covers the two limits every integration meets.", True),
        ("This policy sets out how much paid time off staff receive.", True),
        ("本制度规定分公司员工的差旅费用如何报销，包括标准和流程。", True),
        ("本文汇总了客户在购买前常问的问题。", True),
        # an FAQ's opening line (before: an extra sentence under a recycle-bin answer)
        ("Answers to the questions our help desk receives most often about badges.", True),
        ("Answers are sent by e-mail within two days.", False),
        ("本制度规定员工每年享有 15 天年假。", False),  # a rule the document lays down
        ("This policy applies to all employees of the Dutch company.", False),  # a scope rule
        ("Business expenses are paid back within 10 working days.", False),
    ],
)
def test_a_description_of_the_document_is_told_apart(sentence: str, describes: bool) -> None:
    assert describes_document(sentence) is describes


def test_the_description_is_never_quoted_as_the_answer() -> None:
    block = make_block(1, "This policy explains which business expenses the company pays back "
                          "and how to claim them. Business expenses are paid back within 10 "
                          "working days of approval.", title="Expense policy")
    chosen = select("How soon are business expenses paid back?", [block])
    assert [c.text for c in chosen.chosen] == [
        "Business expenses are paid back within 10 working days of approval."]
