"""Chinese questions in people's own words, against the demo knowledge base.

- A word the documents never use meets the one they do through CC-CEDICT's shared
  glosses (``弄丢`` and ``遗失`` are both "to lose"; ``删掉`` and ``删除`` both "to delete"),
  even when jieba splits the asker's word into single characters (``弄/丢/了``).
- A question opening with the people it concerns (``同事离职了，…``) asks about the thing of
  its ask clause, not about those people: the answer's passage need not name them.
- A question about something the documents do not cover is still refused.
"""

from __future__ import annotations

import pytest

from kbqa.core.types import Refusal
from tests.acceptance.test_follow_ups import converse, shown

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo_kb")]


def test_a_lost_invoice_asked_in_spoken_words_gets_the_lost_invoice_rule() -> None:
    text = shown(converse("lost-invoice", ["上个月打车的发票弄丢了，还能报吗？"]))
    assert "发票遗失说明" in text
    assert "两次" in text


def test_a_deleted_account_asked_after_who_left_gets_the_deletion_delay() -> None:
    text = shown(converse("left", ["同事离职了，他的公司账号多久以后会被彻底删掉？"]))
    assert "6 个月后删除" in text


def test_a_synonym_does_not_answer_what_the_documents_never_say() -> None:
    events = converse("wedding", ["婚假可以休几天？"])
    assert any(isinstance(ev, Refusal) for ev in events)
    assert shown(events) == ""
