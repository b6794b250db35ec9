from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SourcesConfig(AppConfig):
    name = "sources"
    verbose_name = _("Knowledge base")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from pathlib import Path

        from django.conf import settings

        from kbqa.core.retrieval import cross_language, synonyms
        from kbqa.core.text import bilingual
        from sources import checks  # noqa: F401  (registers the index check)

        synonyms.set_enabled(settings.KBQA_SYNONYMS)
        cross_language.set_threshold(settings.KBQA_MIN_RELEVANCE)
        bilingual.set_cache_dir(Path(settings.DATA_DIR) / "cache")
