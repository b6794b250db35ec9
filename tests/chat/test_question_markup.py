"""Markup pasted into a question: the question is shown as typed, answered as if it were not there.

Retrieval, the low-score gate and the reader read ``chat.questions.question_text`` of the
question (tags removed, script content dropped); the stored message, the trace and the
``meta`` event keep what was typed, and pages escape it.
"""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.core.management import call_command
from django.test import Client

from chat.models import Message, Trace
from chat.questions import question_text
from tests.chat.kb import LEAVE_DOCS, kb_store
from tests.chat.support import chat_socket, conversation_make, receive_turn, user_make

pytestmark = pytest.mark.django_db

ZH_LEAVE = ("doc-101", "年假制度", "policy", "2025-01-02", "全职员工每个自然年享有 20 天带薪年假。")
SCRIPT = "<script>alert(1)</script> How many days of annual leave do full-time employees get?"


@pytest.fixture
def bilingual_kb(tmp_path: Path, db: Any) -> None:
    kb_store(tmp_path, (*LEAVE_DOCS, ZH_LEAVE))


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        (SCRIPT, "How many days of annual leave do full-time employees get?"),
        ("<b>年假</b>有多少天？", "年假有多少天？"),
        ("How much <i>annual</i> leave?", "How much annual leave?"),
        ('<a href="https://x.test">sick leave</a> rules?', "sick leave rules?"),
        ("<p>年假</p><p>有多少天？</p>", "年假 有多少天？"),
        ("<style>p{color:red}</style>年假有多少天？", "年假有多少天？"),
        ("Annual<br>leave &amp; sick leave?", "Annual leave & sick leave?"),
        ("Is x < 5 days and R&D > 3?", "Is x < 5 days and R&D > 3?"),  # not markup: kept
        ("How much leave?", "How much leave?"),
        ("<b></b>", "<b></b>"),  # markup only: nothing else to read
        ("and sick leave? please please", "and sick leave?"),  # courtesy is no content
    ],
    ids=["script", "zh-bold", "italic", "link", "zh-paragraphs", "style", "br-entity",
         "comparison", "plain", "markup-only", "courtesy"],
)
def test_question_text_is_the_question_without_its_markup(typed: str, read: str) -> None:
    assert question_text(typed) == read


def ask_json(question: str) -> list[dict[str, Any]]:
    out = StringIO()
    call_command("ask", question, "--json", "--provider", "extractive", stdout=out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.mark.parametrize(
    ("typed", "answer"),
    [
        (SCRIPT, "20 days"),
        ("<b>年假</b>有多少天？", "20 天"),
        ("How many days of <em>annual leave</em> do <b>full-time</b> employees get?", "20 days"),
    ],
    ids=["script-en", "bold-zh", "inline-en"],
)
def test_a_question_with_markup_is_answered_in_the_terminal(
    bilingual_kb: None, typed: str, answer: str
) -> None:
    lines = ask_json(typed)
    done = lines[-1]["data"]
    shown = " ".join(x["data"]["text"] for x in lines if x["event"] == "sentence")
    assert done["status"] == "answered"
    assert answer in shown
    assert lines[0]["data"]["question"] == typed  # meta: the question as typed
    assert Trace.objects.get().question == typed


def test_the_api_answers_it_and_the_chat_page_shows_it_escaped(
    bilingual_kb: None, django_user_model: Any, settings: Any
) -> None:
    settings.KBQA_PROVIDER = "extractive"
    user = django_user_model.objects.create_user("alice", password="pw-alice-123")
    client = Client()
    client.force_login(user)
    body = client.post(
        "/api/answer", data=json.dumps({"question": SCRIPT}),
        content_type="application/json",
    ).json()
    page = client.get(f"/c/{body['conversation']}/").content.decode()

    assert body["status"] == "answered", body
    assert "20 days" in " ".join(s["text"] for s in body["sentences"])
    assert "&lt;script&gt;alert(1)&lt;/script&gt; How many days" in page
    assert "<script>alert(1)</script>" not in page
    assert Message.objects.get(role="user").text == SCRIPT


@pytest.mark.django_db(transaction=True)
async def test_the_chat_socket_answers_it_and_shows_the_question_escaped(
    tmp_path: Path, settings: Any
) -> None:
    settings.KBQA_PROVIDER = "extractive"
    await sync_to_async(kb_store)(tmp_path, (*LEAVE_DOCS, ZH_LEAVE))
    user = await user_make("alice")
    conversation = await conversation_make(user)
    async with chat_socket(conversation.pk, user) as comm:
        await comm.send_to(text_data=json.dumps({"question": SCRIPT}))
        frames = await receive_turn(comm)

    turn = "".join(frames)
    assert "&lt;script&gt;alert(1)&lt;/script&gt; How many days" in frames[0]
    assert "<script>alert(1)</script>" not in turn
    assert 'data-status="answered"' in frames[-1]
    assert "20 days" in turn
