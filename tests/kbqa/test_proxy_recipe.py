"""README's nginx file in front of a real Daphne, over TLS: uploads get through, a body over the
limit is refused in the app's own words (413 JSON, or a page for a browser) instead of nginx's
1 MB default page or a 502; the browser's port and scheme reach the app; http redirects.

The snippet is read from README.md as written; only the addresses it listens on, the
certificate (a throwaway self-signed one), the upstream port and the static directory are
swapped for the test's own. Daphne runs with the recipe's HTTPS settings. The tests that run
nginx are skipped without nginx or openssl.
"""

from __future__ import annotations

import os
import re
import shutil
import ssl
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.kbqa.live import (
    ROOT,
    Daphne,
    api_key_create,
    daphne,
    free_port,
    manage,
    server_env,
    wait_for_port,
)

MB = 1024 * 1024
UPLOAD = "/admin/sources/document/upload/"
DOCUMENT = ROOT / "sources" / "demo" / "docs" / "doc-001-about-nimbus-works.md"
# The environment file's HTTPS lines (README: Production, step 3).
HTTPS_SETTINGS = {"KBQA_SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto",
                  "KBQA_SECURE_SSL_REDIRECT": "1", "KBQA_SECURE_COOKIES": "1"}


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


@dataclass(frozen=True)
class Proxy:
    port: int  # https
    http_port: int
    server: Daphne
    tls: ssl.SSLContext  # trusts the throwaway certificate

    def url(self, path: str) -> str:
        return f"https://127.0.0.1:{self.port}{path}"


def swapped(snippet: str, old: str, new: str) -> str:
    """``snippet`` with ``old`` (a regular expression) replaced once, or a failed test."""
    result, count = re.subn(old, lambda _match: new, snippet)
    assert count == 1, f"README's nginx snippet no longer has {old!r}"
    return result


def nginx_conf(snippet: str, *, ports: tuple[int, int], upstream: int, work: Path) -> str:
    http_port, tls_port = ports
    server = swapped(snippet, r"listen 443 ssl;", f"listen 127.0.0.1:{tls_port} ssl;")
    server = swapped(server, r"listen 80;", f"listen 127.0.0.1:{http_port};")
    server = swapped(server, r"ssl_certificate +\S+;", f"ssl_certificate {work}/cert.pem;")
    server = swapped(server, r"ssl_certificate_key +\S+;", f"ssl_certificate_key {work}/key.pem;")
    server = swapped(server, r"/srv/kbqa/var/staticfiles/", f"{work}/static/")
    server = swapped(server, r"upstream kbqa \{[^}]*\}",
                     f"upstream kbqa {{ server 127.0.0.1:{upstream}; }}")
    return f"""daemon off; worker_processes 1; pid {work}/nginx.pid; error_log {work}/error.log;
{"user root;" if os.geteuid() == 0 else ""}
events {{}}
http {{
  access_log off;
  client_body_temp_path {work}/body; proxy_temp_path {work}/proxy;
  fastcgi_temp_path {work}/fcgi; uwsgi_temp_path {work}/uwsgi; scgi_temp_path {work}/scgi;
  {server}
}}
"""


def certificate_make(work: Path) -> None:
    """A self-signed certificate for 127.0.0.1, valid for a day: cert.pem and key.pem."""
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(work / "key.pem"), "-out", str(work / "cert.pem")],
        check=True, capture_output=True, timeout=60,
    )


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxy]:
    """README's nginx in front of one Daphne with one document stored."""
    for program in ("nginx", "openssl"):
        if shutil.which(program) is None:
            pytest.skip(f"needs {program}")
    data = tmp_path_factory.mktemp("proxy-data")
    work = tmp_path_factory.mktemp("nginx")
    certificate_make(work)
    manage(server_env(data), "migrate", "--noinput")
    manage(server_env(data), "ingest", str(DOCUMENT))
    with daphne(data, **HTTPS_SETTINGS) as server:
        yield from _nginx(server, work)


