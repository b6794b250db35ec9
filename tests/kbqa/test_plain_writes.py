"""``kbqa.db.rows_insert`` and ``rows_update`` store what the ORM stores (SQLite and
PostgreSQL: the suite runs on both)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import FieldDoesNotExist
from django.forms.models import model_to_dict

from chat.models import Conversation, Message, Trace
from kbqa.db import rows_insert, rows_update

pytestmark = pytest.mark.django_db
DATA = {"trace_id": "t", "blocks": [{"n": 1, "text": "Laptops: 3 years. 笔记本电脑"}], "ok": True}


def test_an_inserted_row_reads_back_as_the_orm_stored_one() -> None:
    owner = get_user_model().objects.create_user("alice")
    conversation = Conversation.objects.create(owner=owner, title="t")
    by_orm = Trace.objects.create(
        id="A" * 26, user=owner, conversation=conversation, question="Q?", data=DATA
    )
    rows_insert(Trace, [{"id": "B" * 26, "user_id": owner.pk,
                         "conversation_id": conversation.pk, "question": "Q?", "data": DATA}])
    by_sql = Trace.objects.get(id="B" * 26)
    skip = ["id", "created_at"]
    assert model_to_dict(by_sql, exclude=skip) == model_to_dict(by_orm, exclude=skip)
    assert by_sql.data == DATA and by_sql.status == "pending"  # the field's default
    assert abs((by_sql.created_at - by_orm.created_at).total_seconds()) < 5  # auto_now_add


def test_several_rows_come_back_with_their_keys_in_order() -> None:
    owner = get_user_model().objects.create_user("alice")
    conversation = Conversation.objects.create(owner=owner)
    texts = ["first", "second", "third"]
    ids = rows_insert(
        Message, [{"conversation_id": conversation.pk, "role": "user", "text": t} for t in texts],
        returning="id",
    )
    stored = Message.objects.filter(pk__in=ids)
    assert [stored.get(pk=pk).text for pk in ids] == texts
    assert all(m.citations == [] and m.refusal is None for m in stored)


def test_an_update_changes_the_matching_rows_only() -> None:
    owner = get_user_model().objects.create_user("alice")
    titled = Conversation.objects.create(owner=owner, title="kept")
    untitled = Conversation.objects.create(owner=owner)
    changed = [rows_update(Conversation, {"title": "new"}, where={"id": c.pk, "title": ""})
               for c in (titled, untitled)]
    assert changed == [0, 1]
    assert [c.title for c in Conversation.objects.order_by("pk")] == ["kept", "new"]
    message = Message.objects.create(conversation=titled, role="assistant")
    rows_update(Message, {"sentences": [{"text": "Hi.", "citations": [1]}], "refusal": None},
                where={"id": message.pk})
    message.refresh_from_db()
    assert message.sentences == [{"text": "Hi.", "citations": [1]}] and message.refusal is None


def test_unknown_columns_and_a_given_automatic_key_are_refused() -> None:
    with pytest.raises(FieldDoesNotExist):
        rows_insert(Conversation, [{"colour": "red"}])
    with pytest.raises(ValueError):
        rows_insert(Conversation, [{"id": 5}])
