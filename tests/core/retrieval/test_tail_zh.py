"""A Chinese subject ends at its last noun or noun compound (``tail_zh.without_tail``)."""

from __future__ import annotations

import pytest

from kbqa.core.retrieval.tail_zh import without_tail


@pytest.mark.parametrize(
    ("subject", "expected"),
    [
        ("一个客户端一分钟最多能调", "一个客户端"),  # 最多/d 能调/v: how much, then the verb
        ("回收站里的文件最多", "回收站里的文件"),
        ("开放 API 的速率限制", "开放 API 的速率限制"),  # 限制/v heads a compound
        ("最多", ""),
    ],
)
def test_without_tail(subject: str, expected: str) -> None:
    assert without_tail(subject) == expected
