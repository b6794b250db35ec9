"""Chinese questions in people's own words, against the demo knowledge base.

- A word the documents never use meets the one they do through CC-CEDICT's shared
  glosses (``弄丢`` and ``遗失`` are both "to lose"; ``删掉`` and ``删除`` both "to delete"),
  even when jieba splits the asker's word into single characters (``弄/丢/了``).
- A question opening with the people it concerns (``同事离职了，…``) asks about the thing of
  its ask clause, not about those people: the answer's passage need not name them.
- A word jieba's dictionary lacks is its HMM's guess from the characters around it
  (``全报`` of 能全报吗, ``网盘``): no noun the documents must name, so the question is not
  refused for it.
- An amount written against the Chinese words around it (``一晚680，``) is the asker's own
  value, as one set apart by spaces is: the question asks for the limit to check it against.
- A common word jieba's dictionary tags as a place (``旧版本``, "old version") is no name:
  a sentence sharing ``版本`` with it is about it, and asked how long, the versions are the
  thing asked about, not a version number the answer must state.
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


def test_a_guessed_word_does_not_keep_a_hotel_claim_from_its_limit() -> None:
    text = shown(converse("hotel", ["下个月去北京出差，看中的酒店一晚 680，能全报吗？"]))
    assert "每晚不超过 700 元" in text


def test_a_guessed_word_does_not_keep_a_leaver_s_files_from_their_owner() -> None:
    text = shown(converse("files", ["我的同事下个月离职，他网盘里的文件以后归谁管？"]))
    assert "转交给直属经理" in text


def test_an_amount_without_spaces_is_checked_against_the_limit() -> None:
    text = shown(converse("hotel-nospace", ["下个月去北京出差，看中的酒店一晚680，能全报吗？"]))
    assert "每晚不超过 700 元" in text


def test_a_synonym_does_not_answer_what_the_documents_never_say() -> None:
    events = converse("wedding", ["婚假可以休几天？"])
    assert any(isinstance(ev, Refusal) for ev in events)
    assert shown(events) == ""



def test_old_versions_asked_how_long_get_the_retention_of_versions() -> None:
    text = shown(converse("old-versions", ["旧版本能保留多少天？"]))
    assert "180 天" in text


def test_old_versions_after_the_recycle_bin_get_their_own_retention() -> None:
    asked = ["删除的文件在回收站里保留多少天？", "那旧版本呢？"]
    text = shown(converse("old-versions-after", asked))
    assert "180 天" in text
    assert "30 天" not in text
