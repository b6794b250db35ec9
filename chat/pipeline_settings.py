"""The answer pipeline's knobs and provider, built from Django settings (README:
Configuration): what every turn of ``chat.turns`` and the ``evaluate`` command run with.
"""

from __future__ import annotations

import asyncio
import atexit
import weakref
from typing import Any

from django.conf import settings

from kbqa.core.generation.calls import Deadlines
from kbqa.core.pipeline import PipelineConfig
from kbqa.core.providers.base import Provider
from kbqa.core.providers.registry import ProviderSettings, describe_provider, make_provider


def pipeline_config_from_settings(**overrides: Any) -> PipelineConfig:
    """The answer knobs from ``KBQA_*`` settings; keyword overrides win (tests, evaluate)."""
    values: dict[str, Any] = {
        "top_k": settings.KBQA_TOP_K,
        "budget": settings.KBQA_CONTEXT_BUDGET,
        "max_blocks": settings.KBQA_MAX_BLOCKS,
        "min_relevance": settings.KBQA_MIN_RELEVANCE,
        "reader_relevance": settings.KBQA_READER_RELEVANCE,
        "min_similarity": settings.KBQA_MIN_SIMILARITY,
        "agreement": settings.KBQA_SEMANTIC_AGREEMENT,
        "overlap_threshold": settings.KBQA_OVERLAP_THRESHOLD,
        "compression": settings.KBQA_COMPRESSION,
        "query_expansion": settings.KBQA_QUERY_EXPANSION,
        "answer_deadlines": Deadlines(
            first_byte=settings.KBQA_FIRST_BYTE_DEADLINE, total=settings.KBQA_ANSWER_DEADLINE
        ),
        "fast_deadlines": Deadlines(
            first_byte=settings.KBQA_FAST_DEADLINE, total=2 * settings.KBQA_FAST_DEADLINE
        ),
    }
    values.update(overrides)
    return PipelineConfig(**values)


def provider_settings() -> ProviderSettings:
    """The provider knobs from Django settings (README: Configuration)."""
    return ProviderSettings(
        anthropic_api_key=settings.ANTHROPIC_API_KEY,
        anthropic_model=settings.KBQA_ANTHROPIC_MODEL,
        anthropic_fast_model=settings.KBQA_ANTHROPIC_FAST_MODEL,
        anthropic_base_url=settings.KBQA_ANTHROPIC_BASE_URL,
        openai_base_url=settings.KBQA_OPENAI_BASE_URL,
        openai_model=settings.KBQA_OPENAI_MODEL,
        openai_fast_model=settings.KBQA_OPENAI_FAST_MODEL,
        openai_api_key=settings.KBQA_OPENAI_API_KEY,
        max_retries=settings.KBQA_ANTHROPIC_MAX_RETRIES,
        timeout=settings.KBQA_ANTHROPIC_TIMEOUT,
        max_retry_wait=settings.KBQA_MAX_RETRY_WAIT,
    )


def provider_from_settings(name: str | None = None) -> Provider:
    """Build the provider named ``name`` (default ``KBQA_PROVIDER``). Raises ConfigError."""
    return make_provider(name or settings.KBQA_PROVIDER, provider_settings())


# One provider per event loop and configuration: see ``provider_shared``.
_ProvidersByConfig = dict[tuple[Any, ...], Provider]
_shared: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _ProvidersByConfig] = (
    weakref.WeakKeyDictionary()
)


def provider_shared() -> Provider:
    """The configured provider (``KBQA_PROVIDER``) that every turn on the running event loop
    shares; built on first use, never closed by a turn. Raises ConfigError.

    Building a provider per answer cost about 80 ms of CPU on the event loop (the SDK's HTTP
    client loads the CA bundle into a new SSL context: py-spy under ``bench/load.py``,
    2026-11-30), which every other turn on the server waited for, and a new client cannot
    reuse connections. The SDK's client is safe to share between concurrent requests. Another
    loop (``ask``, tests) gets its own.
    """
    key = (settings.KBQA_PROVIDER, provider_settings())
    per_loop = _shared.setdefault(asyncio.get_running_loop(), {})
    if key not in per_loop:
        per_loop[key] = provider_from_settings()
    return per_loop[key]


async def providers_shared_close() -> None:
    """Close the providers shared on the running event loop (their SDK clients' connection
    pools) and forget them; a later turn on the loop builds a new one. Called when the server
    stops (``kbqa.lifespan``): a client left open has its connections dropped instead of
    closed, and aiohttp reports it ("Unclosed client session", "Unclosed connector") once it
    is collected."""
    for provider in _shared.pop(asyncio.get_running_loop(), {}).values():
        await provider.aclose()


def providers_shared_close_at_exit() -> None:
    """At process exit, close the providers of every loop that is stopped but not closed:
    Daphne's, whose loop stops with Twisted's reactor after its connections were cancelled
    (Daphne sends no ASGI lifespan events). A closed loop can run nothing; running ones are
    their server's to close (``lifespan.shutdown``)."""
    for loop in list(_shared.keys()):
        if not loop.is_closed() and not loop.is_running():
            loop.run_until_complete(providers_shared_close())


atexit.register(providers_shared_close_at_exit)


def provider_label_from_settings(name: str | None = None) -> str:
    """Status-line label of the configured provider, e.g. "offline extractive" (nothing is
    built or connected). Raises ConfigError like ``provider_from_settings``."""
    return describe_provider(name or settings.KBQA_PROVIDER, provider_settings())
