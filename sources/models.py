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
from django.utils.translation import gettext_lazy as _


class Authority(models.TextChoices):
    POLICY = "policy", _("Policy")
    MANUAL = "manual", _("Manual")
    FAQ = "faq", _("FAQ")
    MEETING_NOTE = "meeting-note", _("Meeting note")
    ARCHIVED = "archived", _("Archived")
    OTHER = "other", _("Other")


class Language(models.TextChoices):
    EN = "en", _("English")
    ZH = "zh", _("Chinese")


class Document(models.Model):
    """One source document. ``updated`` is its effective date as the document states it;
    ``overrides`` are the metadata values an uploader set, re-applied on re-ingest."""

    doc_id = models.CharField(_("doc id"), max_length=100, unique=True)
    title = models.CharField(_("title"), max_length=300)
    source_url = models.CharField(_("source URL"), max_length=500, blank=True)
    language = models.CharField(
        _("language"), max_length=8, choices=Language.choices, default=Language.EN
    )
    updated = models.DateField(
        _("updated"), null=True, blank=True, help_text=_("Updated/effective date.")
    )
    authority = models.CharField(
        _("authority"), max_length=20, choices=Authority.choices, default=Authority.OTHER
    )
    original_file = models.FileField(
        _("original file"), upload_to="sources/originals/%Y/%m/", blank=True
    )
    original_name = models.CharField(_("original file name"), max_length=255, blank=True)
    content_hash = models.CharField(
        _("content hash"), max_length=64, blank=True, help_text=_("SHA-256 of the text.")
    )
    groups = models.ManyToManyField(
        "auth.Group",
        # the admin's group picker reads "Available groups", "Choose all groups"; the forms
        # label it "Visible to" (sources.forms)
        verbose_name=_("groups"),
        blank=True,
        related_name="documents",
        help_text=_(
            "Leave empty for everyone. Otherwise only members of these groups (and people who "
            "may view documents in admin) get answers from it, its passages and its citations."
        ),
    )
    restricted = models.BooleanField(
        _("restricted"),
        default=False,
        editable=False,
        help_text=_(
            "Limited to groups. Stays set when its groups are deleted, so the document "
            "then becomes readable by document administrators only, never by everyone."
        ),
    )
    overrides = models.JSONField(_("metadata set at upload"), default=dict, blank=True)
    retired_at = models.DateTimeField(
        _("removed at"),
        null=True,
        blank=True,
        help_text=_("When it was removed from the knowledge base (its chunks stay readable)."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("last changed"), auto_now=True)

    class Meta:
        ordering = ["doc_id"]
        verbose_name = _("document")
        verbose_name_plural = _("documents")

    def __str__(self) -> str:
        return f"{self.doc_id}: {self.title}"


class Chunk(models.Model):
    """A passage of a document; ``text`` is the original text citations are checked against.

    ``tokens`` counts cl100k_base tokens; ``fingerprint`` is
    ``kbqa.core.text.normalise.fingerprint`` of the text;
    ``version`` is 1 for ``doc#c02``, 2 for ``doc#c02v2``...; ``terms`` are what the BM25
    index holds for it (``sources.indexing``).
    """

    chunk_id = models.CharField(_("chunk id"), max_length=128, unique=True)
    # PROTECT: traces cite chunks, so only ``document_purge`` may delete them (on purpose).
    document = models.ForeignKey(
        Document,
        on_delete=models.PROTECT,
        related_name="chunks",
        verbose_name=_("document"),
    )
    ordinal = models.PositiveIntegerField(_("position"))
    version = models.PositiveIntegerField(_("version"), default=1)
    section = models.CharField(_("section"), max_length=300, blank=True)
    text = models.TextField(_("text"))
    tokens = models.PositiveIntegerField(_("tokens"), default=0)
    fingerprint = models.CharField(_("fingerprint"), max_length=40)
    # ``kbqa.core.text.terms.terms`` of section + text, space-separated, computed once at
    # ingestion; ``terms_version`` is the TERMS_VERSION they were computed with (0: never).
    terms = models.TextField(_("index terms"), blank=True, default="", editable=False)
    terms_version = models.PositiveSmallIntegerField(_("terms version"), default=0, editable=False)
    is_current = models.BooleanField(_("current"), default=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    superseded_at = models.DateTimeField(_("superseded at"), null=True, blank=True)

    class Meta:
        ordering = ["document_id", "ordinal", "version"]
        indexes = [models.Index(fields=["is_current", "document"])]
        verbose_name = _("chunk")
        verbose_name_plural = _("chunks")

    def __str__(self) -> str:
        return self.chunk_id


class PurgedChunk(models.Model):
    """Tombstone of a purged chunk: its id (no text), when it was purged, and who could read
    it (``access``: its document's access labels, ``sources.selectors.document_access``).

    Kept so that the id is never reused for other text and the chunk view can say that the
    cited passage is no longer available, to those who could read it (to anyone else the id
    stays as unknown as any passage they may not read).
    """

    chunk_id = models.CharField(max_length=128, unique=True)
    doc_id = models.CharField(max_length=100, db_index=True)
    purged_at = models.DateTimeField()
    access = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["chunk_id"]
        verbose_name = _("purged chunk")
        verbose_name_plural = _("purged chunks")

    def __str__(self) -> str:
        return self.chunk_id


class IngestJob(models.Model):
    """An uploaded file ingested in the background (``sources.jobs``), and how it went.

    The upload page accepts a large file at once and the document list shows the job's
    state (``state``, ``stage``, ``percent``) until it is ready or failed; ``messages`` are
    the outcome lines, safe to show (``[level, text]``: success, warning or error).
    """

    class State(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("ingesting")
        READY = "ready", _("ready")
        FAILED = "failed", _("failed")
        # the same text as a stored document: nothing written (the outcome line says which)
        SKIPPED = "skipped", _("not added")

    batch = models.CharField(_("upload"), max_length=32, db_index=True)  # files sent together
    name = models.CharField(_("file name"), max_length=255)
    upload = models.FileField(_("uploaded file"), upload_to="sources/uploads/%Y/%m/", blank=True)
    overrides = models.JSONField(_("metadata set at upload"), default=dict, blank=True)
    replace = models.BooleanField(_("replace existing documents"), default=False)
    language = models.CharField(max_length=16, blank=True)  # the uploader's, for ``messages``
    # doc_id -> file name of documents written earlier in the same upload
    earlier = models.JSONField(default=dict, blank=True)
    uploaded_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    state = models.CharField(
        _("state"), max_length=10, choices=State.choices, default=State.QUEUED, db_index=True
    )
    stage = models.CharField(_("stage"), max_length=10, blank=True)  # ingest_types.IngestStage
    percent = models.PositiveSmallIntegerField(_("percent done"), default=0)
    doc_id = models.CharField(_("doc id"), max_length=100, blank=True)  # the document written
    messages = models.JSONField(_("outcome"), default=list, blank=True)
    worker = models.CharField(max_length=200, blank=True)  # host:pid:token of the runner
    created_at = models.DateTimeField(_("uploaded at"), auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-pk"]
        verbose_name = _("upload")
        verbose_name_plural = _("uploads")

    def __str__(self) -> str:
        return f"{self.name} ({self.state})"
