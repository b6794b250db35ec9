"""A form of the chat page sent after the session ended (signed out in another tab): the
login page, then back to the page the form was on, never a bare 405 (kbqa/post_forms.py)."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from chat.models import Conversation

pytestmark = pytest.mark.django_db

PASSWORD = "pw-123456"
# every POST-only view of the chat (chat/urls.py); 1 is the conversation, t1 a trace id
FORMS = ["/c/new/", "/c/1/rename/", "/c/1/delete/", "/feedback/t1/"]


@pytest.fixture
def conversation() -> Conversation:
    user = get_user_model().objects.create_user(username="ann", password=PASSWORD)
    return Conversation.objects.create(pk=1, owner=user, title="Leave")


@pytest.mark.parametrize("form", FORMS)
def test_a_form_sent_signed_out_logs_in_back_to_the_page_it_was_on(
    client: Client, conversation: Conversation, form: str
) -> None:
    sent = client.post(form, {"title": "New"}, HTTP_REFERER="http://testserver/c/1/?lang=en")
    login = sent["Location"]
    signed_in = client.post(login, {"username": "ann", "password": PASSWORD})

    assert login == "/accounts/login/?next=" + quote("/c/1/?lang=en", safe="/")
    assert (signed_in.status_code, signed_in["Location"]) == (302, "/c/1/?lang=en")
    assert client.get(signed_in["Location"]).status_code == 200
    assert Conversation.objects.get().title == "Leave"  # nothing was done for the sign-out


@pytest.mark.parametrize("referer", ["", "https://evil.example/c/1/", "javascript:alert(1)"])
def test_without_a_page_of_this_site_to_return_to_it_is_the_chat_home(
    client: Client, conversation: Conversation, referer: str
) -> None:
    headers = {"HTTP_REFERER": referer} if referer else {}
    sent = client.post("/c/new/", **headers)
    assert sent["Location"] == "/accounts/login/?next=/"


@pytest.mark.parametrize("form", FORMS)
def test_a_get_of_a_form_url_after_logging_in_opens_the_chat_not_a_405(
    client: Client, conversation: Conversation, form: str
) -> None:
    # what the browser did with the old ?next=/c/new/ once logged in
    client.force_login(conversation.owner)
    opened = client.get(form, follow=True)

    assert opened.status_code == 200
    assert opened.redirect_chain == [("/", 302)]
    assert Conversation.objects.filter(title="Leave").count() == 1  # a GET changes nothing
