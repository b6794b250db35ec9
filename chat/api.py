"""The HTTP API: one question in, the same pipeline events out, as JSON or Server-Sent Events.

``POST /api/answer`` body ``{"question": str, "conversation": int?, "fabricate": bool?}``
returns ``{"conversation", "trace_id", "status", "answer", "sentences": [{"text",
"citations"}], "dropped": [{"citations", "reasons"}], "refusal": {...} | null, "sources":
[{"n", "chunk_id", "title", "updated", "url", "api_url"}]}`` (``url``: the chunk's HTML page, for a
person with a browser session; ``api_url``: its JSON at ``/api/chunks/<id>``, which a Bearer
client can fetch). ``POST /api/answer/stream`` takes the same
body and streams every event as ``event: <name>`` / ``data: <json>`` frames, ``done`` last;
the ``meta`` and ``done`` data carry ``"conversation"`` too, and so does the
``Kbqa-Conversation`` response header.

Conversations: every answer is stored in one, as in the browser. Without ``"conversation"``
the API starts a new one owned by the caller (it appears in their chat sidebar, titled by the
question) and returns its id; send that id back to ask a follow-up with the earlier turns as
context. A request refused before the answer starts (4xx, provider unavailable) creates none.

Errors are ``{"error": "<message>"}`` with 400 (bad input), 401 (no or invalid credentials),
403 (CSRF failure, someone else's conversation), 404 (unknown conversation), 405 (not POST),
413 (question longer than ``KBQA_MAX_QUESTION_CHARS`` characters), 503 (provider unavailable
or failing). Auth: ``chat.auth.api_authenticate`` (bearer token, or session + CSRF).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt

from chat.auth import api_authenticate
from chat.models import Conversation
from chat.questions import question_clean, question_too_long
from chat.selectors import chunk_url, conversation_get_for
from chat.services import (
    AnswerOutcome,
    answer_run,
    conversation_history,
    conversation_start,
    message_record_answer,
    message_record_user,
    provider_from_settings,
)
from kbqa.core.errors import ConfigError, ProviderError
from kbqa.core.providers.base import Provider
from kbqa.core.types import Done, Dropped, Error, Event, Meta, Mode, Turn, event_payload

log = logging.getLogger(__name__)


class ApiError(Exception):
    """A request the API refuses; ``status`` is the HTTP status, the message is shown as is."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def error_response(status: int, message: str, **extra: Any) -> JsonResponse:
    """``{"error": message, **extra}`` with HTTP ``status``; a 405 names POST in ``Allow``."""
    response = JsonResponse({"error": message, **extra}, status=status)
    if status == 405:
        response["Allow"] = "POST"
    return response


@dataclass(frozen=True)
class AnswerInput:
    question: str
    conversation_id: int | None = None
    fabricate: bool | None = None


def parse_answer_input(body: bytes) -> AnswerInput:
    """Validate a request body. Raises ``ApiError`` 400 (shape, types, empty) or 413 (length)."""
    try:
        payload = json.loads(body or b"")
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "The request body must be JSON.") from None
    if not isinstance(payload, dict):
        raise ApiError(400, 'The request body must be a JSON object like {"question": "..."}.')
    question, conversation, fabricate = (
        payload.get("question"),
        payload.get("conversation"),
        payload.get("fabricate"),
    )
    question = question_clean(question) if isinstance(question, str) else ""
    if not question:
        raise ApiError(400, "'question' is required and must be a non-empty string.")
    too_long = question_too_long(question)
    if too_long is not None:
        raise ApiError(413, too_long)
    if conversation is not None and (
        isinstance(conversation, bool) or not isinstance(conversation, int)
    ):
        raise ApiError(400, "'conversation' must be an integer conversation id.")
    if fabricate is not None and not isinstance(fabricate, bool):
        raise ApiError(400, "'fabricate' must be true or false.")
    return AnswerInput(question, conversation, fabricate)


