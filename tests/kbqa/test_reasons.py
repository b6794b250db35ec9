"""The status line Daphne writes: the API's 429 says "Too Many Requests", not "Unknown Status"."""

from __future__ import annotations

import pytest
from twisted.internet.testing import StringTransport
from twisted.web.http import HTTPChannel, Request

from kbqa.reasons import reason_phrases_complete


@pytest.mark.parametrize(
    ("code", "line"),
    [(429, b"HTTP/1.1 429 Too Many Requests"), (422, b"HTTP/1.1 422 Unprocessable Entity")],
)
def test_the_status_line_names_every_standard_code(code: int, line: bytes) -> None:
    import kbqa.asgi  # noqa: F401  (the server's application completes the table on import)

    channel = HTTPChannel()
    transport = StringTransport()
    channel.makeConnection(transport)
    request = Request(channel)
    request.clientproto = b"HTTP/1.1"
    request.setResponseCode(code)  # as Daphne does, with no phrase of its own
    request.write(b"")

    assert transport.value().split(b"\r\n")[0] == line
    assert reason_phrases_complete() == []  # already complete: nothing left to add
