from __future__ import annotations

from django.apps import AppConfig


class KbqaConfig(AppConfig):
    """The project package as an app, so its system checks (``kbqa.checks``) are registered."""

    name = "kbqa"
    verbose_name = "kbqa"

    def ready(self) -> None:
        from kbqa import checks  # noqa: F401  (registers the deployment checks)
