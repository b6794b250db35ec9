"""The stored form of a trace: what a reviewer reads in ``Trace.data``."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

import pytest

from kbqa.core.errors import ProviderError
from kbqa.core.records import TraceRecorder, plain
from tests.core.test_pipeline import RECYCLE, TRIAL, UPLOAD_A, UPLOAD_B, StaticRetriever, hits, run
from tests.fakes.provider import FakeOutput, FakeProvider


def _asdict_form(trace: TraceRecorder) -> dict[str, Any]:
    """``to_dict`` as it was written with ``dataclasses.asdict`` (the reference)."""
    data = asdict(trace)
    data["usage"] = {model: asdict(u) for model, u in trace.usage.items()}
    data["prompts"] = trace.prompts
    data["drafts"] = trace.drafts
    return data


@pytest.mark.parametrize(
    ("question", "output", "chunks", "recorded"),
    [
        ("How long does the recycle bin keep files?",
         FakeOutput(deltas=("Deleted files stay in the recycle bin ", "for 30 days [1]."),
                    usage={"input_tokens": 120, "output_tokens": 14}),
         (RECYCLE, TRIAL), "calls"),
        ("What is the maximum upload size?", "The maximum size is 200 MB [1].",
         (UPLOAD_A, UPLOAD_B), "conflicts"),  # refused before the model: the sides recorded
        ("How long does the recycle bin keep files?",
         FakeOutput(deltas=("Deleted files ",), error=ProviderError("overloaded")),
         (RECYCLE,), "errors"),  # a failed call: its error recorded
    ],
)
async def test_stored_trace_is_what_asdict_gave(question: str, output: Any,
                                                chunks: tuple[Any, ...], recorded: str) -> None:
    _, trace = await run(question, FakeProvider([output]), StaticRetriever(hits(*chunks)))
    stored = trace.to_dict()
    assert stored == _asdict_form(trace)
    assert json.dumps(stored, sort_keys=True) == json.dumps(_asdict_form(trace), sort_keys=True)
    assert stored[recorded]
    assert all(isinstance(c["usage"], dict) for c in stored["calls"])


def test_plain_rebuilds_containers() -> None:
    trace = TraceRecorder(trace_id="01TEST", question="q", hits=[{"chunk_id": "a", "n": (1, 2)}])
    stored = plain(trace)
    stored["hits"][0]["chunk_id"] = "changed"  # the stored form is not the live trace
    assert trace.hits == [{"chunk_id": "a", "n": (1, 2)}]
    assert stored["hits"][0]["n"] == (1, 2)
