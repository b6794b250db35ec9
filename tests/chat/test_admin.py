"""Admin: traces are read-only evidence; API tokens show their key once and store its hash."""

from __future__ import annotations

import hashlib
import re
from typing import Any

import pytest
from django.test import Client

from chat.models import ApiToken, Conversation, Message, Trace

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_(django_user_model: Any) -> Client:
    client = Client()
    client.force_login(django_user_model.objects.create_superuser("root", password="pw"))
    return client


@pytest.fixture
def trace() -> Trace:
    return Trace.objects.create(question="How much leave?", status="answered", provider="fake")


def test_trace_is_viewable_but_not_editable(admin_client_: Client, trace: Trace) -> None:
    url = f"/admin/chat/trace/{trace.pk}/change/"
    page = admin_client_.get(url)
    html = page.content.decode()
    assert page.status_code == 200
    assert "How much leave?" in html
    assert 'name="_save"' not in html
    assert f'href="/traces/{trace.pk}/"' in html
    assert admin_client_.post(url, {"question": "edited"}).status_code == 403
    assert Trace.objects.get().question == "How much leave?"


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("get", "/admin/chat/trace/add/"),
        ("post", "/admin/chat/trace/{pk}/delete/"),
    ],
)
def test_traces_cannot_be_added_or_deleted(
    admin_client_: Client, trace: Trace, method: str, url: str
) -> None:
    response = getattr(admin_client_, method)(url.format(pk=trace.pk), {"post": "yes"})
    assert response.status_code == 403
    assert Trace.objects.count() == 1


def test_trace_list_has_no_delete_action(admin_client_: Client, trace: Trace) -> None:
    html = admin_client_.get("/admin/chat/trace/").content.decode()
    assert "How much leave?" in html
    assert "delete_selected" not in html


def test_staff_reviewer_can_view_traces_in_admin(django_user_model: Any, trace: Trace) -> None:
    client = Client()
    client.force_login(django_user_model.objects.create_user("sam", password="pw", is_staff=True))
    assert client.get(f"/admin/chat/trace/{trace.pk}/change/").status_code == 200
    index = client.get("/admin/").content.decode()
    assert 'href="/admin/chat/trace/"' in index
    assert "/admin/chat/apitoken/" not in index
    assert client.get("/admin/chat/apitoken/").status_code == 403


def test_conversation_admin_shows_messages(admin_client_: Client, django_user_model: Any) -> None:
    owner = django_user_model.objects.create_user("alice", password="pw")
    conversation = Conversation.objects.create(owner=owner, title="Leave")
    Message.objects.create(conversation=conversation, role="user", text="How much leave?")
    html = admin_client_.get(f"/admin/chat/conversation/{conversation.pk}/change/").content.decode()
    assert "How much leave?" in html


def test_token_key_is_shown_once_and_only_its_hash_stored(
    admin_client_: Client, django_user_model: Any
) -> None:
    alice = django_user_model.objects.create_user("alice", password="pw")
    response = admin_client_.post(
        "/admin/chat/apitoken/add/", {"user": alice.pk, "name": "laptop"}, follow=True
    )
    html = response.content.decode()
    keys = re.findall(r"The API token for “laptop \([\w-]{8}…\)” is ([\w-]+)", html)
    assert len(keys) == 1
    key = keys[0]
    token = ApiToken.objects.get()
    assert (token.user, token.name) == (alice, "laptop")
    assert token.key_hash == hashlib.sha256(key.encode()).hexdigest()
    assert token.prefix == key[:8]
    assert key not in (token.name, token.prefix, token.key_hash)
    assert key not in admin_client_.get(f"/admin/chat/apitoken/{token.pk}/change/").content.decode()
    assert key not in admin_client_.get("/admin/chat/apitoken/").content.decode()


def test_add_token_form_starts_with_the_current_user_and_saves_first_time(
    admin_client_: Client, django_user_model: Any
) -> None:
    root = django_user_model.objects.get(username="root")
    django_user_model.objects.create_user("alice", password="pw")
    html = admin_client_.get("/admin/chat/apitoken/add/").content.decode()
    selected = re.findall(r'<option value="(\d+)" selected>', html)
    assert selected == [str(root.pk)]
    # what the browser submits when the admin only types a name and presses Save
    response = admin_client_.post("/admin/chat/apitoken/add/", {"user": selected[0], "name": "ci"})
    assert response.status_code == 302
    assert [(t.user.username, t.name) for t in ApiToken.objects.all()] == [("root", "ci")]


