"""Checks on a question that every front end applies alike (websocket, HTTP API, ``ask``).

One message for one rule, so a person who meets the limit in the browser, the terminal or an
API response reads the same sentence (translated in the active language).

``question_text`` is what the pipeline reads of a question: markup pasted with it (``<b>年假</b>``,
``<script>…</script>``) is not part of what was asked. The question is still stored and shown
exactly as typed (autoescaped).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Literal

from django.conf import settings
from django.utils.translation import gettext as _

from kbqa.core.text.courtesy import without_courtesy
from kbqa.core.text.left_behind import as_lost
from kbqa.core.text.reported import reported_question
from kbqa.core.text.shouting import unshouted
from kbqa.core.text.topic_return import topic_returned

# C0 and C1 control characters (NUL included) except tab and newline: PostgreSQL text
# columns reject NUL, and none of them carries meaning in a question. One between two words
# separates them as a tab would ("recycle\x00bin" is "recycle bin", not "recyclebin"). A
# carriage return becomes a newline (Windows line ends).
CONTROL_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]+")
# Lone UTF-16 surrogates: invalid UTF-8 for PostgreSQL; half of a broken character, dropped.
LONE_SURROGATES = re.compile("[\ud800-\udfff]")


def question_clean(raw: str) -> str:
    """``raw`` with each run of control characters read as one space where it stands between
    two non-space characters (dropped next to whitespace or at an end), lone surrogates
    dropped, line ends unified to ``\\n``, stripped of surrounding whitespace. May return
    ``""`` (callers then refuse it as empty).
    """
    text = LONE_SURROGATES.sub("", raw.replace("\r\n", "\n").replace("\r", "\n"))
    return CONTROL_CHARS.sub(lambda run: _separator(text, run), text).strip()


def _separator(text: str, run: re.Match[str]) -> str:
    """A space when the control characters of ``run`` sit between two non-space characters."""
    start, end = run.span()
    before = text[start - 1] if start else " "
    after = text[end] if end < len(text) else " "
    return "" if before.isspace() or after.isspace() else " "


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


# Elements whose content is not text a reader sees (HTML Living Standard: script and style
# are "raw text" elements; template and noscript hold no rendered text either).
_HIDDEN_ELEMENTS = frozenset({"script", "style", "template", "noscript", "title"})
# Phrasing elements that sit inside a word ("<b>年假</b>有多少天", "full-<i>time</i>"): they
# join their text with no space. Any other tag (p, br, div, li...) separates words.
_INLINE_ELEMENTS = frozenset(
    "a abbr b bdi bdo cite code data del dfn em font i ins kbd mark q s samp small span "
    "strong sub sup time u var wbr".split()
)


class _QuestionText(HTMLParser):
    """The text of a question as a browser would render its markup: tags removed, the
    content of hidden elements dropped, character references decoded."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN_ELEMENTS:
            self.hidden += 1
        elif tag not in _INLINE_ELEMENTS:
            self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN_ELEMENTS:
            self.hidden = max(self.hidden - 1, 0)
        elif tag not in _INLINE_ELEMENTS:
            self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def question_text(question: str) -> str:
    """What retrieval, the gate and the reader read of ``question``: its text without
    markup tags (parsed by the standard library's ``html.parser``, as a browser reads
    markup), runs of spaces collapsed. ``"<b>年假</b>有多少天？"`` -> ``"年假有多少天？"``;
    ``"<script>alert(1)</script> How…?"`` -> ``"How…?"``. Text that is not markup
    (``"x < 5"``, ``"R&D"``) is kept; a question that is markup only is returned as given.
    Courtesy around it goes too (``text.courtesy``: "and monitors? please" is read "and
    monitors?", a follow-up, not a question about "please"), and a frame going back to an
    earlier topic (``text.topic_return``: "回到打车的问题，…" is read "打车，…"), and a frame of
    asking on someone's behalf (``text.reported``: "A customer is asking whether X. What do I
    tell them?" is read "X?"), and a thing of one's own left somewhere is read as lost
    (``text.left_behind``: "I left my laptop on the train" as "I lost my laptop…"). A run of
    words in capitals is read in lower case (``text.shouting``).
    """
    text = reported_question(without_courtesy(unshouted(_visible_text(question) or question)))
    return as_lost(topic_returned(text))


def _visible_text(question: str) -> str:
    """``question`` as a browser shows it (markup removed, spaces collapsed); may be ""."""
    if "<" not in question and "&" not in question:
        return question
    parser = _QuestionText()
    parser.feed(question)
    parser.close()
    lines = ("".join(parser.parts)).split("\n")
    return "\n".join(" ".join(line.split()) for line in lines).strip()


RejectReason = Literal[
    "empty", "too_long", "not_found", "provider_unavailable", "limited", "busy",
    "unavailable", "session_ended"
]


class TurnRejected(Exception):
    """A turn refused before anything was stored; ``str(exc)`` is safe to show.

    ``reason``: "empty" or "too_long" (the question), "not_found" (the conversation is
    missing or not the asker's), "provider_unavailable" (bad provider settings), "limited"
    (``chat.limits``; ``retry_after`` says how many seconds to wait), "busy" (another answer
    runs in the conversation; ``retry_after`` too), "unavailable" (``chat.limits`` could not
    reach its cache: Redis is down; ``retry_after`` too), "session_ended" (the
    websocket's session no longer logs its user in).
    """

    def __init__(
        self, reason: RejectReason, message: str, *, retry_after: int | None = None
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.retry_after = retry_after


def question_checked(raw: str) -> str:
    """``raw`` cleaned (``question_clean``). Raises TurnRejected "empty" (nothing, no
    letter or digit in any script: "?", "……", an emoji, or markup only:
    ``<script>…</script>``) or "too_long"."""
    question = question_clean(raw)
    if not question:
        raise TurnRejected("empty", "'question' is required and must be a non-empty string.")
    if not any(ch.isalnum() for ch in question):  # a lone "?" would be read as a follow-up
        raise TurnRejected("empty", _(
            "The question holds no words, only punctuation or symbols. Type it in words."))
    if not any(ch.isalnum() for ch in _visible_text(question)):
        raise TurnRejected(
            "empty",
            _("The question holds only markup tags, no words. Type it as text."),
        )
    too_long = question_too_long(question)
    if too_long is not None:
        raise TurnRejected("too_long", too_long)
    return question
