"""Documents of the knowledge base and their chunks.

A chunk's ``chunk_id`` (``doc-010#c02``, or ``doc-010#c02v2`` for a later version) never
changes meaning: traces cite it, so a changed document gets new chunk versions and the old
ones stay stored with ``is_current = False`` (see ``sources.services``). Retrieval reads
current chunks only; the chunk view shows old ones marked as superseded.

Removing a document from the knowledge base retires it (``Document.retired_at``): its chunks
leave retrieval but stay readable under their ids. Only a purge deletes rows, and it leaves a
``PurgedChunk`` tombstone per chunk id so the id is never given to other text.
"""

from __future__ import annotations

from django.db import models


class Authority(models.TextChoices):
    POLICY = "policy", "Policy"
    MANUAL = "manual", "Manual"
    FAQ = "faq", "FAQ"
    MEETING_NOTE = "meeting-note", "Meeting note"
    ARCHIVED = "archived", "Archived"
    OTHER = "other", "Other"


class Language(models.TextChoices):
    EN = "en", "English"
    ZH = "zh", "Chinese"


class Document(models.Model):
    """One source document. ``updated`` is its effective date as the document states it;
    ``overrides`` are the metadata values an uploader set, re-applied on re-ingest."""

    doc_id = models.CharField(max_length=100, unique=True)
    title = models.CharField(max_length=300)
    source_url = models.CharField(max_length=500, blank=True)
    language = models.CharField(max_length=8, choices=Language.choices, default=Language.EN)
    updated = models.DateField(null=True, blank=True, help_text="Updated/effective date.")
    authority = models.CharField(max_length=20, choices=Authority.choices, default=Authority.OTHER)
    original_file = models.FileField(upload_to="sources/originals/%Y/%m/", blank=True)
    original_name = models.CharField(max_length=255, blank=True)
    content_hash = models.CharField(max_length=64, blank=True, help_text="SHA-256 of the text.")
    overrides = models.JSONField(default=dict, blank=True)
    retired_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When it was removed from the knowledge base (its chunks stay readable).",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["doc_id"]

    def __str__(self) -> str:
        return f"{self.doc_id}: {self.title}"


class Chunk(models.Model):
    """A passage of a document; ``text`` is the original text citations are checked against.

    ``tokens`` counts cl100k_base tokens; ``fingerprint`` is ``kbqa.core.text.fingerprint``
    of the text; ``version`` is 1 for ``doc#c02``, 2 for ``doc#c02v2``...
    """

    chunk_id = models.CharField(max_length=128, unique=True)
    # PROTECT: traces cite chunks, so only ``document_purge`` may delete them (on purpose).
    document = models.ForeignKey(Document, on_delete=models.PROTECT, related_name="chunks")
    ordinal = models.PositiveIntegerField()
    version = models.PositiveIntegerField(default=1)
    section = models.CharField(max_length=300, blank=True)
    text = models.TextField()
    tokens = models.PositiveIntegerField(default=0)
    fingerprint = models.CharField(max_length=40)
    is_current = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    superseded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["document_id", "ordinal", "version"]
        indexes = [models.Index(fields=["is_current", "document"])]

    def __str__(self) -> str:
        return self.chunk_id


class PurgedChunk(models.Model):
    """Tombstone of a purged chunk: its id (no text) and when it was purged.

    Kept so that the id is never reused for other text and the chunk view can say that the
    cited passage is no longer available.
    """

    chunk_id = models.CharField(max_length=128, unique=True)
    doc_id = models.CharField(max_length=100, db_index=True)
    purged_at = models.DateTimeField()

    class Meta:
        ordering = ["chunk_id"]

    def __str__(self) -> str:
        return self.chunk_id
