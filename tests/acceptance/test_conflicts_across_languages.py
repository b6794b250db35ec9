"""A value changed in one language's version of a policy, on the demo knowledge base.

An admin uploads a new English leave policy (25 days of annual leave) while the Chinese
version still says 20 天. Asked in either language, the conflict card shows both values
with their documents and dates; before, only the English question did, and the Chinese one
quoted the stale 20 天 with no notice (a tester's report).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import override_settings

from sources.services import document_ingest
from tests.acceptance.test_demo import ask, refusal_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("updated_kb")]

DOCS = Path(__file__).resolve().parents[2] / "sources" / "demo" / "docs"


@pytest.fixture(scope="module")
def updated_kb(
    demo_kb: Path, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[None]:
    """The demo KB with the English leave policy updated: 25 days, a later date."""
    text = (DOCS / "doc-063-leave-policy.md").read_text(encoding="utf-8")
    new = text.replace("receive 20 days of paid annual leave", "receive 25 days of paid "
                       "annual leave").replace("updated: 2025-01-02", "updated: 2025-06-01")
    assert new.count("25 days") == 1 and "2025-06-01" in new
    path = tmp_path_factory.mktemp("update") / "doc-063-leave-policy.md"
    path.write_text(new, encoding="utf-8")
    with django_db_blocker.unblock(), override_settings(KBQA_INDEX_DIR=demo_kb):
        document_ingest(path=path)
    yield


@pytest.mark.parametrize(
    ("question", "values"),
    [
        ("How many days of annual leave do full-time employees get?", ("25 days", "20 天")),
        ("全职员工每年有多少天年假？", ("20 天", "25 days")),
        ("年假有多少天？", ("20 天", "25 days")),
        # no unit asked: "how much" annual leave is still the days (a tester's report)
        ("How much annual leave do full-time employees get?", ("25 days", "20 天")),
    ],
)
def test_a_value_changed_in_one_language_is_a_conflict_in_both(
    question: str, values: tuple[str, str]
) -> None:
    events, _ = ask(question)
    refusal = refusal_of(events)
    assert refusal.reason == "conflict" and refusal.conflict is not None
    assert tuple(side.value_text for side in refusal.conflict.sides) == values
