"""Admin for the knowledge base: upload many files, read chunks, re-ingest, delete.

Ingest errors become admin messages naming the file and the reason, never 500 pages.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse

from sources.forms import UploadForm
from sources.models import Chunk, Document
from sources.services import (
    IngestOverrides,
    document_ingest,
    document_reingest,
    ingest_failure_reason,
)


class ChunkInline(admin.TabularInline):
    model = Chunk
    fields = ("chunk_id", "ordinal", "section", "text", "tokens", "is_current", "superseded_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False
    ordering = ("ordinal", "version")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Document)
class DocumentAdmin(admin.ModelAdmin):
    list_display = ("doc_id", "title", "authority", "language", "updated", "updated_at")
    list_filter = ("authority", "language")
    search_fields = ("doc_id", "title")
    readonly_fields = (
        "doc_id",
        "original_file",
        "original_name",
        "content_hash",
        "overrides",
        "created_at",
        "updated_at",
    )
    inlines = [ChunkInline]
    actions = ["reingest"]
    change_list_template = "admin/sources/document/change_list.html"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # documents come in through the upload view (parsed and chunked)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # metadata comes from the file or upload overrides; re-ingest to change

    def get_urls(self) -> list[URLPattern]:
        upload = self.admin_site.admin_view(self.upload_view)
        return [path("upload/", upload, name="sources_document_upload"), *super().get_urls()]

    def upload_view(self, request: HttpRequest) -> HttpResponse:
        """Upload one or many files; each is ingested on its own (one bad file spoils none)."""
        if not self.has_view_permission(request) or not request.user.has_perm(
            "sources.add_document"
        ):
            return HttpResponseRedirect(reverse("admin:sources_document_changelist"))
        form = UploadForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            for upload in form.cleaned_data["files"]:
                self._ingest_upload(request, upload, form.overrides())
            return HttpResponseRedirect(reverse("admin:sources_document_changelist"))
        context = {
            **self.admin_site.each_context(request),
            "form": form,
            "opts": self.model._meta,
            "title": "Upload documents",
        }
        return TemplateResponse(request, "admin/sources/document/upload.html", context)

    def _ingest_upload(self, request: HttpRequest, upload: Any, overrides: IngestOverrides) -> None:
        try:
            result = document_ingest(file=upload, overrides=overrides)
        except Exception as exc:  # every failure is a message, never a 500
            messages.error(request, ingest_failure_reason(upload.name, exc))
            return
        messages.success(
            request,
            f"{upload.name}: {result.status} {result.doc_id} ({result.chunks} chunks, "
            f"{result.chunks_added} new, {result.chunks_superseded} superseded)",
        )

    @admin.action(description="Re-ingest from the stored original file")
    def reingest(self, request: HttpRequest, queryset: QuerySet[Document]) -> None:
        for document in queryset:
            try:
                result = document_reingest(document=document)
            except Exception as exc:  # every failure is a message, never a 500
                messages.error(request, ingest_failure_reason(document.doc_id, exc))
                continue
            messages.success(
                request, f"{document.doc_id}: {result.status} ({result.chunks} chunks)"
            )
