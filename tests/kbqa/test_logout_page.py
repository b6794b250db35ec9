"""``GET /accounts/logout/`` (a bookmarked logout link): a page with a Log out button, not an
empty 405; only the button's POST logs out."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser(django_user_model: Any) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(django_user_model.objects.create_user("ann", password="pw-123456789"))
    return client


def test_a_logout_link_asks_and_its_button_logs_out(browser: Client) -> None:
    page = browser.get("/accounts/logout/")
    html = page.content.decode()
    assert page.status_code == 200
    assert '<h1 id="logout-title">Log out of kbqa?</h1>' in html
    assert "You are signed in as ann." in html
    assert browser.get("/").status_code == 200  # the GET logged no one out
    form = re.search(r'<form method="post" action="/accounts/logout/">.*?</form>', html, re.S)
    assert form and '<button type="submit" class="button-primary">Log out</button>' in form[0]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form[0])
    assert token
    out = browser.post("/accounts/logout/", {"csrfmiddlewaretoken": token[1]})
    assert (out.status_code, out["Location"]) == (302, "/accounts/login/")
    assert browser.get("/").status_code == 302  # signed out now


def test_signed_out_the_page_says_so_and_links_to_the_login(client: Client) -> None:
    html = client.get("/accounts/logout/").content.decode()
    assert '<h1 id="logout-title">You are signed out</h1>' in html
    assert '<a class="button-primary" href="/accounts/login/">Log in</a>' in html


def test_the_page_speaks_chinese(browser: Client) -> None:
    html = browser.get("/accounts/logout/", headers={"accept-language": "zh-hans"}).content
    assert '<h1 id="logout-title">要退出 kbqa 吗？</h1>' in html.decode()
    assert "当前登录用户：ann。" in html.decode()
