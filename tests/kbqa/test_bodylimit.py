"""Request bodies are bounded before they are buffered (issue 15, item 1).

Through a real Daphne: a 200 MB body is refused with 413 JSON at once and the server's memory
stays bounded; a body without Content-Length is cut off at the limit. Through the ASGI
application itself: the answer API refuses an anonymous caller without reading the body.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import select
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.kbqa.live import Daphne, api_key_create, daphne

MB = 1024 * 1024


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daphne]:
    with daphne(tmp_path_factory.mktemp("kbqa-bodylimit"), KBQA_QUESTIONS_PER_MINUTE="2") as live:
        yield live


@pytest.fixture(scope="module")
def api_key(server: Daphne) -> str:
    return api_key_create(server.data_dir)


def api_post(port: int, key: str, body: bytes) -> tuple[int, dict[str, str], dict[str, Any]]:
    """POST ``body`` to ``/api/answer`` with a bearer token: (status, headers, JSON body)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
    connection.request("POST", "/api/answer", body=body, headers=headers)
    response = connection.getresponse()
    answer = (response.status, dict(response.getheaders()), json.loads(response.read()))
    connection.close()
    return answer


def post_large(
    port: int,
    path: str,
    size: int,
    *,
    chunked: bool = False,
    content_type: str = "application/json",
) -> tuple[int, dict[str, str], int]:
    """POST ``size`` bytes of ``a``; stop sending once the server answers.

    Returns (status, JSON body, bytes sent before the answer came).
    """
    head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {content_type}\r\n"
    head += "Transfer-Encoding: chunked\r\n\r\n" if chunked else f"Content-Length: {size}\r\n\r\n"
    block = b"a" * 65536
    piece = b"%x\r\n%s\r\n" % (len(block), block) if chunked else block
    sent, response = 0, b""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(head.encode("ascii"))
        while sent < size and b"\r\n\r\n" not in response:
            readable, writable, _ = select.select([sock], [sock], [], 10)
            if readable:
                data = sock.recv(65536)
                if not data:
                    break
                response += data
            elif writable:
                try:
                    sock.sendall(piece)
                except (BrokenPipeError, ConnectionResetError):
                    continue  # the server closed after answering: read the answer
                sent += len(block)
        while response.count(b"\r\n\r\n") < 1 or not response.endswith(b"}"):
            data = sock.recv(65536)
            if not data:
                break
            response += data
    head_part, _, body = response.partition(b"\r\n\r\n")
    status = int(head_part.split(b" ", 2)[1])
    return status, json.loads(body), sent


def test_a_200_mb_body_is_refused_at_once_and_memory_stays_bounded(server: Daphne) -> None:
    started = time.monotonic()
    status, body, sent = post_large(server.port, "/api/answer", 200 * MB)
    assert status == 413
    assert body == {"error": "The request body is too large (limit 1 MB).",
                    "code": "body_too_large"}
    assert sent < 20 * MB  # refused from the header, not after receiving the body
    assert time.monotonic() - started < 5
    assert server.peak_rss_mb() < 300


def test_a_200_mb_anonymous_upload_to_the_admin_is_refused_at_once(server: Daphne) -> None:
    status, body, sent = post_large(
        server.port, "/admin/sources/document/upload/", 200 * MB,
        content_type="multipart/form-data; boundary=kbqa",
    )
    assert (status, body) == (413, {"error": "The request body is too large (limit 100 MB).",
                                  "code": "body_too_large"})
    assert sent < 20 * MB
    assert server.peak_rss_mb() < 300


def test_a_body_without_content_length_is_cut_off_at_the_limit(server: Daphne) -> None:
    status, body, sent = post_large(server.port, "/api/answer", 50 * MB, chunked=True)
    assert (status, body) == (413, {"error": "The request body is too large (limit 1 MB).",
                                  "code": "body_too_large"})
    assert sent < 20 * MB
    assert server.peak_rss_mb() < 300


def test_the_answer_api_refuses_an_anonymous_caller_before_the_body(server: Daphne) -> None:
    status, body, _ = post_large(server.port, "/api/answer", 512 * 1024)
    assert status == 401
    assert body["error"].startswith("Authentication required")


def test_json_nested_100000_deep_is_a_400_json_error(server: Daphne, api_key: str) -> None:
    status, headers, body = api_post(server.port, api_key, b"[" * 100_000 + b"]" * 100_000)
    assert (status, headers["Content-Type"]) == (400, "application/json")
    assert body == {"error": "The request body is JSON nested too deeply.", "code": "invalid_json"}


