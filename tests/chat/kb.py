"""A two-document knowledge base stored through real ingestion, for chat tests.

Chat tests run the real turn service and pipeline: retrieval reads these stored chunks, the
registered fake provider (``fake_provider`` in tests/conftest.py) says what the model says.
"""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from sources.ingest_types import IngestOverrides
from sources.services import document_ingest

LEAVE_TEXT = "Full-time employees get 20 days of annual leave each calendar year."
TRAVEL_TEXT = "Travel must be booked through the travel desk at least 14 days ahead."
LEAVE_ID, TRAVEL_ID = "doc-001#c01", "doc-002#c01"
ANSWER = "Employees get 20 days of annual leave [1]."
SHOWN = "Employees get 20 days of annual leave."
SECRET_DROPPED = "Employees get 99 days of sabbatical on the moon [2]."
QUESTION = "How many days of annual leave do employees get?"
OFF_TOPIC = "What is the weather like on Jupiter today?"


LEAVE_DOCS = (
    ("doc-001", "Leave policy", "policy", "2025-06-30", LEAVE_TEXT),
    ("doc-002", "Travel FAQ", "faq", "", TRAVEL_TEXT),
)
# Two documents that disagree; authority (policy over archived) settles it with a notice.
LAPTOP_DOCS = (
    ("doc-070", "Equipment policy", "policy", "2025-02-01",
     "Company laptops are replaced every 4 years."),
    ("doc-071", "Equipment policy (2022)", "archived", "2022-02-01",
     "Company laptops are replaced every 3 years."),
)
# Two policies that disagree with nothing to choose between them: a conflict refusal.
REFUND_DOCS = (
    ("doc-010", "Refund policy", "policy", "2025-06-30",
     "Refunds are paid within 14 days of the request."),
    ("doc-011", "Finance policy", "policy", "2024-01-10",
     "Refunds are paid within 30 days of the request."),
)
REFUND_QUESTION = "How many days until refunds are paid?"
LAPTOP_QUESTION = "How often are company laptops replaced?"
LAPTOP_ANSWER = "Company laptops are replaced every 4 years [1]."


Doc = tuple[str, str, str, str, str]


def kb_store(directory: Path, docs: tuple[Doc, ...] = LEAVE_DOCS) -> None:
    """Ingest ``docs`` as ``(doc_id, title, authority, updated, text)`` Markdown files."""
    for doc_id, title, authority, updated, text in docs:
        path = directory / f"{doc_id}.md"
        path.write_text(f"# {title}\n\n{text}\n", encoding="utf-8")
        document_ingest(
            path=path,
            overrides=IngestOverrides(
                doc_id=doc_id, title=title, authority=authority, updated=updated
            ),
        )


@pytest.fixture
def leave_kb(tmp_path: Path, db: Any) -> None:
    """The leave policy (doc-001) and the travel FAQ (doc-002), stored in the test database."""
    kb_store(tmp_path)


@pytest.fixture
def refund_kb(tmp_path: Path, db: Any) -> None:
    """The two refund policies (and the leave documents), stored."""
    kb_store(tmp_path, LEAVE_DOCS + REFUND_DOCS)


@pytest.fixture
def laptop_kb(tmp_path: Path, db: Any) -> None:
    """The two laptop documents (and the leave ones, so BM25 has a corpus), stored."""
    kb_store(tmp_path, LEAVE_DOCS + LAPTOP_DOCS)


def claims_json(*claims: tuple[str, list[int]]) -> str:
    """A JSON-mode draft (``{"claims": [{"text", "citations"}]}``) for the fake provider."""
    return json.dumps({"claims": [{"text": t, "citations": c} for t, c in claims]})


def evaluate_cases(tmp_path: Path, cases: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per case id, its result row: ``cases`` through ``manage.py evaluate --json`` with the
    offline extractive provider (relevance gate at 0.05: the small knowledge bases of these
    tests score low)."""
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join(json.dumps(c, ensure_ascii=False) for c in cases) + "\n",
                    encoding="utf-8")
    out = StringIO()
    call_command("evaluate", str(path), "--provider", "extractive", "--json", "--no-progress",
                 "--min-relevance", "0.05", stdout=out, stderr=StringIO())
    rows = [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]
    return {r["id"]: r for r in rows if "id" in r}
