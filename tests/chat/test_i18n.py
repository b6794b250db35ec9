"""Chinese UI: the shipped catalogue, the page, the websocket alerts and the switcher."""

from __future__ import annotations

import gettext
import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from tests.chat.support import chat_socket, conversation_make, user_make

LOCALE = Path(settings.BASE_DIR) / "locale"
CATALOGUE = LOCALE / "zh_Hans" / "LC_MESSAGES"


def po_entries(catalogue: Path = CATALOGUE) -> dict[str, str]:
    """msgid -> msgstr (first plural form) of the shipped .po file; a msgid with a context is
    keyed ``context + "\\x04" + msgid``, as the compiled catalogue stores it."""
    text = (catalogue / "django.po").read_text(encoding="utf-8")
    entries: dict[str, str] = {}
    for block in text.split("\n\n")[1:]:
        body = "\n".join(line for line in block.splitlines() if not line.startswith("#"))
        context = ""
        if body.startswith("msgctxt"):
            head, body = body.split("\nmsgid", 1)
            context = "".join(re.findall(r'"(.*)"', head)) + "\x04"
            body = "msgid" + body
        msgid = context + "".join(
            re.findall(r'"(.*)"', body.split("msgid_plural")[0].split("msgstr")[0])
        )
        first = body.split("msgstr", 1)[1].split("msgstr[1]")[0]
        entries[msgid.replace('\\"', '"')] = "".join(re.findall(r'"(.*)"', first)).replace(
            '\\"', '"'
        )
    return entries


@pytest.mark.parametrize("language", ["zh_Hans", "en"])
def test_every_string_is_translated_and_the_mo_is_compiled(language: str) -> None:
    catalogue = LOCALE / language / "LC_MESSAGES"
    entries = po_entries(catalogue)
    compiled = gettext.GNUTranslations((catalogue / "django.mo").open("rb"))
    assert [m for m, s in entries.items() if not s] == []
    assert {m: compiled.gettext(m) for m in entries} == entries
    assert "#, fuzzy" not in (catalogue / "django.po").read_text(encoding="utf-8")


def test_the_english_catalogue_shows_every_english_string_as_written() -> None:
    """Source strings are English: an English entry that says something else puts the wrong
    words on screen (an answer the model declined was labelled "the sources disagree")."""
    compiled = gettext.GNUTranslations((LOCALE / "en" / "LC_MESSAGES" / "django.mo").open("rb"))
    entries = po_entries(LOCALE / "en" / "LC_MESSAGES")
    written = {m: m.split("\x04")[-1] for m in entries if m}  # a context is no part of it
    assert {m: compiled.gettext(m) for m in written} == written


@pytest.fixture
def chinese_client(db: None) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.create_user(username="li", password="pw-123456"))
    return client


@pytest.mark.parametrize("how", ["accept-language", "cookie"])
def test_chat_page_renders_in_chinese(chinese_client: Client, how: str) -> None:
    if how == "cookie":
        chinese_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"
        response = chinese_client.get("/")
    else:
        response = chinese_client.get("/", headers={"accept-language": "zh-hans"})
    html = response.content.decode()
    assert '<html lang="zh-hans">' in html
    for text in [
        "新对话",
        "发送",
        "按 Enter 发送；按 Shift+Enter 换行。",
        "来源段落",
        "退出登录",
        "连接中…",
        "未连接——正在重新连接…；你的问题已保留。",
    ]:
        assert text in html
    assert "New conversation" not in html


def test_english_is_the_default(chinese_client: Client) -> None:
    html = chinese_client.get("/").content.decode()
    assert '<html lang="en">' in html and "New conversation" in html


def test_language_switcher_sets_the_cookie(db: None) -> None:
    client = Client()
    page = client.get("/accounts/login/").content.decode()
    assert 'action="/i18n/setlang/"' in page and 'name="language"' in page
    response = client.post("/i18n/setlang/", {"language": "zh-hans", "next": "/accounts/login/"})
    cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "zh-hans"
    # as the session cookie: not sent with another site's requests, not readable by scripts;
    # Secure only with KBQA_SECURE_COOKIES (tests/kbqa/test_settings.py), the demo is http
    assert (cookie["samesite"], cookie["httponly"], cookie["secure"]) == ("Lax", True, "")
    assert "登录后向知识库提问" in client.get("/accounts/login/").content.decode()


