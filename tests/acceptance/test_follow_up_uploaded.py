"""A follow-up about a topic only an uploaded document covers, on the demo knowledge base.

An admin uploads a team-building rule (300 元 per person); asked for it, the app quotes it.
"超了怎么办？" (what if we go over?) is then about team building, which the rule does not
answer: it is refused, not answered with the client-meal limit that shares "每人 300 元"
(a tester's report).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.acceptance.conftest import upload_into_demo
from tests.acceptance.test_follow_ups import converse, shown

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("team_rule")]

RULE = """---
doc_id: doc-900
title: 团建制度
updated: 2025-09-01
language: zh
---
# 团建制度

各部门每季度可以组织一次团建活动。团建预算为每人每次不超过 300 元，由部门负责人审批。
"""


@pytest.fixture(scope="module")
def team_rule(
    demo_kb: Path, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[None]:
    upload_into_demo(demo_kb, django_db_blocker, tmp_path_factory, "teambuilding.md", RULE)
    yield


def test_the_uploaded_rule_answers_its_own_question() -> None:
    assert "每人每次不超过 300 元" in shown(converse("team-ask", ["团建预算每人多少钱？"]))


def test_a_follow_up_the_uploaded_rule_does_not_answer_is_refused() -> None:
    events = converse("team-over", ["团建预算每人多少钱？", "超了怎么办？"])
    assert [ev.event for ev in events] == ["meta", "refusal", "done"]
    assert "招待客户" not in shown(events)
