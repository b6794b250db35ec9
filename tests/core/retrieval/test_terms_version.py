"""Stored terms are only as good as the tokenizer version they were computed with."""

from __future__ import annotations

from kbqa.core.text.terms import TERMS_VERSION, search_terms

SAMPLE = "Upload limits: 200MB files, v2.1.0 policies. 年假申请需要经理审批，请问报销发票呢？"
# What search_terms() gave for SAMPLE when TERMS_VERSION was last bumped.
EXPECTED = {
    2: [
        "upload",
        "limit",
        "200",
        "mb",
        "file",
        "v",
        "2.1.0",
        "policy",
        "年",
        "假",
        "申请",
        "需要",
        "经理",
        "审批",
        "报销",
        "发票",
        "年假",
        "假申",
        "请需",
        "要经",
        "理审",
        "请问",
        "问报",
        "销发",
        "票呢",
    ],
}
# 3: words in capitals are acronyms, never stop words ("IT" is kept); SAMPLE has none.
EXPECTED[3] = EXPECTED[2]
# 4: a hyphenated word with a part of one or two letters is one word ("Wi-Fi": wifi);
# SAMPLE has none.
EXPECTED[4] = EXPECTED[3]
# 5: a number with thousands separators is one term ("1,500": 1500); SAMPLE has none.
EXPECTED[5] = EXPECTED[4]
# 6: the pieces of English contractions (I'm: "m", we're, you've, they'll, I'd) are stop
# words; SAMPLE has none.
EXPECTED[6] = EXPECTED[5]


def test_changed_tokenising_comes_with_a_new_terms_version() -> None:
    """If this fails, what retrieval indexes changed: bump TERMS_VERSION in
    kbqa/core/text/terms.py and
    add the new output here, so stored terms and indexes are rebuilt (manage.py index_build)
    instead of silently mixing two tokenizers."""
    assert search_terms(SAMPLE) == EXPECTED[TERMS_VERSION]


def test_terms_hold_no_whitespace_so_they_can_be_stored_space_separated() -> None:
    assert not any(any(ch.isspace() for ch in t) for t in search_terms(SAMPLE + " a\u3000b\tc"))
