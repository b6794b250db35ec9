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
from urllib.parse import urlencode

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from sources.admin_upload import UploadAdminMixin, jobs_context, reingest_queued
from sources.forms import DocumentVisibilityForm
from sources.ingest_types import STATUS_WORDS, changes, chunks_phrase
from sources.lifecycle import document_restore, document_retire
from sources.models import Chunk, Document
from sources.services import document_reingest
from sources.uploads import ingest_failure_reason
from sources.views import document_original
from sources.visibility import document_visibility_set

CHUNKS_INLINE = 50  # chunks shown on a document's page; a 22 MB text made 15,282 (47 MB HTML)


class FirstChunksFormSet(BaseInlineFormSet):
    """The first ``CHUNKS_INLINE`` chunks of the document; ``total`` counts all of them."""

    total = 0

    def get_queryset(self) -> QuerySet[Chunk]:
        if not hasattr(self, "_queryset"):
            chunks = super().get_queryset()
            self.total = chunks.count()
            self._queryset = chunks[:CHUNKS_INLINE]
        return self._queryset

    def chunk_list_url(self) -> str:
        """The read-only chunk list filtered to this document (``?doc_id=...``)."""
        return chunk_list_url(self.instance.doc_id)


def chunk_list_url(doc_id: str) -> str:
    """Admin URL of the chunks of ``doc_id``, e.g. ``/admin/sources/chunk/?doc_id=travel``."""
    return reverse("admin:sources_chunk_changelist") + "?" + urlencode({"doc_id": doc_id})


class ChunkInline(admin.TabularInline):
    model = Chunk
    formset = FirstChunksFormSet
    template = "admin/sources/document/chunk_inline.html"
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


def day(moment: Any) -> str:
    """A stored datetime as the local ``YYYY-MM-DD`` shown in messages and the list."""
    return str(timezone.localtime(moment).date().isoformat())


class StatusFilter(admin.SimpleListFilter):
    title = _("status")
    parameter_name = "status"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("current", _("In the knowledge base")), ("removed", _("Removed"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Document]) -> QuerySet[Document]:
        if self.value() in ("current", "removed"):
            return queryset.filter(retired_at__isnull=self.value() == "current")
        return queryset