@dataclass
class Prepared:
    """A validated, authorised request, ready to run."""

    user: AbstractBaseUser
    data: AnswerInput
    provider: Provider
    conversation: Conversation | None = None
    history: tuple[Turn, ...] = ()
    dropped: list[dict[str, Any]] = field(default_factory=list)


def _conversation_and_history(
    conversation_id: int, user: AbstractBaseUser
) -> tuple[Conversation, tuple[Turn, ...]]:
    try:
        conversation = conversation_get_for(conversation_id=conversation_id, user=user)
    except Conversation.DoesNotExist:
        raise ApiError(404, f"Conversation {conversation_id} does not exist.") from None
    except PermissionDenied as exc:
        raise ApiError(403, str(exc)) from None
    return conversation, conversation_history(conversation=conversation)


async def prepare(request: HttpRequest) -> Prepared:
    """Method, credentials, body, conversation and provider, in that order. Raises ApiError."""
    if request.method != "POST":
        raise ApiError(405, "Use POST.")
    auth = await api_authenticate(request)
    if auth.user is None:
        raise ApiError(auth.status, auth.error)
    data = parse_answer_input(request.body)
    conversation, history = None, ()
    if data.conversation_id is not None:
        conversation, history = await sync_to_async(_conversation_and_history)(
            data.conversation_id, auth.user
        )
    try:
        provider = provider_from_settings()
    except (ConfigError, ProviderError) as exc:
        raise ApiError(503, f"The answer provider is unavailable: {exc}") from None
    if conversation is None:
        conversation = await sync_to_async(conversation_start)(owner=auth.user)
    return Prepared(auth.user, data, provider, conversation, tuple(history))


async def run_events(prep: Prepared, outcome: AnswerOutcome, *, mode: Mode) -> AsyncIterator[Event]:
    """``answer_run`` for ``prep``: events pass through ``outcome``; the turn is stored after.

    A failure outside the pipeline (it catches its own) becomes ``Error`` + ``Done``.
    """
    if prep.conversation is not None:
        await sync_to_async(message_record_user)(
            conversation=prep.conversation, text=prep.data.question
        )
    try:
        async with aclosing(
            answer_run(
                question=prep.data.question,
                user=prep.user,
                conversation=prep.conversation,
                history=prep.history,
                provider=prep.provider,
                fabricate=prep.data.fabricate,
                mode=mode,
            )
        ) as events:
            async for ev in events:
                _collect(prep, outcome, ev)
                yield ev
    except Exception:
        log.exception("answer failed outside the pipeline")
        for ev in _failure(outcome):
            _collect(prep, outcome, ev)
            yield ev
    finally:
        await asyncio.shield(_finish(prep, outcome))


def _collect(prep: Prepared, outcome: AnswerOutcome, ev: Event) -> None:
    outcome.add(ev)
    if isinstance(ev, Dropped):
        prep.dropped.append({"citations": list(ev.citations), "reasons": list(ev.reasons)})


def _failure(outcome: AnswerOutcome) -> list[Event]:
    message = "The answer could not be produced because of an internal error; please try again."
    return [
        Error(message=message),
        Done(
            status="error",
            emitted=len(outcome.sentences),
            dropped=outcome.dropped,
            trace_id=outcome.trace_id,
        ),
    ]


async def _finish(prep: Prepared, outcome: AnswerOutcome) -> None:
    try:
        if prep.conversation is not None:
            await sync_to_async(message_record_answer)(
                conversation=prep.conversation, outcome=outcome
            )
    finally:
        await prep.provider.aclose()


def conversation_id(prep: Prepared) -> int | None:
    """The conversation the answer belongs to (primary key), None when there is none."""
    return prep.conversation.pk if prep.conversation is not None else None


