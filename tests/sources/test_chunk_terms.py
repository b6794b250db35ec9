"""A large document's chunk terms found in worker processes are the terms one process finds,
in the same order; the ingest tells its stages in order."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from sources.chunk_terms import chunks_terms, joined_terms
from sources.chunking import chunk_text, chunks_of
from sources.services import document_ingest

PAIRS = [
    ("Hotels", "Up to 200 USD per night in Paris."),
    ("", "员工每年享有带薪年假十五天，没用完的可以顺延。"),
    ("IT 部门", "The VPN is run by IT; HR owns the leave policies."),
] * 40


def test_workers_find_the_same_terms_in_the_same_order() -> None:
    expected = [joined_terms(s, t) for s, t in PAIRS]
    assert chunks_terms(iter(PAIRS), processes=2) == expected
    assert chunks_terms(iter(PAIRS), processes=1) == expected


def test_chunks_one_at_a_time_are_the_chunks_and_counts_are_exact() -> None:
    from kbqa.core.text.tokens import count_tokens

    text = "# Leave\n\n" + "Staff get 15 days of paid leave a year. " * 80 + "\n\n- one\n- two\n"
    drafts = chunk_text(text, max_tokens=60)
    assert list(chunks_of(text, max_tokens=60)) == drafts
    assert [d.tokens for d in drafts] == [count_tokens(d.text) for d in drafts]
    assert all(d.tokens <= 60 for d in drafts)


@pytest.mark.django_db
def test_the_ingest_tells_its_stages_in_order() -> None:
    seen: list[str] = []
    document_ingest(
        file=SimpleUploadedFile("travel.md", b"# Hotels\n\nUp to 200 USD per night.\n"),
        on_progress=lambda stage, fraction: seen.append(stage),
    )
    assert list(dict.fromkeys(seen)) == ["reading", "chunking", "storing", "indexing"]
