from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChatConfig(AppConfig):
    name = "chat"
    verbose_name = _("Chat")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from chat.redaction import on_document_purged
        from sources.lifecycle import document_purged

        document_purged.connect(on_document_purged, dispatch_uid="chat.redaction")
