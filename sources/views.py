"""The chunk view: the original text of a cited passage, as a page, an htmx partial or JSON.

Thin views over ``sources.selectors.chunk_get``. Chunk ids contain ``#``, so URLs carry it
percent-encoded (``/chunks/doc-010%23c02/``); ``reverse()`` and ``{% url %}`` encode it.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from sources.selectors import chunk_as_core, chunk_get

TEMPLATE = "sources/chunk_detail.html"


def source_href(url: str) -> str:
    """``url`` if it is safe as a link target (http, https or a site path), else ""."""
    scheme = urlsplit(url).scheme.lower()
    if scheme in ("http", "https") or (not scheme and url.startswith("/")):
        return url
    return ""


@require_GET
@login_required
def chunk_detail(request: HttpRequest, chunk_id: str) -> HttpResponse:
    """The chunk page; only the ``chunk-view`` partial when requested by htmx.

    Unknown id: the same template with a "not found" message and status 404.
    """
    chunk = chunk_get(chunk_id=chunk_id)
    template = f"{TEMPLATE}#chunk-view" if getattr(request, "htmx", False) else TEMPLATE
    context = {
        "chunk": chunk,
        "chunk_id": chunk_id,
        "source_href": source_href(chunk.document.source_url) if chunk else "",
    }
    return render(request, template, context, status=200 if chunk else 404)


@require_GET
def chunk_api(request: HttpRequest, chunk_id: str) -> JsonResponse:
    """JSON of one chunk: the core ``Chunk`` fields plus ``is_current`` and ``url``.

    401 JSON when not logged in; 404 JSON for an unknown id.
    """
    if not request.user.is_authenticated:
        return JsonResponse({"error": "Log in to read sources."}, status=401)
    chunk = chunk_get(chunk_id=chunk_id)
    if chunk is None:
        return JsonResponse({"error": f"No source passage with id {chunk_id!r}."}, status=404)
    data = chunk_as_core(chunk).__dict__ | {
        "is_current": chunk.is_current,
        "url": reverse("sources:chunk-detail", args=[chunk.chunk_id]),
    }
    return JsonResponse(data, json_dumps_params={"ensure_ascii": False})
