from __future__ import annotations

import pytest

from kbqa.core.text.normalise import detect_language, fingerprint
from kbqa.core.text.terms import (
    TERMS_VERSION,
    cjk_bigrams,
    fold,
    is_question_word,
    relevance_terms,
    search_terms,
    terms,
)
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
        # a word in capitals is an acronym, never the stop word it spells in lower case
        ("IT 部门的 VPN 权限", ["it", "部门", "vpn", "权限"]),
        ("And what about IT?", ["it"]),
        ("Is it on AS or IS?", ["as", "is"]),
        ("Ask IT, HR/IT or US", ["ask", "it", "hr", "it", "us"]),
        ("It is done. Do it now", ["done", "now"]),
        ("HOW TO APPLY FOR LEAVE", ["apply", "leave"]),  # a heading set in capitals
        ("Do NOT share ONLY the IT links", ["share", "it", "link"]),  # stress is no acronym
        # a hyphenated word with a part of one or two letters is one word...
        ("Guest Wi-Fi, WiFi and e-mail", ["guest", "wifi", "wifi", "email"]),
        # ...unless that part is a stop word or a particle
        ("sign-in for the runner-up", ["sign", "runner", "up"]),
        # the pieces of contractions are no words ("I'm late" had the content word "m")
        ("I'm late, we're out, you've, they'll, I'd say", ["late", "out", "say"]),
    ],
)
def test_terms(text: str, expected: list[str]) -> None:
    assert terms(text) == expected


def test_spoken_and_written_negation_are_one_term() -> None:
    assert terms("当年没休完的年假") == terms("当年未休完的年假")
    assert terms("我没有年假") == terms("我年假")  # 没有 stays a stop word


def test_search_terms_add_the_bigrams_jieba_did_not_cut() -> None:
    assert cjk_bigrams("年假没用") == ["年假", "假没", "没用"]
    found = search_terms("多少天年假")
    assert "年假" in found and found.count("多少") <= 1
    assert TERMS_VERSION == 6


@pytest.mark.parametrize(
    ("word", "expected"),
    [("which", True), ("please", True), ("哪里", True), ("多大", True), ("哪一年", True),
     ("哪几种", True), ("请问", False), ("leave", False), ("年假", False), ("recycle", False),
     # spoken Chinese: 咋 is 怎 ("咋办", "how to deal with it"); 多 + a measure asks a degree
     ("咋办", True), ("咋整", True), ("多久", True), ("多远", True), ("多数", False)],
)
def test_question_words(word: str, expected: bool) -> None:
    assert is_question_word(word) is expected


def test_relevance_terms_skip_unknown_question_words_and_segmentation_pieces() -> None:
    known = {"全职", "员工", "年假"}.__contains__
    assert relevance_terms("全职员工每年有多少天年假？", known) == ["全职", "员工", "年假"]
    # an unknown content word still counts as missing
    assert relevance_terms("Which hotel limit applies in Oslo?", {"hotel", "limit"}.__contains__
                           ) == ["hotel", "limit", "apply", "oslo"]


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
        # full-width letters typed with a Chinese input method are still English (a tester's
        # full-width question got a Chinese conflict card)
        ("Ｈｏｗ ｌｏｎｇ ｉｓ ｔｈｅ ｔｒｉａｌ？", "en"),
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


def test_jieba_says_nothing_on_stderr_whichever_module_uses_it_first() -> None:
    # the part-of-speech tagger loading the dictionary before the segmenter printed
    # "Building prefix dict from the default dictionary …" into `manage.py ask` output
    import subprocess
    import sys

    code = ("import kbqa.core.text.terms, jieba.posseg; "
            "list(jieba.posseg.cut('服务台几点下班'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert "prefix dict" not in done.stderr


def test_a_number_with_thousands_separators_is_one_term() -> None:
    # "1,500" read as 1 and 500 met "Rule 500" of an unrelated uploaded handbook
    assert terms("a claim of EUR 1,500") == ["claim", "eur", "1500"]
    assert terms("10,000 users, not 1,2,3") == ["10000", "user", "1", "2", "3"]
    assert terms("EUR 1,234.50") == ["eur", "1234.50"]


@pytest.mark.parametrize(("word", "folded"), [
    # a consonant's y turned i before -ed, -es, -er is y again: "carried over" is the
    # asker's "carry over" (a tester's carry-over question led with another rule's "carry")
    ("carried", "carry"), ("carries", "carry"), ("carry", "carry"), ("applied", "apply"),
    ("denied", "deny"), ("submitted", "submit"), ("reimbursed", "reimburs"),
])
def test_fold_meets_a_word_and_its_inflections(word: str, folded: str) -> None:
    assert fold(word) == folded


@pytest.mark.parametrize(("noun", "verb"), [
    # "who approves a claim of 3000 dollars" never met "Claims over SGD 2,000 also need the
    # approval of your department head": the noun a verb names by "-al" is the verb
    ("approval", "approves"), ("approvals", "approved"), ("removal", "removed"),
    ("renewal", "renews"), ("withdrawal", "withdraw"),
])
def test_fold_meets_a_verb_and_its_noun_in_al(noun: str, verb: str) -> None:
    assert fold(noun) == fold(verb)


@pytest.mark.parametrize("word", ["personal", "medical", "parental", "portal", "total"])
def test_a_word_in_al_no_verb_is_derived_from_stays(word: str) -> None:
    assert fold(word) == word