def test_questions_over_the_minute_limit_get_429_with_retry_after(
    server: Daphne, api_key: str
) -> None:
    question = json.dumps({"question": "How long is the recycle bin kept?"}).encode()
    # Five, not three: a one-minute window may end between two of them (windows are fixed).
    answers = [api_post(server.port, api_key, question) for _ in range(5)]
    statuses = [status for status, _h, _b in answers]
    assert statuses[:2] == [200, 200] and 429 in statuses
    _status, headers, body = answers[statuses.index(429)]
    assert 1 <= int(headers["Retry-After"]) <= 60
    assert body["error"].startswith("You have asked 2 questions in a minute, the most allowed.")


def status_line(port: int, request: bytes) -> bytes:
    """The first line of the server's answer to raw ``request`` (no body sent)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(request)
        response = b""
        while b"\r\n" not in response:
            data = sock.recv(65536)
            if not data:
                break
            response += data
    return response.split(b"\r\n", 1)[0]


def test_every_413_gives_one_reason_phrase(server: Daphne, api_key: str) -> None:
    """A body refused from its Content-Length and the API's too-long question say the same
    (RFC 9110's "Content Too Large"), not Twisted's older "Request Entity Too Large"."""
    refused = status_line(server.port, b"POST /api/answer HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          b"Content-Length: %d\r\n\r\n" % (200 * MB))
    question = json.dumps({"question": "x" * 3000}).encode()
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    connection.request("POST", "/api/answer", body=question, headers={
        "Authorization": f"Bearer {api_key}", "Content-Type": "application/json"})
    response = connection.getresponse()
    too_long = (response.status, response.reason)
    connection.close()
    assert refused == b"HTTP/1.1 413 Content Too Large"
    assert too_long == (413, "Content Too Large")


# ----------------------------------------------------------------- the ASGI layer alone


async def call_app(
    path: str,
    headers: list[tuple[bytes, bytes]],
    chunks: list[bytes],
    sent_headers: list[tuple[bytes, bytes]] | None = None,
) -> tuple[int, dict[str, str], int]:
    """Run ``kbqa.asgi.application`` on one HTTP request; count the body messages it read.
    ``sent_headers`` (given) receives the response's headers."""
    from kbqa.asgi import application

    reads, sent = 0, []
    scope = {
        "type": "http", "method": "POST", "path": path, "raw_path": path.encode(),
        "query_string": b"", "headers": [(b"host", b"127.0.0.1"), *headers],
        "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80), "scheme": "http",
        "http_version": "1.1", "root_path": "",
    }

    async def receive() -> dict[str, object]:
        nonlocal reads
        if reads >= len(chunks):  # the body is over: Django now waits for a disconnect
            await asyncio.Event().wait()
        reads += 1
        return {"type": "http.request", "body": chunks[reads - 1], "more_body": reads < len(chunks)}

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    await application(scope, receive, send)
    status = int(sent[0]["status"])  # type: ignore[call-overload]
    if sent_headers is not None:
        sent_headers.extend(sent[0]["headers"])  # type: ignore[arg-type]
    body = b"".join(m.get("body", b"") for m in sent[1:])  # type: ignore[misc]
    try:
        return status, json.loads(body), reads
    except ValueError:
        return status, {"html": body.decode()}, reads


@pytest.mark.django_db(transaction=True)
async def test_asgi_refuses_an_anonymous_api_call_without_reading_the_body() -> None:
    status, body, reads = await call_app(
        "/api/answer", [(b"content-type", b"application/json")], [b'{"question": "hi"}']
    )
    assert status == 401
    assert body["error"].startswith("Authentication required")
    assert reads == 0


@pytest.mark.django_db(transaction=True)
async def test_asgi_refuses_an_invalid_token_without_reading_the_body() -> None:
    sent: list[tuple[bytes, bytes]] = []
    status, body, reads = await call_app(
        "/api/answer", [(b"authorization", b"Bearer nope")], [b'{"question": "hi"}'], sent
    )
    assert (status, body, reads) == (
        401, {"error": "Invalid API token.", "code": "invalid_token"}, 0)
    assert (b"www-authenticate", b'Bearer realm="kbqa", error="invalid_token"') in sent


async def test_asgi_refuses_a_declared_size_over_the_limit_without_reading() -> None:
    status, body, reads = await call_app(
        "/accounts/login/", [(b"content-length", str(2 * MB).encode())], [b"x" * 10]
    )
    assert (status, reads) == (413, 0)
    assert body == {"error": "The request body is too large (limit 1 MB).",
                    "code": "body_too_large"}


async def test_asgi_counts_a_body_without_content_length() -> None:
    status, body, reads = await call_app("/accounts/login/", [], [b"x" * (256 * 1024)] * 8)
    assert status == 413
    assert reads == 5  # the fifth 256 KB chunk passes 1 MB: nothing after it is read
    assert body == {"error": "The request body is too large (limit 1 MB).",
                    "code": "body_too_large"}



BROWSER = [(b"accept", b"text/html,application/xhtml+xml,*/*;q=0.8")]


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (b"en-GB,en;q=0.9", ["The request body is too large (limit 1 MB).", "fewer or smaller"]),
        (b"zh-CN,zh;q=0.9", ["请求内容过大（上限 1 MB）。", "每次上传更少或更小的文件"]),
    ],
)
async def test_asgi_shows_a_browser_a_page_in_its_language_not_json(
    language: bytes, expected: list[str]
) -> None:
    """An admin posting too many files at once sees a page saying what to do, not raw JSON in
    place of the admin; API clients keep the JSON above."""
    sent: list[tuple[bytes, bytes]] = []
    headers = [*BROWSER, (b"accept-language", language), (b"content-length", b"%d" % (2 * MB))]
    status, body, reads = await call_app("/accounts/login/", headers, [b"x"], sent)
    assert (status, reads) == (413, 0)
    assert (b"content-type", b"text/html; charset=utf-8") in sent
    assert all(text in body["html"] for text in expected)