def answer_body(request: HttpRequest, prep: Prepared, outcome: AnswerOutcome) -> dict[str, Any]:
    """The non-streaming JSON contract (see the module docstring)."""
    return {
        "conversation": conversation_id(prep),
        "trace_id": outcome.trace_id,
        "status": outcome.status,
        "answer": outcome.text,
        "sentences": [
            {"text": s["text"], "citations": list(s["citations"])} for s in outcome.sentences
        ],
        "dropped": prep.dropped,
        "refusal": outcome.refusal,
        "sources": [
            {
                "n": b["n"],
                "chunk_id": b["chunk_id"],
                "title": b.get("title", ""),
                "updated": b.get("updated", ""),
                "url": request.build_absolute_uri(chunk_url(b["chunk_id"])),
                "api_url": request.build_absolute_uri(
                    reverse("sources:chunk-api", args=[b["chunk_id"]])
                ),
            }
            for b in outcome.citations()
        ],
    }


@csrf_exempt
async def answer_json(request: HttpRequest) -> HttpResponse:
    """``POST /api/answer``: run the JSON-mode pipeline to the end and return the contract."""
    try:
        prep = await prepare(request)
    except ApiError as exc:
        return error_response(exc.status, str(exc))
    outcome = AnswerOutcome()
    async with aclosing(run_events(prep, outcome, mode="json")) as events:
        async for _ in events:
            pass
    if outcome.status == "error":
        return error_response(
            503,
            outcome.error or "The answer provider failed.",
            trace_id=outcome.trace_id,
            conversation=conversation_id(prep),
        )
    return JsonResponse(
        answer_body(request, prep, outcome), json_dumps_params={"ensure_ascii": False}
    )


def sse_frame(ev: Event, *, conversation: int | None = None) -> str:
    """One Server-Sent Events frame: ``event: <name>\\ndata: <one-line JSON>\\n\\n``.

    ``conversation`` is added to the data of ``meta`` and ``done`` (the first and last frame).
    """
    payload = event_payload(ev)
    data = payload["data"]
    if conversation is not None and isinstance(ev, Meta | Done):
        data = {**data, "conversation": conversation}
    return f"event: {payload['event']}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


# An SSE comment line; clients ignore it, proxies see traffic. 15 s stays under the common
# 30-60 s idle timeouts of reverse proxies and load balancers.
KEEPALIVE_FRAME = ": keep-alive\n\n"
KEEPALIVE_SECONDS = 15.0


async def with_keepalive(
    frames: AsyncGenerator[str, None], *, every: float = KEEPALIVE_SECONDS
) -> AsyncIterator[str]:
    """``frames`` unchanged, plus ``KEEPALIVE_FRAME`` after each ``every`` seconds of silence.

    The pending frame is awaited, never cancelled, by the timeout (cancelling it would cancel
    the answer); closing this generator cancels the pending step and closes ``frames``.
    """
    pending: asyncio.Future[str] | None = None
    try:
        while True:
            if pending is None:
                pending = asyncio.ensure_future(anext(frames))
            done, _ = await asyncio.wait({pending}, timeout=every)
            if not done:
                yield KEEPALIVE_FRAME
                continue
            step, pending = pending, None
            try:
                frame = step.result()
            except StopAsyncIteration:
                return
            yield frame
    finally:
        if pending is not None:
            pending.cancel()
            await asyncio.gather(pending, return_exceptions=True)
        await frames.aclose()


async def _sse(prep: Prepared) -> AsyncGenerator[str, None]:
    async with aclosing(run_events(prep, AnswerOutcome(), mode="stream")) as events:
        async for ev in events:
            yield sse_frame(ev, conversation=conversation_id(prep))


@csrf_exempt
async def answer_stream(request: HttpRequest) -> HttpResponse:
    """``POST /api/answer/stream``: the stream-mode events as ``text/event-stream``."""
    try:
        prep = await prepare(request)
    except ApiError as exc:
        return error_response(exc.status, str(exc))
    response = StreamingHttpResponse(
        with_keepalive(_sse(prep)), content_type="text/event-stream; charset=utf-8"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # tell nginx-style proxies not to buffer the stream
    response["Kbqa-Conversation"] = str(conversation_id(prep))
    return response
