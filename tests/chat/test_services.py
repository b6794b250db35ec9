"""``answer_run``: who closes the provider (its HTTP connection pool)."""

from __future__ import annotations

from contextlib import aclosing
from typing import Any

import pytest

from chat import services
from kbqa.core.types import Done, ScoredChunk
from tests.fakes.provider import FakeProvider

pytestmark = pytest.mark.django_db(transaction=True)


class EmptyRetriever:
    async def search(self, query: str, k: int) -> list[ScoredChunk]:
        return []


async def run_to_done(**kwargs: Any) -> Done:
    async with aclosing(services.answer_run(question="Anything?", **kwargs)) as events:
        return [ev async for ev in events][-1]  # type: ignore[return-value]


async def test_provider_built_from_settings_is_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    built = FakeProvider([])
    monkeypatch.setattr(services, "provider_from_settings", lambda: built)
    done = await run_to_done(retriever=EmptyRetriever())
    assert (done.status, getattr(built, "closed", False)) == ("refused_low_score", True)


async def test_provider_passed_in_stays_open_for_its_owner() -> None:
    given = FakeProvider([])
    done = await run_to_done(retriever=EmptyRetriever(), provider=given)
    assert (done.status, getattr(given, "closed", False)) == ("refused_low_score", False)


def test_history_gives_earlier_follow_ups_in_their_standalone_form(django_user_model) -> None:
    from chat.models import Conversation, Message, Trace

    owner = django_user_model.objects.create_user("hist", password="x")
    conversation = Conversation.objects.create(owner=owner)
    topic = "How long does the recycle bin keep items?"
    rows = [
        ("user", topic, topic),
        ("user", "and for admins?", "How long does the recycle bin keep items for admins?"),
    ]
    for role, text, standalone in rows:
        Message.objects.create(conversation=conversation, role=role, text=text)
        trace = Trace.objects.create(question=text, standalone_query=standalone)
        Message.objects.create(conversation=conversation, role="assistant", text="30 days.",
                               trace=trace)
    history = services.conversation_history(conversation=conversation)
    assert [(t.role, t.text) for t in history] == [
        ("user", "How long does the recycle bin keep items?"),
        ("assistant", "30 days."),
        ("user", "How long does the recycle bin keep items for admins?"),
        ("assistant", "30 days."),
    ]
