"""The demo knowledge base, ingested once per module into the test database.

The documents are committed outside any test transaction, so the thread in which
``answer_run`` reads and writes (``sync_to_async``) sees them; tests still carry the
``django_db`` mark so the test database exists. The tables are flushed after the module, so
other modules start from an empty database. Tests read through ``sync_to_async`` too: a
read in the test's own transaction would hold SQLite table locks against that thread.
"""

from __future__ import annotations

from collections.abc import Iterator
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import override_settings


@pytest.fixture(scope="module")
def demo_kb(
    django_db_setup: Any, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Path]:
    """The demo KB (``manage.py demo_setup`` without DEBUG: documents only, no login); its
    index folder lives as long as the module's database (``tests/conftest.py`` uses it)."""
    folder = tmp_path_factory.mktemp("demo-index")
    with django_db_blocker.unblock(), override_settings(KBQA_INDEX_DIR=folder):
        call_command("demo_setup", stdout=StringIO(), stderr=StringIO())
    yield folder
    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)


def upload_into_demo(demo_kb: Path, django_db_blocker: Any,
                     tmp_path_factory: pytest.TempPathFactory, name: str, text: str) -> None:
    """Ingest ``text`` as the file ``name`` into the module's demo knowledge base, as an
    admin's upload would (for a module fixture: the tables are flushed after the module)."""
    from sources.services import document_ingest

    path = tmp_path_factory.mktemp("upload") / name
    path.write_text(text, encoding="utf-8")
    with django_db_blocker.unblock(), override_settings(KBQA_INDEX_DIR=demo_kb):
        document_ingest(path=path)
