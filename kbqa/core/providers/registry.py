"""Build a provider by name (``KBQA_PROVIDER``): "extractive" (offline default) or "anthropic",
or any name added with ``register_provider`` (the test suite registers its fake there, as
simonw/llm's tests register ``MockModel`` through its plugin hook).
"""

from __future__ import annotations

from collections.abc import Callable

from kbqa.core.errors import ConfigError
from kbqa.core.providers.anthropic import AnthropicProvider
from kbqa.core.providers.base import Provider
from kbqa.core.readers.extractive.reader import ExtractiveProvider

PROVIDER_NAMES = ("extractive", "anthropic")
DEFAULT_MODEL = "claude-sonnet-4-6"
DEFAULT_FAST_MODEL = "claude-haiku-4-5"

ProviderFactory = Callable[[], Provider]
_registered: dict[str, ProviderFactory] = {}


def register_provider(name: str, factory: ProviderFactory) -> None:
    """Make ``make_provider(name)`` return ``factory()`` (a fresh provider per call).

    A registered name wins over a built-in one of the same name; ``unregister_provider``
    removes it.
    """
    _registered[name.strip().lower()] = factory


def unregister_provider(name: str) -> None:
    """Forget a name added by ``register_provider`` (no error when it is unknown)."""
    _registered.pop(name.strip().lower(), None)


def make_provider(
    name: str,
    *,
    model: str = "",
    fast_model: str = "",
    api_key: str = "",
    base_url: str = "",
    max_retries: int = 2,
    timeout: float = 60.0,
) -> Provider:
    """The provider called ``name``; ``timeout`` is in seconds.

    Raises ``ConfigError`` for an unknown name (the message lists the valid names) and for
    "anthropic" without an API key. ``model``/``fast_model`` default to Claude Sonnet/Haiku
    for "anthropic" and are ignored by "extractive".
    """
    key = _checked(name, api_key=api_key)
    if key in _registered:
        return _registered[key]()
    if key == "extractive":
        return ExtractiveProvider()
    if key == "anthropic":
        return AnthropicProvider(
            api_key=api_key,
            model=model or DEFAULT_MODEL,
            fast_model=fast_model or DEFAULT_FAST_MODEL,
            base_url=base_url,
            max_retries=max_retries,
            timeout=timeout,
        )
    raise AssertionError(key)  # _checked admits only registered names and PROVIDER_NAMES


def describe_provider(name: str, *, model: str = "", api_key: str = "") -> str:
    """The status-line label of the provider ``make_provider`` would build, without building
    it (an SDK client holds a connection pool). Raises ``ConfigError`` like ``make_provider``.
    """
    key = _checked(name, api_key=api_key)
    if key in _registered:
        return key
    if key == "extractive":
        return "offline extractive"
    return f"anthropic {model or DEFAULT_MODEL}"


def _checked(name: str, *, api_key: str) -> str:
    key = name.strip().lower()
    if key in _registered:
        return key
    if key not in PROVIDER_NAMES:
        raise ConfigError(
            f"unknown provider {name!r}: choose one of {', '.join(PROVIDER_NAMES)}"
        )
    if key == "anthropic" and not api_key:
        raise ConfigError("set ANTHROPIC_API_KEY to use the anthropic provider")
    return key
