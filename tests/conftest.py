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
from django.core.cache import cache
from django.test import override_settings

from kbqa.core.providers.registry import register_provider, unregister_provider
from tests.fakes.provider import FakeProvider


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
