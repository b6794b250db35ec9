"""Conflicts across phrasings of one bound: "maximum X", "larger than Y are rejected"..."""

from __future__ import annotations

import pytest

from kbqa.core.grounding.conflicts import find_conflicts
from kbqa.core.text.bounds import bound_of
from kbqa.core.text.quantities import extract_quantities, fold
from kbqa.core.types import Block, Chunk
from tests.core.grounding.test_conflicts import block

MAX_200 = "The maximum upload size is 200 MB per file."
REJECT_100 = "Files larger than 100 MB are rejected."


def _bound(sentence: str) -> str | None:
    q = extract_quantities(sentence)[0]
    text = fold(sentence)
    return bound_of(text[: q.start], text[q.end :])


@pytest.mark.parametrize(
    ("sentence", "kind"),
    [
        ("The maximum upload size is 200 MB per file.", "max"),
        ("Uploads of up to 200 MB are accepted.", "max"),
        ("Each file can be no more than 200 MB.", "max"),
        ("A file may not exceed 200 MB.", "max"),
        ("Uploads are limited to 200 MB.", "max"),
        ("Files larger than 100 MB are rejected.", "max"),
        ("Files over 100 MB cannot be uploaded.", "max"),
        ("Uploads: 200 MB max.", "max"),
        ("上传文件大小上限为 200 MB。", "max"),
        ("单个文件最大 200 MB。", "max"),
        ("单个文件不超过 200 MB。", "max"),
        ("单个文件超过 100 MB 会被拒绝。", "max"),
        ("100 MB 以上的文件会被拒绝。", "max"),
        ("附件须在 20 MB 以内。", "max"),
        ("Keep at least 5 GB free.", "min"),
        ("Files smaller than 1 KB are rejected.", "min"),
        ("剩余空间不少于 5 GB。", "min"),
        ("Backups are kept for 30 days.", None),
        ("备份保留 30 天。", None),
        ("Meetings last 30 minutes after the upload.", None),
    ],
)
def test_bound_phrasings(sentence: str, kind: str | None) -> None:
    assert _bound(sentence) == kind


@pytest.mark.parametrize(
    ("a", "b", "question", "values"),
    [
        # The case, exact values.
        (MAX_200, REJECT_100, "What is the upload limit?", ("200 MB", "100 MB")),
        (MAX_200, "Each file can be no more than 100 MB.", "How large can a file be?",
         ("200 MB", "100 MB")),
        ("Files of up to 200 MB can be uploaded.", "Files over 100 MB cannot be uploaded.",
         "What is the maximum file size?", ("200 MB", "100 MB")),
        ("上传文件大小上限为 200 MB。", "单个文件超过 100 MB 会被拒绝。", "上传文件的上限是多少？",
         ("200 MB", "100 MB")),
        ("单个文件最大 200 MB。", "每个文件不超过 100 MB。", "文件最大多大？",
         ("200 MB", "100 MB")),
        ("上传文件大小上限为 200 MB。", "100 MB 以上的文件会被拒绝。", "文件上限是多少？",
         ("200 MB", "100 MB")),
        # Units still convert: 0.3 GB is 300 MB, not 200 MB.
        (MAX_200, "Files larger than 0.3 GB are rejected.", "What is the upload limit?",
         ("200 MB", "0.3 GB")),
    ],
)
def test_one_bound_phrased_two_ways_with_two_values_is_a_conflict(
    a: str, b: str, question: str, values: tuple[str, str]
) -> None:
    conflicts = find_conflicts([block(1, "doc-a", a), block(2, "doc-b", b)], question)
    assert [tuple(s.value_text for s in c.sides) for c in conflicts] == [values]
    assert conflicts[0].preferred is None


@pytest.mark.parametrize(
    ("a", "b", "question"),
    [
        (MAX_200, "Files larger than 0.2 GB are rejected.", "What is the upload limit?"),
        ("上传文件大小上限为 200 MB。", "单个文件超过 0.2 GB 会被拒绝。", "上传文件的上限是多少？"),
        # An upper and a lower bound do not contradict each other.
        (MAX_200, "Keep at least 100 MB of files in each upload folder.",
         "What is the upload limit?"),
        # Different subjects: the mailbox is not the upload.
        (MAX_200, "Mailboxes are limited to 100 MB.", "What is the upload limit?"),
        # Not about the question.
        (MAX_200, REJECT_100, "How long are backups kept?"),
        # Two notice periods that share only a preposition: parental leave is no trip
        ("Parental leave must be announced to HR at least 8 weeks before it starts.",
         "All business trips are booked through TravelDesk at least 14 days before departure.",
         "I've still got 8 days of leave left from this year. What happens to them?"),
    ],
)
def test_no_conflict(a: str, b: str, question: str) -> None:
    assert find_conflicts([block(1, "doc-a", a), block(2, "doc-b", b)], question) == []


def test_authority_still_decides_between_two_phrasings() -> None:
    conflicts = find_conflicts(
        [block(1, "faq", MAX_200, authority="faq"), block(2, "policy", REJECT_100,
                                                          authority="policy")],
        "What is the upload limit?",
    )
    assert [(c.sides[c.preferred].doc_id if c.preferred is not None else None)
            for c in conflicts] == ["policy"]



def test_two_durations_bounding_only_time_across_languages_are_no_conflict() -> None:
    # a tester's card said the cold-chain policy's 72 hours disagreed with the Suzhou
    # handbook's monthly overtime cap, 36 小时: both bound a "time" (加班时间), nothing more
    policy = Block(n=1, score=1.0, tokens=10, text="", chunk=Chunk(
        chunk_id="cold-chain#c03", doc_id="cold-chain", title="Cold-Chain Shipping Policy",
        section="2. Dry ice", authority="policy", updated="2026-05-04",
        text="The maximum transit time for dry-ice shipments is 72 hours. Shipments that "
             "cannot arrive within 72 hours must not be sent."))
    handbook = Block(n=2, score=1.0, tokens=10, text="", chunk=Chunk(
        chunk_id="handbook#c04", doc_id="handbook", title="苏州工厂员工手册（考勤、加班与休假）",
        section="三、加班与加班费", authority="policy", updated="2026-01-01", language="zh",
        text="每月加班时间不得超过 36 小时。夜班津贴为每班 35 元，中班津贴为每班 15 元。"))
    assert find_conflicts([policy, handbook],
                          "What is the maximum transit time for a dry ice shipment?") == []
