"""Checks on a question that every front end applies alike (websocket, HTTP API, ``ask``).

One message for one rule, so a person who meets the limit in the browser, the terminal or an
API response reads the same sentence (translated in the active language).
"""

from __future__ import annotations

import re

from django.conf import settings
from django.utils.translation import gettext as _

# C0 and C1 control characters (NUL included) except tab and newline, and lone UTF-16
# surrogates: PostgreSQL text columns reject NUL and invalid UTF-8, and none of them carries
# meaning in a question. A carriage return becomes a newline (Windows line ends).
UNSAFE_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def question_clean(raw: str) -> str:
    """``raw`` without control characters or lone surrogates, line ends unified to ``\\n``,
    stripped of surrounding whitespace. May return ``""`` (callers then refuse it as empty).
    """
    text = raw.replace("\r\n", "\n").replace("\r", "\n")
    return UNSAFE_CHARS.sub("", text).strip()


def question_too_long(question: str) -> str | None:
    """The message shown when ``question`` is over the limit, else None.

    ``question`` is counted in characters as given (callers clean it first with
    ``question_clean``); the limit is ``settings.KBQA_MAX_QUESTION_CHARS``.
    """
    limit = settings.KBQA_MAX_QUESTION_CHARS
    if len(question) <= limit:
        return None
    return _(
        "Your question is %(count)d characters long; the limit is %(limit)d. "
        "Shorten it and send it again."
    ) % {"count": len(question), "limit": limit}