def _nginx(server: Daphne, work: Path) -> Iterator[Proxy]:
    ports = (free_port(), free_port())
    conf = work / "nginx.conf"
    conf.write_text(nginx_conf(readme_snippet(), ports=ports, upstream=server.port, work=work))
    proc = subprocess.Popen(["nginx", "-c", str(conf), "-p", str(work)],
                            stderr=subprocess.DEVNULL)
    try:
        wait_for_port(ports[1], proc)
        tls = ssl.create_default_context(cafile=work / "cert.pem")
        yield Proxy(port=ports[1], http_port=ports[0], server=server, tls=tls)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def post(proxy: Proxy, path: str, size: int, content_type: str, **headers: str) -> httpx.Response:
    return httpx.post(proxy.url(path), content=b"x" * size, timeout=60, verify=proxy.tls,
                      headers={"Content-Type": content_type, **headers})


def test_an_upload_over_1_mb_reaches_the_app(proxy: Proxy) -> None:
    response = post(proxy, UPLOAD, 5 * MB, "multipart/form-data; boundary=kbqa")
    # the app's own answer to an anonymous upload, not nginx's "413 Request Entity Too Large"
    assert (response.status_code, response.json()) == (
        403, {"error": "Log in as staff to upload documents.", "code": "forbidden"}
    )


def test_an_upload_over_the_request_limit_is_a_413_json_not_a_502(proxy: Proxy) -> None:
    response = post(proxy, UPLOAD, 120 * MB, "multipart/form-data; boundary=kbqa")
    assert (response.status_code, response.json()) == (
        413, {"error": "The request body is too large (limit 100 MB).", "code": "body_too_large"}
    )


def test_a_browser_upload_over_the_limit_gets_the_apps_page_with_a_link_back(
    proxy: Proxy,
) -> None:
    """The admin's browser keeps a page in its language with a way back, not raw JSON."""
    response = post(
        proxy, UPLOAD, 120 * MB, "multipart/form-data; boundary=kbqa",
        Accept="text/html,application/xhtml+xml,*/*;q=0.8", **{"Accept-Language": "zh-CN"},
        Referer=proxy.url(UPLOAD),
    )
    assert response.status_code == 413
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    assert "请求内容过大（上限 100 MB）。" in response.text
    assert f'<a href="{UPLOAD}">返回</a>' in response.text


@pytest.mark.parametrize("size", [2 * MB, 50 * MB])
def test_a_large_question_body_is_a_413_json_not_a_502(proxy: Proxy, size: int) -> None:
    response = post(proxy, "/api/answer", size, "application/json")
    assert (response.status_code, response.json()) == (
        413, {"error": "The request body is too large (limit 1 MB).", "code": "body_too_large"}
    )


def test_a_question_body_under_1_mb_reaches_the_app(proxy: Proxy) -> None:
    response = post(proxy, "/api/answer", MB - 1024, "application/json")
    assert response.status_code == 401  # the app's "authentication required", not nginx's
    assert response.json()["error"].startswith("Authentication required")


def test_the_apis_absolute_urls_keep_the_browsers_port_and_https(proxy: Proxy) -> None:
    """On a port other than 443, the passage URL the API gives opens (Host $http_host), and
    with the redirect on the page answers instead of redirecting to itself."""
    key = api_key_create(proxy.server.data_dir)
    response = httpx.get(proxy.url("/api/chunks/doc-001%23c01"), verify=proxy.tls, timeout=30,
                         headers={"Authorization": f"Bearer {key}"})
    assert response.status_code == 200
    assert response.json()["url"] == proxy.url("/chunks/doc-001%23c01/")


def test_pages_answer_over_https_and_the_app_redirects_plain_http(proxy: Proxy) -> None:
    through_nginx = httpx.get(proxy.url("/accounts/login/"), verify=proxy.tls, timeout=30)
    direct = httpx.get(f"http://127.0.0.1:{proxy.server.port}/accounts/login/", timeout=30)
    assert through_nginx.status_code == 200
    assert (direct.status_code, direct.headers["location"]) == (
        301, f"https://127.0.0.1:{proxy.server.port}/accounts/login/")


def test_http_is_redirected_to_https(proxy: Proxy) -> None:
    response = httpx.get(f"http://127.0.0.1:{proxy.http_port}/accounts/login/?next=/",
                         headers={"Host": "kb.example.com"}, timeout=30)
    assert (response.status_code, response.headers["location"]) == (
        301, "https://kb.example.com/accounts/login/?next=/")
