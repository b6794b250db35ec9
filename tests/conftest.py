"""Suite-wide fixtures. Nothing here (or anywhere in tests/) touches the network.

``fake_provider`` registers the one test provider, ``tests.fakes.provider.FakeProvider``,
under the name "fake" and selects it with ``KBQA_PROVIDER`` (as simonw/llm's test conftest
registers its ``MockModel`` through the plugin hook): every front end then runs the real
pipeline and turn service, and the test scripts only what the model says.
``_index_dir`` gives every test its own retrieval index folder.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import override_settings
from django.utils import translation

from kbqa.core.providers.registry import register_provider, unregister_provider
from kbqa.core.text import bilingual
from tests.fakes.provider import FakeProvider


@pytest.fixture(scope="session", autouse=True)
def _dictionary_read() -> None:
    """Read CC-CEDICT once for the session, as the server does at start-up
    (``sources.warm.index_warm``): a websocket test's first turn would otherwise pay
    its second under the communicator's timeout."""
    bilingual.warm()


@pytest.fixture
def fake_provider(settings: Any) -> Iterator[FakeProvider]:
    """The provider every turn in this test gets; queue its outputs with ``.add(...)``."""
    fake = FakeProvider()
    register_provider("fake", lambda: fake)
    settings.KBQA_PROVIDER = "fake"
    yield fake
    unregister_provider("fake")


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    """Each test starts with no question counts and no answer in flight (chat.limits)."""
    cache.clear()


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Each test starts and ends in the default language: a test that renders Chinese must
    not leave the next test's messages in Chinese (the order pytest picks must not matter)."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(scope="session", autouse=True)
def database_pool_closed(django_db_setup: Any, django_db_blocker: Any) -> Iterator[None]:
    """Close the connections of this thread and of asgiref's one sync thread (async tests'
    database calls) and psycopg's pool (``kbqa.settings`` turns it on for PostgreSQL) before
    pytest-django drops the test database, which PostgreSQL refuses while one is open."""
    yield
    from asgiref.sync import SyncToAsync
    from django.db import connections

    with django_db_blocker.unblock():
        SyncToAsync.single_thread_executor.submit(connections.close_all).result(timeout=30)
        for conn in connections.all():
            conn.close()
            if getattr(conn, "pool", None) is not None:
                conn.close_pool()


@pytest.fixture(autouse=True)
def _index_dir(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Path]:
    """A fresh retrieval index folder per test, under the session's temporary folder (never
    in the repository): each test's database starts empty, so must its index. Tests on the
    module-wide demo knowledge base (``demo_kb``) share its folder. (``override_settings``,
    not the ``settings`` fixture: some tests name a parameter ``settings``.)"""
    if "demo_kb" in request.fixturenames:
        folder: Path = request.getfixturevalue("demo_kb")
    else:
        folder = tmp_path_factory.mktemp("index")
    with override_settings(KBQA_INDEX_DIR=folder):
        yield folder
