"""A refusal made before Django sees the request (kbqa.bodylimit.error_body): a browser's page
or form gets a small page in the site's language with a link back; the API and every other
client keep the English JSON.
"""

from __future__ import annotations

import json
import re

import pytest

from kbqa.bodylimit import TOO_LARGE, error_body, limit_params

MB = 1024 * 1024
UPLOAD = "/admin/sources/document/upload/"
BROWSER = b"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
HOST = b"kb.example.com:8443"


def refuse(path: str, **headers: bytes) -> tuple[bytes, str]:
    """(content type, body) of a 413 for 100 MB to ``path`` with these request headers
    (``accept_language`` for Accept-Language)."""
    raw = {name.replace("_", "-").encode(): value for name, value in headers.items()}
    content_type, body = error_body(413, TOO_LARGE, {b"host": HOST, **raw},
                                    limit_params(100 * MB), path=path)
    return content_type, body.decode("utf-8")


def link(page: str) -> str:
    match = re.search(r'<a href="([^"]*)">', page)
    assert match is not None, page
    return match.group(1)


@pytest.mark.parametrize(
    ("path", "accept"),
    [
        ("/api/answer", BROWSER),  # the API answers JSON, whatever the caller accepts
        ("/api/documents", b"text/html"),
        (UPLOAD, b"*/*"),  # curl, fetch, htmx
        (UPLOAD, b""),
        (UPLOAD, b"application/json, text/html;q=0.5"),  # JSON first
    ],
)
def test_the_api_and_non_browser_clients_get_json(path: str, accept: bytes) -> None:
    content_type, body = refuse(path, accept=accept)
    assert content_type == b"application/json"
    assert json.loads(body) == {"error": "The request body is too large (limit 100 MB).",
                                "code": "body_too_large"}


def test_a_browser_upload_gets_a_page_with_a_link_to_the_form_it_came_from() -> None:
    content_type, page = refuse(UPLOAD, accept=BROWSER,
                                referer=f"https://kb.example.com:8443{UPLOAD}?x=1&y=2".encode())
    assert content_type == b"text/html; charset=utf-8"
    assert "The request body is too large (limit 100 MB)." in page
    assert link(page) == UPLOAD + "?x=1&amp;y=2"


@pytest.mark.parametrize(
    ("path", "referer", "back"),
    [
        (UPLOAD, b"", "/admin/"),
        (UPLOAD, b"https://evil.example.org/phish", "/admin/"),  # another site: not linked
        (UPLOAD, b"https://kb.example.com/admin/", "/admin/"),  # another port is another site
        ("/accounts/login/", b"", "/"),
    ],
)
def test_without_a_referer_on_the_site_the_link_goes_to_the_admin_or_home(
    path: str, referer: bytes, back: str
) -> None:
    _content_type, page = refuse(path, accept=BROWSER, referer=referer)
    assert link(page) == back


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"accept_language": b"zh-CN,zh;q=0.9"}, ["请求内容过大（上限 100 MB）。", ">返回</a>"]),
        # the language chosen with the site's switcher wins over the browser's
        ({"accept_language": b"en-GB", "cookie": b"django_language=zh-hans"},
         ["请求内容过大（上限 100 MB）。", ">返回</a>"]),
        ({"accept_language": b"de-DE"}, ["The request body is too large", ">Go back</a>"]),
    ],
)
def test_the_page_is_in_the_site_language(headers: dict[str, bytes], expected: list[str]) -> None:
    _content_type, page = refuse(UPLOAD, accept=BROWSER, **headers)
    assert all(text in page for text in expected), page
