"""One HTTP request through ``kbqa.asgi.application`` in this process, as Daphne makes
it: for tests of what a client gets, without a listening port."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from asgiref.testing import ApplicationCommunicator

Response = tuple[int, dict[str, str], bytes]


async def asgi_request(
    method: str, path: str, headers: dict[str, str], body: bytes = b"",
    *, application: Any = None,
) -> Response:
    """One request through ``application`` (default ``kbqa.asgi.application``, the whole
    stack Daphne runs): status, headers (lower-case names) and body. An exception the
    application raises is raised here, as Daphne would meet it."""
    if application is None:
        from kbqa.asgi import application

    raw_path, _, query = path.partition("?")
    scope = {
        "type": "http", "http_version": "1.1", "method": method, "scheme": "http",
        "path": unquote(raw_path), "raw_path": raw_path.encode(),  # as Daphne decodes it
        "query_string": query.encode(), "root_path": "",
        "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 80),
        "headers": [(b"host", b"127.0.0.1"),
                    *((k.lower().encode(), v.encode()) for k, v in headers.items())],
    }
    comm = ApplicationCommunicator(application, scope)
    await comm.send_input({"type": "http.request", "body": body})
    start = await comm.receive_output(timeout=30)
    received = b""
    while True:
        message = await comm.receive_output(timeout=30)
        received += message.get("body", b"")
        if not message.get("more_body"):
            break
    await comm.wait(timeout=30)  # Django's request_finished gives the connections back
    found = {k.decode().lower(): v.decode() for k, v in start["headers"]}
    return start["status"], found, received
