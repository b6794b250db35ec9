"""Checks on a question that every front end applies alike (websocket, HTTP API, ``ask``).

One message for one rule, so a person who meets the limit in the browser, the terminal or an
API response reads the same sentence (translated in the active language).
"""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _


def question_too_long(question: str) -> str | None:
    """The message shown when ``question`` is over the limit, else None.

    ``question`` is counted in characters as given (callers strip it first);
    the limit is ``settings.KBQA_MAX_QUESTION_CHARS``.
    """
    limit = settings.KBQA_MAX_QUESTION_CHARS
    if len(question) <= limit:
        return None
    return _(
        "Your question is %(count)d characters long; the limit is %(limit)d. "
        "Shorten it and send it again."
    ) % {"count": len(question), "limit": limit}