def test_daphne_shows_a_browser_upload_over_the_limit_a_page(server: Daphne) -> None:
    head = (
        f"POST /admin/sources/document/upload/ HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        "Accept: text/html\r\nAccept-Language: zh-CN\r\n"
        f"Referer: http://127.0.0.1:{server.port}/admin/sources/document/upload/\r\n"
        "Content-Type: multipart/form-data; boundary=kbqa\r\n"
        f"Content-Length: {200 * MB}\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(head.encode("ascii"))
        response = b""
        while data := sock.recv(65536):
            response += data
    head_part, _, body = response.partition(b"\r\n\r\n")
    assert head_part.startswith(b"HTTP/1.1 413 ")
    assert b"Content-Type: text/html; charset=utf-8" in head_part
    assert "请求内容过大（上限 100 MB）。" in body.decode("utf-8")
    assert '<a href="/admin/sources/document/upload/">返回</a>' in body.decode("utf-8")

@pytest.mark.django_db(transaction=True)
async def test_asgi_refuses_an_upload_from_a_non_staff_session_without_reading() -> None:
    from tests.chat.support import session_cookie, user_make

    member = await user_make("pat")
    cookie = f"sessionid={await session_cookie(member)}".encode()
    status, body, reads = await call_app(
        "/admin/sources/document/upload/", [(b"cookie", cookie)], [b"--kbqa--"]
    )
    assert (status, body, reads) == (403, {"error": "Log in as staff to upload documents.",
                                 "code": "forbidden"}, 0)


@pytest.mark.django_db(transaction=True)
async def test_asgi_lets_staff_upload_requests_through_to_the_body() -> None:
    from tests.chat.support import session_cookie, user_make

    staff = await user_make("sam", staff=True)
    cookie = f"sessionid={await session_cookie(staff)}".encode()
    _status, _body, reads = await call_app(
        "/admin/sources/document/upload/", [(b"cookie", cookie)], [b"--kbqa--"]
    )
    assert reads == 1


BAD_LENGTHS = [(b"abc", "'abc'"), (b"-5", "'-5'")]


def length_refusal(shown: str) -> dict[str, str]:
    return {"error": f"The Content-Length header {shown} is not a size in bytes (a whole "
                     "number, 0 or more).", "code": "invalid_content_length"}


@pytest.mark.parametrize(("value", "shown"), BAD_LENGTHS)
def test_daphne_answers_a_content_length_that_is_no_number_with_json(
    server: Daphne, value: bytes, shown: str
) -> None:
    # Twisted answered "400 Bad Request" with no body at all
    head = (b"POST /api/answer HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: %s\r\n\r\n{}" % value)
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(head)
        response = b""
        while data := sock.recv(65536):
            response += data
    head_part, _, body = response.partition(b"\r\n\r\n")
    assert head_part.startswith(b"HTTP/1.1 400 Bad Request\r\n")
    assert b"Content-Type: application/json" in head_part
    assert json.loads(body) == length_refusal(shown)


@pytest.mark.parametrize(("value", "shown"), BAD_LENGTHS)
async def test_asgi_answers_a_content_length_that_is_no_number_with_json(
    value: bytes, shown: str
) -> None:
    status, body, reads = await call_app("/api/answer", [(b"content-length", value)], [b"{}"])
    assert (status, body, reads) == (400, length_refusal(shown), 0)
