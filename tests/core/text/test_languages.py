"""A question in a language kbqa does not read is told so, in English and Chinese, instead
of being sent to rephrase with the documents' words (a tester's Japanese, German, Spanish
and Arabic questions got the generic low-score refusal; the Japanese one in Chinese)."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from kbqa.core.grounding.refusals import refuse_low_score, refuse_no_support
from kbqa.core.text.languages import other_language
from kbqa.core.types import DocumentRef
from tests.chat.kb import LEAVE_DOCS, kb_store


@pytest.mark.parametrize(
    ("question", "code"),
    [
        ("年次休暇は何日ありますか？", "ja"),
        ("연차는 며칠인가요?", "ko"),
        ("Сколько дней отпуска у меня?", "ru"),
        ("كم يوم إجازة لدي؟", "ar"),
        ("Wie viele Urlaubstage habe ich pro Jahr?", "de"),
        ("Kann ich von zu Hause arbeiten?", "de"),
        ("¿Cuántos días de vacaciones tengo al año?", "es"),
        ("Combien de jours de congé ai-je par an?", "fr"),
        ("Hoeveel vakantiedagen heb ik per jaar?", "nl"),
        # English and Chinese, with the other languages' stray stop words and names
        ("How many days of annual leave do I get?", None),
        ("What's the mileage rate for using my own car?", None),  # "car" is French
        ("a dry ice shipment to Boston, door to door", None),  # "door" is Dutch
        ("全职员工每年有多少天年假？", None),
        ("NimbusDrive API 的默认限流是多少", None),
        ("2FA?", None),
    ],
)
def test_the_language_of_a_question_kbqa_does_not_read(question: str, code: str | None) -> None:
    assert other_language(question) == code


def test_the_refusals_say_which_languages_are_read_and_keep_the_documents() -> None:
    docs = (DocumentRef(doc_id="doc-001", title="Leave policy", updated="2025-01-01"),)
    low = refuse_low_score("en", docs, "Wie viele Urlaubstage habe ich pro Jahr?")
    none = refuse_no_support("zh", docs, "年次休暇は何日ありますか？")
    assert low.message.startswith("This question looks like German")
    assert "English or Chinese" in low.message and "请用英文或中文再问一次" in low.message
    assert "Japanese" in none.message and "日语" in none.message
    assert low.documents == docs and none.documents == docs
    # English and Chinese questions keep their own wording
    assert "documents' own terms" in refuse_low_score("en", docs, "How many days off?").message


@pytest.mark.django_db
def test_a_german_question_is_told_to_ask_in_english_or_chinese(tmp_path: Path, db: Any) -> None:
    kb_store(tmp_path, LEAVE_DOCS)
    out = StringIO()
    call_command("ask", "Wie viele Urlaubstage habe ich pro Jahr?", "--json", "--provider",
                 "extractive", stdout=out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    refusal = next(x["data"] for x in lines if x["event"] == "refusal")
    assert "I read questions in English and Chinese only" in refusal["message"]
