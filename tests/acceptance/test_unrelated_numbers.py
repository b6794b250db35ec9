"""An unrelated upload full of numbers leaves the answers about amounts as they were (a
tester's report, 2026-12-06: a 6,000-section handbook of "Rule N: plant N is watered every k
days" made "Who approves an expense claim of EUR 1,500?" a refusal, with "Rule 500" among
the blocks, because "1,500" was read as the numbers 1 and 500)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.acceptance.conftest import upload_into_demo
from tests.acceptance.test_follow_ups import converse, shown

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("plant_handbook")]

FRONT = "---\ndoc_id: plants\ntitle: Office plant handbook\nupdated: 2025-10-01\n---\n"
HANDBOOK = FRONT + "".join(
    f"\n## Rule {n}\n\nRule {n}: the office plant number {n} is watered every {n % 7 + 2} days "
    f"by the facilities team.\n" for n in range(1, 801))


@pytest.fixture(scope="module")
def plant_handbook(
    demo_kb: Path, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[None]:
    upload_into_demo(demo_kb, django_db_blocker, tmp_path_factory, "plants.md", HANDBOOK)
    yield


def test_an_amount_with_a_thousands_separator_meets_its_rule_not_a_numbered_section() -> None:
    text = shown(converse("approve-1500", ["Who approves an expense claim of EUR 1,500?"]))
    assert "head of your department" in text
    assert "plant" not in text
