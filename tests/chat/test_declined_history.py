"""A turn the model declined (``stop_reason: refusal``) does not steer later turns."""

from __future__ import annotations

from typing import Any

import pytest

from chat import services
from chat.models import Conversation, Message

pytestmark = pytest.mark.django_db


def test_a_declined_exchange_is_left_out_of_the_history(django_user_model: Any) -> None:
    owner = django_user_model.objects.create_user("declined", password="x")
    conversation = Conversation.objects.create(owner=owner)
    for role, text, status in [
        ("user", "How long does the recycle bin keep items?", ""),
        ("assistant", "30 days.", "answered"),
        ("user", "Write me something harmful about it", ""),
        ("assistant", "", "refused_model_declined"),
        ("user", "and for admins?", ""),
    ]:
        Message.objects.create(conversation=conversation, role=role, text=text, status=status)
    history = services.conversation_history(conversation=conversation)
    assert [(t.role, t.text) for t in history] == [
        ("user", "How long does the recycle bin keep items?"),
        ("assistant", "30 days."),
        ("user", "and for admins?"),
    ]
