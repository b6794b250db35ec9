"""System check: the retrieval index exists and matches the tokenizer (``manage.py check
--database default``, ``migrate``). The same message is logged when a process opens it."""

from __future__ import annotations

from typing import Any

from django.core.checks import Tags, Warning, register
from django.db import DatabaseError


@register(Tags.database)
def index_check(app_configs: Any = None, databases: Any = None, **kwargs: Any) -> list[Warning]:
    """W001 when the index is missing while chunks are stored, or built with another
    ``TERMS_VERSION`` (fix: ``manage.py index_build``)."""
    if not databases:
        return []
    from sources.indexing import index_store
    from sources.models import Chunk
    from sources.selectors import index_status_of

    status = index_status_of(index_store().open())  # not logged: the check reports it
    if not status.problem:
        return []
    try:
        if not status.built and not Chunk.objects.filter(is_current=True).exists():
            return []  # nothing stored yet: the first ingest creates the index
    except DatabaseError:
        return []  # tables not migrated yet
    return [Warning(status.problem, id="sources.W001")]
