"""A passage narrowed by a qualifier the question lacks ("HR files", HR 文件) does not lead
over the general passage (issue 12 item 3; a code-blind tester's kind 4, 2026-12-01)."""

from __future__ import annotations

import pytest

from kbqa.core.readers.extractive.narrower import qualifiers
from kbqa.core.readers.extractive.selection import select
from tests.fakes import make_block

# The HR-only document ranks first (its words match the question more closely).
BINS = [
    make_block(1, "Deleted HR files stay in the recycle bin for 45 days, as the HR retention "
               "rules require.", title="HR workspace: retention of HR files", doc_id="hr",
               score=3.0),
    make_block(2, "Deleted files and folders remain in the recycle bin for 30 days, and you can "
               "put them back at any time during that period.",
               title="Recycle bin and version history", section="Recycle bin", doc_id="bin",
               score=2.0),
]
ZH_BINS = [
    make_block(1, "HR 文件删除后在回收站中保留 45 天。", title="人事空间：HR 文件的保留",
               doc_id="hr", language="zh", score=3.0),
    make_block(2, "被删除的文件和文件夹会在回收站保留 30 天，其间你可以随时把它们还原。",
               title="产品手册：回收站与历史版本", section="回收站", doc_id="bin",
               language="zh", score=2.0),
]


def test_the_general_rule_leads_when_the_question_does_not_name_the_narrower_group() -> None:
    selection = select("How long do deleted files stay in the recycle bin?", BINS)
    assert selection.chosen[0].n == 2
    assert "30 days" in selection.chosen[0].text


def test_the_narrower_rule_answers_when_the_question_names_its_qualifier() -> None:
    selection = select("How long do deleted HR files stay in the recycle bin?", BINS)
    assert selection.chosen[0].n == 1


def test_chinese_the_general_rule_leads_and_the_hr_rule_may_follow() -> None:
    selection = select("删除的文件在回收站里保留多久？", ZH_BINS)
    assert [c.n for c in selection.chosen][0] == 2
    assert select("HR 文件删除后在回收站保留多久？", ZH_BINS).chosen[0].n == 1


@pytest.mark.parametrize(
    ("question", "text", "found"),
    [
        ("How long do deleted files stay in the recycle bin?",
         "Deleted HR files stay in the recycle bin for 45 days.", {"hr": "file"}),
        ("How long do deleted files stay in the recycle bin?",
         "Deleted files and folders remain in the recycle bin for 30 days.", {}),
        # the question's own qualifier narrows nothing
        ("How long do deleted HR files stay in the recycle bin?",
         "Deleted HR files stay in the recycle bin for 45 days.", {}),
        ("删除的文件在回收站里保留多久？", "HR 文件在回收站中保留 45 天。", {"hr": "文件"}),
        ("删除的文件在回收站里保留多久？", "被删除的文件和文件夹会在回收站保留 30 天。", {}),
    ],
)
def test_qualifiers_of_a_question_noun(question: str, text: str, found: dict[str, str]) -> None:
    assert qualifiers(question, text) == found
