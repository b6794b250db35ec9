"""``manage.py evaluate`` and the runner in ``chat.evaluation``.

Cases run through the real turn service and pipeline; the registered fake provider
(``KBQA_PROVIDER=fake``) answers each case in turn from its queue, so knowledge-base isolation,
the low-score gate, verification, citation re-verification, metrics and output are all real.
"""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from chat.evaluation import case_knowledge_base, check_citations
from chat.models import Trace
from chat.outcomes import AnswerOutcome
from kbqa.core.errors import ProviderError
from kbqa.core.evaluation.cases import parse_case
from kbqa.core.evaluation.metrics import JSON_SUMMARY_KEYS
from kbqa.core.types import Meta, Sentence
from sources.ingest_types import IngestOverrides
from sources.selectors import current_chunks
from sources.services import document_ingest
from tests.fakes.provider import FakeProvider

pytestmark = pytest.mark.django_db(transaction=True)

STORED = "# Upload limits\n\nThe upload size limit for attachments is 25 MB per file.\n"
CASE_DOC = {"doc_id": "case-doc", "title": "Recycle bin",
            "text": "Deleted files stay in the recycle bin for 30 days. Then they are purged."}
RECYCLE = "Deleted files stay in the recycle bin for 30 days [1]."
UPLOAD = "The upload size limit for attachments is 25 MB per file [1]."


@pytest.fixture
def fake(fake_provider: FakeProvider) -> FakeProvider:
    """The registered fake provider; queue one output per case that reaches the model."""
    return fake_provider


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


def test_case_documents_form_their_own_kb_and_stored_kb_is_untouched(fake, stored_kb, tmp_path):
    path = write_cases(tmp_path, [
        {"id": "own", "question": "How long do files stay in the recycle bin?",
         "documents": [CASE_DOC], "expect": "answer", "answer_contains": [["30 days"]]},
        {"id": "own-miss", "question": "What is the upload size limit for attachments?",
         "documents": [CASE_DOC], "expect": "refuse"},
        {"id": "stored", "question": "What is the upload size limit for attachments?",
         "expect": "answer", "answer_contains": ["25 MB"]},
    ])
    fake.add(RECYCLE, UPLOAD)
    out, _ = run(str(path), "--json")
    own, own_miss, stored, summary = json_lines(out)
    assert [b["chunk_id"] for b in own["blocks"]] == ["case-doc#c01"]
    assert own["text"] == "Deleted files stay in the recycle bin for 30 days."
    # The stored KB knows the upload limit, but a case with documents never sees it.
    assert (own_miss["status"], own_miss["blocks"]) == ("refused_low_score", [])
    # each line says whether the case went as expected: a right refusal is correct too
    # (only results.md said so; "matched" is false for every refusal)
    assert [(r["correct"], r["verdict"]) for r in (own, own_miss, stored)] == [
        (True, "ok"), (True, "ok"), (True, "ok")]
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


def test_bad_lines_are_reported_and_a_failing_case_does_not_stop_the_run(fake, tmp_path):
    path = write_cases(tmp_path, [
        "{broken",
        {"id": "x", "question": "How long in the recycle bin?", "documents": [CASE_DOC],
         "expect": "answer", "answer_contains": "30 days"},
        {"id": "y", "question": "No expect here"},
        {"id": "z", "question": "How long in the recycle bin?", "documents": [CASE_DOC],
         "expect": "answer", "answer_contains": "30 days"},
    ])
    fake.add(ProviderError("the model is overloaded"), RECYCLE)
    out, err = run(str(path), str(tmp_path / "missing.jsonl"), "--json")
    assert f"skipped {path}:1: invalid JSON" in err
    assert f"skipped {path}:3: 'expect' must be one of" in err
    assert f"skipped {tmp_path / 'missing.jsonl'}: cannot read file" in err
    x, z, summary = json_lines(out)
    assert (x["id"], x["status"], x["error"]) == ("x", "error", "the model is overloaded")
    assert (z["id"], z["status"], z["matched"]) == ("z", "answered", True)
    assert (summary["cases"], summary["answer_accuracy"]) == (2, 0.5)


def test_plain_output_is_a_table_by_language(fake, tmp_path):
    fake.add(RECYCLE)
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


def test_out_dir_holds_jsonl_and_markdown(fake, tmp_path):
    fake.add(RECYCLE)
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


def test_traces_are_stored_only_when_asked(fake, tmp_path):
    fake.add(RECYCLE, RECYCLE)
    path = write_cases(tmp_path, [
        {"id": "q", "question": "How long in the recycle bin?", "documents": [CASE_DOC],
         "expect": "answer", "answer_contains": "30 days"},
    ])
    run(str(path))
    assert Trace.objects.count() == 0
    run(str(path), "--store-traces")
    assert Trace.objects.count() == 1


