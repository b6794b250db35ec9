"""A turn the model declined (``stop_reason: refusal``) is its own outcome and does not steer
later turns."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from chat import services
from chat.auth import api_token_create
from chat.models import Conversation, Message
from tests.chat.kb import QUESTION, SHOWN, claims_json, leave_kb
from tests.fakes.provider import FakeOutput, FakeProvider

__all__ = ["leave_kb"]
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


@pytest.mark.usefixtures("leave_kb")
def test_the_api_reports_a_declined_turn_and_the_next_turn_does_not_see_it(
    fake_provider: FakeProvider, django_user_model: Any
) -> None:
    fake_provider.add(FakeOutput(deltas=["I can't help with that."], stop_reason="refusal"),
                      claims_json((SHOWN, [1])))
    user = django_user_model.objects.create_user("carol", password="pw-carol-1234")
    auth = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='cli')[1]}"}

    def ask(body: dict[str, Any]) -> Any:
        return Client().post("/api/answer", data=json.dumps(body),
                             content_type="application/json", **auth)

    first = ask({"question": QUESTION}).json()
    assert (first["status"], first["refusal"]["reason"], first["answer"]) == (
        "refused_model_declined", "model_declined", "")
    second = ask({"question": QUESTION, "conversation": first["conversation"]}).json()
    assert second["status"] == "answered"
    assert len(fake_provider.prompts) == 2  # one draft per turn: no regeneration
    assert fake_provider.prompts[1].history == ()
