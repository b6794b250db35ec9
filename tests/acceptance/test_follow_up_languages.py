"""A follow-up asked in the other language than the question before it, end to end on the
demo knowledge base (a tester's report): its noun replaces the earlier focus as it does in
one language, so the answer is about the new thing, not a refusal."""

from __future__ import annotations

import pytest

from tests.acceptance.test_follow_ups import converse, shown

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo_kb")]


def test_a_chinese_follow_up_to_an_english_question_gets_the_new_things_answer() -> None:
    text = shown(converse("en-zh", ["How many days of annual leave do full-time staff get?",
                                     "那病假呢？"]))
    assert "10 days" in text and "sick leave" in text


def test_an_english_follow_up_to_a_chinese_question_gets_the_new_things_answer() -> None:
    text = shown(converse("zh-en", ["全职员工一年能休几天年假？", "and what about sick leave?"]))
    assert "10 天" in text and "病假" in text
