"""The streamed parts of an answer as HTML, built as Python strings: citation chips,
sentences, the sentence a websocket frame appends, the source list and the progress line.

These are the hot fragments: a websocket chat sends one per verified sentence (and the
source list again when a sentence cites a source for the first time). Through Django's
template engine (``render_to_string`` of a ``template_partials`` partial) a sentence cost
0.1-0.3 ms of CPU on the event loop, nearly all of it the engine's own node walking,
variable resolving and number localising (cProfile, 2026-12-01); built here 0.02-0.06 ms,
most of it the chips' signed passage links.
The page renders the same partials of ``chat/_fragments.html``, whose bodies call these
functions (``chat_fragments`` tags), so the markup has one source and the page and the
stream cannot drift apart.

Escaping is the templates': every value from a document, the model or the user goes through
``esc``, Django's ``conditional_escape`` without its lazy-argument wrapper (the same
``html.escape``, which ``format_html`` spent most of its time around); translations are
escaped as ``{% translate %}`` escapes them; ``blocktranslate``'s placeholders are filled
with escaped values into the unescaped translation, as Django does. Numbers are printed
plainly: the project does not group digits (``USE_THOUSAND_SEPARATOR`` off), so the
templates' localising printed them so. ``tests/chat/test_fragment_html.py`` holds the
templates' former output for these partials, byte for byte.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping
from typing import Any

from django.urls import reverse
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from chat.templatetags.chat_tags import AUTHORITY_LABELS, STATUS_LABELS, text_lang

CITATION_LINK = 'hx-target="#citation-body" hx-swap="innerHTML" aria-haspopup="dialog"'


def esc(value: Any) -> str:
    """``value`` as HTML text: Django's ``conditional_escape`` (``html.escape`` of its string;
    HTML marked safe as it is)."""
    if hasattr(value, "__html__"):
        return str(value.__html__())
    return html.escape(str(value))


def oob_attr(oob: str) -> str:
    """`` hx-swap-oob="<oob>"`` when ``oob`` is set, else nothing."""
    return f' hx-swap-oob="{esc(oob)}"' if oob else ""


def chip_html(chip: Mapping[str, Any]) -> SafeString:
    """A citation chip linking to its passage (``chat.rendering.chip``'s dict): ``[n]``."""
    n, title, updated = esc(chip.get("n", "")), esc(chip.get("title", "")), chip.get("updated")
    url = esc(chip.get("url", ""))
    label = _("Source %(n)s: %(title)s") % {"n": n, "title": title}  # as blocktranslate
    dated = f" ({esc(updated)})" if updated else ""
    return mark_safe(
        f'<a class="chip" href="{url}" hx-get="{url}" {CITATION_LINK} data-n="{n}" '
        f'data-block="{esc(chip.get("block", ""))}" '
        f'data-chunk-id="{esc(chip.get("chunk_id", ""))}" title="{title}{dated}" '
        f'aria-label="{label}">[{n}]</a>'
    )


def chips_html(chips: Iterable[Mapping[str, Any]]) -> str:
    """Each chip after a space; a chip whose block is unknown (no URL) is shown unlinked."""
    return "".join(
        " " + chip_html(chip) if chip.get("url") else
        f' <span class="chip chip-missing" data-block="{esc(chip.get("block", ""))}">'
        f'[{esc(chip.get("n", ""))}]</span>'
        for chip in chips
    )


def sentence_html(sentence: Mapping[str, Any]) -> SafeString:
    """One verified sentence (``chat.rendering.sentence_view``) with its chips, a space
    after it; ``lang`` by its own words."""
    text = sentence.get("text", "")
    return mark_safe(
        f'<span class="sentence sentence-{esc(sentence.get("kind", ""))}" '
        f'data-index="{esc(sentence.get("index", ""))}" lang="{esc(text_lang(text))}">'
        f'{esc(text)}{chips_html(sentence.get("chips") or ())}</span> '
    )


def sentence_append_html(
    *, key: str, sentence: Mapping[str, Any], paragraph: int, new: bool
) -> SafeString:
    """The oob fragment adding ``sentence`` to the answer ``key``: as paragraph number
    ``paragraph`` when ``new``, else at the end of that paragraph."""
    key, paragraph_id = esc(key), esc(paragraph)
    if new:
        return mark_safe(
            f'<div hx-swap-oob="beforeend:#answer-{key}"><p class="para" '
            f'id="para-{key}-{paragraph_id}">{sentence_html(sentence)}</p></div>'
        )
    return mark_safe(
        f'<div hx-swap-oob="beforeend:#para-{key}-{paragraph_id}">{sentence_html(sentence)}</div>'
    )


def source_html(source: Mapping[str, Any]) -> str:
    """One cited source (``chat.rendering.sources_view``): number, title, section, date and
    authority (``other`` is not shown)."""
    url, n = esc(source.get("url", "")), esc(source.get("n", ""))
    authority = source.get("authority", "")
    link = f' hx-get="{url}" {CITATION_LINK}' if url else ""
    extra = ""
    # a section that only repeats the title (a text file's first line) is not said twice
    if source.get("section") and source["section"].strip() != source.get("title", "").strip():
        extra += f' · <span class="source-section">{esc(source["section"])}</span>'
    if source.get("updated"):
        updated = _("updated %(date)s") % {"date": esc(source["updated"])}  # as blocktranslate
        extra += f' · <span class="doc-updated">{updated}</span>'
    if authority and authority != "other":
        label = esc(AUTHORITY_LABELS.get(authority, authority))
        extra += f' · <span class="doc-authority">{label}</span>'
    return (
        f'<li class="source" data-n="{n}" data-block="{esc(source.get("block", ""))}">'
        f'<a class="source-link" href="{url}"{link}><span class="source-n">[{n}]</span> '
        f'<cite class="doc-title">{esc(source.get("title", ""))}</cite></a>{extra}</li>'
    )


def sources_html(*, key: str, sources: Iterable[Mapping[str, Any]], oob: str = "") -> SafeString:
    """The source list ``#sources-<key>`` under an answer, in the active language."""
    items = "".join(f"\n  {source_html(source)}\n  " for source in sources)
    return mark_safe(
        f'\n<ol class="sources" id="sources-{esc(key)}" lang="{esc(get_language())}" '
        f'aria-label="{esc(_("Sources"))}"{oob_attr(oob)}>\n  {items}\n</ol>\n'
    )


def progress_html(*, key: str, state: str, oob: str = "") -> SafeString:
    """The progress line of a turn: ``searching``, ``writing`` or ``elsewhere`` (a stored
    turn still running for a socket gone, or asked on another page: ``chat.turn_relay``)."""
    if state == "writing":
        words = _("Writing the answer…")
    elif state == "elsewhere":
        words = _("Still writing this answer: its sentences appear here as they are checked.")
    else:
        words = _("Searching the documents…")
    return mark_safe(
        f'<p class="turn-progress" id="progress-{esc(key)}" data-state="{esc(state)}"'
        f"{oob_attr(oob)}>{esc(words)}</p>"
    )


THUMB_UP = (
    '<svg class="icon" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" '
    'focusable="false"><path d="M2 10h4v11H2zM8 21V10l5-8c1.6 0 2.6 1.3 2.2 2.9L14.5 9H21c1.1 '
    '0 2 .9 2 2l-2.4 8.6c-.3.9-1.1 1.4-2 1.4z" fill="currentColor"/></svg>'
)
THUMB_DOWN = (
    '<svg class="icon" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" '
    'focusable="false"><path d="M22 14h-4V3h4zM16 3v11l-5 8c-1.6 0-2.6-1.3-2.2-2.9L9.5 15H3c-1.1 '
    '0-2-.9-2-2l2.4-8.6C3.7 3.5 4.5 3 5.4 3z" fill="currentColor"/></svg>'
)


def footer_html(
    *, key: str, status: str, trace_id: str = "", feedback: Any = None, copyable: bool = False,
    oob: str = "", status_locale: str = "",
) -> SafeString:
    """The footer ``#footer-<key>`` of a turn: its status, and once it ended Copy (when
    ``copyable``) and the feedback form; the trace id. The controls speak the active
    language (the page's); the status describes the answer, so it speaks the answer's
    (``status_locale``, a Django language code; the active one when "") as its card does: a
    Chinese card over an English "Not answered" read as two answers, English buttons on a
    Chinese page as a half-translated one (two testers, 2026-12-05 and 12-06)."""
    with translation.override(status_locale or get_language()):
        label, status_lang = str(STATUS_LABELS.get(status, status)), get_language()
    actions = ""
    if status not in ("streaming", "pending"):
        copy = (
            f'<button type="button" class="copy-answer button-small" '
            f'data-copied-label="{esc(_("Copied"))}" data-sources-label="{esc(_("Sources:"))}">'
            f'{esc(_("Copy"))}</button>' if copyable else ""
        )
        form = feedback_html(trace_id=trace_id, feedback=feedback) if trace_id else ""
        actions = f'\n  <span class="turn-actions">\n    {copy}\n    {form}\n  </span>\n  '
    trace = (
        f'<span class="trace">{esc(_("Trace"))} <code class="trace-id">{esc(trace_id)}</code>'
        "</span>" if trace_id else ""
    )
    return mark_safe(
        f'\n<footer class="bubble-footer" lang="{esc(get_language())}" id="footer-{esc(key)}" '
        f'data-status="{esc(status)}"{oob_attr(oob)}>\n  <span class="turn-status" '
        f'lang="{esc(status_lang)}">{esc(label)}</span>\n  {actions}\n  {trace}\n</footer>\n'
    )


def feedback_html(*, trace_id: str, feedback: Any = None, saved: bool = False) -> SafeString:
    """The asker's feedback form on the answer ``trace_id``: thumbs up and down (the one
    chosen pressed) and, once rated (``feedback``, a ``chat.models.Feedback``), the comment;
    ``saved`` thanks the asker."""
    rating = feedback.rating if feedback else ""
    url, trace = esc(reverse("chat_feedback", args=[trace_id])), esc(trace_id)
    helpful, not_helpful = esc(_("Helpful")), esc(_("Not helpful"))
    comment = f"\n  {feedback_comment_html(trace_id, feedback, saved)}\n  " if feedback else ""
    return mark_safe(
        f'\n<form class="feedback" id="feedback-{trace}" method="post" action="{url}" '
        f'hx-post="{url}" hx-target="this" hx-swap="outerHTML" data-rating="{esc(rating)}">\n'
        f'  <span class="feedback-choices" role="group" '
        f'aria-label="{esc(_("Was this answer helpful?"))}">\n'
        f'    <button type="submit" name="rating" value="up" class="feedback-up icon-button" '
        f'aria-pressed="{str(rating == "up").lower()}" title="{helpful}" '
        f'aria-label="{helpful}">{THUMB_UP}</button>\n'
        f'    <button type="submit" name="rating" value="down" class="feedback-down icon-button" '
        f'aria-pressed="{str(rating == "down").lower()}" title="{not_helpful}" '
        f'aria-label="{not_helpful}">{THUMB_DOWN}</button>\n  </span>\n  {comment}\n</form>\n'
    )


def feedback_comment_html(trace_id: str, feedback: Any, saved: bool) -> str:
    """The comment part of a rated answer's feedback form (open after a thumbs down without
    a comment)."""
    trace, text = esc(trace_id), feedback.comment
    opened = " open" if feedback.rating == "down" and not text else ""
    summary = _("Edit your comment") if text else _("Add a comment")
    thanks = (
        f'<span class="feedback-thanks" role="status">'
        f'{esc(_("Thank you: the reviewers will see this."))}</span>' if saved else ""
    )
    return (
        f'<details class="feedback-comment"{opened}>\n    <summary>{esc(summary)}</summary>\n'
        f'    <label for="feedback-text-{trace}" class="visually-hidden">'
        f'{esc(_("Comment for the reviewers (optional)"))}</label>\n'
        f'    <textarea id="feedback-text-{trace}" name="comment" rows="2" maxlength="2000" '
        f'placeholder="{esc(_("What was wrong or missing? (optional)"))}">{esc(text)}</textarea>\n'
        f'    <button type="submit" name="rating" value="{esc(feedback.rating)}" '
        f'class="button-small feedback-send">{esc(_("Send comment"))}</button>\n  </details>\n'
        f"  {thanks}"
    )
