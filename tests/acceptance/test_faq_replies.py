"""An FAQ's reply to one of its questions is not quoted as an extra for another, end to
end on the demo knowledge base (a tester's report): "病假要提前申请吗" got the sick-leave
reply and then "可以，年假最小申请单位为半天。", whose "可以" read as "yes, you can"."""

from __future__ import annotations

import pytest

from tests.acceptance.test_follow_ups import converse, shown

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo_kb")]


def test_the_reply_to_another_faq_question_is_not_added() -> None:
    text = shown(converse("faq-reply", ["病假要提前申请吗"]))
    assert text.startswith("不需要提前申请")
    assert "可以，" not in text
