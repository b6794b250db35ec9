"""A local fake of an OpenAI-compatible chat completions server (Ollama, vLLM, llama.cpp),
for driving the real ``openai`` SDK (no network).

``FakeOpenAIServer`` answers ``POST /v1/chat/completions`` with the next scripted reply,
over HTTP/1.1 with chunked transfer and an ``x-request-id`` header:

- ``ChatReply``: SSE ``data:`` lines, each a ``chat.completion.chunk`` (the first with
  ``delta.role``, one per text delta, the last with ``finish_reason``: ``stop``, ``length``,
  ``content_filter``), then, when the request set ``stream_options.include_usage``, a chunk
  with empty ``choices`` and ``usage`` (``prompt_tokens_details.cached_tokens``), then
  ``data: [DONE]``. ``fault`` breaks it after ``after`` deltas like the Anthropic fake:
  "error" (``data: {"error": ...}``, as vLLM sends), "abort", "stall", "end" (the body ends
  without a finish_reason or ``[DONE]``).
- ``ChatStatusReply``: an HTTP error with OpenAI's JSON error body
  (``{"error": {"message", "type", "param", "code"}}``) and an optional ``retry-after``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Literal

from tests.fakes.http_server import FakeServer, StreamingHandler, sse

Fault = Literal["error", "abort", "stall", "end"]


@dataclass(frozen=True)
class ChatReply:
    deltas: tuple[str, ...] | list[str] = ("OK.",)
    finish_reason: str = "stop"
    prompt_tokens: int = 40
    completion_tokens: int = 9
    cached_tokens: int = 0
    fault: Fault | None = None
    after: int = 0


@dataclass(frozen=True)
class ChatStatusReply:
    status: int
    error_type: str
    message: str = "scripted error"
    code: str | None = None
    retry_after: str | None = None


def _chunk(model: str, delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"id": "chatcmpl-fake01", "object": "chat.completion.chunk",
            "created": int(time.time()), "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


class _Handler(StreamingHandler):
    request_id_header = "x-request-id"
    request_id_prefix = "req_"

    def respond(self, reply: Any, body: dict[str, Any]) -> None:
        if isinstance(reply, ChatStatusReply):
            error = {"message": reply.message, "type": reply.error_type, "param": None,
                     "code": reply.code}
            headers = {"retry-after": reply.retry_after} if reply.retry_after else {}
            self.send_json(reply.status, {"error": error}, headers)
            return
        usage = bool((body.get("stream_options") or {}).get("include_usage"))
        try:
            self._stream(reply, str(body.get("model", "")), usage)
        except (BrokenPipeError, ConnectionResetError):
            return

    def _stream(self, reply: ChatReply, model: str, usage: bool) -> None:
        self.start_stream()
        self.chunk(sse(_chunk(model, {"role": "assistant", "content": ""})))
        for i, d in enumerate(reply.deltas):
            if reply.fault is not None and i == reply.after:
                self._fault(reply.fault)
                return
            self.chunk(sse(_chunk(model, {"content": d})))
        if reply.fault is not None:
            self._fault(reply.fault)
            return
        self.chunk(sse(_chunk(model, {}, reply.finish_reason)))
        if usage:
            self.chunk(sse({**_chunk(model, {}), "choices": [], "usage": {
                "prompt_tokens": reply.prompt_tokens,
                "completion_tokens": reply.completion_tokens,
                "total_tokens": reply.prompt_tokens + reply.completion_tokens,
                "prompt_tokens_details": {"cached_tokens": reply.cached_tokens}}}))
        self.chunk(sse("[DONE]"))
        self.end_stream()

    def _fault(self, fault: Fault) -> None:
        if fault == "error":
            self.chunk(sse({"error": {"message": "The server is overloaded", "type":
                                      "server_error", "param": None, "code": None}}))
            self.end_stream()
        elif fault == "abort":
            self.abort()
        elif fault == "stall":
            self.stall()
        else:
            self.end_stream()


class FakeOpenAIServer(FakeServer):
    """The fake chat completions server; point the SDK at ``server.url + "/v1"``."""

    handler = _Handler

    def default_reply(self) -> ChatReply:
        return ChatReply()

    def __enter__(self) -> FakeOpenAIServer:
        super().__enter__()
        return self
