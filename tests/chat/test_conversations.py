"""Renaming and deleting one's own conversations; reviewers keep a deleted one's traces."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from chat.models import Conversation, Message, Trace

pytestmark = pytest.mark.django_db


def logged_in(username: str) -> tuple[Client, object]:
    user = get_user_model().objects.create_user(username=username, password="pw-123456")
    client = Client()
    client.force_login(user)
    return client, user


def test_rename_changes_the_title_in_the_list_and_the_heading() -> None:
    client, user = logged_in("ann")
    conversation = Conversation.objects.create(owner=user, title="Old")
    response = client.post(f"/c/{conversation.pk}/rename/", {"title": "  Leave   rules "})
    html = client.get(response["Location"]).content.decode()

    assert response.status_code == 302
    assert Conversation.objects.get().title == "Leave rules"
    assert '<h1 id="chat-title" class="chat-title">Leave rules</h1>' in html
    assert f'id="conversation-link-{conversation.pk}"' in html


@pytest.mark.parametrize(
    ("asked", "shown"), [(True, "How many leave days do I get?"), (False, "New conversation")]
)
def test_a_blank_rename_restores_the_automatic_title(asked: bool, shown: str) -> None:
    client, user = logged_in("ann")
    conversation = Conversation.objects.create(owner=user, title="My own title")
    if asked:
        Message.objects.create(
            conversation=conversation, role="user", text="How many leave days do I get?"
        )
    response = client.post(f"/c/{conversation.pk}/rename/", {"title": "   "})
    html = client.get(response["Location"]).content.decode()

    assert f'<h1 id="chat-title" class="chat-title">{shown}</h1>' in html


def test_delete_removes_the_conversation_but_keeps_its_traces() -> None:
    client, user = logged_in("ann")
    conversation = Conversation.objects.create(owner=user, title="To go")
    trace = Trace.objects.create(question="Q?", conversation=conversation, user=user)
    Message.objects.create(conversation=conversation, role="user", text="Q?")
    response = client.post(f"/c/{conversation.pk}/delete/")
    home = client.get("/").content.decode()

    assert response.status_code == 302 and response["Location"] == "/"
    assert not Conversation.objects.filter(pk=conversation.pk).exists()
    assert not Message.objects.exists()
    trace.refresh_from_db()
    assert (trace.question, trace.conversation_id, trace.user_id) == ("Q?", None, user.pk)
    assert "To go" not in home


@pytest.mark.parametrize("action", ["rename", "delete"])
def test_someone_elses_conversation_cannot_be_renamed_or_deleted(action: str) -> None:
    _owner_client, owner = logged_in("ann")
    intruder, _ = logged_in("bob")
    conversation = Conversation.objects.create(owner=owner, title="Mine")
    response = intruder.post(f"/c/{conversation.pk}/{action}/", {"title": "Hacked"})

    assert response.status_code == 404
    assert Conversation.objects.get().title == "Mine"


def test_rename_and_delete_need_post() -> None:
    client, user = logged_in("ann")
    conversation = Conversation.objects.create(owner=user)
    assert client.get(f"/c/{conversation.pk}/delete/")["Location"] == "/"
    assert client.put(f"/c/{conversation.pk}/delete/").status_code == 405
    assert Conversation.objects.exists()


@pytest.mark.django_db(transaction=True)
async def test_asking_in_a_conversation_deleted_in_another_tab_says_so_and_what_to_do() -> None:
    import json

    from tests.chat.support import chat_socket, conversation_make, user_make

    user = await user_make("ann")
    conversation = await conversation_make(user)
    async with chat_socket(conversation.pk, user) as comm:
        await conversation.adelete()  # the other tab's ⋯ menu
        await comm.send_to(text_data=json.dumps({"question": "Still there?"}))
        alert = await comm.receive_from(timeout=5)

    assert "This conversation has been deleted (perhaps in another tab)." in alert
    assert "Press “New conversation” to keep asking." in alert
    assert "does not exist" not in alert
