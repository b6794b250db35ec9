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
from typing import Any

import pytest
from django.core.management import call_command


@pytest.fixture(scope="module")
def demo_kb(django_db_setup: Any, django_db_blocker: Any) -> Iterator[None]:
    """The demo KB (``manage.py demo_setup`` without DEBUG: documents only, no login)."""
    with django_db_blocker.unblock():
        call_command("demo_setup", stdout=StringIO(), stderr=StringIO())
    yield
    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)
