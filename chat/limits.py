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

Refusals are ``LimitRefusal``: a message safe to show (in the active language) and the
seconds to wait, which the API sends as ``Retry-After`` with 429 and the websocket shows.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any, Literal

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_ratelimit.core import get_usage

from kbqa.db import db_async

# Longest an answer may hold its conversation's slot, in seconds: two drafts at the provider's
# timeout with retries stay well inside it (KBQA_ANTHROPIC_TIMEOUT 60 s x 3 tries x 2 drafts).
SLOT_SECONDS = 600
# How long to wait when the conversation is busy; an answer usually takes a few seconds.
BUSY_RETRY_SECONDS = 5


@dataclass(frozen=True)
class LimitRefusal:
    """A question refused before it runs: ``message`` is safe to show; ``retry_after`` in
    whole seconds (at least 1)."""

    message: str
    retry_after: int
    reason: Literal["limited", "busy"] = "limited"  # busy: another answer runs in it


@dataclass(frozen=True)
class TurnSlot:
    """The conversation slot a turn holds; give it back with ``turn_release``."""

    key: str
    holder: str


def _count(scope: str, ident: Any, per_minute: int) -> LimitRefusal | None:
    """Count one question under ``scope:ident``; a refusal when past ``per_minute``."""
    if per_minute <= 0:
        return None
    usage = get_usage(
        None,
        group=f"kbqa.questions.{scope}",
        key=lambda _group, _request: f"{scope}:{ident}",
        rate=f"{per_minute}/m",
        increment=True,
    )
    if usage is None or not usage["should_limit"]:
        return None
    wait = max(1, int(usage["time_left"]))
    message = ngettext(
        "You have asked %(limit)d questions in a minute, the most allowed. "
        "Try again in %(wait)d second.",
        "You have asked %(limit)d questions in a minute, the most allowed. "
        "Try again in %(wait)d seconds.",
        wait,
    ) % {"limit": per_minute, "wait": wait}
    return LimitRefusal(message, wait)


def question_admit(*, user_id: Any, token_id: Any = None) -> LimitRefusal | None:
    """Count one question for the user ``user_id`` (and the API token ``token_id``, if any).

    Returns None when it may run, else the refusal of the first limit passed.
    """
    refusal = _count("user", user_id, settings.KBQA_QUESTIONS_PER_MINUTE)
    if refusal is None and token_id is not None:
        refusal = _count("token", token_id, settings.KBQA_TOKEN_QUESTIONS_PER_MINUTE)
    return refusal


def _slot_key(conversation_id: Any) -> str:
    return f"kbqa:turn-in-flight:{conversation_id}"


def turn_admit_sync(
    *, user_id: Any, conversation_id: Any, token_id: Any = None
) -> TurnSlot | LimitRefusal:
    """Take ``conversation_id``'s slot, then count the question (a busy conversation costs
    no quota). Returns the slot, or the refusal (and then holds nothing). Without a
    conversation (``None``: the turn starts a new one, which cannot be busy) only the question
    is counted and the slot holds nothing."""
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
    refusal = question_admit(user_id=user_id, token_id=token_id)
    if refusal is not None:
        turn_release_sync(slot)
        return refusal
    return slot


def turn_release_sync(slot: TurnSlot) -> None:
    """Give the slot back, unless it expired and another turn holds it now."""
    if slot.key and cache.get(slot.key) == slot.holder:
        cache.delete(slot.key)


# On the database threads (kbqa.db), not asgiref's one thread-sensitive thread that every
# turn of the process would queue on.
turn_admit = db_async(turn_admit_sync)
turn_release = db_async(turn_release_sync)
