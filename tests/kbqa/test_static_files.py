"""Static files as a local run serves them (``KBQA_SERVE_STATIC``, ``make run``), through
the HTTP stack Daphne runs (``kbqa.asgi.http_application``)."""

from __future__ import annotations

import logging

import pytest

from tests.kbqa.asgi_requests import asgi_request

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def served():
    from kbqa.asgi import http_application

    return http_application(serve_static=True)


@pytest.mark.parametrize("path", [
    "/static/..%2fvar%2fdemo-login.txt",  # a trial's probe for the demo login file
    "/static/..%2f..%2fetc%2fpasswd",
    "/static/css/..%2f..%2f..%2fkbqa%2fsettings.py",
])
async def test_a_path_out_of_the_static_folders_is_the_apps_404_page_without_a_traceback(
    served, caplog: pytest.LogCaptureFixture, path: str
) -> None:
    """It was a 500 page, with SuspiciousFileOperation's traceback in the server log."""
    with caplog.at_level(logging.INFO):
        status, headers, body = await asgi_request("GET", path, {}, application=served)
    assert status == 404
    assert headers["content-type"].startswith("text/html")
    assert 'data-status="404"' in body.decode()
    assert "password" not in body.decode()
    assert [r.exc_info for r in caplog.records] == [None] * len(caplog.records)
    assert [(r.levelname, r.getMessage().split(":")[0]) for r in caplog.records] == [
        ("WARNING", "Static file outside the static folders refused")]


async def test_a_static_file_is_still_served(served) -> None:
    status, headers, body = await asgi_request("GET", "/static/favicon.svg", {},
                                               application=served)
    assert status == 200
    assert body.startswith(b"<svg")
