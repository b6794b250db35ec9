"""Suite-wide fixtures. Nothing here (or anywhere in tests/) touches the network.

``fake_provider`` registers the one test provider, ``tests.fakes.provider.FakeProvider``,
under the name "fake" and selects it with ``KBQA_PROVIDER`` (as simonw/llm's test conftest
registers its ``MockModel`` through the plugin hook): every front end then runs the real
pipeline and turn service, and the test scripts only what the model says.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache

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
