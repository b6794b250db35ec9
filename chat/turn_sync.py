"""What a (re)connected chat page is told about the answers it shows as still running.

A page can hold a bubble that says "Answering…" while no socket of its own streams it: the
page was reloaded while its answer was written (the answer goes on: a reload does not cancel
it, ``chat.consumers``), or the server restarted under it (the ws extension reconnects by
itself), or it opened a conversation with a turn another tab is answering. On every socket
open ``static/js/chat.js`` sends ``{"type": "sync", "turns": [{"key", "question"}]}``: each
such bubble's key (``t<hex>`` streamed, ``m<pk>`` stored) and the id of the question above
it. The consumer answers each at once with the stored turn when it is over (answered,
refused, stopped, cancelled, or interrupted by a dead server), and otherwise remembers the
key so the stored answer replaces that bubble when its turn ends (``turn.stored``). A turn
that ends before the sync is answered reaches the page as a turn to append; the page
appends a turn whose question it shows already by replacing the answer bubble under that
question (``chat.js``, keyed by the question's id), so the turn is never shown twice.
"""

from __future__ import annotations

import json
import re
from typing import Any

from chat.models import Conversation, Message
from chat.turn_records import turns_interrupted_close
from kbqa.db import db_async

KEY = re.compile(r"^(t[0-9a-f]{1,32}|m[0-9]{1,18})$")
MOST_TURNS = 20  # a page shows at most a few running bubbles; more is not a page's frame


def sync_parse(text_data: str | None) -> list[tuple[str, int]] | None:
    """``[(bubble key, question id)]`` of a sync frame, None for any other frame. Malformed
    entries are left out (a sync frame is never answered with an alert)."""
    if not text_data or '"sync"' not in text_data or len(text_data) > 4096:
        return None
    try:
        data: Any = json.loads(text_data)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("type") != "sync":
        return None
    wanted: list[tuple[str, int]] = []
    for item in (data.get("turns") or [])[:MOST_TURNS]:
        if not isinstance(item, dict):
            continue
        key, question = item.get("key"), item.get("question")
        if isinstance(key, str) and KEY.match(key) and isinstance(question, int):
            wanted.append((key, question))
    return wanted


@db_async
def turns_settle(
    *, conversation: Conversation, wanted: list[tuple[str, int]]
) -> tuple[list[tuple[str, Message]], dict[int, str]]:
    """``(over, running)`` for the page's ``wanted`` bubbles: ``over`` pairs a bubble key
    with its stored answer (trace and feedback loaded, ready to render); ``running`` maps the
    question of a still pending answer to the bubble key it should replace. Turns a dead server left
    are marked interrupted first, so they count as over."""
    turns_interrupted_close(conversation=conversation)
    over: list[tuple[str, Message]] = []
    running: dict[int, str] = {}
    answers = Message.objects.filter(
        conversation=conversation, role=Message.Role.ASSISTANT
    ).select_related("trace__feedback")
    for key, question_id in wanted:
        answer = answers.filter(pk__gt=question_id).order_by("pk").first()
        if answer is None:
            continue  # the question was never stored (refused before it started)
        if answer.status == "pending":
            running[question_id] = key
        else:
            over.append((key, answer))
    return over, running
