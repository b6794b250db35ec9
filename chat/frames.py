"""What the chat socket's frames say: a question (with the staff's fabricate switch) or a
Stop. Parsing is apart from the consumer so the terminal (``ask``) and tests read a frame the
same way, and every refusal is one sentence the user can act on (in the socket's language).
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from chat.questions import TurnRejected, question_checked, question_clean

TRUTHY = {True, "1", "true", "on", "yes"}


class InputRejected(Exception):
    """A message the consumer will not answer; ``str(exc)`` is shown to the user."""


def frame_limit() -> int:
    """Largest frame read, in characters: the question limit plus room for htmx headers."""
    return settings.KBQA_MAX_QUESTION_CHARS * 4 + 4096


def question_parse(text_data: str | None) -> tuple[str, bool]:
    """``(question, fabricate requested)`` from one frame. Raises InputRejected."""
    if text_data is None:
        raise InputRejected(_("Send the question as text."))
    if len(text_data) > frame_limit():  # not parsed: the question is surely too long
        raise InputRejected(_(
            "Your question is longer than the limit of %(limit)d characters. "
            "Shorten it and send it again."
        ) % {"limit": settings.KBQA_MAX_QUESTION_CHARS})
    try:
        data: Any = json.loads(text_data)
    except (ValueError, RecursionError):
        raise InputRejected(
            _("The message could not be read. Reload the page and try again.")
        ) from None
    raw = data.get("question") if isinstance(data, dict) else None
    try:
        question = question_checked(raw if isinstance(raw, str) else "")
    except TurnRejected as exc:
        if exc.reason == "empty" and not question_clean(raw if isinstance(raw, str) else ""):
            raise InputRejected(_("Type a question before sending.")) from None
        raise InputRejected(str(exc)) from None
    return question, data.get("fabricate") in TRUTHY


def stop_requested(text_data: str | None) -> int | None:
    """For the Stop button's (or Esc's) ``{"type": "stop", "question"?: int}``: the id of
    the question whose answer the page shows running (0 when the frame names none); None
    for any other frame."""
    if not text_data or len(text_data) > 200 or '"stop"' not in text_data:
        return None
    try:
        data: Any = json.loads(text_data)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("type") != "stop":
        return None
    question = data.get("question")
    return question if isinstance(question, int) and 0 < question < 2**63 else 0
