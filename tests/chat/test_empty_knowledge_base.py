"""A knowledge base with no document the asker may read: the refusal says so and whom to ask,
instead of "no passage matched the words… try the documents' own terms" (a tester's empty
knowledge base sent them rewording in circles)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from chat.auth import api_token_create
from sources.ingest_types import IngestOverrides
from sources.services import document_ingest
from tests.fakes.provider import FakeProvider

pytestmark = pytest.mark.django_db

EMPTY_EN = "The knowledge base holds no documents you can read yet"
EMPTY_ZH = "知识库里还没有你可以查阅的文档"


def ask(user: User, question: str) -> dict[str, Any]:
    token = api_token_create(user=user, name="cli")[1]
    response = Client().post("/api/answer", data=json.dumps({"question": question}),
                             content_type="application/json",
                             HTTP_AUTHORIZATION=f"Bearer {token}")
    body: dict[str, Any] = response.json()
    return body


@pytest.mark.parametrize(("question", "opening"), [
    ("How many days of annual leave do employees get?", EMPTY_EN),
    ("员工每年有多少天年假？", EMPTY_ZH),
])
def test_an_empty_knowledge_base_says_so_and_to_ask_an_administrator(
    fake_provider: FakeProvider, question: str, opening: str
) -> None:
    user = User.objects.create_user("nora", password="pw-123456789")
    body = ask(user, question)
    refusal = body["refusal"]
    assert refusal["reason"] == "no_documents"
    assert refusal["message"].startswith(opening)
    assert ("administrator" in refusal["message"]) or ("管理员" in refusal["message"])
    assert "own terms" not in refusal["message"]
    assert fake_provider.prompts == []


@pytest.fixture
def hr_only_kb(tmp_path: Path) -> None:
    Group.objects.create(name="hr")
    path = tmp_path / "salary.md"
    path.write_text("# Salary bands\n\nSalary band E3 pays 90,000 EUR a year.\n",
                    encoding="utf-8")
    document_ingest(path=path, overrides=IngestOverrides(doc_id="salary", visibility="hr"))


def test_documents_the_asker_may_not_read_count_as_none(
    fake_provider: FakeProvider, hr_only_kb: None
) -> None:
    nora = User.objects.create_user("nora", password="pw-123456789")
    hank = User.objects.create_user("hank", password="pw-123456789")
    hank.groups.set(Group.objects.filter(name="hr"))
    off_topic = "What is the weather like on Jupiter today?"
    assert ask(nora, off_topic)["refusal"]["message"].startswith(EMPTY_EN)
    # one who may read a document is told that no passage matched, as before
    assert ask(hank, off_topic)["refusal"]["reason"] == "low_score"


def test_the_chat_page_says_the_knowledge_base_is_empty_before_anyone_asks(
    hr_only_kb: None,
) -> None:
    client = Client()
    client.force_login(User.objects.create_user("nora", password="pw-123456789"))
    page = client.get("/", follow=True).content.decode()
    assert "holds no documents you can read yet" in page
    assert "Ask an administrator to upload documents" in page
    hank = User.objects.create_user("hank", password="pw-123456789")
    hank.groups.set(Group.objects.filter(name="hr"))
    client.force_login(hank)
    page = client.get("/", follow=True).content.decode()
    assert "holds no documents you can read yet" not in page
