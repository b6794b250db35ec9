from __future__ import annotations

import pytest

from kbqa.core.errors import ConfigError
from kbqa.core.providers.anthropic import AnthropicProvider
from kbqa.core.providers.openai import OpenAIProvider
from kbqa.core.providers.registry import (
    DEFAULT_FAST_MODEL,
    DEFAULT_MODEL,
    PROVIDER_NAMES,
    ProviderSettings,
    describe_provider,
    make_provider,
    register_provider,
    unregister_provider,
)
from kbqa.core.readers.extractive.reader import ExtractiveProvider
from tests.fakes.provider import FakeProvider

ANTHROPIC = ProviderSettings(anthropic_api_key="k", anthropic_model="claude-x",
                             anthropic_fast_model="claude-y",
                             anthropic_base_url="http://127.0.0.1:9", max_retries=5, timeout=7.5)
OPENAI = ProviderSettings(openai_base_url="http://127.0.0.1:11434/v1", openai_model="qwen3:8b")


def test_extractive_is_available_offline() -> None:
    provider = make_provider("extractive", ProviderSettings())
    assert isinstance(provider, ExtractiveProvider)
    assert provider.label == "offline extractive"


def test_defaults_are_pinned_model_snapshots() -> None:
    assert (DEFAULT_MODEL, DEFAULT_FAST_MODEL) == ("claude-sonnet-5-5", "claude-haiku-4-5-20251001")


async def test_anthropic_gets_models_and_settings() -> None:
    provider = make_provider("anthropic", ANTHROPIC)
    assert isinstance(provider, AnthropicProvider)
    assert (provider.model, provider.fast_model, provider.label) == (
        "claude-x", "claude-y", "anthropic claude-x")
    assert (provider.max_retries, provider.client.timeout.read) == (5, 7.5)
    assert str(provider.client.base_url).startswith("http://127.0.0.1:9")
    await provider.aclose()


async def test_openai_fast_model_defaults_to_the_model() -> None:
    provider = make_provider("openai", OPENAI)
    assert isinstance(provider, OpenAIProvider)
    assert (provider.model, provider.fast_model, provider.label) == (
        "qwen3:8b", "qwen3:8b", "openai qwen3:8b")
    assert str(provider.client.base_url) == "http://127.0.0.1:11434/v1/"
    await provider.aclose()


@pytest.mark.parametrize(
    ("name", "settings", "message"),
    [
        ("gpt", ProviderSettings(),
         "unknown provider 'gpt': choose one of extractive, anthropic, openai"),
        ("anthropic", ProviderSettings(), "set ANTHROPIC_API_KEY to use the anthropic provider"),
        ("openai", ProviderSettings(openai_model="m"),
         "set KBQA_OPENAI_BASE_URL and KBQA_OPENAI_MODEL to use the openai provider"),
    ],
)
def test_config_errors_say_what_to_do(name: str, settings: ProviderSettings, message: str) -> None:
    for build in (make_provider, describe_provider):
        with pytest.raises(ConfigError) as info:
            build(name, settings)
        assert str(info.value) == message


def test_names() -> None:
    assert PROVIDER_NAMES == ("extractive", "anthropic", "openai")


@pytest.mark.parametrize(
    ("name", "settings"),
    [("extractive", ProviderSettings()), ("anthropic", ANTHROPIC), ("Anthropic ", ANTHROPIC),
     ("openai", OPENAI)],
)
async def test_describe_matches_the_built_provider_without_building_it(
    name: str, settings: ProviderSettings
) -> None:
    provider = make_provider(name, settings)
    assert describe_provider(name, settings) == provider.label
    await provider.aclose()


def test_a_registered_provider_is_built_by_name_until_unregistered() -> None:
    built: list[FakeProvider] = []

    def factory() -> FakeProvider:
        built.append(FakeProvider())
        return built[-1]

    register_provider("Canned", factory)
    try:
        first, second = (make_provider(" canned ", ProviderSettings()),
                         make_provider("canned", ProviderSettings()))
        assert (first, second) == tuple(built)  # a fresh provider per call
        assert describe_provider("canned", ProviderSettings()) == "canned"
    finally:
        unregister_provider("canned")
    with pytest.raises(ConfigError, match="unknown provider 'canned'"):
        make_provider("canned", ProviderSettings())
