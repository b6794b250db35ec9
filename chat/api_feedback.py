"""``POST /api/feedback/<trace_id>``: the asker's thumbs up or down on one answer, from a
program (a chat bot relaying its users' reactions), as the browser's feedback buttons give it.

Body ``{"rating": "up" | "down", "comment": str?}`` (``comment`` at most
``chat.services.COMMENT_MAX_CHARS`` characters; a longer one is refused, never cut; a later
call replaces the earlier feedback). Returns 200 ``{"trace_id", "rating", "comment"}``. The
``trace_id`` is the one ``/api/answer`` returns (and the stream's ``meta`` and ``done``
carry). Errors as the answer API's (``chat.api_errors.error_response``): 400
``invalid_json`` / ``invalid_body`` / ``invalid_rating`` / ``comment_too_long``, 401 / 403
as ``chat.auth.api_authenticate``, 404 ``trace_not_found`` for an unknown trace or one the
caller did not ask (the id alone does not reveal that it exists), 405 for a method other
than POST. Reviewers read the feedback on the trace page.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import translation
from django.views.decorators.csrf import csrf_exempt

from chat import services
from chat.api_errors import ApiError, api_caller, json_errors, json_object
from chat.models import Feedback, Trace
from kbqa.db import db_async, write_retried


def feedback_input(body: bytes) -> tuple[str, str]:
    """``(rating, comment)`` from a request body. Raises ``ApiError`` 400."""
    payload = json_object(body, '{"rating": "up"}')
    rating, comment = payload.get("rating"), payload.get("comment", "")
    if rating not in Feedback.Rating.values:
        raise ApiError(400, "'rating' must be \"up\" or \"down\".", code="invalid_rating")
    if not isinstance(comment, str):
        raise ApiError(400, "'comment' must be a string.", code="invalid_body")
    if len(comment.strip()) > services.COMMENT_MAX_CHARS:
        raise ApiError(400, f"'comment' is {len(comment.strip())} characters long; at most "
                       f"{services.COMMENT_MAX_CHARS} are accepted.", code="comment_too_long")
    return rating, comment


def feedback_store(
    *, trace_id: str, user: AbstractBaseUser, rating: str, comment: str
) -> Feedback | None:
    """``user``'s feedback on their own trace ``trace_id``, stored; None when there is no such
    trace of theirs."""
    trace = Trace.objects.filter(pk=trace_id, user=user).first()
    if trace is None:
        return None
    return write_retried(
        lambda: services.feedback_record(trace=trace, user=user, rating=rating, comment=comment)
    )


@csrf_exempt
@json_errors
async def feedback_give(request: HttpRequest, trace_id: str) -> HttpResponse:
    """The endpoint (see the module docstring)."""
    with translation.override("en"):  # the API's errors are English (its contract)
        try:
            body = await _feedback(request, trace_id)
        except ApiError as exc:
            return exc.response()
    return JsonResponse(body, json_dumps_params={"ensure_ascii": False})


async def _feedback(request: HttpRequest, trace_id: str) -> dict[str, Any]:
    auth = await api_caller(request)
    rating, comment = feedback_input(request.body)
    feedback = await db_async(feedback_store)(
        trace_id=trace_id, user=auth.user, rating=rating, comment=comment
    )
    if feedback is None:
        raise ApiError(404, f"No answer with trace id {trace_id!r} asked by you.",
                       code="trace_not_found")
    return {"trace_id": trace_id, "rating": feedback.rating, "comment": feedback.comment}
