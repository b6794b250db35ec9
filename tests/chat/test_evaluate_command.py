"""``manage.py evaluate`` and the runner in ``chat.evaluation``.

The pipeline is replaced by ``scripted_answer``: a small stand-in that retrieves through the
retriever it is handed (so knowledge-base isolation is really exercised), applies the
low-score gate, and emits the top chunk's first sentence citing [1]. Everything else
(case loading, per-case knowledge bases, citation re-verification, metrics, output) is real.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

import kbqa.core.pipeline as pipeline
from chat.evaluation import run_case
from chat.management.commands import evaluate
from chat.models import Trace
from kbqa.core.evaluation.cases import parse_case
from kbqa.core.evaluation.metrics import JSON_SUMMARY_KEYS
from kbqa.core.pipeline import AnswerRequest, PipelineConfig
from kbqa.core.types import (
    DocumentRef,
    Done,
    Event,
    Meta,
    Refusal,
    Retriever,
    Sentence,
    TraceRecorder,
)
from sources.selectors import current_chunks
from sources.services import IngestOverrides, document_ingest
from tests.fakes.provider import FakeProvider

pytestmark = pytest.mark.django_db(transaction=True)
CONFIG = PipelineConfig(min_relevance=0.05)

STORED = "# Upload limits\n\nThe upload size limit for attachments is 25 MB per file.\n"
CASE_DOC = {"doc_id": "case-doc", "title": "Recycle bin",
            "text": "Deleted files stay in the recycle bin for 30 days. Then they are purged."}


async def scripted_answer(
    request: AnswerRequest, *, retriever: Retriever, provider: object,
    config: PipelineConfig, trace: TraceRecorder, cite: int = 1,
) -> AsyncIterator[Event]:
    if "boom" in request.question:
        raise RuntimeError("scripted failure")
    hits = await retriever.search(request.question, 3)
    blocks = tuple({"n": i, "chunk_id": h.chunk.chunk_id, "title": h.chunk.title}
                   for i, h in enumerate(hits, start=1))
    yield Meta(trace_id=trace.trace_id, question=request.question,
               standalone_query=request.question, language="en", blocks=blocks,
               context_tokens=0, provider="fake", model="fake")
    trace.status = "answered"
    if not hits or hits[0].relevance < config.min_relevance:
        docs = tuple(DocumentRef(doc_id=h.chunk.doc_id, title=h.chunk.title) for h in hits)
        yield Refusal(reason="low_score", message="Not in the knowledge base.", documents=docs)
        yield Done(status="refused_low_score", emitted=0, dropped=0)
        return
    text = hits[0].chunk.text.split("\n")[-1].split(". ")[0].rstrip(".") + "."
    yield Sentence(index=0, text=text, citations=(cite,))
    yield Done(status="answered", emitted=1, dropped=0)


@pytest.fixture
def scripted(monkeypatch):
    monkeypatch.setattr(pipeline, "answer", scripted_answer)
    monkeypatch.setattr(evaluate, "provider_from_settings", lambda name=None: FakeProvider())


@pytest.fixture
def stored_kb(tmp_path):
    path = tmp_path / "stored-limits.md"
    path.write_text(STORED, encoding="utf-8")
    document_ingest(path=path, overrides=IngestOverrides(doc_id="stored-limits"))
    return [c.chunk_id for c in current_chunks()]


def write_cases(tmp_path: Path, rows: list[object], name: str = "cases.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r, ensure_ascii=False)
                              for r in rows) + "\n", encoding="utf-8")
    return path


def run(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    # One-document knowledge bases give low relevance (every term is in every chunk, so IDF
    # is small); the threshold here only has to separate "some hit" from "no hit".
    call_command("evaluate", *args, "--no-progress", "--min-relevance", "0.05",
                 stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def json_lines(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def test_case_documents_form_their_own_kb_and_stored_kb_is_untouched(scripted, stored_kb,
                                                                     tmp_path):
    path = write_cases(tmp_path, [
        {"id": "own", "question": "How long do files stay in the recycle bin?",
         "documents": [CASE_DOC], "expect": "answer", "answer_contains": [["30 days"]]},
        {"id": "own-miss", "question": "What is the upload size limit for attachments?",
         "documents": [CASE_DOC], "expect": "refuse"},
        {"id": "stored", "question": "What is the upload size limit for attachments?",
         "expect": "answer", "answer_contains": ["25 MB"]},
    ])
    out, _ = run(str(path), "--json")
    own, own_miss, stored, summary = json_lines(out)
    assert [b["chunk_id"] for b in own["blocks"]] == ["case-doc#c01"]
    assert own["text"] == "Deleted files stay in the recycle bin for 30 days."
    # The stored KB knows the upload limit, but a case with documents never sees it.
    assert (own_miss["status"], own_miss["blocks"]) == ("refused_low_score", [])
    assert [b["chunk_id"] for b in stored["blocks"]] == stored_kb
    assert stored["text"] == "The upload size limit for attachments is 25 MB per file."
    assert [c.chunk_id for c in current_chunks()] == stored_kb
    assert summary == {
        "cases": 3, "answer_accuracy": 1.0, "wrongful_refusal_rate": 0.0,
        "refusal_recall": 1.0, "unsupported_answer_rate": 0.0, "conflict_recall": None,
        "citation_validity": 1.0, "latency_ms_p50": summary["latency_ms_p50"],
        "latency_ms_p95": summary["latency_ms_p95"],
    }
    assert tuple(summary) == JSON_SUMMARY_KEYS


def test_bad_lines_are_reported_and_a_failing_case_does_not_stop_the_run(scripted, tmp_path):
    path = write_cases(tmp_path, [
        "{broken",
        {"id": "x", "question": "boom?", "documents": [CASE_DOC], "expect": "answer"},
        {"id": "y", "question": "No expect here"},
        {"id": "z", "question": "How long in the recycle bin?", "documents": [CASE_DOC],
         "expect": "answer", "answer_contains": "30 days"},
    ])
    out, err = run(str(path), str(tmp_path / "missing.jsonl"), "--json")
    assert f"skipped {path}:1: invalid JSON" in err
    assert f"skipped {path}:3: 'expect' must be one of" in err
    assert f"skipped {tmp_path / 'missing.jsonl'}: cannot read file" in err
    x, z, summary = json_lines(out)
    assert (x["id"], x["status"], x["error"]) == ("x", "error", "RuntimeError: scripted failure")
    assert (z["id"], z["status"], z["matched"]) == ("z", "answered", True)
    assert (summary["cases"], summary["answer_accuracy"]) == (2, 0.5)


def test_plain_output_is_a_table_by_language(scripted, tmp_path):
    path = write_cases(tmp_path, [
        {"id": "en", "question": "How long in the recycle bin?", "documents": [CASE_DOC],
         "expect": "answer", "answer_contains": "30 days"},
        {"id": "zh", "question": "回收站保留多久？", "documents": [CASE_DOC], "expect": "refuse",
         "refusal_reason": "low_score"},
    ])
    out, _ = run(str(path))
    lines = out.splitlines()
    assert lines[1].split() == ["metric", "all", "en", "zh"]
    row = next(line for line in lines if line.startswith("answer accuracy"))
    assert row.split()[2:] == ["100.0%", "(1/1)", "100.0%", "(1/1)", "n/a"]
    row = next(line for line in lines if line.startswith("refusal recall"))
    assert row.split()[2:] == ["100.0%", "(1/1)", "n/a", "100.0%", "(1/1)"]


def test_out_dir_holds_jsonl_and_markdown(scripted, tmp_path):
    path = write_cases(tmp_path, [
        {"id": "q-1", "question": "How long in the recycle bin?", "documents": [CASE_DOC],
         "expect": "answer", "answer_contains": "30 days"},
    ])
    run(str(path), "--out", str(tmp_path / "report"))
    rows = json_lines((tmp_path / "report" / "results.jsonl").read_text(encoding="utf-8"))
    assert [(r["id"], r["status"], r["dropped"]) for r in rows] == [("q-1", "answered", 0)]
    md = (tmp_path / "report" / "results.md").read_text(encoding="utf-8")
    assert "## q-1 (en, expect answer): ok" in md
    assert "> Deleted files stay in the recycle bin for 30 days. [1]" in md


def test_traces_are_stored_only_when_asked(scripted, tmp_path):
    path = write_cases(tmp_path, [
        {"id": "q", "question": "How long in the recycle bin?", "documents": [CASE_DOC],
         "expect": "answer"},
    ])
    run(str(path))
    assert Trace.objects.count() == 0
    run(str(path), "--store-traces")
    assert Trace.objects.count() == 1


def test_rgb_format_runs_synthetic_records(scripted, tmp_path):
    record = {"id": 1, "query": "How long do deleted files stay in the recycle bin?",
              "answer": [["30 days", "thirty days"]],
              "positive": ["Deleted files stay in the recycle bin for 30 days."],
              "negative": ["Printer toner is ordered by the office manager."]}
    path = write_cases(tmp_path, [record], name="en_refine.json")
    out, _ = run(str(path), "--format", "rgb", "--json")
    answer, refuse, summary = json_lines(out)
    assert (answer["id"], answer["matched"]) == ("en_refine-1-answer", True)
    assert (refuse["id"], refuse["status"]) == ("en_refine-1-refuse", "refused_low_score")
    assert (summary["answer_accuracy"], summary["refusal_recall"]) == (1.0, 1.0)


def test_limit_and_no_cases(scripted, tmp_path):
    path = write_cases(tmp_path, [
        {"id": f"q{i}", "question": "How long in the recycle bin?", "documents": [CASE_DOC],
         "expect": "answer"} for i in range(3)
    ])
    out, _ = run(str(path), "--json", "--limit", "2")
    assert [r.get("id") for r in json_lines(out)[:-1]] == ["q0", "q1"]
    with pytest.raises(CommandError, match="No valid cases"):
        run(str(path), "--expect", "conflict")


@pytest.mark.parametrize(
    ("cite", "checked", "valid", "issue"),
    [
        (1, 1, 1, None),
        (7, 1, 0, "sentence 0: [7] is not an issued block"),
    ],
)
async def test_citation_validity_is_checked_independently(cite, checked, valid, issue):
    case = parse_case({"id": "c", "question": "How long in the recycle bin?",
                       "documents": [CASE_DOC], "expect": "answer"})

    def answer_fn(request, **kw):
        return scripted_answer(request, cite=cite, **kw)

    result = await run_case(case, provider=FakeProvider(), config=CONFIG,
                            answer_fn=answer_fn)
    assert (result.citations_checked, result.citations_valid) == (checked, valid)
    assert list(result.citation_issues) == ([issue] if issue else [])


async def test_unsupported_sentence_fails_re_verification():
    case = parse_case({"id": "c", "question": "How long in the recycle bin?",
                       "documents": [CASE_DOC], "expect": "answer"})

    async def lying(request, *, retriever, provider, config, trace):
        hits = await retriever.search(request.question, 3)
        yield Meta(trace_id=trace.trace_id, question=request.question,
                   standalone_query=request.question, language="en",
                   blocks=({"n": 1, "chunk_id": hits[0].chunk.chunk_id},), context_tokens=0,
                   provider="fake", model="fake")
        yield Sentence(index=0, text="Invoices are approved by finance within 90 days.",
                       citations=(1,))
        yield Done(status="answered", emitted=1, dropped=0)

    result = await run_case(case, provider=FakeProvider(), config=CONFIG,
                            answer_fn=lying)
    assert (result.citations_checked, result.citations_valid) == (1, 0)
    assert result.citation_issues[0].startswith("sentence 0: [1] fails re-verification")


def test_real_pipeline_with_the_offline_provider(tmp_path):
    path = write_cases(tmp_path, [
        {"id": "real", "question": "How long do deleted files stay in the recycle bin?",
         "documents": [CASE_DOC, {"doc_id": "toner", "text": "Printer toner is ordered by "
                                  "the office manager every month."}],
         "expect": "answer", "answer_contains": [["30 days"]]},
    ])
    out = StringIO()
    call_command("evaluate", str(path), "--provider", "extractive", "--no-progress",
                 "--min-relevance", "0.05", "--json", stdout=out, stderr=StringIO())
    case, summary = json_lines(out.getvalue())
    assert (case["status"], case["matched"]) == ("answered", True)
    assert case["citations_checked"] == case["citations_valid"] > 0
    assert summary["citation_validity"] == 1.0


def test_an_empty_stored_knowledge_base_is_called_out(tmp_path) -> None:
    from io import StringIO

    from django.core.management import call_command

    path = tmp_path / "cases.jsonl"
    path.write_text('{"id": "q1", "question": "How long is the trial?", "expect": "answer"}\n')
    err = StringIO()
    call_command("evaluate", str(path), "--no-progress", stdout=StringIO(), stderr=err)
    assert "the stored knowledge base is empty" in err.getvalue()
