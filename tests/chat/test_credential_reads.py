"""The credentials read as SQL (``chat.credential_reads``): the websocket's session check
(``chat.auth.session_logs_in``: Django's answer, in one statement, inside the turn's first
trip to the database threads) and the API token's look-up (what the ORM loaded)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import HASH_SESSION_KEY, get_user_model
from django.contrib.sessions.models import Session
from django.forms.models import model_to_dict
from django.test import Client
from django.utils import timezone

from chat.auth import api_token_create, session_logs_in, session_user, token_lookup
from chat.models import ApiToken, Message, Trace
from tests.chat.support import chat_socket, conversation_make, receive_turn, user_make
from tests.chat.test_consumer import ask
from tests.chat.test_turn_queries import statements
from tests.fakes.provider import FakeProvider

pytestmark = pytest.mark.django_db(transaction=True)
ANSWER = "Laptops are replaced every three years [1]."


def logged_in(username: str = "alice") -> tuple[Any, str]:
    user = get_user_model().objects.create_user(username, password="pw-123456")
    client = Client()
    client.force_login(user)
    return user, client.cookies["sessionid"].value


def logged_out(user: Any, key: str) -> None:
    client = Client()
    client.cookies["sessionid"] = key
    client.post("/accounts/logout/")


def password_changed(user: Any, key: str) -> None:
    user.set_password("another-pw-654321")
    user.save()


def deactivated(user: Any, key: str) -> None:
    get_user_model().objects.filter(pk=user.pk).update(is_active=False)


def expired(user: Any, key: str) -> None:
    Session.objects.filter(pk=key).update(expire_date=timezone.now() - timedelta(seconds=1))


def hash_dropped(user: Any, key: str) -> None:
    session = Session.objects.get(pk=key)
    data = session.get_decoded()
    del data[HASH_SESSION_KEY]
    Session.objects.filter(pk=key).update(session_data=Session.objects.encode(data))


def user_deleted(user: Any, key: str) -> None:
    get_user_model().objects.filter(pk=user.pk).delete()


@pytest.mark.parametrize(
    "change, expected",
    [
        (lambda user, key: None, True),
        (logged_out, False),
        (password_changed, False),
        (deactivated, False),
        (expired, False),
        (hash_dropped, False),
        (user_deleted, False),
    ],
    ids=["live", "logged out", "password changed", "deactivated", "expired",
         "no password hash", "user deleted"],
)
def test_the_check_says_what_djangos_session_user_says(
    change: Callable[[Any, str], None], expected: bool
) -> None:
    user, key = logged_in()
    change(user, key)
    django_says = session_user(key)
    assert (django_says is not None and django_says.pk == user.pk) is expected
    user, key = logged_in("bob")  # session_user may have flushed alice's session: ask afresh
    change(user, key)
    assert session_logs_in(key, user) is expected


def test_another_users_session_does_not_log_this_user_in() -> None:
    alice, _ = logged_in("alice")
    _, bobs = logged_in("bob")
    assert not session_logs_in(bobs, alice)
    assert not session_logs_in("", alice)
    assert not session_logs_in("no-such-session-key", alice)


def test_a_live_session_is_checked_in_one_statement() -> None:
    user, key = logged_in()
    with statements() as seen:
        assert session_logs_in(key, user)
    assert len(seen) == 1, seen


def test_a_session_signed_with_a_fallback_secret_is_kept_as_django_keeps_it(
    settings: Any,
) -> None:
    user, key = logged_in()
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "a-rotated-secret-key-for-this-test-only-0123456789"
    # the password hash in the session was made with the old key: Django still logs the
    # user in (and rotates the session's key), and so does the check
    assert session_logs_in(key, user)


@pytest.mark.parametrize("change", [password_changed, deactivated, logged_out])
async def test_a_question_after_the_session_ended_closes_the_socket_and_stores_nothing(
    fake_provider: FakeProvider, change: Callable[[Any, str], None]
) -> None:
    fake_provider.add(ANSWER, ANSWER)
    user = await user_make("alice")
    conversation = await conversation_make(user)
    async with chat_socket(conversation.pk, user) as comm:
        await comm.send_to(text_data=ask("How often are laptops replaced?"))
        await receive_turn(comm)
        key = (await Session.objects.aget()).session_key
        await sync_to_async(change)(user, key)
        await comm.send_to(text_data=ask("And phones?"))
        alert = await comm.receive_output(timeout=5)
        closing = await comm.receive_output(timeout=5)

    assert "Your session has ended. Log in again to keep asking." in alert["text"]
    assert (closing["type"], closing["code"]) == ("websocket.close", 4401)
    assert await Trace.objects.acount() == 1
    assert await Message.objects.acount() == 2


def test_a_token_is_looked_up_with_its_user_as_the_orm_loads_them() -> None:
    user, _ = logged_in()
    _, key = api_token_create(user=user, name="cli")
    found = token_lookup(key)
    orm = ApiToken.objects.select_related("user").get(pk=found.pk)
    assert model_to_dict(found) == model_to_dict(orm)
    assert model_to_dict(found.user) == model_to_dict(orm.user)
    assert found.user.is_active is True and found.last_used_at == orm.last_used_at
    assert (found.created_at, found.user.date_joined) == (orm.created_at, orm.user.date_joined)
    assert token_lookup(key + "x") is None and token_lookup("") is None
    deactivated(user, key)
    assert token_lookup(key) is None
