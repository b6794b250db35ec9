"""README's nginx snippet in front of a real Daphne: uploads get through, and a body over the
limit is a 413 JSON, not nginx's 1 MB default page or a 502.

The snippet is read from README.md as written; only the address it listens on, the upstream
port and the static directory are swapped for the test's own. Skipped without nginx.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.kbqa.live import ROOT, Daphne, daphne, free_port, wait_for_port

pytestmark = pytest.mark.skipif(shutil.which("nginx") is None, reason="needs nginx")

MB = 1024 * 1024
UPLOAD = "/admin/sources/document/upload/"


def readme_snippet() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"```nginx\n(.*?)```", text, re.S)
    assert match is not None, "README has no nginx snippet"
    return match.group(1)


def test_the_snippet_limits_bodies_as_the_app_does() -> None:
    from django.conf import settings

    snippet = readme_snippet()
    upload = re.search(r"location = /admin/sources/document/upload/ \{[^}]*?(\d+)m;", snippet)
    everywhere = re.search(r"\n      client_max_body_size (\d+)m;", snippet)
    assert upload is not None and int(upload.group(1)) == settings.KBQA_MAX_REQUEST_MB
    assert everywhere is not None
    assert int(everywhere.group(1)) * MB == settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    assert settings.KBQA_MAX_UPLOAD_MB <= settings.KBQA_MAX_REQUEST_MB


def nginx_conf(snippet: str, *, port: int, upstream: int, work: Path) -> str:
    server = (
        snippet.replace("listen 443 ssl;  server_name kb.example.com;", f"listen 127.0.0.1:{port};")
        .replace("/srv/kbqa/var/staticfiles/", f"{work}/static/")
    )
    server = re.sub(r"upstream kbqa \{[^}]*\}", f"upstream kbqa {{ server 127.0.0.1:{upstream}; }}",
                    server)
    return f"""daemon off; worker_processes 1; pid {work}/nginx.pid; error_log {work}/error.log;
{"user root;" if os.geteuid() == 0 else ""}
events {{}}
http {{
  access_log off;
  client_body_temp_path {work}/body; proxy_temp_path {work}/proxy;
  fastcgi_temp_path {work}/fcgi; uwsgi_temp_path {work}/uwsgi; scgi_temp_path {work}/scgi;
  map $http_upgrade $connection_upgrade {{ default upgrade; "" close; }}
  {server}
}}
"""


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """README's nginx in front of one Daphne; yields nginx's port."""
    data = tmp_path_factory.mktemp("proxy-data")
    work = tmp_path_factory.mktemp("nginx")
    with daphne(data) as server:
        yield from _nginx(server, work)


def _nginx(server: Daphne, work: Path) -> Iterator[int]:
    port = free_port()
    conf = work / "nginx.conf"
    conf.write_text(nginx_conf(readme_snippet(), port=port, upstream=server.port, work=work))
    proc = subprocess.Popen(["nginx", "-c", str(conf), "-p", str(work)],
                            stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port, proc)
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def post(port: int, path: str, size: int, content_type: str) -> httpx.Response:
    return httpx.post(
        f"http://127.0.0.1:{port}{path}", content=b"x" * size, timeout=60,
        headers={"Content-Type": content_type, "Host": "127.0.0.1"},
    )


def test_an_upload_over_1_mb_reaches_the_app(proxy: int) -> None:
    response = post(proxy, UPLOAD, 5 * MB, "multipart/form-data; boundary=kbqa")
    # the app's own answer to an anonymous upload, not nginx's "413 Request Entity Too Large"
    assert (response.status_code, response.json()) == (
        403, {"error": "Log in as staff to upload documents.", "code": "forbidden"}
    )


def test_an_upload_over_the_request_limit_is_a_413_json_not_a_502(proxy: int) -> None:
    response = post(proxy, UPLOAD, 120 * MB, "multipart/form-data; boundary=kbqa")
    assert (response.status_code, response.json()) == (
        413, {"error": "The request body is too large (limit 100 MB).", "code": "body_too_large"}
    )


@pytest.mark.parametrize("size", [2 * MB, 50 * MB])
def test_a_large_question_body_is_a_413_json_not_a_502(proxy: int, size: int) -> None:
    response = post(proxy, "/api/answer", size, "application/json")
    assert (response.status_code, response.json()) == (
        413, {"error": "The request body is too large (limit 1 MB).", "code": "body_too_large"}
    )


def test_a_question_body_under_1_mb_reaches_the_app(proxy: int) -> None:
    response = post(proxy, "/api/answer", MB - 1024, "application/json")
    assert response.status_code == 401  # the app's "authentication required", not nginx's
    assert response.json()["error"].startswith("Authentication required")
