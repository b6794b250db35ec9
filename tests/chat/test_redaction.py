"""Purge forgets (issue 15, item 5): after ``documents_purge``, the purged passage's text is
gone from the trace page and the stored answer; ids and hashes stay."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from chat.models import Conversation, Message, Trace
from chat.redaction import REMOVED
from sources.services import document_ingest

pytestmark = pytest.mark.django_db(transaction=True)

BIN = (
    "---\ndoc_id: bin\ntitle: Recycle bin\n---\n# The recycle bin\n\n"
    "Deleted files remain in the recycle bin for 30 days before they are purged. "
    "Owners can restore a deleted file from the recycle bin at any time in that period.\n"
)
UPLOAD = (
    "---\ndoc_id: upload\ntitle: Uploads\n---\n# Uploading\n\n"
    "Deleted files can be uploaded again from your computer. "
    "The uploader accepts files up to 200 MB each.\n"
)
PASSAGE = "Deleted files remain in the recycle bin for 30 days"
KEPT = "The uploader accepts files up to 200 MB each"


@pytest.fixture
def answered(tmp_path: Path, django_user_model: Any) -> tuple[Trace, Message, Client]:
    for name, text in (("bin.md", BIN), ("upload.md", UPLOAD)):
        (tmp_path / name).write_text(text)
        document_ingest(path=tmp_path / name)
    owner = django_user_model.objects.create_user("sam", password="pw", is_staff=True)
    conversation = Conversation.objects.create(owner=owner)
    for question in ("How long do deleted files stay in the recycle bin?",
                     "What size of files does the uploader accept?"):
        call_command("ask", question, "--json", "--conversation", str(conversation.pk),
                     stdout=io.StringIO())
    trace = Trace.objects.get(question__contains="recycle bin")
    message = Message.objects.get(role="assistant", trace=trace)
    client = Client()
    client.force_login(owner)
    return trace, message, client


def test_purge_removes_the_passage_from_the_trace_page_and_the_answer(answered) -> None:
    trace, message, client = answered
    assert PASSAGE in client.get(f"/traces/{trace.pk}/").content.decode()
    assert PASSAGE in message.text
    hashes = [b["sha256"] for b in trace.data["blocks"]]

    call_command("documents_purge", "bin", "--yes", stdout=io.StringIO())

    page = client.get(f"/traces/{trace.pk}/").content.decode()
    trace.refresh_from_db()
    message.refresh_from_db()
    stored = json.dumps(trace.data, ensure_ascii=False)
    assert PASSAGE not in page and PASSAGE not in stored
    assert "Owners can restore a deleted file" not in stored
    assert PASSAGE not in message.text and REMOVED in message.text
    assert "bin#c01" in page and REMOVED in page  # the reviewer sees what was there
    assert [b["sha256"] for b in trace.data["blocks"]] == hashes
    assert trace.question == "How long do deleted files stay in the recycle bin?"


def test_purge_leaves_other_documents_text_alone(answered) -> None:
    trace, _message, _client = answered
    other = Trace.objects.exclude(pk=trace.pk).get()
    before = other.data

    call_command("documents_purge", "bin", "--yes", stdout=io.StringIO())

    other.refresh_from_db()
    assert KEPT in json.dumps(other.data)
    assert other.data["emitted"] == before["emitted"]
    assert KEPT in Message.objects.get(role="assistant", trace=other).text


def test_a_paraphrase_citing_a_purged_block_is_removed_with_its_source() -> None:
    from chat.redaction import _quote_patterns, trace_data_redact

    data = {
        "blocks": [{"n": 1, "chunk_id": "bin#c01", "sha256": "aa"},
                   {"n": 2, "chunk_id": "upload#c01", "sha256": "bb"}],
        "prompts": [{"messages": [{"role": "user", "content":
            '<source n="1" title="Bin">Kept for 30 days.</source>\n'
            '<source n="2" title="Up">Up to 200 MB.</source>'}]}],
        "drafts": ["Files stay a month [1]. Uploads go to 200 MB [2]."],
        "calls": [{
            "purpose": "answer",
            "output": "Files stay a month [1]. Uploads go to 200 MB [2].",
            "prompt": {"messages": [{"content": '<source n="1" title="Bin">Kept.</source>'}]},
        }],
        "verdicts": [{"text": "Files stay a month [1].", "citations": [1], "ok": True},
                     {"text": "Uploads go to 200 MB [2].", "citations": [2], "ok": True}],
        "dropped": [{"draft": 1, "text": "Files stay a month [1].", "reasons": ["x"]}],
    }
    out = trace_data_redact(
        data, purged={"bin#c01"}, quotes=_quote_patterns(["Kept for 30 days."])
    )
    assert out["prompts"][0]["messages"][0]["content"] == (
        f'<source n="1" title="Bin">{REMOVED}</source>\n'
        '<source n="2" title="Up">Up to 200 MB.</source>'
    )
    assert out["drafts"] == [f"{REMOVED} Uploads go to 200 MB [2]."]
    assert out["calls"][0]["output"] == f"{REMOVED} Uploads go to 200 MB [2]."
    assert out["calls"][0]["prompt"]["messages"][0]["content"] == (
        f'<source n="1" title="Bin">{REMOVED}</source>'
    )
    assert [v["text"] for v in out["verdicts"]] == [REMOVED, "Uploads go to 200 MB [2]."]
    assert out["dropped"][0]["text"] == REMOVED
    assert out["blocks"] == data["blocks"]
