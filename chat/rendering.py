"""HTML fragments of a chat turn, shared by the chat page and the websocket consumer.

Both render the partials of ``templates/chat/_fragments.html``; a partial's name is the DOM
id prefix (or role) of what it fills, e.g. ``answer`` fills ``#answer-<key>``. ``key`` names
one assistant turn: ``t<hex>`` while streaming, ``m<message pk>`` for stored messages. The
websocket variants carry ``hx-swap-oob`` (``oob`` in the context). Sentences, refusals and
document titles are autoescaped by the templates; nothing here marks text safe except HTML
that Django templates rendered.

Dropped sentences never reach this module as text: only their count does.

Language: refusal and conflict cards, notices and the withheld note speak the language of the
question (``Meta.language``, stored as ``Trace.language``), whatever the UI language; the rest
of the turn (footer, errors, labels around it) stays in the UI language.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from chat.models import Message
from chat.selectors import chunk_url
from chat.turns import AnswerOutcome
from kbqa.core.types import Done, Dropped, Error, Event, Notice, Refusal, Sentence

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


def chip(n: int, block: Mapping[str, Any] | None) -> dict[str, Any]:
    """A citation chip: block number, chunk id, title and chunk URL (no URL if unknown)."""
    block = block or {}
    chunk_id = str(block.get("chunk_id", ""))
    return {
        "n": n,
        "chunk_id": chunk_id,
        "title": block.get("title", ""),
        "updated": block.get("updated", ""),
        "url": chunk_url(chunk_id) if chunk_id else "",
    }


def blocks_by_number(blocks: Iterable[Mapping[str, Any]]) -> dict[int, Mapping[str, Any]]:
    """The blocks of a ``Meta`` (or a stored message) keyed by their number ``n``."""
    return {int(b["n"]): b for b in blocks if "n" in b}


def sentence_view(
    sentence: Mapping[str, Any], blocks: Mapping[int, Mapping[str, Any]]
) -> dict[str, Any]:
    """``{index, text, kind, chips}`` for the ``sentence`` partial."""
    return {
        "index": sentence.get("index", 0),
        "text": sentence.get("text", ""),
        "kind": sentence.get("kind", "claim"),
        "chips": [chip(n, blocks.get(n)) for n in sentence.get("citations", ())],
    }


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
                "chip": chip(side.get("n", 0), side),
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
) -> dict[str, Any]:
    """Context of the ``assistant-bubble`` partial (the whole assistant turn).

    ``language`` is the question's (``"en"``/``"zh"``; empty while unknown): ``locale`` is the
    Django language the bubble renders its refusal, notices and withheld note in.
    """
    numbered = blocks_by_number(blocks)
    return {
        "key": key,
        "locale": answer_locale(language),
        "sentences": [sentence_view(s, numbered) for s in sentences],
        "dropped": dropped,
        "refusal": refusal_view(refusal),
        "notices": list(notices),
        "error": error,
        "status": status,
        "trace_id": trace_id,
    }


def message_turn_view(message: Message) -> dict[str, Any]:
    """A stored assistant ``Message`` as a finished turn (withheld count from its trace)."""
    trace = message.trace
    data = trace.data if trace is not None else {}
    return turn_view(
        key=f"m{message.pk}",
        sentences=message.sentences or (),
        blocks=message.citations or (),
        dropped=len(data.get("dropped") or ()),
        refusal=message.refusal,
        notices=(data.get("notices") or ()) if message.sentences else (),
        error=stored_error(message.status, data),
        status=message.status or "answered",
        trace_id=message.trace_id or "",
        language=trace.language if trace is not None else "",
    )


def stored_error(status: str, data: Mapping[str, Any]) -> str:
    """The error line of a stored turn: the trace's errors, or why an interrupted turn has
    no end (the server stopped: ``chat.turn_records``); "" for other statuses."""
    if status == "error":
        return "; ".join(data.get("errors") or ())
    if status == "interrupted":
        return str(_("The server stopped before it finished."))
    return ""


def event_fragment(ev: Event, *, key: str, outcome: AnswerOutcome) -> SafeString:
    """The out-of-band fragment for one pipeline event (``outcome`` already includes it).

    ``Meta`` renders nothing; ``Notice`` fills ``#notices-<key>`` (the pipeline sends it just
    before the first verified sentence, never with a refusal); ``Sentence`` appends to
    ``#answer-<key>``; ``Dropped`` updates the withheld counter only;
    ``Refusal``/``Error``/``Done`` replace their slot of the turn. Notices, the withheld note
    and the refusal card are rendered in the question's language (``outcome.language``).
    """
    locale = answer_locale(outcome.language)
    if isinstance(ev, Notice):
        with translation.override(locale):
            return fragment("notices", key=key, notices=ev.notices, oob="true")
    if isinstance(ev, Sentence):
        view = sentence_view(ev.to_dict(), blocks_by_number(outcome.blocks))
        return fragment("sentence-append", key=key, sentence=view)
    if isinstance(ev, Dropped):
        with translation.override(locale):
            return fragment("withheld", key=key, dropped=outcome.dropped, oob="true")
    if isinstance(ev, Refusal):
        with translation.override(locale):
            return fragment("refusal", key=key, refusal=refusal_view(ev.to_dict()), oob="true")
    if isinstance(ev, Error):
        return fragment("error", key=key, error=ev.message, oob="true")
    if isinstance(ev, Done):
        return fragment("footer", key=key, status=ev.status, trace_id=ev.trace_id, oob="true")
    return mark_safe("")  # Meta: nothing to show until a sentence, refusal or error
