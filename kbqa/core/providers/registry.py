"""Build a provider by name (``KBQA_PROVIDER``): "extractive" (offline default), "anthropic"
or "openai" (any OpenAI-compatible server: Ollama, vLLM, llama.cpp), or any name added with
``register_provider`` (the test suite registers its fake there, as simonw/llm's tests
register ``MockModel`` through its plugin hook).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kbqa.core.errors import ConfigError
from kbqa.core.providers.base import Provider
from kbqa.core.readers.extractive.reader import ExtractiveProvider

PROVIDER_NAMES = ("extractive", "anthropic", "openai")
# Pinned snapshots, so the answering model never changes under an alias. Since Claude 4.6 a
# model id without a date names one snapshot (Anthropic models overview); the last dated
# Sonnet, claude-sonnet-4-5-20250929, reaches end-of-life on 2026-11-30 (anthropic SDK
# ``_data/deprecated_models.py``). Haiku 4.5's dated id is the design's fast model.
DEFAULT_MODEL = "claude-sonnet-5-5"
DEFAULT_FAST_MODEL = "claude-haiku-4-5-20251001"

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


@dataclass(frozen=True)
class ProviderSettings:
    """Everything ``make_provider`` may need; seconds for ``timeout``/``max_retry_wait``.

    ``anthropic_*`` configure "anthropic" (key: ``ANTHROPIC_API_KEY``), ``openai_*`` the
    OpenAI-compatible server ("openai"; ``openai_fast_model`` defaults to ``openai_model``).
    """

    anthropic_api_key: str = ""
    anthropic_model: str = DEFAULT_MODEL
    anthropic_fast_model: str = DEFAULT_FAST_MODEL
    anthropic_base_url: str = ""
    openai_base_url: str = ""
    openai_model: str = ""
    openai_fast_model: str = ""
    openai_api_key: str = ""
    max_retries: int = 2
    timeout: float = 60.0
    max_retry_wait: float = 10.0


def make_provider(name: str, settings: ProviderSettings) -> Provider:
    """The provider called ``name``.

    Raises ``ConfigError`` for an unknown name (the message lists the valid names), for
    "anthropic" without an API key and for "openai" without a base URL or model.
    """
    key = _checked(name, settings)
    s = settings
    if key in _registered:
        return _registered[key]()
    # The SDKs are imported only for the provider that uses them: the anthropic SDK alone
    # took 1.5-2 s of every command's start (``manage.py ask`` and ``migrate`` included).
    if key == "anthropic":
        from kbqa.core.providers.anthropic import AnthropicProvider

        return AnthropicProvider(
            api_key=s.anthropic_api_key,
            model=s.anthropic_model or DEFAULT_MODEL,
            fast_model=s.anthropic_fast_model or DEFAULT_FAST_MODEL,
            base_url=s.anthropic_base_url,
            max_retries=s.max_retries,
            timeout=s.timeout,
            max_retry_wait=s.max_retry_wait,
        )
    if key == "openai":
        from kbqa.core.providers.openai import OpenAIProvider

        return OpenAIProvider(
            base_url=s.openai_base_url,
            model=s.openai_model,
            fast_model=s.openai_fast_model,
            api_key=s.openai_api_key,
            max_retries=s.max_retries,
            timeout=s.timeout,
            max_retry_wait=s.max_retry_wait,
        )
    return ExtractiveProvider()


def describe_provider(name: str, settings: ProviderSettings) -> str:
    """The status-line label of the provider ``make_provider`` would build, without building
    it (an SDK client holds a connection pool). Raises ``ConfigError`` like ``make_provider``.
    """
    key = _checked(name, settings)
    if key in _registered:
        return key
    if key == "anthropic":
        return f"anthropic {settings.anthropic_model or DEFAULT_MODEL}"
    if key == "openai":
        return f"openai {settings.openai_model}"
    return "offline extractive"


def _checked(name: str, settings: ProviderSettings) -> str:
    key = name.strip().lower()
    if key in _registered:
        return key
    if key not in PROVIDER_NAMES:
        raise ConfigError(
            f"unknown provider {name!r}: choose one of {', '.join(PROVIDER_NAMES)}"
        )
    if key == "anthropic" and not settings.anthropic_api_key:
        raise ConfigError("set ANTHROPIC_API_KEY to use the anthropic provider")
    if key == "openai" and not (settings.openai_base_url and settings.openai_model):
        raise ConfigError(
            "set KBQA_OPENAI_BASE_URL and KBQA_OPENAI_MODEL to use the openai provider"
        )
    return key
