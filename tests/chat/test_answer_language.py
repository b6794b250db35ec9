"""Refusal and conflict cards, notices, the withheld note and the footer's status line speak
the question's language, so one card never mixes two (a Chinese card under an English "Not
answered" footer read as two answers); the footer's controls (Copy, feedback, Trace) speak
the page's (English buttons on a Chinese page read as a half-translated one). Checked live
over the websocket
and for stored messages on page load, in both directions (English UI with a Chinese question,
Chinese UI with an English question).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client

from chat.models import Conversation, Message, Trace
from kbqa.core.errors import ProviderError
from kbqa.core.providers.failures import MSG_SERVER
from kbqa.core.types import Conflict, ConflictSide, DocumentRef, Refusal
from tests.chat.kb import LEAVE_DOCS, QUESTION, kb_store
from tests.chat.support import (
    chat_socket,
    conversation_make,
    elements,
    receive_turn,
    user_make,
)
from tests.fakes.provider import FakeOutput, FakeProvider

SIDE = {"doc_id": "doc-010", "title": "Refund policy", "updated": "2025-06-30"}
REFUSAL = Refusal(
    reason="conflict",
    message="BODY",
    conflict=Conflict(
        unit="day",
        sides=(
            ConflictSide(n=1, chunk_id="doc-010#c02", authority="policy", value_text="14", **SIDE),
            ConflictSide(n=2, chunk_id="doc-010#c03", authority="faq", value_text="30", **SIDE),
        ),
        context=("refund",),
        preferred=0,
    ),
    documents=(DocumentRef(doc_id="doc-020", title="HR handbook", chunk_id="doc-020#c01"),),
)
# What each language says on the card, in the notes and in the footer's status line.
WORDS = {
    "en": {
        "title": "The sources disagree",
        "docs": "Documents you could check:",
        "updated": "updated 2025-06-30",
        "badge": "more authoritative",
        "withheld": "1 sentence withheld: its citation could not be verified.",
        "footer": "Not answered: the sources disagree",
    },
    "zh": {
        "title": "来源之间存在矛盾",
        "docs": "你可以查阅这些文档：",
        "updated": "更新于 2025-06-30",
        "badge": "更权威",
        "withheld": "已隐去 1 句：其引用未能通过验证。",
        "footer": "未回答：来源之间存在矛盾",
    },
}
BODY = {"en": "Two documents disagree; ask finance.", "zh": "两份文件说法不一；请询问财务部。"}
NOTICE = {"en": "The FAQ is older than the policy.", "zh": "常见问题比制度更旧。"}
# (UI language as the browser sends it, UI key, question language)
DIRECTIONS = [("en", "en", "zh"), ("zh-hans", "zh", "en")]
IDS = ["english-ui-chinese-question", "chinese-ui-english-question"]


def by_id(html: str, prefix: str) -> dict[str, str]:
    """The attributes of the element whose id starts with ``prefix``."""
    return next(a for _t, a in elements(html) if a.get("id", "").startswith(prefix))


# The footer's controls, by page language.
CONTROLS = {"en": "Trace", "zh": "追踪记录"}


def assert_controls(html: str, footer: str, *, ui: str, question: str) -> None:
    """The withheld note, card and status line carry the question's lang; the footer (its
    controls) the page's, and its Trace label is the page's word."""
    locale = "zh-hans" if question == "zh" else "en"
    assert [by_id(html, p)["lang"] for p in ("withheld-", "refusal-")] == [locale] * 2
    assert by_id(html, "footer-")["lang"] == ("zh-hans" if ui == "zh" else "en")
    assert f'class="turn-status" lang="{locale}"' in footer
    assert CONTROLS[ui] in footer and CONTROLS[question] not in footer


def assert_spoken(html: str, *, ui: str, question: str) -> None:
    """Card, notices, withheld note and footer in ``question``'s words, never ``ui``'s."""
    said, other = WORDS[question], WORDS[ui]
    turn, footer = html.split('<footer class="bubble-footer"')
    for name in ("title", "docs", "updated", "badge", "withheld"):
        assert said[name] in turn
        assert other[name] not in turn
    assert BODY[question] in turn
    assert NOTICE[question] not in turn  # notices belong to answers, never above a refusal
    assert said["footer"] in footer and other["footer"] not in footer
    assert_controls(html, footer, ui=ui, question=question)


# Live, through the real pipeline: two drafts the verifier rejects end in a no-support
# refusal that names the leave policy, with both sentences withheld.
LIVE = {
    "en": {
        "question": QUESTION,
        "draft": "Bananas grow in tropical countries [1].",
        "title": "No answer could be verified against the sources",
        "docs": "Documents you could check:",
        "updated": "updated 2025-06-30",
        "withheld": "2 sentences withheld: their citations could not be verified.",
        "footer": "Not answered: no sentence could be verified",
    },
    "zh": {
        "question": "全职员工每年有多少天年假？",
        "draft": "香蕉生长在热带国家[1]。",
        "title": "没有能根据来源验证的回答",
        "docs": "你可以查阅这些文档：",
        "updated": "更新于 2025-06-30",
        "withheld": "已隐去 2 句：其引用未能通过验证。",
        "footer": "未回答：没有句子能通过验证",
    },
}
ZH_LEAVE = ("doc-003", "年假制度", "policy", "2025-06-30", "全职员工每个日历年享有 20 天带薪年假。")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("browser", "ui", "question"), DIRECTIONS, ids=IDS)
async def test_live_refusal_speaks_the_question_language(
    fake_provider: FakeProvider,
    settings: Any,
    tmp_path: Path,
    browser: str,
    ui: str,
    question: str,
) -> None:
    settings.KBQA_MIN_RELEVANCE = 0.05  # a three-document knowledge base scores modestly
    await sync_to_async(kb_store)(tmp_path, (*LEAVE_DOCS, ZH_LEAVE))
    said, other = LIVE[question], LIVE[ui]
    fake_provider.add(said["draft"], said["draft"])
    user = await user_make("alice")
    conversation = await conversation_make(user)
    async with chat_socket(conversation.pk, user, language=browser) as comm:
        await comm.send_to(text_data=json.dumps({"question": said["question"]}))
        frames = await receive_turn(comm)
    html = "".join(frames[1:])
    turn, footer = html.split('<footer class="bubble-footer"')
    for name in ("title", "docs", "updated", "withheld"):
        assert said[name] in turn and other[name] not in turn
    assert said["footer"] in footer and other["footer"] not in footer
    assert_controls(html, footer, ui=ui, question=question)


def stored_refusal(question: str) -> tuple[Any, Conversation]:
    user = get_user_model().objects.create_user(username="li", password="pw-123456")
    conversation = Conversation.objects.create(owner=user, title="q")
    trace = Trace.objects.create(
        question="q",
        language=question,
        status="refused_conflict",
        data={"notices": [NOTICE[question]], "dropped": [{"text": "unsupported"}]},
    )
    refusal = Refusal(REFUSAL.reason, BODY[question], REFUSAL.conflict, REFUSAL.documents)
    Message.objects.create(conversation=conversation, role="user", text="q")
    Message.objects.create(
        conversation=conversation,
        role="assistant",
        refusal=refusal.to_dict(),
        status="refused_conflict",
        trace=trace,
    )
    return user, conversation


@pytest.mark.django_db
@pytest.mark.parametrize(("browser", "ui", "question"), DIRECTIONS, ids=IDS)
def test_stored_refusal_speaks_the_question_language_on_page_load(
    browser: str, ui: str, question: str
) -> None:
    user, conversation = stored_refusal(question)
    client = Client()
    client.force_login(user)
    html = client.get(f"/c/{conversation.pk}/", headers={"accept-language": browser})
    page = html.content.decode()
    assert f'<html lang="{"zh-hans" if ui == "zh" else "en"}">' in page
    assert_spoken(page.split('id="messages"')[1], ui=ui, question=question)


# A model failure after one verified sentence: the error card and the source list speak the
# question's language, live and after a reload (the card used to say "回答在完成前中断了。"
# followed by the provider's English words, and the source line followed the page).
FAILURE = {
    "en": {
        "question": QUESTION,
        "text": "Full-time employees get 20 days of paid annual leave [1]. ",
        "error": "the model provider had a temporary error; try again in a minute",
        "updated": "updated 2025-06-30",
    },
    "zh": {
        "question": "全职员工每年有多少天年假？",
        "text": "全职员工每个日历年享有 20 天带薪年假[1]。",
        "error": "模型服务出现临时故障；请一分钟后重试",
        "updated": "更新于 2025-06-30",
    },
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("browser", "ui", "question"), DIRECTIONS, ids=IDS)
async def test_a_model_failure_speaks_the_question_language_live_and_stored(
    fake_provider: FakeProvider,
    settings: Any,
    tmp_path: Path,
    browser: str,
    ui: str,
    question: str,
) -> None:
    settings.KBQA_MIN_RELEVANCE = 0.05
    await sync_to_async(kb_store)(tmp_path, (*LEAVE_DOCS, ZH_LEAVE))
    said, other = FAILURE[question], FAILURE[ui]
    failure = ProviderError(MSG_SERVER, retryable=True, started=True, error_type="api_error")
    fake_provider.add(FakeOutput([said["text"], "More"], error=failure))
    user = await user_make("alice")
    conversation = await conversation_make(user)
    async with chat_socket(conversation.pk, user, language=browser) as comm:
        await comm.send_to(text_data=json.dumps({"question": said["question"]}))
        live = "".join((await receive_turn(comm))[1:])
    client = Client()
    await sync_to_async(client.force_login)(user)
    page = await sync_to_async(client.get)(
        f"/c/{conversation.pk}/", headers={"accept-language": browser}
    )
    stored = page.content.decode().split('id="messages"')[1]
    for html in (live, stored):
        assert said["error"] in html and other["error"] not in html
        # the source list's labels are the page's (a tester, 2026-12-06: "updated … ·
        # manual" in English on a Chinese page looked half-translated)
        assert other["updated"] in html and said["updated"] not in html
        assert "ProviderError" not in html
