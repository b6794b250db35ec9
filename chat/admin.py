"""Admin for chat: read-only traces (with readers' feedback), conversations with their
messages, feedback, API tokens.

Traces are evidence: nobody adds, edits or deletes them here (they are viewable by anyone
with ``chat.view_trace`` who may read every document they used: ``chat.trace_access``).
Conversations and messages are the record of what users asked and were shown, so they
are read-only too: an assistant message typed in admin would appear in the user's chat as
a verified answer with working chips and no trace behind it. They can be viewed, and
deleted by superusers only (e.g. to honour a deletion request).

Creating an API token generates it, stores only its SHA-256 and a prefix, and shows the full
token once in an admin message ("API token" everywhere, as in the README).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.forms import ModelForm
from django.http import Http404, HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from chat.auth import api_token_fill
from chat.models import ApiToken, Conversation, Feedback, Message, Trace
from chat.trace_access import traces_visible


class FeedbackInline(admin.StackedInline):
    """The reader's thumbs up/down and comment, read-only like the trace it belongs to."""

    model = Feedback
    fields = ("rating", "comment", "user", "updated_at")
    readonly_fields = fields
    can_delete = False
    extra = 0

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Trace)
class TraceAdmin(admin.ModelAdmin):
    list_display = (
        "id", "created_at", "status", "provider", "short_question", "feedback_rating", "total_ms"
    )
    list_filter = ("status", "provider", "feedback__rating", "created_at")
    inlines = [FeedbackInline]
    search_fields = ("id", "question", "standalone_query")
    date_hierarchy = "created_at"
    readonly_fields = ("reviewer_link",)
    list_select_related = ("user", "feedback")

    @admin.display(description=_("feedback"))
    def feedback_rating(self, obj: Trace) -> str:
        feedback = getattr(obj, "feedback", None)
        return feedback.get_rating_display() if feedback is not None else "–"

    @admin.display(description=_("question"))
    def short_question(self, obj: Trace) -> str:
        return obj.question[:100]

    @admin.display(description=_("evidence chain"))
    def reviewer_link(self, obj: Trace) -> SafeString:
        url = reverse("reviewer:trace-detail", args=[obj.pk])
        return format_html('<a href="{}">{}</a>', url, gettext("Open in the reviewer page"))

    def get_readonly_fields(self, request: HttpRequest, obj: Trace | None = None) -> list[str]:
        return ["reviewer_link", *(f.name for f in self.model._meta.fields)]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Trace]:
        """Only the traces whose documents the reviewer may all read (``chat.trace_access``):
        the changelist, the raw-id pop-up and every view of one trace read through here."""
        return traces_visible(traces=super().get_queryset(request), user=request.user)

    def get_object(
        self, request: HttpRequest, object_id: str, from_field: str | None = None
    ) -> Trace | None:
        """The trace, or 404 for one that is missing or hidden (``get_queryset``) alike:
        the reviewer page answers both so, and admin's "does not exist" notice would say
        so in other words."""
        trace = super().get_object(request, object_id, from_field)
        if trace is None:
            raise Http404
        return trace

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Trace | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Trace | None = None) -> bool:
        return False


class MessageInline(admin.TabularInline):
    model = Message
    extra = 0
    fields = ("role", "text", "status", "trace", "created_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class RecordAdmin(admin.ModelAdmin):
    """View and (superusers only) delete; never add or change: see the module docstring."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_active and request.user.is_superuser)


@admin.register(Conversation)
class ConversationAdmin(RecordAdmin):
    list_display = ("id", "title", "owner", "created_at")
    search_fields = ("title", "owner__username")
    list_select_related = ("owner",)
    inlines = [MessageInline]


@admin.register(Message)
class MessageAdmin(RecordAdmin):
    list_display = ("id", "conversation", "role", "status", "created_at")
    list_filter = ("role", "status")
    search_fields = ("text",)
    raw_id_fields = ("conversation", "trace")


@admin.register(Feedback)
class FeedbackAdmin(RecordAdmin):
    """Readers' feedback, newest first; opening one leads to its trace."""

    list_display = ("trace", "rating", "short_comment", "user", "updated_at")
    list_filter = ("rating", "updated_at")
    search_fields = ("comment", "trace__id", "trace__question", "user__username")
    list_select_related = ("user", "trace")

    @admin.display(description=_("comment"))
    def short_comment(self, obj: Feedback) -> str:
        return obj.comment[:100]


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "prefix", "created_at", "last_used_at")
    search_fields = ("name", "user__username", "prefix")
    fields = ("user", "name", "prefix", "created_at", "last_used_at")
    readonly_fields = ("prefix", "created_at", "last_used_at")
    list_select_related = ("user",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[ApiToken]:
        return super().get_queryset(request).select_related("user")

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        """A new token is for the admin making it unless they pick someone else: the empty
        User field made the first save fail with "This field is required"."""
        return {"user": request.user.pk, **super().get_changeform_initial_data(request)}

    def save_model(
        self, request: HttpRequest, obj: ApiToken, form: ModelForm, change: bool
    ) -> None:
        token = None if change else api_token_fill(obj)
        super().save_model(request, obj, form, change)
        if token is not None:
            messages.warning(
                request,
                gettext(
                    "The API token for “%(name)s” is %(token)s — copy it now: it is stored only "
                    "as a hash and will not be shown again. Send it as "
                    "'Authorization: Bearer <token>'."
                )
                % {"name": obj, "token": token},
            )
