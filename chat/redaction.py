"""Purge forgets: the text of a purged document leaves every stored trace and answer.

``sources.lifecycle.document_purge`` sends ``document_purged`` with the purged chunks' ids
and texts; ``traces_redact`` (connected in ``ChatConfig.ready``) rewrites what quoted them:

- in a trace: the purged blocks' ``<source>`` text in each prompt, every claim, verdict and
  shown sentence citing a purged block (and the same text wherever else it appears, e.g. the
  dropped list), the sentences of raw drafts citing one, conflict values from its chunks, and
  any verbatim sentence of the purged text anywhere else (extractive drafts, compression);
- in an assistant message: the shown sentences citing a purged chunk.

Each is replaced by ``REMOVED``. Ids, hashes, scores, titles and the verdicts' numbers stay, so a
reviewer still sees that a source was used, which one, and that its text was purged.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from html import escape
from typing import Any

from django.db import transaction
from django.db.models import Q

from chat.models import Message, Trace
from kbqa.core.text.sentences import split_sentences

REMOVED = "[removed: the source document was purged]"
# Sentences shorter than this are too common to be evidence of quoting ("Yes.", "Step 2.").
MIN_QUOTE_CHARS = 12
# Keys whose values describe a chunk without quoting it: kept on a purged chunk's entries.
KEPT_KEYS = frozenset(
    {"n", "chunk_id", "doc_id", "sha256", "score", "relevance", "tokens", "title", "section",
     "updated", "source_url", "authority", "unit", "preferred", "draft", "ok", "kind"}
)
_SOURCE = re.compile(r'(<source n="(\d+)"[^>]*>)(.*?)(</source>)', re.DOTALL)
_MARKERS = re.compile(r"\[(\d+(?:\s*[,，、]\s*\d+)*)\]")


def traces_redact(*, doc_id: str, chunks: Mapping[str, str]) -> int:
    """Redact the text of ``chunks`` (chunk id -> text) of document ``doc_id`` from stored
    traces and assistant messages; returns how many rows changed."""
    if not chunks:
        return 0
    quotes = _quote_patterns(chunks.values())
    changed = 0
    with transaction.atomic():
        for trace in Trace.objects.filter(data__icontains=doc_id).iterator():
            data = trace_data_redact(trace.data, purged=set(chunks), quotes=quotes)
            if data != trace.data:
                Trace.objects.filter(pk=trace.pk).update(data=data)
                changed += 1
        for message in Message.objects.filter(Q(citations__icontains=doc_id)).iterator():
            if message_redact(message, purged=set(chunks), quotes=quotes):
                changed += 1
    return changed


def on_document_purged(sender: Any, *, doc_id: str, chunks: Mapping[str, str], **_: Any) -> None:
    """``document_purged`` receiver."""
    traces_redact(doc_id=doc_id, chunks=chunks)


def _quote_patterns(texts: Iterable[str]) -> list[re.Pattern[str]]:
    """One whitespace-tolerant pattern per sentence of the purged text (plain and as the
    prompt's XML-escaped form), longest first so a sentence goes before its fragments."""
    sentences = {s.strip() for text in texts for s in split_sentences(text)}
    forms = {f for s in sentences if len(s) >= MIN_QUOTE_CHARS for f in (s, escape(s, False))}
    ordered = sorted(forms, key=len, reverse=True)
    return [re.compile(r"\s+".join(re.escape(word) for word in f.split())) for f in ordered]


def _scrub(text: str, quotes: list[re.Pattern[str]]) -> str:
    for pattern in quotes:
        text = pattern.sub(REMOVED, text)
    return text


def trace_data_redact(
    data: dict[str, Any], *, purged: set[str], quotes: list[re.Pattern[str]]
) -> dict[str, Any]:
    """A copy of a trace's JSON with the purged chunks' text replaced by ``REMOVED``."""
    numbers = {b.get("n") for b in data.get("blocks") or () if b.get("chunk_id") in purged}
    removed: set[str] = set()
    out = _walk(data, numbers=numbers, purged=purged, removed=removed)
    out = _prompt_redact(out, numbers)  # prompts, and the model calls that record them
    out["drafts"] = [_draft_redact(d, numbers) for d in out.get("drafts") or ()]
    for call in out.get("calls") or ():  # every model call's raw output (drafts among them)
        if isinstance(call, dict):
            call["output"] = _draft_redact(call.get("output", ""), numbers)
    return _walk_strings(out, lambda s: REMOVED if s in removed else _scrub(s, quotes))


def _walk(value: Any, *, numbers: set[Any], purged: set[str], removed: set[str]) -> Any:
    """Replace the text of entries citing a purged block number or naming a purged chunk."""
    if isinstance(value, list):
        return [_walk(v, numbers=numbers, purged=purged, removed=removed) for v in value]
    if not isinstance(value, dict):
        return value
    out = {k: _walk(v, numbers=numbers, purged=purged, removed=removed) for k, v in value.items()}
    cites = out.get("citations")
    cites_purged = isinstance(cites, list) and bool(numbers.intersection(cites))
    if cites_purged or out.get("chunk_id") in purged:
        for key, item in out.items():
            if key in KEPT_KEYS or key == "citations":
                continue
            if isinstance(item, str) and item:
                removed.add(item)
                out[key] = REMOVED
            elif key not in ("reasons", "issues") and _strings(item):
                out[key] = []
    return out


def _strings(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(i, str) for i in value)


def _walk_strings(value: Any, change: Any) -> Any:
    if isinstance(value, str):
        return change(value)
    if isinstance(value, list):
        return [_walk_strings(v, change) for v in value]
    if isinstance(value, dict):
        return {k: v if k in KEPT_KEYS else _walk_strings(v, change) for k, v in value.items()}
    return value


def _prompt_redact(prompt: Any, numbers: set[Any]) -> Any:
    """``prompt`` (any JSON value) with each purged block's ``<source>`` body replaced
    (attributes kept)."""
    if not numbers:
        return prompt

    def body(match: re.Match[str]) -> str:
        if int(match.group(2)) in numbers:
            return match.group(1) + REMOVED + match.group(4)
        return match.group(0)

    return _walk_strings(prompt, lambda s: _SOURCE.sub(body, s))


def _draft_redact(draft: Any, numbers: set[Any]) -> Any:
    """A raw draft with each sentence citing a purged block replaced."""
    if not numbers or not isinstance(draft, str):
        return draft
    for sentence in split_sentences(draft):
        cited = {int(n) for m in _MARKERS.finditer(sentence) for n in re.findall(r"\d+", m[1])}
        if cited & numbers:
            draft = draft.replace(sentence, REMOVED, 1)
    return draft


def message_redact(message: Message, *, purged: set[str], quotes: list[re.Pattern[str]]) -> bool:
    """Redact ``message``'s shown sentences that cite a purged chunk; True if it changed."""
    numbers = {c.get("n") for c in message.citations or () if c.get("chunk_id") in purged}
    sentences = []
    for s in message.sentences or ():
        text = s.get("text", "")
        cited = numbers.intersection(s.get("citations") or ())
        sentences.append({**s, "text": REMOVED if cited else _scrub(text, quotes)})
    if sentences == (message.sentences or []):
        return False
    message.sentences = sentences
    message.text = " ".join(s["text"] for s in sentences)
    message.save(update_fields=["sentences", "text"])
    return True
