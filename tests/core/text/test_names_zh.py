"""CC-CEDICT's case of pinyin tells a common word jieba tags as a name from a real name."""

from __future__ import annotations

import pytest

from kbqa.core.text.names_zh import common_word, name_checked


@pytest.mark.parametrize(
    ("word", "common"),
    [
        # listed with lower-case pinyin: common words jieba's dictionary tags as names
        ("日志", True), ("东西", True), ("城市", True), ("黑名单", True),
        # unlisted, a common word with one more character: 旧 + 版本
        ("旧版本", True),
        # listed with a capital: places, a currency, a product
        ("成都", False), ("阿姆斯特丹", False), ("欧元", False), ("安卓", False),
        # a person's name: its surname is a proper noun
        ("王建国", False), ("王琳", False),
    ],
)
def test_common_word(word: str, common: bool) -> None:
    assert common_word(word) is common


def test_name_checked_keeps_other_tags_and_real_names() -> None:
    assert name_checked("旧版本", "ns") == "n"
    assert name_checked("成都", "ns") == "ns"
    assert name_checked("日志", "v") == "v"  # only a name tag is checked
