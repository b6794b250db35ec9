"""The reader's hook: question-sentence similarity under the configured encoder, cached;
nothing at all when semantic recall is off."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np
import pytest

from kbqa.core.retrieval import semantic
from kbqa.core.retrieval.semantic import load_encoder, sentence_similarities, use_encoder


class AxisEncoder:
    """Text -> the unit vector of the axis named by its first letter (a, b or other)."""

    name = "test/axes"
    dim = 3

    def __init__(self) -> None:
        self.encoded: list[str] = []

    def _vector(self, text: str) -> np.ndarray:
        v = np.zeros(self.dim, dtype=np.float32)
        v[{"a": 0, "b": 1}.get(text[:1].lower(), 2)] = 1.0
        return v

    def passages(self, texts: Sequence[str]) -> np.ndarray:
        self.encoded.extend(texts)
        return np.stack([self._vector(t) for t in texts])

    def query(self, text: str) -> np.ndarray:
        return self._vector(text)


@pytest.fixture
def encoder() -> Iterator[AxisEncoder]:
    fake = AxisEncoder()
    use_encoder(fake)
    yield fake
    use_encoder(None)


def test_off_means_none() -> None:
    use_encoder(None)
    assert sentence_similarities("anything?", ["a sentence"]) is None
    assert load_encoder("off") is None


def test_similarities_in_sentence_order_each_sentence_encoded_once(encoder: AxisEncoder) -> None:
    assert sentence_similarities("about a", ["apples", "bananas", "apples"]) == [1.0, 0.0, 1.0]
    assert sentence_similarities("bananas?", ["bananas", "apples"]) == [1.0, 0.0]
    assert encoder.encoded == ["apples", "bananas"]
    assert sentence_similarities("x", []) == []


def test_the_cache_is_bounded(encoder: AxisEncoder, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(semantic, "SENTENCE_CACHE", 2)
    sentence_similarities("q", ["a1", "a2", "a3"])
    sentence_similarities("q", ["a1"])  # evicted: encoded again
    assert encoder.encoded == ["a1", "a2", "a3", "a1"]


def test_an_unknown_encoder_name_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown semantic encoder"):
        load_encoder("bert")