def test_rgb_format_runs_synthetic_records(fake, tmp_path):
    fake.add(RECYCLE)
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


def test_limit_and_no_cases(fake, tmp_path):
    fake.add(RECYCLE, RECYCLE)
    path = write_cases(tmp_path, [
        {"id": f"q{i}", "question": "How long in the recycle bin?", "documents": [CASE_DOC],
         "expect": "answer", "answer_contains": "30 days"} for i in range(3)
    ])
    out, _ = run(str(path), "--json", "--limit", "2")
    assert [r.get("id") for r in json_lines(out)[:-1]] == ["q0", "q1"]
    with pytest.raises(CommandError, match="No valid cases"):
        run(str(path), "--expect", "conflict")


def observed(meta: Meta, sentence: Sentence) -> AnswerOutcome:
    outcome = AnswerOutcome()
    outcome.add(meta)
    outcome.add(sentence)
    return outcome


def case_meta(chunk_id: str) -> Meta:
    return Meta(trace_id="t", question="q", standalone_query="q", language="en",
                blocks=({"n": 1, "chunk_id": chunk_id},), context_tokens=0, provider="fake",
                model="fake")


@pytest.mark.parametrize(
    ("text", "cite", "valid", "issue"),
    [
        ("Deleted files stay in the recycle bin for 30 days.", 1, 1, None),
        ("Deleted files stay in the recycle bin for 30 days.", 7, 0,
         "sentence 0: [7] is not an issued block"),
        ("Invoices are approved by finance within 90 days.", 1, 0,
         "sentence 0: [1] fails re-verification"),
    ],
)
async def test_citation_validity_is_checked_independently(text, cite, valid, issue):
    """Whatever the pipeline emitted is re-verified against the ORIGINAL case text."""
    case = parse_case({"id": "c", "question": "How long in the recycle bin?",
                       "documents": [CASE_DOC], "expect": "answer", "answer_contains": "30"})
    outcome = observed(case_meta("case-doc#c01"), Sentence(index=0, text=text, citations=(cite,)))
    checked, ok, issues = await check_citations(outcome, case_knowledge_base(case),
                                                min_overlap=0.3)
    assert (checked, ok) == (1, valid)
    assert [i[:len(issue)] for i in issues] == ([issue] if issue else [])


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
    path.write_text('{"id": "q1", "question": "How long is the trial?", "expect": "answer", '
                    '"answer_contains": "days"}\n')
    err = StringIO()
    call_command("evaluate", str(path), "--no-progress", stdout=StringIO(), stderr=err)
    assert "the stored knowledge base is empty" in err.getvalue()


def test_bad_options_and_skipped_lines_stop_before_the_run(tmp_path):
    path = write_cases(tmp_path, [
        {"id": "a", "question": "How long?", "expect": "answer", "answer_contains": "30"},
        "{not json",
    ])
    taken = tmp_path / "taken"
    taken.write_text("x", encoding="utf-8")
    # a file where the results go: the run ended in a traceback after every case
    with pytest.raises(CommandError, match="--out"):
        run(str(path), "--out", str(taken))
    # a gate must not pass on half a file
    with pytest.raises(CommandError, match="1 line"):
        run(str(path), "--strict")
    with pytest.raises(CommandError, match="--limit"):
        run(str(path), "--limit", "-5")  # ran all but the last five
    with pytest.raises(CommandError, match="--min-relevance"):
        call_command("evaluate", str(path), "--min-relevance", "2")


def test_an_answer_case_without_answer_contains_is_not_scored_as_right(fake, tmp_path):
    """A trial's case file left out answer_contains: the case ran and scored any answer as
    right. It is skipped by file, line and id like an empty list, and --strict stops."""
    path = write_cases(tmp_path, [
        {"id": "checked", "question": "How long in the recycle bin?", "documents": [CASE_DOC],
         "expect": "answer", "answer_contains": "30 days"},
        {"id": "unchecked", "question": "How long in the recycle bin?",
         "documents": [CASE_DOC], "expect": "answer"},
    ])
    fake.add(RECYCLE)
    out, err = run(str(path), "--json")
    assert [r["id"] for r in json_lines(out)[:-1]] == ["checked"]
    assert f"skipped {path}:2: case 'unchecked': an answer case needs 'answer_contains'" in err
    with pytest.raises(CommandError, match=r"1 line\(s\) skipped \(--strict\)"):
        run(str(path), "--strict")
