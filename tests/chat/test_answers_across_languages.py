"""Values and facts across English and Chinese documents, end to end (offline extractive
provider, the real turn service, retrieval and pipeline).

An admin replaces the Chinese copy of a document and its value now disagrees with the
English one: a question in either language gets the conflict card with both values, their
sources and update dates, in the question's language. Values that agree once normalised
(200 MB, 200 兆, 0.2 GB) are no conflict. A fact stated only in a Chinese passage answers an
English question (and the reverse) with the source's own sentence, its citation checked.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from chat.turns import TurnRequest, answer_turn
from kbqa.core.types import Event, Refusal, Sentence
from tests.chat.kb import evaluate_cases, kb_store

pytestmark = pytest.mark.django_db(transaction=True)

UPLOAD_EN = {"doc_id": "upload-en", "title": "Manual: uploading files", "updated": "2025-03-12",
             "authority": "manual", "text": (
                 "## Upload limits\n\nThe maximum size of a single uploaded file is 200 MB. "
                 "Larger files are rejected before the transfer starts.\n")}
UPLOAD_ZH = {"doc_id": "upload-zh", "title": "产品手册：上传文件", "updated": "2025-09-01",
             "authority": "manual", "text": (
                 "## 上传限制\n\n单个上传文件的最大大小为 {value}。"
                 "超过这个大小的文件会在传输开始前被拒绝。\n")}
BIN_EN = {"doc_id": "bin-en", "title": "Recycle bin and version history", "updated": "2025-02-10",
          "authority": "manual", "text": (
              "## Recycle bin\n\nDeleted files stay in the recycle bin for 30 days. "
              "After that they are removed for good.\n")}
BIN_ZH = {"doc_id": "bin-zh", "title": "回收站与历史版本", "updated": "2025-10-20",
          "authority": "manual", "text": (
              "## 回收站\n\n删除的文件会在回收站中保留 60 天，之后将被永久删除。\n")}
HOTEL_EN = {"doc_id": "hotel-en", "title": "Expense policy", "updated": "2025-01-06",
            "authority": "policy", "text": (
                "## Travel\n\nHotels: up to EUR 170 per night. "
                "Economy class for flights under 6 hours.\n")}
HOTEL_ZH = {"doc_id": "hotel-zh", "title": "费用报销制度", "updated": "2025-08-01",
            "authority": "policy", "text": (
                "## 差旅\n\n酒店住宿：每晚不超过 150 欧元。航班不超过 6 小时乘坐经济舱。\n")}
SESSION_EN = {"doc_id": "session-en", "title": "Accounts and sign-in", "updated": "2025-01-06",
              "authority": "manual", "text": (
                  "## Sessions\n\nA web session is closed after 12 hours of inactivity.\n")}
SESSION_ZH = {"doc_id": "session-zh", "title": "登录常见问题", "updated": "2025-08-01",
              "authority": "manual", "text": "## 会话\n\n网页会话在无操作 8 小时后自动关闭。\n"}
ABOUT_EN = {"doc_id": "about-en", "title": "About Nimbus Works", "updated": "2025-03-01",
            "text": "## Offices\n\nNimbus Works has its head office in Rotterdam.\n"}
ABOUT_ZH = {"doc_id": "about-zh", "title": "关于 Nimbus Works", "updated": "2025-03-01",
            "text": "## 办公室\n\nNimbus Works 的总部位于鹿特丹。\n"}
BIN_ZH_ONLY = {"doc_id": "bin-zh", "title": "回收站", "updated": "2025-10-20", "text": (
    "## 回收站\n\n被删除的文件和文件夹会先进入回收站，在回收站保留 30 天，"
    "其间你可以随时把它们还原。\n")}
SESSION_EN_ONLY = {"doc_id": "session-en", "title": "Accounts and sign-in",
                   "updated": "2025-01-06", "text": (
                       "## Sessions\n\nIn NimbusDrive, a web session is closed after 12 hours "
                       "of inactivity. "
                       "Passwords need at least 12 characters.\n")}




def zh(doc: dict[str, str], value: str) -> dict[str, str]:
    return {**doc, "text": doc["text"].format(value=value)}


# (English document, Chinese document, English question, Chinese question, the two values)
DISAGREEING = [
    (UPLOAD_EN, zh(UPLOAD_ZH, "100 MB"), "What is the maximum upload size for a single file?",
     "单个文件最大能上传多大？", ("200 MB", "100 MB")),
    (BIN_EN, BIN_ZH, "How many days do deleted files stay in the recycle bin?",
     "删除的文件在回收站里保留多少天？", ("30 days", "60 天")),
    (HOTEL_EN, HOTEL_ZH, "What is the hotel limit per night?", "酒店住宿每晚最多多少欧元？",
     ("EUR 170 per night", "150 欧元")),
    (SESSION_EN, SESSION_ZH, "After how many hours of inactivity is a web session closed?",
     "网页会话无操作多少小时后关闭？", ("12 hours", "8 小时")),
]


@pytest.mark.parametrize(("en_doc", "zh_doc", "en_question", "zh_question", "values"),
                         DISAGREEING, ids=["MB", "days", "EUR per night", "hours"])
def test_values_disagreeing_across_languages_show_the_conflict_card_in_either_language(
    tmp_path: Path, en_doc: dict[str, str], zh_doc: dict[str, str], en_question: str,
    zh_question: str, values: tuple[str, str],
) -> None:
    documents = [en_doc, zh_doc]
    results = evaluate_cases(tmp_path, [
        {"id": "en", "question": en_question, "documents": documents, "expect": "conflict"},
        {"id": "zh", "question": zh_question, "documents": documents, "expect": "conflict"},
    ])

    for lang, said in (("en", "says"), ("zh", "写的是")):
        row = results[lang]
        assert row["status"] == "refused_conflict", row
        card = row["refusal_message"]
        for doc, value in zip(documents, values, strict=True):
            assert value in card and doc["title"] in card and doc["updated"] in card
        assert said in card  # the card speaks the question's language


@pytest.mark.parametrize("value", ["200 兆", "0.2 GB", "200 MB"])
def test_values_that_agree_across_languages_are_no_conflict(tmp_path: Path, value: str) -> None:
    documents = [UPLOAD_EN, zh(UPLOAD_ZH, value)]
    results = evaluate_cases(tmp_path, [
        {"id": "en", "question": "What is the maximum upload size for a single file?",
         "documents": documents, "expect": "answer", "answer_contains": "200 MB"},
        {"id": "zh", "question": "单个文件最大能上传多大？", "documents": documents,
         "expect": "answer", "answer_contains": value},
    ])

    assert results["en"]["status"] == results["zh"]["status"] == "answered"
    assert "200 MB" in results["en"]["text"]
    assert value in results["zh"]["text"]


def test_the_other_languages_unrelated_values_are_no_conflict(tmp_path: Path) -> None:
    # The Chinese recycle-bin days and the English session hours share no subject.
    results = evaluate_cases(tmp_path, [
        {"id": "q", "question": "How many days do deleted files stay in the recycle bin?",
         "documents": [BIN_EN, SESSION_ZH, ABOUT_ZH], "expect": "answer",
         "answer_contains": "30 days"},
    ])

    assert results["q"]["status"] == "answered"
    assert "30 days" in results["q"]["text"]


@pytest.mark.parametrize(("question", "document", "stated"), [
    # no word in common: retrieval meets the passage through the question's words in Chinese
    ("How long does the recycle bin keep deleted files?", BIN_ZH_ONLY, "30 天"),
    # 网页 ("web page") has no whole gloss in the passage: the product's name, written alike
    # in both languages, lifts it over the low-score gate
    ("NimbusDrive 网页会话无操作多久后会关闭？", SESSION_EN_ONLY, "12 hours"),
], ids=["english-question-chinese-source", "chinese-question-english-source"])
def test_a_fact_only_in_the_other_language_is_answered_with_the_sources_sentence(
    tmp_path: Path, question: str, document: dict[str, str], stated: str,
) -> None:
    results = evaluate_cases(tmp_path, [
        {"id": "q", "question": question, "documents": [document, ABOUT_EN, ABOUT_ZH],
         "expect": "answer", "answer_contains": stated},
    ])

    row = results["q"]
    assert row["status"] == "answered", row
    assert stated in row["text"]
    assert row["citations_checked"] >= 1
    assert row["citations_valid"] == row["citations_checked"]
    assert [b["doc_id"] for b in row["blocks"] if b["n"] in row["sentences"][0]["citations"]] \
        == [document["doc_id"]]


def ask(question: str) -> list[Event]:
    async def collect() -> list[Event]:
        return [ev async for ev in answer_turn(TurnRequest(question=question))
                if isinstance(ev, Event)]

    return asyncio.run(collect())


def test_replacing_the_chinese_document_turns_an_answer_into_the_conflict_card(
    tmp_path: Path, settings: Any,
) -> None:
    settings.KBQA_PROVIDER = "extractive"
    settings.KBQA_MIN_RELEVANCE = 0.05
    english = ("upload-en", UPLOAD_EN["title"], "manual", UPLOAD_EN["updated"], UPLOAD_EN["text"])
    before = zh(UPLOAD_ZH, "200 MB")
    kb_store(tmp_path, (english, ("upload-zh", before["title"], "manual", "2025-03-12",
                                  before["text"])))
    question = "What is the maximum upload size for a single file?"
    assert any(isinstance(ev, Sentence) and "200 MB" in ev.text for ev in ask(question))

    after = zh(UPLOAD_ZH, "100 MB")  # the admin uploads a new version of the Chinese manual
    kb_store(tmp_path, (("upload-zh", after["title"], "manual", "2025-09-01", after["text"]),))
    refusal = next(ev for ev in ask(question) if isinstance(ev, Refusal))

    assert refusal.reason == "conflict"
    assert refusal.conflict is not None
    assert sorted((s.value_text, s.doc_id, s.updated) for s in refusal.conflict.sides) == [
        ("100 MB", "upload-zh", "2025-09-01"), ("200 MB", "upload-en", "2025-03-12")]
