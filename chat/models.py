"""Conversations, messages, answer traces and API tokens.

A chat turn's trace is stored "pending" when the turn starts and completed when it ends
(``chat.turn_records``), so a turn the server never finished is still there to be marked
"interrupted"; other traces are written once by ``chat.services.trace_record``. Never edited
afterwards (read-only in admin); their ids are ULIDs so they sort by time and can be quoted.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from ulid import ULID


def new_ulid() -> str:
    """A new ULID as its 26-character Crockford base32 string."""
    return str(ULID())


class Conversation(models.Model):
    """A user's thread of questions and answers. ``via_api``: started by ``POST /api/answer``
    without a conversation id; the chat sidebar lists those apart, under the browser's own."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="conversations",
        verbose_name=_("owner"),
    )
    title = models.CharField(_("title"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    via_api = models.BooleanField(_("started through the API"), default=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("conversation")
        verbose_name_plural = _("conversations")

    def __str__(self) -> str:
        return self.title or f"Conversation {self.pk}"


class Trace(models.Model):
    """The evidence chain of one answer; ``data`` holds the full ``TraceRecorder``."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        ANSWERED = "answered", _("answered")
        REFUSED_LOW_SCORE = "refused_low_score", _("refused: low score")
        REFUSED_CONFLICT = "refused_conflict", _("refused: conflict")
        REFUSED_NO_SUPPORT = "refused_no_support", _("refused: not supported")
        REFUSED_MODEL_DECLINED = "refused_model_declined", _("refused: the model declined")
        ERROR = "error", _("error")
        CANCELLED = "cancelled", _("cancelled")
        # The server stopped (killed, crashed) before the answer finished.
        INTERRUPTED = "interrupted", _("interrupted")
        STOPPED = "stopped", _("stopped by the user")

    id = models.CharField(
        _("trace id"), primary_key=True, max_length=26, default=new_ulid, editable=False
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        verbose_name=_("user"),
    )
    conversation = models.ForeignKey(
        Conversation,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="traces",
        verbose_name=_("conversation"),
    )
    question = models.TextField(_("question"))
    standalone_query = models.TextField(_("standalone query"), blank=True)
    language = models.CharField(_("language"), max_length=8, blank=True)
    status = models.CharField(
        _("status"), max_length=24, choices=Status.choices, default=Status.PENDING, db_index=True
    )
    refusal_reason = models.CharField(_("refusal reason"), max_length=24, blank=True)
    provider = models.CharField(_("provider"), max_length=40, blank=True, db_index=True)
    model = models.CharField(_("model"), max_length=100, blank=True)
    model_version = models.CharField(_("model version"), max_length=100, blank=True)
    retrieval_ms = models.FloatField(_("retrieval (ms)"), null=True, blank=True)
    first_sentence_ms = models.FloatField(_("first sentence (ms)"), null=True, blank=True)
    total_ms = models.FloatField(_("total (ms)"), null=True, blank=True)
    data = models.JSONField(_("evidence data"), default=dict)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("trace")
        verbose_name_plural = _("traces")

    def __str__(self) -> str:
        return f"{self.id} {self.status}"


class TraceDocument(models.Model):
    """One document a trace used (``chat.trace_access.trace_doc_ids``), by doc_id: no
    foreign key, so a purged document's rows stay and still decide who may open the trace.
    Written with the trace; lets the reviewer list leave out, in one query, every trace that
    used a document the reviewer may not read (README: Who may read what)."""

    trace = models.ForeignKey(
        Trace, on_delete=models.CASCADE, related_name="documents", verbose_name=_("trace")
    )
    doc_id = models.CharField(_("doc id"), max_length=100, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["trace", "doc_id"], name="chat_trace_document_once")
        ]
        verbose_name = _("document of a trace")
        verbose_name_plural = _("documents of traces")

    def __str__(self) -> str:
        return f"{self.trace_id} {self.doc_id}"


class Message(models.Model):
    class Role(models.TextChoices):
        USER = "user", _("user")
        ASSISTANT = "assistant", _("assistant")

    conversation = models.ForeignKey(
        Conversation,
        on_delete=models.CASCADE,
        related_name="messages",
        verbose_name=_("conversation"),
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices)
    text = models.TextField(
        _("text"), blank=True, help_text=_("The text as shown, without citation markers.")
    )
    citations = models.JSONField(_("citations"), default=list, blank=True)
    sentences = models.JSONField(_("sentences"), default=list, blank=True)
    refusal = models.JSONField(_("refusal"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=24, blank=True)
    trace = models.ForeignKey(
        Trace, null=True, blank=True, on_delete=models.SET_NULL, verbose_name=_("trace")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("message")
        verbose_name_plural = _("messages")


class Feedback(models.Model):
    """A reader's thumbs up or down on one answer, with an optional comment.

    One per trace (the asker's latest opinion wins); it stays with the trace when the
    conversation is deleted, so reviewers keep it.
    """

    class Rating(models.TextChoices):
        UP = "up", _("helpful")
        DOWN = "down", _("not helpful")

    trace = models.OneToOneField(
        Trace, on_delete=models.CASCADE, related_name="feedback", verbose_name=_("trace")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        verbose_name=_("user"),
    )
    rating = models.CharField(_("rating"), max_length=8, choices=Rating.choices, db_index=True)
    comment = models.TextField(_("comment"), blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        verbose_name = _("feedback")
        verbose_name_plural = _("feedback")

    def __str__(self) -> str:
        return f"{self.trace_id} {self.rating}"


class ApiToken(models.Model):
    """A per-user token for programmatic API clients; only its SHA-256 is stored."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="api_tokens",
        verbose_name=_("user"),
    )
    name = models.CharField(_("name"), max_length=100, blank=True)
    prefix = models.CharField(_("token prefix"), max_length=8, editable=False)
    key_hash = models.CharField(_("token hash"), max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.name or 'token'} ({self.prefix}…)"