@pytest.mark.django_db(transaction=True)
async def test_websocket_alerts_follow_the_browser_language() -> None:
    user = await user_make("wang")
    conversation = await conversation_make(user)
    async with chat_socket(conversation.pk, user, language="zh-CN,zh;q=0.9") as comm:
        await comm.send_to(text_data=json.dumps({"question": "   "}))
        alert = await comm.receive_from(timeout=5)
    assert "请先输入问题再发送。" in alert


@pytest.mark.django_db(transaction=True)
async def test_connected_is_said_in_the_browser_language() -> None:
    user = await user_make("zhao")
    conversation = await conversation_make(user)
    async with chat_socket(conversation.pk, user, language="zh-CN", admitted=False) as comm:
        ready = await comm.receive_from(timeout=5)
    assert ">已连接</span>" in ready


@pytest.mark.django_db(transaction=True)
async def test_the_session_ended_alert_offers_to_log_in_in_the_page_language() -> None:
    user = await user_make("sun")
    conversation = await conversation_make(user)
    async with chat_socket(conversation.pk, query="?lang=zh-hans") as comm:  # logged out
        alert = await comm.receive_from(timeout=5)
    assert "你的会话已结束。请重新登录后继续提问。" in alert
    assert f'href="/accounts/login/?next=%2Fc%2F{conversation.pk}%2F">登录</a>' in alert


@pytest.mark.parametrize(
    ("path", "accept", "connected"),
    [
        ("", "zh-CN,zh;q=0.9", "已连接"),
        ("", "zh-TW", "已连接"),
        ("", "en-US,en;q=0.9", "connected"),
        ("?lang=zh-hans", "en-US,en;q=0.9", "已连接"),  # the page's language wins
        ("?lang=xx", "zh-CN", "已连接"),  # unknown: fall through to Accept-Language
    ],
)
@pytest.mark.django_db(transaction=True)
async def test_socket_language_is_picked_like_locale_middleware(
    path: str, accept: str, connected: str
) -> None:
    user = await user_make("qian")
    conversation = await conversation_make(user)
    async with chat_socket(
        conversation.pk, user, language=accept, admitted=False, query=path
    ) as comm:
        ready = await comm.receive_from(timeout=5)
    assert f">{connected}</span>" in ready


def test_status_line_names_the_offline_answerer_in_chinese(chinese_client: Client) -> None:
    html = chinese_client.get("/", headers={"accept-language": "zh-hans"}).content.decode()
    assert '<span class="provider-label">离线抽取式</span>' in html
    assert "offline extractive" not in html


@pytest.mark.parametrize(
    ("language", "names"),
    [
        ("en", ["Chat", "API tokens", "Conversations", "Feedback", "Messages", "Traces"]),
        ("zh-hans", ["对话", "API 令牌", "反馈", "对话", "消息", "追踪记录"]),
    ],
)
def test_admin_names_the_chat_app_and_its_models_in_the_ui_language(
    admin_client: Client, language: str, names: list[str]
) -> None:
    html = admin_client.get("/admin/", headers={"accept-language": language}).content.decode()
    app = html.split('class="app-chat module')[1].split("</table>")[0]
    caption = re.findall(r'class="section"[^>]*>([^<]+)</a>', app)
    models = re.findall(r'<th scope="row" id="chat-[a-z]+">\s*<a href="[^"]+">([^<]+)</a>', app)
    assert caption + models == names
    assert "Api tokens" not in html


@pytest.mark.parametrize(
    ("query", "cookie_or_header", "lang", "send"),
    [
        ("zh-hans", {}, "zh-hans", "发送"),
        ("en", {"accept-language": "zh-CN"}, "en", "Send"),
        ("zh-CN", {}, "zh-hans", "发送"),
    ],
)
def test_lang_in_the_url_switches_the_page_and_its_socket(
    chinese_client: Client, query: str, cookie_or_header: dict[str, str], lang: str, send: str
) -> None:
    response = chinese_client.get("/", {"lang": query}, headers=cookie_or_header)
    html = response.content.decode()
    later = chinese_client.get("/", headers=cookie_or_header).content.decode()

    assert f'<html lang="{lang}">' in html
    assert f">{send}</button>" in html
    assert f"?lang={lang}" in html  # the websocket URL carries the page's language
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == lang
    assert f'<html lang="{lang}">' in later  # remembered, as the switcher remembers it
