from __future__ import annotations

import pytest

from kbqa.core.text.normalise import detect_language, fingerprint
from kbqa.core.text.terms import terms
from kbqa.core.text.tokens import count_tokens


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("What is the maximum upload size?", ["maximum", "upload", "size"]),
        ("Limits: 200MB, v2.1.0 and 3.5 days", ["limit", "200", "mb", "v", "2.1.0", "3.5", "day"]),
        ("ＡＰＩ Policies", ["api", "policy"]),
        ("回收站保留30天", ["回收", "回收站", "保留", "30", "天"]),
        ("API 的默认限流", ["api", "默认", "限流"]),
        ("", []),
        ("?!…。，", []),
    ],
)
def test_terms(text: str, expected: list[str]) -> None:
    assert terms(text) == expected


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("Hello,  World!", "hello, world", True),
        ("上传，下载。", "上传,下载.", True),
        ("Hello world", "Hello there", False),
    ],
)
def test_fingerprint_ignores_case_space_and_width(a: str, b: str, same: bool) -> None:
    assert (fingerprint(a) == fingerprint(b)) is same


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("How long is the trial?", "en"),
        ("试用期多长？", "zh"),
        ("API 的默认限流是多少", "zh"),
        ("？？？", "zh"),
        ("???", "en"),
    ],
)
def test_detect_language(text: str, lang: str) -> None:
    assert detect_language(text) == lang


def test_count_tokens_accepts_special_token_text() -> None:
    assert count_tokens("a <|endoftext|> b") > 3


def test_encoding_loads_without_network(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    import tiktoken
    import tiktoken.load
    import tiktoken.registry

    from kbqa.core.text import tokens

    real_read_file = tiktoken.load.read_file

    def local_files_only(blobpath: str) -> bytes:
        if "://" in blobpath:
            raise AssertionError(f"tiktoken tried to download {blobpath}")
        return real_read_file(blobpath)

    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))  # an empty cache: nothing to reuse
    monkeypatch.setattr(tiktoken.load, "read_file", local_files_only)
    monkeypatch.setattr(tiktoken.registry, "ENCODINGS", {})
    tokens.encoding.cache_clear()
    try:
        assert tokens.count_tokens("hello world") == 2
    finally:
        tokens.encoding.cache_clear()
