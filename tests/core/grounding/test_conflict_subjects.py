"""A conflict is about the asked subject: values another document states for another subject
than the question's are no disagreement about it (tester's report, issue 12).

Through the pipeline (``kbqa.core.pipeline.answer``) over a small knowledge base: a leave
policy naming annual and sick leave, and an upload that gives annual leave another value.
"""

from __future__ import annotations

import pytest

from kbqa.core.types import Chunk, Turn
from tests.core.test_pipeline import StaticRetriever, hits, names, run
from tests.fakes.provider import FakeProvider

ANNUAL = Chunk(
    chunk_id="leave#c01", doc_id="leave", title="Annual leave and sick leave policy",
    section="Annual leave", updated="2025-01-02", authority="policy",
    text="Full-time employees receive 20 days of paid annual leave per calendar year. "
         "Part-time employees receive a share in proportion to their contracted hours.",
)
SICK = Chunk(
    chunk_id="leave#c02", doc_id="leave", title="Annual leave and sick leave policy",
    section="Sick leave", updated="2025-01-02", authority="policy",
    text="Employees receive 10 days of fully paid sick leave per calendar year. After these, "
         "sick pay follows the local statutory rules.",
)
UPLOAD = Chunk(
    chunk_id="outing#c01", doc_id="outing", title="Team outing budget 2026", updated="2026-01-05",
    authority="policy",
    text="The team outing budget is EUR 60 per person. Full-time employees receive 25 days of "
         "paid annual leave.",
)
SICK_ANSWER = "Employees receive 10 days of fully paid sick leave per calendar year [3]."


@pytest.mark.parametrize("question", ["How many days of sick leave do employees get?",
                                      "How many days of fully paid sick leave per calendar year?"])
async def test_another_subjects_disagreement_does_not_refuse_the_question(question: str) -> None:
    events, _ = await run(question, FakeProvider([SICK_ANSWER]),
                          StaticRetriever(hits(ANNUAL, SICK, UPLOAD)))
    assert names(events) == ["meta", "sentence", "done"]
    assert "10 days" in events[1].to_dict()["text"]


async def test_the_asked_subjects_disagreement_still_refuses() -> None:
    events, _ = await run("How many days of annual leave do full-time employees get?",
                          FakeProvider([]), StaticRetriever(hits(ANNUAL, SICK, UPLOAD)))
    assert names(events) == ["meta", "refusal", "done"]
    values = sorted(s["value_text"] for s in events[1].to_dict()["conflict"]["sides"])
    assert values == ["20 days", "25 days"]


async def test_a_follow_up_to_the_other_subject_is_not_refused_with_its_conflict() -> None:
    history = (Turn("user", "How many days of annual leave do full-time employees get?"),)
    events, trace = await run("and what about sick leave?", FakeProvider([SICK_ANSWER]),
                              StaticRetriever(hits(ANNUAL, SICK, UPLOAD)), history=history)
    assert "sick" in trace.standalone_query
    assert names(events) == ["meta", "sentence", "done"]