def test_token_made_in_admin_authenticates_api(
    admin_client_: Client, django_user_model: Any
) -> None:
    alice = django_user_model.objects.create_user("alice", password="pw")
    html = admin_client_.post(
        "/admin/chat/apitoken/add/", {"user": alice.pk, "name": ""}, follow=True
    ).content.decode()
    key = re.findall(r"is ([\w-]{40}) — copy it now", html)[0]

    def post(auth: str) -> int:
        return (
            Client()
            .post("/api/answer", "{}", content_type="application/json", HTTP_AUTHORIZATION=auth)
            .status_code
        )

    assert post(f"Bearer {key}") == 400  # authenticated: only the empty body is wrong
    assert post(f"Bearer {key}x") == 401


def test_editing_a_token_keeps_its_hash(admin_client_: Client, django_user_model: Any) -> None:
    from chat.auth import api_token_create

    alice = django_user_model.objects.create_user("alice", password="pw")
    token, _ = api_token_create(user=alice, name="old")
    admin_client_.post(
        f"/admin/chat/apitoken/{token.pk}/change/", {"user": alice.pk, "name": "new"}
    )
    fresh = ApiToken.objects.get()
    assert (fresh.name, fresh.key_hash) == ("new", token.key_hash)


# ------------------------------------------------- conversations and messages are records


@pytest.fixture
def alices_turn(django_user_model: Any) -> Message:
    owner = django_user_model.objects.create_user("alice", password="pw")
    conversation = Conversation.objects.create(owner=owner, title="Leave")
    return Message.objects.create(
        conversation=conversation,
        role="assistant",
        text="Employees get 20 days.",
        status="answered",
    )


FORGED = {
    "role": "assistant",
    "text": "Everyone gets a pay rise.",
    "sentences": '[{"index": 1, "text": "Everyone gets a pay rise.", "citations": [1]}]',
    "citations": '[{"n": 1, "chunk_id": "doc-001#c01"}]',
    "refusal": "null",
    "status": "answered",
}


@pytest.mark.parametrize("staff_perms", ["superuser", "staff with every chat permission"])
def test_nobody_can_forge_an_answer_in_someone_elses_conversation(
    django_user_model: Any, alices_turn: Message, staff_perms: str
) -> None:
    from django.contrib.auth.models import Permission

    if staff_perms == "superuser":
        editor = django_user_model.objects.create_superuser("root", password="pw")
    else:
        editor = django_user_model.objects.create_user("sam", password="pw", is_staff=True)
        editor.user_permissions.set(Permission.objects.filter(content_type__app_label="chat"))
    client = Client()
    client.force_login(editor)
    conversation = alices_turn.conversation
    form = {**FORGED, "conversation": conversation.pk}

    assert client.get("/admin/chat/message/add/").status_code == 403
    assert client.post("/admin/chat/message/add/", form).status_code == 403
    assert client.post(f"/admin/chat/message/{alices_turn.pk}/change/", form).status_code == 403
    assert client.post("/admin/chat/conversation/add/", {"owner": editor.pk}).status_code == 403
    assert (
        client.post(
            f"/admin/chat/conversation/{conversation.pk}/change/", {"title": "Pay rise"}
        ).status_code
        == 403
    )
    assert list(Message.objects.values_list("text", flat=True)) == ["Employees get 20 days."]
    assert Conversation.objects.get().title == "Leave"
    assert Conversation.objects.count() == 1


@pytest.mark.parametrize("model", ["message", "conversation"])
def test_records_are_shown_without_add_or_save_buttons(
    admin_client_: Client, alices_turn: Message, model: str
) -> None:
    pk = alices_turn.pk if model == "message" else alices_turn.conversation.pk
    listing = admin_client_.get(f"/admin/chat/{model}/").content.decode()
    page = admin_client_.get(f"/admin/chat/{model}/{pk}/change/")
    html = page.content.decode()
    assert f'href="/admin/chat/{model}/add/"' not in listing
    assert page.status_code == 200
    assert "Employees get 20 days." in html or "Leave" in html
    assert 'name="_save"' not in html and 'name="_continue"' not in html


def test_superuser_may_delete_a_conversation(admin_client_: Client, alices_turn: Message) -> None:
    pk = alices_turn.conversation.pk
    response = admin_client_.post(f"/admin/chat/conversation/{pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert (Conversation.objects.count(), Message.objects.count()) == (0, 0)


def test_staff_without_superuser_may_not_delete(
    django_user_model: Any, alices_turn: Message
) -> None:
    from django.contrib.auth.models import Permission

    sam = django_user_model.objects.create_user("sam", password="pw", is_staff=True)
    sam.user_permissions.set(Permission.objects.filter(content_type__app_label="chat"))
    client = Client()
    client.force_login(sam)
    url = f"/admin/chat/message/{alices_turn.pk}/delete/"
    assert client.post(url, {"post": "yes"}).status_code == 403
    assert Message.objects.count() == 1
