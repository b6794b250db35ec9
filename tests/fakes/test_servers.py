"""The fake model servers speak HTTP/1.1 the way the real APIs do (checked with plain httpx,
below the SDKs): chunked bodies, request ids, real model ids, and faults a client can tell
from a clean end."""

from __future__ import annotations

import httpx2 as httpx
import pytest

from tests.fakes.anthropic_server import FakeAnthropicServer, StatusReply, StreamReply
from tests.fakes.openai_server import ChatReply, FakeOpenAIServer

BODY = {"model": "claude-haiku-4-5", "max_tokens": 10, "stream": True,
        "messages": [{"role": "user", "content": "hi"}]}


def _post(url: str, body: dict[str, object]) -> httpx.Response:
    with httpx.Client(timeout=5) as client:
        response = client.post(url, json=body)
        response.read()
        return response


def test_a_stream_is_chunked_http_1_1_with_a_request_id_and_the_dated_model() -> None:
    with FakeAnthropicServer() as server:
        server.script(StreamReply(["Hi"], ping_every=1, cache_read_input_tokens=7))
        response = _post(server.url + "/v1/messages", BODY)
    assert (response.http_version, response.headers["transfer-encoding"]) == (
        "HTTP/1.1", "chunked")
    assert response.headers["request-id"].startswith("req_011CV")
    text = response.text
    assert '"model": "claude-haiku-4-5-20251001"' in text
    assert '"cache_read_input_tokens": 7' in text
    assert text.count("event: ping") == 2
    assert text.rstrip().endswith('data: {"type": "message_stop"}')


def test_an_abort_is_an_incomplete_body_not_a_clean_end() -> None:
    with FakeAnthropicServer() as server:
        server.script(StreamReply(["Hi", "there"], fault="abort", after=1))
        with pytest.raises(httpx.RemoteProtocolError):
            _post(server.url + "/v1/messages", BODY)


def test_an_early_end_is_a_clean_body_without_message_stop() -> None:
    with FakeAnthropicServer() as server:
        server.script(StreamReply(["Hi", "there"], fault="end", after=1))
        text = _post(server.url + "/v1/messages", BODY).text
    assert "message_stop" not in text and text.count("event: ping") == 4


def test_errors_carry_the_apis_body_retry_after_and_an_unknown_model_is_404() -> None:
    with FakeAnthropicServer() as server:
        server.script(StatusReply(429, "rate_limit_error", "slow down", retry_after="30"))
        limited = _post(server.url + "/v1/messages", BODY)
        unknown = _post(server.url + "/v1/messages", {**BODY, "model": "claude-3-opus"})
    assert (limited.status_code, limited.headers["retry-after"]) == (429, "30")
    assert limited.json()["error"] == {"type": "rate_limit_error", "message": "slow down"}
    assert (unknown.status_code, unknown.json()["error"]["type"]) == (404, "not_found_error")


def test_the_openai_fake_ends_with_usage_and_done() -> None:
    with FakeOpenAIServer() as server:
        server.script(ChatReply(["Hi"], finish_reason="length"))
        response = _post(server.url + "/v1/chat/completions",
                         {"model": "m", "stream": True, "messages": [],
                          "stream_options": {"include_usage": True}})
    events = [line for line in response.text.splitlines() if line.startswith("data: ")]
    assert '"finish_reason": "length"' in events[-3] and '"usage"' in events[-2]
    assert events[-1] == "data: [DONE]"
    assert response.headers["x-request-id"].startswith("req_")
