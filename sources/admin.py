"""Admin for the knowledge base: upload many files, read chunks, re-ingest, remove, restore.

"Delete" retires a document (``sources.lifecycle``): its chunks leave answers but stay
readable for the citations stored in traces, and the "Restore" action brings it back. A purge
that deletes rows and files is a separate, deliberate command: ``manage.py documents_purge``.
Ingest errors become admin messages naming the file and the reason, never 500 pages. The
templates show messages as written (no capitalised ``Travel-policy.md``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone

from sources.forms import UploadForm
from sources.lifecycle import document_restore, document_retire
from sources.models import Chunk, Document
from sources.services import (
    IngestOverrides,
    IngestResult,
    chunks_phrase,
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


def ingest_message(name: str, result: IngestResult) -> str:
    """``travel.md: added doc-010 (3 chunks, 3 new, 0 superseded)``; names kept as written."""
    return (
        f"{name}: {result.status} {result.doc_id} ({chunks_phrase(result.chunks)}, "
        f"{result.chunks_added} new, {result.chunks_superseded} superseded)"
    )


def day(moment: Any) -> str:
    """A stored datetime as the local ``YYYY-MM-DD`` shown in messages and the list."""
    return str(timezone.localtime(moment).date().isoformat())


class StatusFilter(admin.SimpleListFilter):
    title = "status"
    parameter_name = "status"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("current", "In the knowledge base"), ("removed", "Removed")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Document]) -> QuerySet[Document]:
        if self.value() in ("current", "removed"):
            return queryset.filter(retired_at__isnull=self.value() == "current")
        return queryset


@admin.register(Document)
class DocumentAdmin(admin.ModelAdmin):
    list_display = ("doc_id", "title", "status", "authority", "language", "updated", "updated_at")
    list_filter = (StatusFilter, "authority", "language")
    search_fields = ("doc_id", "title")
    readonly_fields = (
        "doc_id",
        "retired_at",
        "original_file",
        "original_name",
        "content_hash",
        "overrides",
        "created_at",
        "updated_at",
    )
    inlines = [ChunkInline]
    actions = ["reingest", "delete_selected", "restore"]
    change_list_template = "admin/sources/document/change_list.html"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # documents come in through the upload view (parsed and chunked)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # metadata comes from the file or upload overrides; re-ingest to change

    @admin.display(description="status", ordering="retired_at")
    def status(self, document: Document) -> str:
        if document.retired_at is None:
            return "in the knowledge base"
        return f"removed on {day(document.retired_at)}"

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
            written: dict[str, str] = {}  # doc_id -> file name, to tell of a clash
            for screened in form.screened_uploads():
                if screened.problem:
                    messages.warning(request, screened.problem)
                    continue
                result = self._ingest_upload(request, screened.upload, form.overrides())
                if result is not None and result.doc_id in written:
                    messages.warning(
                        request,
                        f"{screened.upload.name}: has the same doc_id ({result.doc_id}) as "
                        f"{written[result.doc_id]} in this upload and replaced its text",
                    )
                elif result is not None:
                    written[result.doc_id] = screened.upload.name
            return HttpResponseRedirect(reverse("admin:sources_document_changelist"))
        context = {
            **self.admin_site.each_context(request),
            "form": form,
            "opts": self.model._meta,
            "title": "Upload documents",
        }
        return TemplateResponse(request, "admin/sources/document/upload.html", context)

    def _ingest_upload(
        self, request: HttpRequest, upload: Any, overrides: IngestOverrides
    ) -> IngestResult | None:
        """Ingest one file and say how it went; None when it failed."""
        try:
            result = document_ingest(file=upload, overrides=overrides)
        except Exception as exc:  # every failure is a message, never a 500
            messages.error(request, ingest_failure_reason(upload.name, exc))
            return None
        messages.success(request, ingest_message(upload.name, result))
        return result

    @admin.action(description="Re-ingest from the stored original file")
    def reingest(self, request: HttpRequest, queryset: QuerySet[Document]) -> None:
        for document in queryset:
            try:
                result = document_reingest(document=document)
            except Exception as exc:  # every failure is a message, never a 500
                messages.error(request, ingest_failure_reason(document.doc_id, exc))
                continue
            messages.success(
                request, f"{document.doc_id}: {result.status} ({chunks_phrase(result.chunks)})"
            )

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """Deleting one document retires it, after a confirmation page that says so."""
        document = self.get_object(request, unquote(object_id))
        if document is None:
            return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)
        if not self.has_delete_permission(request, document):
            raise PermissionDenied
        if request.method == "POST":
            self._retire(request, [document])
            return HttpResponseRedirect(reverse("admin:sources_document_changelist"))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "object": document,
            "retired_on": day(document.retired_at) if document.retired_at else "",
            "chunks": chunks_phrase(document.chunks.filter(is_current=True).count()),
            "title": "Remove a document from the knowledge base",
        }
        return TemplateResponse(request, "admin/sources/document/retire_confirmation.html", context)

    @admin.action(
        description="Remove from the knowledge base (cited passages stay readable)",
        permissions=["delete"],
    )
    def delete_selected(self, request: HttpRequest, queryset: QuerySet[Document]) -> None:
        """Replaces Django's bulk delete: selected documents are retired, not deleted."""
        self._retire(request, queryset)

    def _retire(self, request: HttpRequest, documents: Iterable[Document]) -> None:
        for document in documents:
            if document.retired_at is not None:
                messages.info(
                    request, f"{document.doc_id}: already removed on {day(document.retired_at)}"
                )
                continue
            count = document_retire(document=document)
            messages.success(
                request,
                f"{document.doc_id}: removed from the knowledge base; {chunks_phrase(count)} "
                "left the answers and stay readable for stored citations. "
                "The action \"Restore to the knowledge base\" brings it back.",
            )

    @admin.action(description="Restore to the knowledge base", permissions=["delete"])
    def restore(self, request: HttpRequest, queryset: QuerySet[Document]) -> None:
        for document in queryset:
            if document.retired_at is None:
                messages.info(request, f"{document.doc_id}: already in the knowledge base")
                continue
            count = document_restore(document=document)
            messages.success(
                request, f"{document.doc_id}: restored ({chunks_phrase(count)} back in answers)"
            )
