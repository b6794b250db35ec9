"""HTML fragments of a chat turn, shared by the chat page and the websocket consumer.

Both render the partials of ``templates/chat/_fragments.html``; a partial's name is the DOM
id prefix (or role) of what it fills, e.g. ``answer`` fills ``#answer-<key>``. The streamed
ones (a sentence with its chips, the source list, the progress line, the footer) are built
by ``chat.fragment_html``, which those partials call too and the consumer calls directly,
without the template engine's cost per sentence. ``key`` names
one assistant turn: ``t<hex>`` while streaming, ``m<message pk>`` for stored messages. The
websocket variants carry ``hx-swap-oob`` (``oob`` in the context). Sentences, refusals and
document titles are autoescaped (by the templates or ``chat.fragment_html``); nothing here
marks text safe except HTML those rendered.

Dropped sentences never reach this module as text: only their count does.

Language: refusal and conflict cards, notices, the withheld note, errors and the footer speak the
language of the question (``Meta.language``, stored as ``Trace.language``), whatever the UI
language, so one card never mixes two; a turn whose language is not known yet (cancelled
before retrieval) uses the UI language. Sentences, notices and questions are marked with the
language of their own words (the ``text_lang`` template filter).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import urlencode

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from chat.fragment_html import footer_html, progress_html, sentence_append_html, sources_html
from chat.models import Feedback, Message, Trace
from chat.outcomes import AnswerOutcome
from chat.selectors import chunk_url, reader_numbers
from kbqa.core.types import Done, Dropped, Error, Event, Meta, Notice, Refusal, Sentence
from sources.claim_links import claim_query

FRAGMENTS = "chat/_fragments.html"


def answer_locale(language: str) -> str:
    """The Django language code for a question language: ``"zh"`` -> ``"zh-hans"``, ``"en"`` ->
    ``"en"``; anything else (unknown, empty) -> the active UI language."""
    if language == "zh":
        return "zh-hans"
    if language == "en":
        return "en"
    return translation.get_language() or "en"


def fragment(name: str, **context: Any) -> SafeString:
    """Render the partial ``name`` of ``chat/_fragments.html`` with ``context``."""
    return render_to_string(f"{FRAGMENTS}#{name}", context)


def passage_url(chunk_id: str, claim: str = "") -> str:
    """The chunk view of ``chunk_id``; with ``claim`` (a verified sentence), signed, so the
    view highlights the sentences that support it (``sources.claim_links``)."""
    url = chunk_url(chunk_id)
    return f"{url}?{urlencode(claim_query(chunk_id, claim))}" if claim else url


def chip(
    n: int, block: Mapping[str, Any] | None, *, label: int = 0, claim: str = ""
) -> dict[str, Any]:
    """A citation chip: ``label`` (the reader's number; ``n`` when 0), block number ``n``,
    chunk id, title and the passage URL (no URL if the block is unknown)."""
    block = block or {}
    chunk_id = str(block.get("chunk_id", ""))
    return {
        "n": label or n,
        "block": n,
        "chunk_id": chunk_id,
        "title": block.get("title", ""),
        "updated": block.get("updated", ""),
        "url": passage_url(chunk_id, claim) if chunk_id else "",
    }


def blocks_by_number(blocks: Iterable[Mapping[str, Any]]) -> dict[int, Mapping[str, Any]]:
    """The blocks of a ``Meta`` (or a stored message) keyed by their number ``n``."""
    return {int(b["n"]): b for b in blocks if "n" in b}


def sentence_view(
    sentence: Mapping[str, Any],
    blocks: Mapping[int, Mapping[str, Any]],
    numbers: Mapping[int, int] | None = None,
) -> dict[str, Any]:
    """``{index, text, kind, chips}`` for the ``sentence`` partial; chips carry the reader's
    numbers from ``numbers`` (``reader_numbers`` of the answer so far)."""
    numbers = numbers or {}
    text = sentence.get("text", "")
    return {
        "index": sentence.get("index", 0),
        "text": text,
        "kind": sentence.get("kind", "claim"),
        "chips": [
            chip(n, blocks.get(n), label=numbers.get(n, 0), claim=text)
            for n in sentence.get("citations", ())
        ],
    }


def starts_paragraph(previous: Mapping[str, Any] | None, sentence: Mapping[str, Any]) -> bool:
    """Whether ``sentence`` opens a new paragraph after ``previous``.

    Sentences carry the draft's own breaks (``"paragraph"``: a blank line before it; the
    offline reader leaves one between source blocks). Sentences stored before they carried
    it stay together while they share a cited source; statements of what is not covered
    form their own paragraph.
    """
    if previous is None:
        return True
    if "paragraph" in sentence:
        return bool(sentence["paragraph"])
    if sentence.get("kind", "claim") != previous.get("kind", "claim"):
        return True
    if sentence.get("kind") == "gap":
        return False
    return not set(sentence.get("citations", ())) & set(previous.get("citations", ()))


def paragraphs_view(
    sentences: Sequence[Mapping[str, Any]], blocks: Mapping[int, Mapping[str, Any]]
) -> list[list[dict[str, Any]]]:
    """The answer's sentences as paragraphs of ``sentence_view`` dicts."""
    numbers = reader_numbers(sentences)
    out: list[list[dict[str, Any]]] = []
    for i, sentence in enumerate(sentences):
        if starts_paragraph(sentences[i - 1] if i else None, sentence):
            out.append([])
        out[-1].append(sentence_view(sentence, blocks, numbers))
    return out


