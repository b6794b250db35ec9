from __future__ import annotations

import pytest

from kbqa.core.grounding.support import support_sentences

PASSAGE = [
    "Deleted files stay in the recycle bin for 30 days.",
    "Administrators can restore them earlier.",
    "After 30 days they are purged for good.",
]


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        ("The recycle bin keeps deleted files for 30 days.", (0,)),
        ("Administrators can restore deleted files.", (0, 1)),
        ("回收站保留 30 天。", (0,)),  # only the number is shared
        ("Nothing in common here.", ()),
        ("", ()),
    ],
)
def test_support_sentences_pick_the_sentences_holding_the_claims_terms(
    claim: str, expected: tuple[int, ...]
) -> None:
    assert support_sentences(claim, PASSAGE) == expected


def test_support_sentences_in_chinese() -> None:
    passage = ["员工每年享有十天年假。", "病假需要提供医院证明。"]
    assert support_sentences("病假要提供医院证明", passage) == (1,)


def test_support_sentences_respect_the_limit() -> None:
    assert support_sentences("alpha beta gamma", ["alpha", "beta", "gamma"], limit=2) == (0, 1)
