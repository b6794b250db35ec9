from __future__ import annotations

import pytest

from kbqa.core.errors import ConfigError
from kbqa.core.providers.anthropic import AnthropicProvider
from kbqa.core.providers.registry import (
    PROVIDER_NAMES,
    describe_provider,
    make_provider,
    register_provider,
    unregister_provider,
)
from kbqa.core.readers.extractive.reader import ExtractiveProvider
from tests.fakes.provider import FakeProvider


def test_extractive_is_available_offline() -> None:
    provider = make_provider("extractive")
    assert isinstance(provider, ExtractiveProvider)
    assert provider.label == "offline extractive"


async def test_anthropic_gets_models_and_settings() -> None:
    provider = make_provider("anthropic", api_key="k", model="claude-x", fast_model="claude-y",
                             base_url="http://127.0.0.1:9", max_retries=5, timeout=7.5)
    assert isinstance(provider, AnthropicProvider)
    assert (provider.model, provider.fast_model, provider.label) == (
        "claude-x", "claude-y", "anthropic claude-x")
    assert (provider.client.max_retries, provider.client.timeout) == (5, 7.5)
    assert str(provider.client.base_url).startswith("http://127.0.0.1:9")
    await provider.aclose()


@pytest.mark.parametrize(
    ("name", "kwargs", "message"),
    [
        ("gpt", {}, "unknown provider 'gpt': choose one of extractive, anthropic"),
        ("anthropic", {}, "set ANTHROPIC_API_KEY to use the anthropic provider"),
    ],
)
def test_config_errors_say_what_to_do(name: str, kwargs: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError) as info:
        make_provider(name, **kwargs)
    assert str(info.value) == message


def test_names() -> None:
    assert PROVIDER_NAMES == ("extractive", "anthropic")


@pytest.mark.parametrize(
    ("name", "kwargs"),
    [
        ("extractive", {}),
        ("anthropic", {"api_key": "k", "model": "claude-x"}),
        ("Anthropic ", {"api_key": "k"}),
    ],
)
async def test_describe_matches_the_built_provider_without_building_it(
    name: str, kwargs: dict[str, str]
) -> None:
    from kbqa.core.providers.registry import describe_provider

    provider = make_provider(name, **kwargs)
    described = describe_provider(name, model=kwargs.get("model", ""),
                                  api_key=kwargs.get("api_key", ""))
    assert described == provider.label
    await provider.aclose()


@pytest.mark.parametrize(("name", "api_key"), [("gpt", "k"), ("anthropic", "")])
def test_describe_raises_the_same_config_errors(name: str, api_key: str) -> None:
    from kbqa.core.providers.registry import describe_provider

    with pytest.raises(ConfigError):
        describe_provider(name, api_key=api_key)


def test_a_registered_provider_is_built_by_name_until_unregistered() -> None:
    built: list[FakeProvider] = []

    def factory() -> FakeProvider:
        built.append(FakeProvider())
        return built[-1]

    register_provider("Canned", factory)
    try:
        first, second = make_provider(" canned "), make_provider("canned")
        assert (first, second) == tuple(built)  # a fresh provider per call
        assert describe_provider("canned") == "canned"
    finally:
        unregister_provider("canned")
    with pytest.raises(ConfigError, match="unknown provider 'canned'"):
        make_provider("canned")
