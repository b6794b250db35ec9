"""Two offices' policies side by side, on the demo knowledge base (a tester's report).

An admin uploads a Hangzhou office's travel policy beside the demo's China-wide one. A
question naming the office is answered from the Hangzhou policy, whose deadline chunk does
not itself say 杭州 (its title does); a question naming no office still gets the conflict
card, since the two documents disagree for someone who did not say where they work.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kbqa.core.types import Refusal
from tests.acceptance.conftest import upload_into_demo
from tests.acceptance.test_follow_ups import converse, shown

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("office_policy")]

POLICY = """---
doc_id: hz-travel
title: 杭州办公室差旅报销制度
updated: 2025-09-01
authority: policy
language: zh
---
# 杭州办公室差旅报销制度

## 一、适用范围

本制度适用于杭州办公室的全体员工。

## 二、报销时限

报销单须在费用发生之日起 30 天内提交。
"""


@pytest.fixture(scope="module")
def office_policy(
    demo_kb: Path, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[None]:
    upload_into_demo(demo_kb, django_db_blocker, tmp_path_factory, "hangzhou.md", POLICY)
    yield


def test_a_question_naming_the_office_is_answered_from_its_policy() -> None:
    text = shown(converse("hz-deadline", ["杭州办公室的报销单要在多长时间内交？"]))
    assert "30 天内提交" in text
    assert "60 天" not in text


def test_a_question_naming_no_office_gets_the_card() -> None:
    events = converse("any-deadline", ["报销单要在多长时间内提交？"])
    refusal = next(ev for ev in events if isinstance(ev, Refusal))
    assert refusal.reason == "conflict"