class VisibleToFilter(admin.SimpleListFilter):
    """"By visibility": everyone, one group, or document administrators only. Django's own
    filter on ``groups`` labelled documents without groups "-", and counted among them the
    documents whose groups were all deleted, which are not visible to everyone
    (``Document.restricted``)."""

    title = _("visibility")
    parameter_name = "visible_to"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        groups = [(str(g.pk), g.name) for g in Group.objects.order_by("name")]
        return [("everyone", _("Everyone")), *groups,
                ("administrators", _("Document administrators only"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Document]) -> QuerySet[Document]:
        value = self.value() or ""
        if value == "everyone":
            return queryset.filter(restricted=False)
        if value == "administrators":
            return queryset.filter(restricted=True, groups__isnull=True)
        return queryset.filter(groups__pk=value) if value.isdigit() else queryset


@admin.register(Document)
class DocumentAdmin(UploadAdminMixin, admin.ModelAdmin):
    list_display = (
        "doc_id", "title", "status", "visible_to", "authority", "language", "updated", "updated_at"
    )
    list_filter = (StatusFilter, "authority", "language", VisibleToFilter)
    filter_horizontal = ("groups",)
    form = DocumentVisibilityForm
    search_fields = ("doc_id", "title")
    readonly_fields = (
        "doc_id",
        "retired_at",
        "original_link",
        "original_name",
        "content_hash",
        "overrides",
        "created_at",
        "updated_at",
        "chunk_list",
    )
    inlines = [ChunkInline]
    actions = ["reingest", "delete_selected", "restore"]
    change_list_template = "admin/sources/document/change_list.html"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # documents come in through the upload view (parsed and chunked)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        """Everything but visibility: metadata comes from the file or upload overrides
        (re-ingest to change it); who may read the document is set here."""
        hidden = ("id", "restricted", "original_file")  # the file: ``original_link``
        model_fields = [f.name for f in Document._meta.fields if f.name not in hidden]
        return list(dict.fromkeys([*model_fields, *self.readonly_fields]))

    def get_queryset(self, request: HttpRequest) -> QuerySet[Document]:
        return super().get_queryset(request).prefetch_related("groups")

    def save_model(self, request: HttpRequest, obj: Document, form: Any, change: bool) -> None:
        """Nothing to save but visibility, which ``save_related`` stores."""

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        data = form.cleaned_data
        document_visibility_set(
            document=form.instance, groups=list(data["groups"]), everyone=data["everyone"]
        )

    @admin.display(description=_("visible to"))
    def visible_to(self, document: Document) -> str:
        if not document.restricted:
            return gettext("everyone")
        names = sorted(g.name for g in document.groups.all())
        return ", ".join(names) or gettext("document administrators only")

    @admin.display(description=_("status"), ordering="retired_at")
    def status(self, document: Document) -> str:
        if document.retired_at is None:
            return gettext("in the knowledge base")
        return gettext("removed on %(date)s") % {"date": day(document.retired_at)}

    @admin.display(description=_("chunks"))
    def chunk_list(self, document: Document) -> str:
        """How many chunks (current and superseded) and a link to the list of them all."""
        count = document.chunks.count()
        return format_html(
            '<a href="{}">{}</a>', chunk_list_url(document.doc_id), chunks_phrase(count)
        )

    @admin.display(description=_("original file"))
    def original_link(self, document: Document) -> str:
        """A link to ``original_view`` (originals are not public media), or "-"."""
        if not document.original_file:
            return "-"
        url = reverse("admin:sources_document_original", args=[document.pk])
        return format_html('<a href="{}">{}</a>', url, document.original_name or url)

    def original_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The stored original file, as a download: staff who may view this document; 404
        for a document that does not exist (or that this admin's list does not show)."""
        document = self.get_object(request, unquote(object_id))
        if document is None:
            raise Http404(_("No such document."))
        if not self.has_view_permission(request, document):
            raise PermissionDenied
        return document_original(document=document, user=request.user)

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """The list, with the recent uploads and their state above it (``admin_upload``)."""
        return super().changelist_view(request, {**jobs_context(), **(extra_context or {})})

    def get_urls(self) -> list[URLPattern]:
        upload = self.admin_site.admin_view(self.upload_view)
        original = self.admin_site.admin_view(self.original_view)
        jobs = self.admin_site.admin_view(self.jobs_view)
        return [
            path("upload/", upload, name="sources_document_upload"),
            path("uploads/", jobs, name="sources_document_jobs"),
            path("<path:object_id>/original/", original, name="sources_document_original"),
            *super().get_urls(),
        ]

    @admin.action(description=_("Re-ingest from the stored original file"))
    def reingest(self, request: HttpRequest, queryset: QuerySet[Document]) -> None:
        """Re-ingest each document; one whose original is large goes to the background
        (``admin_upload.reingest_queued``), as a large upload does."""
        for document in queryset:
            try:
                if reingest_queued(request, document):
                    continue
                result = document_reingest(document=document)
            except Exception as exc:  # every failure is a message, never a 500
                messages.error(request, ingest_failure_reason(document.doc_id, exc))
                continue
            messages.success(
                request,
                gettext("%(doc_id)s: %(status)s (%(chunks)s)")
                % {
                    "doc_id": document.doc_id,
                    "status": STATUS_WORDS[result.status],
                    "chunks": chunks_phrase(result.chunks),
                }
                + changes(result),
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
            "title": gettext("Remove a document from the knowledge base"),
        }
        return TemplateResponse(request, "admin/sources/document/retire_confirmation.html", context)

    @admin.action(
        description=_("Remove from the knowledge base (cited passages stay readable)"),
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

    @admin.action(description=_("Restore to the knowledge base"), permissions=["delete"])
    def restore(self, request: HttpRequest, queryset: QuerySet[Document]) -> None:
        for document in queryset:
            if document.retired_at is None:
                messages.info(request, f"{document.doc_id}: already in the knowledge base")
                continue
            count = document_restore(document=document)
            messages.success(
                request, f"{document.doc_id}: restored ({chunks_phrase(count)} back in answers)"
            )


class DocumentIdFilter(admin.SimpleListFilter):
    """Chunks of one document, by doc_id in the URL (``?doc_id=travel``), as the document
    page links them; it offers only the chosen document, never a list of every document."""

    title = _("document")
    parameter_name = "doc_id"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        value = self.value()
        return [(value, value)] if value else []

    def queryset(self, request: HttpRequest, queryset: QuerySet[Chunk]) -> QuerySet[Chunk]:
        return queryset.filter(document__doc_id=self.value()) if self.value() else queryset


@admin.register(Chunk)
class ChunkAdmin(admin.ModelAdmin):
    """Read-only list of chunks: search their id, section and text; filter by document."""

    list_display = ("chunk_id", "section", "excerpt", "tokens", "is_current")
    list_filter = (DocumentIdFilter, "is_current")
    search_fields = ("chunk_id", "section", "text")
    list_select_related = ("document",)
    ordering = ("document__doc_id", "ordinal", "version")
    show_full_result_count = False  # one COUNT less on a large knowledge base
    fields = (
        "chunk_id",
        "document",
        "ordinal",
        "version",
        "section",
        "text",
        "tokens",
        "fingerprint",
        "is_current",
        "created_at",
        "superseded_at",
    )
    readonly_fields = fields

    @admin.display(description=_("text"))
    def excerpt(self, chunk: Chunk) -> str:
        """The first 120 characters of the chunk's text, on one line."""
        text = " ".join(chunk.text.split())
        return text if len(text) <= 120 else text[:119] + "…"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # chunks come from ingesting documents

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a chunk's text is what citations were checked against

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # documents are removed (retired) or purged, never chunk by chunk
