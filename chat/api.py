"""The HTTP API: one question in, the same pipeline events out, as JSON or Server-Sent Events.

``POST /api/answer`` body ``{"question": str, "conversation": int?, "fabricate": bool?}``
returns ``{"conversation", "trace_id", "status", "answer", "sentences": [{"text",
"citations"}], "notices": [str], "dropped": [{"citations", "reasons"}], "refusal": {...} | null,
"sources":
[{"n", "label", "chunk_id", "title", "section", "updated", "authority", "url",
"api_url"}]}`` (``notices``: the
notices shown with the answer: the authority notices SSE sends in ``meta.notices``, and a
notice per archived document a sentence cites, which SSE sends as ``notice`` events; empty
with a refusal. ``n``: the block number the
sentences' ``citations`` use; ``label``: the number a reader sees on the chip, 1, 2, 3… in
order of first citation, the order of this list; ``url``: the chunk's HTML page, for a
person with a browser session; ``api_url``: its JSON at ``/api/chunks/<id>``, which a Bearer
client can fetch; a refusal's closest ``documents`` and its conflict's ``sides`` carry
both too). ``POST /api/answer/stream`` takes the same
body and streams every event as ``event: <name>`` / ``data: <json>`` frames, ``done`` last;
the ``meta`` and ``done`` data carry ``"conversation"`` too, and so does the
``Kbqa-Conversation`` response header (of both endpoints).

Conversations: every answer is stored in one, as in the browser. Without ``"conversation"``
the API starts a new one owned by the caller, titled by the question and marked
``via_api``: the chat sidebar lists such conversations apart, under "Started through the
API", so scripted calls do not bury the browser's own; it returns the id; send that id back
to ask a follow-up with the earlier turns as context. A request refused before the answer
starts (4xx, provider unavailable) creates none.

Errors are ``{"error": "<message>", "code": "<code>"}`` (the message English whatever the
request's language; the code for programs, README lists them) with 400 (bad input,
including JSON nested too deeply),
401 (no or invalid credentials), 403 (CSRF failure), 404 (unknown conversation, or someone
else's), 405 (not POST), 413 (question longer than ``KBQA_MAX_QUESTION_CHARS`` characters),
429 with ``Retry-After`` (``chat.limits``: too many questions a minute for the user or the
token, or an answer still running in that conversation; no model call is made), 503 (provider
unavailable or failing; with ``Retry-After: <seconds>`` when retrying makes sense: the
provider's own ``retry-after``, else ``chat.outcomes.DEFAULT_RETRY_AFTER``;
``service_unavailable``: ``chat.limits`` could not reach Redis, ``Retry-After: 5``; or
``service_busy``: the database stayed locked or cannot be reached, ``Retry-After: 5``),
never an HTML error page (``json_errors`` around the views; ``kbqa.urls.server_error`` and
``kbqa.servererror`` for what fails before them: the token or session read). A stream that
fails once started ends with ``error`` and ``done`` frames (``_sse``). Auth:
``chat.auth.api_authenticate`` (bearer token, or session + CSRF). ``"fabricate": true`` is
honoured only where ``chat.auth.fabricate_allowed`` says so (403 ``fabricate_not_allowed``
otherwise: a client is told, not silently given an ordinary answer).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils import translation
from django.views.decorators.csrf import csrf_exempt

from chat.api_body import answer_body, refusal_body
from chat.api_errors import (
    RETRY_AFTER_SECONDS,
    UNAVAILABLE,
    ApiError,
    api_caller,
    error_response,
    failure_message,
    json_errors,
    json_object,
)
from chat.auth import fabricate_allowed
from chat.turns import (
    AnswerOutcome,
    TurnOpened,
    TurnRejected,
    TurnRequest,
    answer_turn,
    question_checked,
)
from kbqa.core.text.normalise import detect_language
from kbqa.core.types import Done, Error, Event, Meta, Mode, Notice, Refusal, event_payload

log = logging.getLogger(__name__)

# HTTP status of each reason the turn service rejects a turn for. Someone else's
# conversation is a 404 like a missing one: the API does not say which ids exist.
REJECTED_STATUS = {
    "empty": 400, "too_long": 413, "not_found": 404, "provider_unavailable": 503, "limited": 429,
    "busy": 429, "unavailable": 503,
}
REJECTED_CODE = {
    "empty": "empty_question", "too_long": "question_too_long",
    "not_found": "conversation_not_found", "provider_unavailable": "provider_unavailable",
    "limited": "rate_limited", "busy": "conversation_busy", "unavailable": "service_unavailable",
}
# The turn service's message where it speaks to the chat page ("your question was not sent").
REJECTED_MESSAGE = {"unavailable": UNAVAILABLE}


def _rejected(exc: TurnRejected) -> ApiError:
    return ApiError(REJECTED_STATUS[exc.reason], REJECTED_MESSAGE.get(exc.reason, str(exc)),
                    code=REJECTED_CODE[exc.reason], retry_after=exc.retry_after)


@dataclass(frozen=True)
class AnswerInput:
    question: str
    conversation_id: int | None = None
    fabricate: bool | None = None


def parse_answer_input(body: bytes) -> AnswerInput:
    """Validate a request body. Raises ``ApiError`` 400 (shape, types, empty) or 413 (length)."""
    payload = json_object(body, '{"question": "..."}')
    question, conversation, fabricate = (
        payload.get("question"),
        payload.get("conversation"),
        payload.get("fabricate"),
    )
    if question is not None and not isinstance(question, str):  # a type error, not emptiness
        raise ApiError(400, "'question' must be a string.", code="invalid_body")
    try:
        question = question_checked(question or "")
    except TurnRejected as exc:
        raise _rejected(exc) from None
    # The id as the Kbqa-Conversation header gives it back ("65") is the same id.
    if isinstance(conversation, str) and re.fullmatch(r"\s*[0-9]+\s*", conversation):
        conversation = int(conversation)
    if conversation is not None and (
        isinstance(conversation, bool) or not isinstance(conversation, int)
    ):
        raise ApiError(400, "'conversation' must be an integer conversation id.",
                       code="invalid_body")
    if fabricate is not None and not isinstance(fabricate, bool):
        raise ApiError(400, "'fabricate' must be true or false.", code="invalid_body")
    return AnswerInput(question, conversation, fabricate)


TurnStream = AsyncGenerator[TurnOpened | Event, None]


async def turn_open(
    request: HttpRequest, outcome: AnswerOutcome, *, mode: Mode
) -> tuple[TurnStream, int]:
    """Method, credentials and body checked, then the turn started up to ``TurnOpened``.

    Returns the turn (to iterate to its end) and its conversation id. Raises ApiError.
    """
    with translation.override("en"):  # the API's errors are English (its contract)
        return await _turn_open(request, outcome, mode=mode)


async def _turn_open(
    request: HttpRequest, outcome: AnswerOutcome, *, mode: Mode
) -> tuple[TurnStream, int]:
    auth = await api_caller(request)
    data = parse_answer_input(request.body)
    outcome.language = detect_language(data.question)  # until the answer's Meta says
    if data.fabricate and not fabricate_allowed(auth.user):
        raise ApiError(403, "'fabricate' is for staff users only; leave it out.",
                       code="fabricate_not_allowed")
    turn = answer_turn(
        TurnRequest(
            question=data.question,
            user=auth.user,
            conversation_id=data.conversation_id,
            start_conversation=True,
            fabricate=True if data.fabricate else None,
            mode=mode,
            limited=True,
            token_id=auth.token_id,
        ),
        outcome,
    )
    try:
        opened = await anext(turn)
    except TurnRejected as exc:
        raise _rejected(exc) from None
    assert isinstance(opened, TurnOpened) and opened.conversation is not None
    return turn, opened.conversation.pk


@csrf_exempt
@json_errors
async def answer_json(request: HttpRequest) -> HttpResponse:
    """``POST /api/answer``: run the JSON-mode turn to the end and return the contract."""
    outcome = AnswerOutcome()
    try:
        turn, conversation = await turn_open(request, outcome, mode="json")
    except ApiError as exc:
        return exc.response()
    async with aclosing(turn) as items:
        async for _ in items:
            pass
    if outcome.status == "error":
        return error_response(
            503,
            outcome.error or "The answer provider failed.",
            code="provider_error",
            retry_after=outcome.retry_after,
            trace_id=outcome.trace_id,
            conversation=conversation,
        )
    response = JsonResponse(
        answer_body(request, conversation, outcome), json_dumps_params={"ensure_ascii": False}
    )
    if conversation is not None:  # as the stream sends it: a client reads one place
        response["Kbqa-Conversation"] = str(conversation)
    if outcome.language:  # the answer speaks the question's language, not the request's
        response["Content-Language"] = content_language(outcome.language)
    return response


def content_language(language: str) -> str:
    """The ``Content-Language`` of an answer in ``language`` ("zh" or "en")."""
    return "zh-Hans" if language == "zh" else "en"


def wire_payload(ev: Event, *, conversation: int | None = None) -> dict[str, Any]:
    """``{"event": name, "data": {...}}`` as the wire sends it (SSE, ``ask --json``):
    ``conversation`` is added to the data of ``meta`` and ``done`` (the first and last)."""
    payload = event_payload(ev)
    if conversation is not None and isinstance(ev, Meta | Done):
        payload = {**payload, "data": {**payload["data"], "conversation": conversation}}
    return payload


def sse_frame(
    ev: Event, *, conversation: int | None = None, request: HttpRequest | None = None
) -> str:
    """One Server-Sent Events frame: ``event: <name>\\ndata: <one-line JSON>\\n\\n``
    (``wire_payload``). With the ``request``, a refusal's documents and conflict sides carry
    ``url`` and ``api_url`` as ``/api/answer``'s do (``chat.api_body.refusal_body``)."""
    payload = wire_payload(ev, conversation=conversation)
    if request is not None and isinstance(ev, Refusal):
        payload["data"] = refusal_body(request, payload["data"])
    data = json.dumps(payload["data"], ensure_ascii=False)
    return f"event: {payload['event']}\ndata: {data}\n\n"


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


