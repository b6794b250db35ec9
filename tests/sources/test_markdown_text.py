"""Markdown files are stored as their readers see them: chunk text (what answers quote and
citations are checked against) holds no link syntax, inline HTML, emphasis markers or code
backticks (a tester was shown "<br> See the [booking portal](https://…) for details.")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from chat.auth import api_token_create
from sources.ingest_types import IngestOverrides
from sources.models import Chunk
from sources.parsers import parse_file
from sources.services import document_ingest

TRAVEL = (
    "# Travel **policy**\n\n"
    "Flights must be booked at least 14 days in advance.<br> See the [booking portal]"
    "(https://travel.example/portal) for details.\n"
)


@pytest.mark.parametrize(("markdown", "shown"), [
    (TRAVEL, "# Travel policy\n\nFlights must be booked at least 14 days in advance.\n"
             "See the booking portal for details.\n"),
    ("Meals are **EUR 60** a day, _not_ more; set `limit` in ~~old~~ the tool.\n",
     "Meals are EUR 60 a day, not more; set limit in old the tool.\n"),
    ("![Floor plan of level 2](plan.png) shows the exits.\n",
     "Floor plan of level 2 shows the exits.\n"),
    ("- Ask <kbd>IT</kbd> first<br/>then your manager\n- See [the FAQ][faq]\n\n"
     "[faq]: https://example.com/faq\n",
     "- Ask IT first\n  then your manager\n- See the FAQ\n\n\n"),
    ("| City | Hotel |\n|---|---|\n| **Paris** | EUR 240<br>per night |\n",
     "| City | Hotel |\n|---|---|\n| Paris | EUR 240 per night |\n"),
    ("<div>Closed on <b>public holidays</b>.</div>\n\nOpen daily.\n",
     "Closed on public holidays.\n\nOpen daily.\n"),
])
def test_markdown_chunk_text_is_what_the_rendered_document_shows(
    markdown: str, shown: str
) -> None:
    assert parse_file(name="doc.md", data=markdown.encode()).text.strip("\n") == shown.strip("\n")


def test_a_title_loses_its_markup_and_text_without_markup_or_in_a_txt_file_is_kept() -> None:
    assert parse_file(name="travel.md", data=TRAVEL.encode()).title_guess == "Travel policy"
    # no markup: the text as written, fences and their content untouched
    unmarked = "# Leave\n\n5 * 3 = 15 and a_b_c.\n\n```\n**raw** [x](y)\n```\n"
    assert parse_file(name="leave.md", data=unmarked.encode()).text == unmarked
    text = "Notes\n\nKeep **this** as [typed](x).\n"
    assert parse_file(name="notes.txt", data=text.encode()).text.strip().endswith("as [typed](x).")


@pytest.mark.django_db
def test_an_answer_quoting_a_markdown_document_shows_no_markup(
    tmp_path: Path, settings: Any
) -> None:
    settings.KBQA_PROVIDER = "extractive"
    path = tmp_path / "travel.md"
    path.write_text(TRAVEL, encoding="utf-8")
    document_ingest(path=path, overrides=IngestOverrides(doc_id="travel", authority="policy"))
    assert "[booking portal]" not in Chunk.objects.get().text
    user = User.objects.create_user("nora", password="pw-123456789")
    token = api_token_create(user=user, name="cli")[1]
    body = Client().post(
        "/api/answer", data=json.dumps({"question": "How far in advance must I book flights?"}),
        content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}").json()
    assert body["status"] == "answered"
    assert "14 days in advance" in body["answer"]
    assert not any(mark in body["answer"] for mark in ("<br>", "](", "https://", "**"))
