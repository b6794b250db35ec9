"""The chunk view: the original text of a cited passage, as a page, an htmx partial or JSON.

Thin views over ``sources.selectors.chunk_get``. Chunk ids contain ``#``, so URLs carry it
percent-encoded (``/chunks/doc-010%23c02/``); ``reverse()`` and ``{% url %}`` encode it.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Any
from urllib.parse import urlsplit

from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET

from sources.claim_links import claim_signed
from sources.display import display_blocks, display_marked
from sources.models import Chunk
from sources.selectors import (
    audience_for,
    chunk_as_core,
    chunk_get,
    chunk_purged_at,
    chunk_readable,
    document_access,
)

TEMPLATE = "sources/chunk_detail.html"
# A chat sentence is far shorter; the cap keeps a crafted URL from costing much work.
CLAIM_MAX_CHARS = 2000


def source_href(url: str) -> str:
    """``url`` if it is safe as a link target (http, https or a site path), else ""."""
    scheme = urlsplit(url).scheme.lower()
    if scheme in ("http", "https") or (not scheme and url.startswith("/")):
        return url
    return ""


def _superseded(chunk: Chunk) -> bool:
    """Replaced by a newer version (not merely out because its document was retired)."""
    retired_at = chunk.document.retired_at
    return not chunk.is_current and (retired_at is None or chunk.superseded_at != retired_at)


def readable_chunk(*, chunk_id: str, user: Any) -> Chunk | None:
    """The stored chunk ``chunk_id`` if ``user`` may read it, else None (as if unknown)."""
    chunk = chunk_get(chunk_id=chunk_id)
    return chunk if chunk is not None and chunk_readable(chunk=chunk, user=user) else None


@require_GET
@login_required
def chunk_detail(request: HttpRequest, chunk_id: str) -> HttpResponse:
    """The chunk page; only the ``chunk-view`` partial when requested by htmx.

    A chunk of a removed (retired) document is shown with a note saying so. A purged chunk
    the user could read: the same template saying it is no longer available, status 410.
    Unknown id, or a chunk of a document the user may not (or, if purged, could not) read:
    the same "not found" message, status 404, so the page does not tell that a hidden
    document exists or existed. ``?claim=<sentence>&sig=`` (a chat chip's
    link) highlights the passage sentences that support that sentence
    (``sources.display.display_marked``); a claim without kbqa's signature
    (``sources.claim_links``) highlights nothing and the page says it was not checked.
    """
    chunk = readable_chunk(chunk_id=chunk_id, user=request.user)
    purged_at = None if chunk else chunk_purged_at(chunk_id=chunk_id, user=request.user)
    template = f"{TEMPLATE}#chunk-view" if getattr(request, "htmx", False) else TEMPLATE
    claim = request.GET.get("claim", "")[:CLAIM_MAX_CHARS]
    signed = claim_signed(chunk_id, claim, request.GET.get("sig", ""))
    blocks = display_blocks(chunk.text) if chunk else []
    if signed:
        blocks = display_marked(blocks, claim)
    context = {
        "chunk": chunk,
        "chunk_id": chunk_id,
        "purged_at": purged_at,
        "blocks": blocks,
        "marked": any(b.anchor for b in blocks),
        "unchecked_claim": bool(claim.strip()) and not signed,
        "superseded": chunk is not None and _superseded(chunk),
        "source_href": source_href(chunk.document.source_url) if chunk else "",
    }
    status = 200 if chunk else 410 if purged_at else 404
    return render(request, template, context, status=status)


def document_original(*, document: Any, user: Any) -> FileResponse:
    """The stored original file of ``document`` as an attachment named as uploaded (never
    inline: an HTML original must not run in the site's origin). Raises ``Http404`` when
    there is none, or when ``user`` may not read the document (``chunk_readable``'s rule)."""
    access = document_access(document)
    if not document.original_file or not audience_for(user).may_read(access):
        raise Http404("No original file.")
    try:
        handle = document.original_file.open("rb")
    except FileNotFoundError:
        raise Http404("No original file.") from None
    name = document.original_name or PurePath(document.original_file.name).name
    return FileResponse(handle, as_attachment=True, filename=name)


AUTH_REQUIRED = "Authentication required: log in or send 'Authorization: Bearer <token>'."


def method_not_allowed(request: HttpRequest) -> JsonResponse:
    """The chunk API's JSON 405 for any method but GET, in the answer API's shape and code
    (``chat.api_errors``; sources may not import chat), with ``Allow: GET``."""
    message = f"{request.method} is not allowed: /api/chunks/ only reads passages. Use GET."
    refused = JsonResponse({"error": message, "code": "method_not_allowed"}, status=405)
    refused["Allow"] = "GET"
    return refused


# CSRF-exempt so that the method is checked first: a POST got Django's HTML "CSRF verification
# failed" page. It only reads, and answers nothing but GET.
@csrf_exempt
def chunk_api(request: HttpRequest, chunk_id: str) -> JsonResponse:
    """JSON of one chunk: the core ``Chunk`` fields plus ``is_current``, ``superseded``
    (replaced by a newer version of its document: ``title`` is then the document's title
    now, ``updated`` null, ``stored_from``/``superseded_at`` the dates it was in the
    knowledge base, ISO dates), ``retired_at`` (ISO datetime when its document was removed
    from the knowledge base, else null) and ``url`` (the chunk page, absolute like the
    answer API's source URLs).

    405 JSON ``method_not_allowed`` for any method but GET; 401 JSON when not logged in; 410
    JSON for a purged chunk the caller could read; 404 JSON for an unknown id or a chunk the
    caller (the session user, or the API token's user) may not read, purged or not.
    """
    if request.method != "GET":
        return method_not_allowed(request)
    if not request.user.is_authenticated:
        # the answer API's words (chat.auth.AUTH_REQUIRED; sources may not import chat); a
        # token that logs no one in is refused before this, by chat.auth.BearerTokenMiddleware
        refused = JsonResponse({"error": AUTH_REQUIRED, "code": "unauthorized"}, status=401)
        refused["WWW-Authenticate"] = 'Bearer realm="kbqa"'
        return refused
    chunk = readable_chunk(chunk_id=chunk_id, user=request.user)
    if chunk is None and (purged_at := chunk_purged_at(chunk_id=chunk_id, user=request.user)):
        day = timezone.localtime(purged_at).date().isoformat()
        message = f"Source passage {chunk_id!r} is no longer available: it was purged on {day}."
        return JsonResponse({"error": message, "code": "chunk_purged"}, status=410)
    if chunk is None:
        # "doc-042#c02" typed into a URL reaches the server as "doc-042": the # starts the
        # fragment, which the client never sends
        hint = ("" if "#" in chunk_id else " A passage id has the form doc-id#c01; in a URL "
                "write its # as %23 (/api/chunks/doc-042%23c02).")
        return JsonResponse({"error": f"No source passage with id {chunk_id!r}.{hint}",
                             "code": "chunk_not_found"}, status=404)
    fields = {k: v for k, v in chunk_as_core(chunk).__dict__.items() if k != "access"}
    superseded = _superseded(chunk)
    if superseded:
        # The document's title and date are its newer version's; this text's own date is
        # not stored (the page says the same): when it was in the knowledge base instead.
        fields["updated"] = None
    data = fields | {
        "superseded": superseded,
        "stored_from": timezone.localtime(chunk.created_at).date().isoformat(),
        "superseded_at": (timezone.localtime(chunk.superseded_at).date().isoformat()
                          if superseded and chunk.superseded_at else None),
        "is_current": chunk.is_current,
        "retired_at": retired.isoformat() if (retired := chunk.document.retired_at) else None,
        "url": request.build_absolute_uri(reverse("sources:chunk-detail", args=[chunk.chunk_id])),
    }
    return JsonResponse(data, json_dumps_params={"ensure_ascii": False})