async def _sse(
    turn: TurnStream, conversation: int, outcome: AnswerOutcome, request: HttpRequest
) -> AsyncGenerator[str, None]:
    """The turn's core events as SSE frames. A ``Notice`` that only repeats ``meta.notices``
    is not sent (clients place those); one that adds a notice (a sentence citing an archived
    document) is, with every notice so far.

    A failure once the stream has started (the database gone while the answer is stored) can
    no longer change the 200: the stream ends on it with an ``error`` frame (retryable, the
    seconds in ``retry_after``; left out when the turn sent its own) and a ``done`` whose
    status is ``error``. Raised, it reached Daphne, which cannot answer an exception in a
    started response: the client waited on an open connection."""
    known: tuple[str, ...] = ()
    sent: set[type[Event]] = set()
    try:
        async with aclosing(turn) as items:
            async for item in items:
                if isinstance(item, Meta):
                    known = item.notices
                if isinstance(item, Notice) and set(item.notices) <= set(known):
                    continue
                if isinstance(item, Event):
                    sent.add(type(item))
                    yield sse_frame(item, conversation=conversation, request=request)
    except Exception as exc:
        log.exception("API stream failed after it started")
        if Done in sent:
            return
        if Error not in sent:
            yield sse_frame(Error(message=failure_message(exc), retryable=True,
                                  retry_after=RETRY_AFTER_SECONDS), conversation=conversation)
        yield sse_frame(Done(status="error", emitted=len(outcome.sentences),
                             dropped=outcome.dropped, trace_id=outcome.trace_id),
                        conversation=conversation)


@csrf_exempt
@json_errors
async def answer_stream(request: HttpRequest) -> HttpResponse:
    """``POST /api/answer/stream``: the stream-mode events as ``text/event-stream``."""
    outcome = AnswerOutcome()
    try:
        turn, conversation = await turn_open(request, outcome, mode="stream")
    except ApiError as exc:
        return exc.response()
    response = StreamingHttpResponse(
        with_keepalive(_sse(turn, conversation, outcome, request)),
        content_type="text/event-stream; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # tell nginx-style proxies not to buffer the stream
    response["Kbqa-Conversation"] = str(conversation)
    # the stream speaks the question's language (refusals, notices), not the request's
    response["Content-Language"] = content_language(outcome.language)
    return response
