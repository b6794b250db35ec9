"""Query words the knowledge base has only in the other language."""

from __future__ import annotations

import pytest

from kbqa.core.retrieval.synonyms import lexical_query
from kbqa.core.retrieval.translations import phrase_terms, translation_terms
from kbqa.core.text.terms import search_terms

ZH_INDEX = set(search_terms("被删除的文件和文件夹会先进入回收站，在回收站保留 30 天。"))
EN_INDEX = set(search_terms("A web session is closed after 12 hours. Annual leave: 20 days. "
                            "Activity reports are due monthly."))


def test_an_english_question_reaches_the_chinese_passages_words() -> None:
    found = translation_terms("How long does the recycle bin keep deleted files?",
                              ZH_INDEX.__contains__)
    assert "回收" in found["recycle"]
    assert "删除" in found["deleted"]
    assert "文件" in found["file"]


def test_a_chinese_question_reaches_inflected_english_words() -> None:
    found = translation_terms("网页会话无操作多久后会关闭？", EN_INDEX.__contains__)
    assert found["会话"] == ["session"]
    assert found["关闭"] == ["closed"]


@pytest.mark.parametrize("question", [
    "团建活动的预算是多少？",  # only 活动 -> "activity" translates: one word finds anything
    "那陪产假呢？",  # 产假 is "maternity leave": "leave" alone is another thing
    "婚假可以休几天？",
])
def test_too_little_translated_adds_nothing(question: str) -> None:
    assert translation_terms(question, EN_INDEX.__contains__) == {}


def test_words_the_index_has_are_not_translated() -> None:
    assert translation_terms("How long is a web session?", EN_INDEX.__contains__) == {}


MIXED_INDEX = EN_INDEX | set(search_terms(
    "男员工在配偶生育时可享受陪产假 15 天。女员工可享受产假 158 天。"))


def test_a_phrase_is_translated_whole_though_the_index_has_one_of_its_words() -> None:
    # "leave" is in the English policy; "paternity leave" is only the Chinese FAQ's 陪产假,
    # which jieba cuts into 陪 and 产假
    assert phrase_terms("How many days of paternity leave?", MIXED_INDEX.__contains__) == {
        "paternity": ["陪", "产假"]}
    assert translation_terms("How many days of paternity leave?",
                             MIXED_INDEX.__contains__)["paternity"] == ["陪", "产假"]
    # a phrase whose words the index both has is read in its own language
    assert phrase_terms("How many days of annual leave?", MIXED_INDEX.__contains__) == {}


def test_a_translated_phrase_weighs_as_the_users_own_words() -> None:
    query = lexical_query("How many days of paternity leave?", MIXED_INDEX.__contains__,
                          lambda _t: 1.0, ["day", "paternity", "leave"])
    assert query.weights["陪"] == query.weights["产假"] == 2.0  # both words of the phrase


def test_a_stop_word_and_a_word_make_no_phrase() -> None:
    # "whats yearly" is "yearly" alone to the dictionary (每年): one word, not a phrase
    index = set(search_terms("正式员工每年享有 15 天年假。")) | {"cap"}
    assert phrase_terms("whats yearly cap", index.__contains__) == {}


def test_a_word_jieba_cuts_apart_and_glossed_as_a_phrase_reaches_the_english_policy() -> None:
    # 年假有多少天: jieba cuts 年/假; 年假 is "annual leave", one thing, as specific as
    # the two-word English phrase
    found = translation_terms("年假有多少天？", EN_INDEX.__contains__)
    assert found["年假"][:2] == ["annual", "leave"]


# corvane's knowledge base: an English leave policy beside a Chinese FAQ in which 不 and 节假日
# occur ("遇节假日提前发放", "不需要")
CORVANE_INDEX = set(search_terms(
    "Employees receive 2 working days of paid compassionate leave on the death of a "
    "grandparent. 深圳办公室每月 10 日发放上个月的工资，遇节假日提前发放。年假不需要提前申请。"))


def test_a_chinese_word_is_no_translation_when_a_stop_word_is_half_of_it() -> None:
    # "pass away" is 不在 in CC-CEDICT; 在 is a stop word, so its one term was 不 ("not"),
    # and "my grandmother passed away" found the salary FAQ by 不 and 假日
    question = "my grandmother passed away last night, how many days off do i get"
    assert "passed" not in phrase_terms(question, CORVANE_INDEX.__contains__)
    assert "不" not in {t for found in translation_terms(
        question, CORVANE_INDEX.__contains__).values() for t in found}
