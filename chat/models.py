"""Conversations, messages, answer traces and API tokens.

Traces are written once by ``chat.services.trace_record`` and never edited afterwards
(read-only in admin); their ids are ULIDs so they sort by time and can be quoted by users.
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
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="conversations"
    )
    title = models.CharField(_("title"), max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.title or f"Conversation {self.pk}"


class Trace(models.Model):
    """The evidence chain of one answer; ``data`` holds the full ``TraceDraft``."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        ANSWERED = "answered", _("answered")
        REFUSED_LOW_SCORE = "refused_low_score", _("refused: low score")
        REFUSED_CONFLICT = "refused_conflict", _("refused: conflict")
        REFUSED_NO_SUPPORT = "refused_no_support", _("refused: not supported")
        ERROR = "error", _("error")
        CANCELLED = "cancelled", _("cancelled")

    id = models.CharField(primary_key=True, max_length=26, default=new_ulid, editable=False)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    conversation = models.ForeignKey(
        Conversation, null=True, blank=True, on_delete=models.SET_NULL, related_name="traces"
    )
    question = models.TextField()
    standalone_query = models.TextField(blank=True)
    language = models.CharField(max_length=8, blank=True)
    status = models.CharField(
        max_length=24, choices=Status.choices, default=Status.PENDING, db_index=True
    )
    refusal_reason = models.CharField(max_length=24, blank=True)
    provider = models.CharField(max_length=40, blank=True, db_index=True)
    model = models.CharField(max_length=100, blank=True)
    model_version = models.CharField(max_length=100, blank=True)
    retrieval_ms = models.FloatField(null=True, blank=True)
    first_sentence_ms = models.FloatField(null=True, blank=True)
    total_ms = models.FloatField(null=True, blank=True)
    data = models.JSONField(default=dict)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.id} {self.status}"


class Message(models.Model):
    class Role(models.TextChoices):
        USER = "user", _("user")
        ASSISTANT = "assistant", _("assistant")

    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="messages"
    )
    role = models.CharField(max_length=10, choices=Role.choices)
    text = models.TextField(blank=True, help_text="The text as shown, without citation markers.")
    citations = models.JSONField(default=list, blank=True)
    sentences = models.JSONField(default=list, blank=True)
    refusal = models.JSONField(null=True, blank=True)
    status = models.CharField(max_length=24, blank=True)
    trace = models.ForeignKey(Trace, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]


class ApiToken(models.Model):
    """A per-user token for programmatic API clients; only its SHA-256 is stored."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=100, blank=True)
    prefix = models.CharField(max_length=8, editable=False)
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.name or 'token'} ({self.prefix}…)"
