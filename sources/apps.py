from __future__ import annotations

from django.apps import AppConfig


class SourcesConfig(AppConfig):
    name = "sources"
    verbose_name = "Knowledge base"
    default_auto_field = "django.db.models.BigAutoField"
