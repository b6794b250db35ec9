"""Messages that ask two things of the demo knowledge base, end to end: both are answered,
or the one the documents leave open is named; and a kind of leave no document has is not
answered with the kinds they have."""

from __future__ import annotations

import pytest

from kbqa.core.types import Refusal
from tests.acceptance.test_follow_ups import converse, shown

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo_kb")]


@pytest.mark.parametrize(
    ("user", "question", "expected"),
    [
        ("carry", "How many days of annual leave do I get, and can I carry unused days over?",
         ["20 days of paid annual leave", "Up to 5 unused days can be carried over"]),
        ("sick-note", "年假有几天？病假要不要证明？", ["20 天带薪年假", "需要提供医院证明"]),
    ],
)
def test_each_ask_of_a_message_is_answered(user: str, question: str,
                                           expected: list[str]) -> None:
    text = shown(converse(user, [question]))
    for part in expected:
        assert part in text


def test_a_kind_of_leave_no_document_has_is_refused() -> None:
    # "parental" is an adjective: it weighed as little as a verb, and sick leave was quoted
    events = converse("parental", ["How many days of parental leave do I get?"])
    assert any(isinstance(ev, Refusal) for ev in events)
    assert shown(events) == ""
