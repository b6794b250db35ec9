from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fakes.anthropic_server import FakeAnthropicServer


@pytest.fixture
def fake_anthropic() -> Iterator[FakeAnthropicServer]:
    """A local fake Messages API; scripted replies via ``fake_anthropic.script(...)``."""
    with FakeAnthropicServer() as server:
        yield server
