"""Follow-ups whose verb has lost its object ("管理员能恢复吗？", "如何申请？", "how do I
apply?") ask it of the earlier question's topic, in either language; a follow-up naming a
thing the documents do not cover is refused, not answered with the earlier answer (tester's
report, issue 12 item 4).

End to end on the demo knowledge base through the turn service, as ``test_follow_ups``.
"""

from __future__ import annotations

import pytest

from tests.acceptance.test_follow_ups import converse, shown

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo_kb")]


@pytest.mark.parametrize(
    ("lang", "questions"),
    [
        ("zh", ["回收站里的文件能保留多久？", "管理员能恢复吗？"]),
        ("en", ["How long does the recycle bin keep deleted files?", "can admins restore?"]),
        ("mixed", ["How long does the recycle bin keep deleted files?", "管理员能恢复吗？"]),
    ],
)
def test_a_verb_without_its_object_asks_of_the_earlier_topic(
    lang: str, questions: list[str]
) -> None:
    events = converse(f"object-{lang}", questions)
    query = events[0].standalone_query
    assert "回收站" in query or "recycle" in query
    assert "恢复码" not in shown(events) and "recovery code" not in shown(events)


@pytest.mark.parametrize(
    ("lang", "questions"),
    [
        ("en", ["How much is the home office allowance?", "how do I apply?"]),
        ("mixed", ["How much is the home office allowance?", "如何申请？"]),
    ],
)
def test_a_how_to_without_its_object_keeps_the_topic(lang: str, questions: list[str]) -> None:
    events = converse(f"apply-{lang}", questions)
    assert "home office" in events[0].standalone_query
    assert "年假" not in shown(events) and "annual leave" not in shown(events)


def test_a_how_to_naming_its_own_action_stands_alone() -> None:
    events = converse("leave-own", ["How much is the home office allowance?", "怎么请假？"])
    assert "home office" not in events[0].standalone_query


@pytest.mark.parametrize("follow_up", ["那 webhook 呢？", "what about webhooks?"])
def test_a_new_focus_the_documents_do_not_cover_is_not_answered_with_the_old_answer(
    follow_up: str
) -> None:
    events = converse(f"webhook-{follow_up}", ["What is the rate limit of the open API?",
                                               "what if we exceed it?", follow_up])
    assert "600" not in shown(events)
