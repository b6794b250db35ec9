"""Per-user limits on asking, checked before the pipeline runs (so no model call is made).

- Questions per minute per user, whatever the front end (``KBQA_QUESTIONS_PER_MINUTE``), and
  per API token (``KBQA_TOKEN_QUESTIONS_PER_MINUTE``); 0 turns a limit off. Counted with
  django-ratelimit's fixed one-minute windows (each key's window starts at its own offset) in
  Django's cache: Redis when ``KBQA_REDIS_URL`` is set, so every server process shares the
  counts; otherwise each process's memory. Every attempt counts, refused ones too, so a
  client that keeps hammering stays refused.
- One answer in flight per conversation: ``turn_admit`` takes the conversation's slot (a
  cache entry, ``cache.add`` is atomic) and ``turn_release`` gives it back; a slot left by a
  crashed process expires after ``SLOT_SECONDS``.
- A cache that cannot be reached (Redis down) admits nothing: the question is refused as
  "unavailable" before it is stored (the websocket gives it back to the box, the API answers
  503 with ``Retry-After``). Answering anyway would lift both limits on every process at
  once for as long as Redis is down.

Refusals are ``LimitRefusal``: a message safe to show (in the active language) and the
seconds to wait, which the API sends as ``Retry-After`` with 429 (503 when unavailable) and
the websocket shows.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from typing import Any, Literal

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_ratelimit.core import get_usage
from redis.exceptions import RedisError

from kbqa.db import db_async

log = logging.getLogger(__name__)

# Longest an answer may hold its conversation's slot, in seconds: two drafts at the provider's
# timeout with retries stay well inside it (KBQA_ANTHROPIC_TIMEOUT 60 s x 3 tries x 2 drafts).
SLOT_SECONDS = 600
# How long to wait when the conversation is busy; an answer usually takes a few seconds.
BUSY_RETRY_SECONDS = 5
# How long to wait when the cache is unreachable: as the API's other 503s (chat.api).
UNAVAILABLE_RETRY_SECONDS = 5
# What the cache raises when it cannot be reached: Django's Redis cache lets redis-py's
# errors through (ConnectionError, TimeoutError); the OSError under them, for any backend.
CACHE_DOWN: tuple[type[Exception], ...] = (RedisError, OSError)


@dataclass(frozen=True)
class LimitRefusal:
    """A question refused before it runs: ``message`` is safe to show; ``retry_after`` in
    whole seconds (at least 1)."""

    message: str
    retry_after: int
    # busy: another answer runs in it; unavailable: the cache could not be reached
    reason: Literal["limited", "busy", "unavailable"] = "limited"


@dataclass(frozen=True)
class TurnSlot:
    """The conversation slot a turn holds; give it back with ``turn_release``."""

    key: str
    holder: str


def _count(scope: str, ident: Any, per_minute: int) -> dict[str, Any] | None:
    """Count one question under ``scope:ident`` (django-ratelimit's usage: ``count``,
    ``limit``, ``time_left``); None when the limit is off."""
    if per_minute <= 0:
        return None
    usage: dict[str, Any] | None = get_usage(
        None,
        group=f"kbqa.questions.{scope}",
        key=lambda _group, _request: f"{scope}:{ident}",
        rate=f"{per_minute}/m",
        increment=True,
    )
    return usage


def question_admit(*, user_id: Any, token_id: Any = None) -> LimitRefusal | None:
    """Count one question for the user ``user_id`` (and the API token ``token_id``, if any).

    Returns None when it may run, else a refusal whose ``retry_after`` is the time until
    every limit the question counts under admits again: each limit's window starts at its
    own offset, and a client that waited only for the user's window was refused again by
    the token's (an integrator's report: four 429s in a row while obeying Retry-After).
    """
    usages = [u for u in (
        _count("user", user_id, settings.KBQA_QUESTIONS_PER_MINUTE),
        _count("token", token_id, settings.KBQA_TOKEN_QUESTIONS_PER_MINUTE)
        if token_id is not None else None,
    ) if u is not None]
    over = [u for u in usages if u["should_limit"]]
    if not over:
        return None
    # A limit reached exactly by this question refuses the next one: wait for it too.
    # django-ratelimit's window ending at second W still counts during W (its window key is
    # int(time) <= W), so the first second that admits is W + 1: time_left + 1 from now.
    wait = max(int(u["time_left"]) + 1 for u in usages if u["count"] >= u["limit"])
    message = ngettext(
        "You have asked %(limit)d questions in a minute, the most allowed. "
        "Try again in %(wait)d second.",
        "You have asked %(limit)d questions in a minute, the most allowed. "
        "Try again in %(wait)d seconds.",
        wait,
    ) % {"limit": over[0]["limit"], "wait": wait}
    return LimitRefusal(message, wait)


def _slot_key(conversation_id: Any) -> str:
    return f"kbqa:turn-in-flight:{conversation_id}"


def unavailable(exc: Exception) -> LimitRefusal:
    """The refusal of a question the cache could not count (``exc``: what it raised)."""
    log.warning("question refused: the limits' cache is unavailable (%s: %s)",
                type(exc).__name__, exc)
    message = _("The chat service is temporarily unavailable; your question was not sent. "
                "Send it again in a moment.")
    return LimitRefusal(message, UNAVAILABLE_RETRY_SECONDS, "unavailable")


def turn_admit_sync(
    *, user_id: Any, conversation_id: Any, token_id: Any = None
) -> TurnSlot | LimitRefusal:
    """Take ``conversation_id``'s slot, then count the question (a busy conversation costs
    no quota). Returns the slot, or the refusal (and then holds nothing; "unavailable" when
    the cache could not be reached). Without a conversation (``None``: the turn starts a new
    one, which cannot be busy) only the question is counted and the slot holds nothing."""
    try:
        return _turn_admit(user_id=user_id, conversation_id=conversation_id, token_id=token_id)
    except CACHE_DOWN as exc:
        return unavailable(exc)


def _turn_admit(*, user_id: Any, conversation_id: Any, token_id: Any) -> TurnSlot | LimitRefusal:
    if conversation_id is None:
        return question_admit(user_id=user_id, token_id=token_id) or TurnSlot("", "")
    slot = TurnSlot(_slot_key(conversation_id), uuid.uuid4().hex)
    if not cache.add(slot.key, slot.holder, SLOT_SECONDS):
        # The socket's own running answer is refused before this (chat.consumers): here the
        # answer runs for another tab or window (or a page reloaded while it ran), or the API.
        busy = _(
            "Another answer is still being written in this conversation (in another tab, "
            "window or API call); ask again when it has finished."
        )
        return LimitRefusal(busy, BUSY_RETRY_SECONDS, "busy")
    try:
        refusal = question_admit(user_id=user_id, token_id=token_id)
    except CACHE_DOWN as exc:
        refusal = unavailable(exc)
    if refusal is not None:
        turn_release_sync(slot)
        return refusal
    return slot


def turn_release_sync(slot: TurnSlot) -> None:
    """Give the slot back, unless it expired and another turn holds it now. A cache that
    cannot be reached keeps it until it expires (``SLOT_SECONDS``, if Redis kept it): the
    turn is stored all the same."""
    try:
        if slot.key and cache.get(slot.key) == slot.holder:
            cache.delete(slot.key)
    except CACHE_DOWN as exc:
        log.warning("conversation slot %s not given back: the cache is unavailable (%s: %s)",
                    slot.key, type(exc).__name__, exc)


# On the database threads (kbqa.db), not asgiref's one thread-sensitive thread that every
# turn of the process would queue on.
turn_admit = db_async(turn_admit_sync)
turn_release = db_async(turn_release_sync)
