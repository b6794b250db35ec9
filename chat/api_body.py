"""The non-streaming JSON body of ``POST /api/answer`` (contract: ``chat.api``'s docstring):
the outcome's sentences, notices, refusal and cited sources, with absolute passage links."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse

from chat.outcomes import AnswerOutcome
from chat.selectors import chunk_url, reader_numbers


def passage_links(request: HttpRequest, chunk_id: str) -> dict[str, str]:
    """``{"url", "api_url"}`` of a passage: its HTML page and its JSON, absolute."""
    return {
        "url": request.build_absolute_uri(chunk_url(chunk_id)),
        "api_url": request.build_absolute_uri(reverse("sources:chunk-api", args=[chunk_id])),
    }


def refusal_body(request: HttpRequest, refusal: dict[str, Any] | None) -> dict[str, Any] | None:
    """The refusal with ``url`` and ``api_url`` on each closest document and each side of a
    conflict that names a passage, so a client opens them as it opens ``sources``."""
    if refusal is None:
        return None

    def linked(item: dict[str, Any]) -> dict[str, Any]:
        chunk_id = item.get("chunk_id")
        return {**item, **passage_links(request, chunk_id)} if chunk_id else item

    body = {**refusal, "documents": [linked(d) for d in refusal.get("documents") or ()]}
    if refusal.get("conflict"):
        conflict = refusal["conflict"]
        body["conflict"] = {**conflict, "sides": [linked(s) for s in conflict.get("sides") or ()]}
    return body


def answer_body(request: HttpRequest, conversation: int, outcome: AnswerOutcome) -> dict[str, Any]:
    """The non-streaming JSON contract (see the module docstring)."""
    labels = reader_numbers(outcome.sentences)
    return {
        "conversation": conversation,
        "trace_id": outcome.trace_id,
        "status": outcome.status,
        "answer": outcome.text,
        "sentences": [
            {"text": s["text"], "citations": list(s["citations"]), "kind": s["kind"],
             "paragraph": s["paragraph"]}
            for s in outcome.sentences
        ],
        "notices": outcome.notices,
        "dropped": outcome.dropped_items,
        "refusal": refusal_body(request, outcome.refusal),
        "sources": [
            {
                "n": b["n"],
                "label": labels[b["n"]],
                "chunk_id": b["chunk_id"],
                "title": b.get("title", ""),
                "section": b.get("section", ""),
                "updated": b.get("updated", ""),
                "authority": b.get("authority", ""),
                **passage_links(request, b["chunk_id"]),
            }
            for b in sorted(outcome.citations(), key=lambda b: labels[b["n"]])
        ],
    }
