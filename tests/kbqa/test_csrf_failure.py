"""A form refused by the CSRF check: the app's page saying why and leading back, not Django's
bare "CSRF verification failed"; JSON 403 ``csrf_failed`` under /api/."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.middleware.csrf import _get_failure_view
from django.test import Client, RequestFactory

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/?next=/"


def form_token(client: Client, url: str) -> str:
    html = client.get(url).content.decode()
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert match
    return match.group(1)


def sign_in_in_two_tabs(django_user_model: Any, **headers: str) -> Any:
    """Tab B opens the login page, tab A signs in, then tab B's form is sent."""
    django_user_model.objects.create_user("ann", password="pw-123456789")
    browser = Client(enforce_csrf_checks=True, headers=headers)
    token_b = form_token(browser, LOGIN)
    token_a = form_token(browser, LOGIN)
    signed_in = browser.post(LOGIN, {"username": "ann", "password": "pw-123456789",
                                     "csrfmiddlewaretoken": token_a})
    assert signed_in.status_code == 302
    return browser.post(LOGIN, {"username": "ann", "password": "pw-123456789",
                                "csrfmiddlewaretoken": token_b},
                        headers={"referer": f"http://testserver{LOGIN}"})


def test_a_stale_login_form_says_why_and_links_back_to_the_login(
    django_user_model: Any,
) -> None:
    response = sign_in_in_two_tabs(django_user_model)
    html = response.content.decode()
    assert response.status_code == 403
    assert "CSRF verification failed" not in html
    assert '<h1 id="error-title">This form has expired</h1>' in html
    assert "you signed in or out in another tab" in html
    assert "Reload the page and try again." in html
    assert '<a class="button-primary" href="/accounts/login/?next=/">Reload the page</a>' in html
    assert 'id="language-form"' in html  # the site's own frame


def test_the_page_speaks_chinese(django_user_model: Any) -> None:
    response = sign_in_in_two_tabs(django_user_model, accept_language="zh-hans")
    html = response.content.decode()
    assert response.status_code == 403
    assert '<html lang="zh-hans">' in html
    assert "<h1 id=\"error-title\">此表单已失效</h1>" in html
    assert "This form has expired" not in html and "Reload the page" not in html


@pytest.mark.parametrize(
    ("referer", "back"),
    [
        ("http://testserver/c/7/?lang=en", "/c/7/?lang=en"),  # the page the form was on
        ("https://evil.example/phish", "/"),  # another site is no place to go back to
        ("", "/"),
    ],
)
def test_the_link_leads_back_to_the_same_site_page_the_form_was_on(
    referer: str, back: str
) -> None:
    request = RequestFactory().post("/c/7/rename", headers={"referer": referer} if referer else {})
    request.user = None
    html = _get_failure_view()(request, reason="CSRF token incorrect.").content.decode()
    assert f'<a class="button-primary" href="{back}">' in html


def test_under_api_the_refusal_is_json() -> None:
    request = RequestFactory().post("/api/answer")
    response = _get_failure_view()(request, reason="CSRF cookie not set.")
    assert (response.status_code, response["Content-Type"]) == (403, "application/json")
    assert response.content == (b'{"error": "CSRF check failed: CSRF cookie not set.", '
                                b'"code": "csrf_failed"}')