def sources_view(
    blocks: Mapping[int, Mapping[str, Any]], numbers: Mapping[int, int]
) -> list[dict[str, Any]]:
    """The source list under an answer, by reader number: ``{n, block, title, section,
    updated, authority, url}`` of each cited block."""
    return [
        {
            "n": label,
            "block": n,
            "title": blocks.get(n, {}).get("title", ""),
            "section": blocks.get(n, {}).get("section", ""),
            "updated": blocks.get(n, {}).get("updated", ""),
            "authority": blocks.get(n, {}).get("authority", ""),
            "url": chunk_url(str(blocks[n]["chunk_id"])) if n in blocks else "",
        }
        for n, label in sorted(numbers.items(), key=lambda item: item[1])
    ]


def refusal_view(refusal: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The refusal payload (``Refusal.to_dict()``) with chunk URLs added for the card."""
    if not refusal:
        return None
    view = dict(refusal)
    view["documents"] = [
        {**d, "url": chunk_url(d["chunk_id"]) if d.get("chunk_id") else d.get("source_url", "")}
        for d in refusal.get("documents") or ()
    ]
    conflict = refusal.get("conflict")
    if conflict:
        sides = [
            {
                **side,
                "chip": chip(side.get("n", 0), side, label=i + 1, claim=side.get("value_text", "")),
                "preferred": i == conflict.get("preferred"),
            }
            for i, side in enumerate(conflict.get("sides") or ())
        ]
        view["conflict"] = {**conflict, "sides": sides}
    return view


def turn_view(
    *,
    key: str,
    sentences: Sequence[Mapping[str, Any]] = (),
    blocks: Iterable[Mapping[str, Any]] = (),
    dropped: int = 0,
    refusal: Mapping[str, Any] | None = None,
    notices: Sequence[str] = (),
    error: str = "",
    status: str = "streaming",
    trace_id: str = "",
    language: str = "",
    feedback: Any = None,
) -> dict[str, Any]:
    """Context of the ``assistant-bubble`` partial (the whole assistant turn).

    ``language`` is the question's (``"en"``/``"zh"``; empty while unknown): ``locale`` is the
    Django language the bubble renders its refusal, notices, withheld note and status line in
    (its controls and source labels speak the page's).
    ``feedback`` is the asker's ``chat.models.Feedback`` on this answer, if any.
    """
    numbered = blocks_by_number(blocks)
    return {
        "key": key,
        "locale": answer_locale(language),
        "copyable": bool(sentences or refusal),
        "paragraphs": paragraphs_view(sentences, numbered),
        "sources": sources_view(numbered, reader_numbers(sentences)),
        "feedback": feedback,
        "dropped": dropped,
        "refusal": refusal_view(refusal),
        "notices": list(notices),
        "error": error,
        "status": status,
        "trace_id": trace_id,
    }


def cached_feedback(trace: Trace | None) -> Feedback | None:
    """The trace's feedback if the query loaded it (``select_related("trace__feedback")``),
    else None: never a query of its own, so async code may render a stored message."""
    if trace is None or not Trace.feedback.is_cached(trace):
        return None
    return getattr(trace, "feedback", None)


def message_turn_view(message: Message) -> dict[str, Any]:
    """A stored assistant ``Message`` as a finished turn (withheld count from its trace)."""
    trace = message.trace
    data = trace.data if trace is not None else {}
    language = trace.language if trace is not None else ""
    with translation.override(answer_locale(language)):  # the card's language, as its footer
        error = stored_error(message.status, data)
    return turn_view(
        key=f"m{message.pk}",
        sentences=message.sentences or (),
        blocks=message.citations or (),
        dropped=len(data.get("dropped") or ()),
        refusal=message.refusal,
        notices=(data.get("notices") or ()) if message.sentences else (),
        error=error,
        status=message.status or "answered",
        trace_id=message.trace_id or "",
        language=language,
        feedback=cached_feedback(trace),
    )


def sentence_fragment(
    sentences: Sequence[Mapping[str, Any]], blocks: Mapping[int, Mapping[str, Any]], key: str
) -> SafeString:
    """The oob fragment that adds the last of ``sentences`` (the answer so far) to the
    bubble: into the current paragraph or as a new one, plus the source list again when the
    sentence cites a source for the first time."""
    numbers = reader_numbers(sentences)
    before = reader_numbers(sentences[:-1])
    view = sentence_view(sentences[-1], blocks, numbers)
    starts = [starts_paragraph(sentences[i - 1] if i else None, s) for i, s in enumerate(sentences)]
    html = sentence_append_html(key=key, sentence=view, paragraph=sum(starts), new=starts[-1])
    if len(numbers) > len(before):
        html = mark_safe(
            html + sources_html(key=key, sources=sources_view(blocks, numbers), oob="true")
        )
    return html


def stored_error(status: str, data: Mapping[str, Any]) -> str:
    """The error line of a stored turn: the trace's errors, or why an interrupted turn has
    no end (the server stopped: ``chat.turn_records``); "" for other statuses."""
    if status == "error":
        if shown := data.get("shown_error"):  # what the asker saw, in the card's language
            return str(_(shown))
        return "; ".join(data.get("errors") or ())  # traces stored before ``shown_error``
    if status == "interrupted":
        return str(_("The server stopped before this answer was finished."))
    if status == "cancelled":
        return str(_("This answer was cancelled before it was finished."))
    return ""


def event_fragment(ev: Event, *, key: str, outcome: AnswerOutcome) -> SafeString:
    """The out-of-band fragment for one pipeline event (``outcome`` already includes it).

    ``Meta`` turns the bubble's progress line to "writing"; ``Notice`` fills
    ``#notices-<key>`` (the pipeline sends it just before the first verified sentence, never
    with a refusal); ``Sentence`` adds to the answer (``sentence_fragment``); ``Dropped``
    updates the withheld counter only; ``Refusal``/``Error``/``Done`` replace their slot of
    the turn. Notices, the withheld note and the refusal card are rendered in the question's
    language (``outcome.language``).
    """
    locale = answer_locale(outcome.language)
    if isinstance(ev, Meta):
        return progress_html(key=key, state="writing", oob="true")
    if isinstance(ev, Notice):
        with translation.override(locale):
            return fragment("notices", key=key, notices=ev.notices, oob="true")
    if isinstance(ev, Sentence):  # the source list's labels in the page's language
        return sentence_fragment(outcome.sentences, blocks_by_number(outcome.blocks), key)
    if isinstance(ev, Dropped):
        with translation.override(locale):
            return fragment("withheld", key=key, dropped=outcome.dropped, oob="true")
    if isinstance(ev, Refusal):
        with translation.override(locale):
            return fragment("refusal", key=key, refusal=refusal_view(ev.to_dict()), oob="true")
    if isinstance(ev, Error):
        with translation.override(locale):
            return fragment(
                "error", key=key, error=_(ev.message), shown=bool(outcome.sentences), oob="true"
            )
    if isinstance(ev, Done):
        return footer_fragment(key=key, status=ev.status, outcome=outcome)
    return mark_safe("")


def footer_fragment(*, key: str, status: str, outcome: AnswerOutcome) -> SafeString:
    """The oob footer of a turn that ended with ``status``: its status line in the
    question's language, its controls in the page's; Copy only when the bubble shows
    something (sentences or a refusal card)."""
    return footer_html(
        key=key, status=status, trace_id=outcome.trace_id, oob="true",
        copyable=bool(outcome.sentences or outcome.refusal),
        status_locale=answer_locale(outcome.language),
    )
