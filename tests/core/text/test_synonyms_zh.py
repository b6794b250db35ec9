"""Chinese near-synonyms through CC-CEDICT's English glosses: the asker's word meets the
document's word, and a gloss shared by many words names no synonym."""

from __future__ import annotations

from kbqa.core.retrieval.synonyms import chinese_terms
from kbqa.core.text.synonyms_zh import chinese_synonyms, lookup_words


def test_words_glossed_alike_are_synonyms() -> None:
    assert "遗失" in chinese_synonyms("弄丢")  # both "to lose"
    assert "删除" in chinese_synonyms("删掉")  # both "to delete"


def test_a_one_character_verb_has_the_synonyms_of_its_first_sense_only() -> None:
    # 工牌丢了怎么办 against "工牌遗失须在 24 小时内报告…" (a code-blind tester, refused)
    assert "丢" in lookup_words("工牌丢了怎么办")
    assert {"遗失", "丢失"} <= set(chinese_synonyms("丢"))  # "to lose"
    assert "投放" not in chinese_synonyms("丢")  # its third sense, "to throw"


def test_a_gloss_many_words_share_names_no_synonym() -> None:
    # 到底 "finally; in the end": "end" glosses dozens of words (完毕, 结束...)
    assert "完毕" not in chinese_synonyms("到底")


def test_a_word_jieba_splits_into_characters_is_looked_up_whole() -> None:
    assert "弄丢" in lookup_words("上个月打车的发票弄丢了，还能报吗？")
    assert "删掉" in lookup_words("他的账号多久以后会被删掉？")


def test_retrieval_expands_only_words_the_index_lacks() -> None:
    index = {"发票", "遗失", "丢失", "报销"}
    found = chinese_terms("发票弄丢了，还能报吗？", index.__contains__)
    assert set(found["弄丢"]) <= index and "遗失" in found["弄丢"]
    assert "发票" not in found


def test_a_verb_object_word_meets_the_words_for_its_object() -> None:
    # 打车 "to take a taxi": a policy writes 出租车 "taxi"
    assert "出租车" in chinese_synonyms("打车")
    # ...but a common object glossing many words brings none ("to finish work": "work")
    assert "工作" not in chinese_synonyms("下班")
