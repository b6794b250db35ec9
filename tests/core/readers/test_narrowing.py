"""A question narrowed to a group ("…for admins?", "对于管理员，…") is answered only from a
passage that names the group (issue 12 item 4, tester's report)."""

from __future__ import annotations

import pytest

from kbqa.core.readers.extractive.narrowing import groups_named, unmentioned_groups
from tests.fakes import make_block


@pytest.mark.parametrize(
    ("question", "groups"),
    [
        ("How long does the recycle bin keep deleted files for admins?", ["admin"]),
        ("How long does the recycle bin keep deleted files for interns?", ["intern"]),
        ("对于管理员，回收站里的文件能保留多久？", ["管理员"]),
        ("对于实习生，员工每年有多少天病假？", ["实习生"]),
        # acting, not narrowed to; everyone; not people at all
        ("Can administrators change the API rate limit to any value?", []),
        ("管理员可以把开放 API 的速率限制改成任意值吗？", []),
        ("How many days of annual leave for employees?", []),
        ("Is there a discount for three years?", []),
        ("What is the limit for the desktop client?", []),
    ],
)
def test_groups_named_by_for(question: str, groups: list[str]) -> None:
    assert groups_named(question) == groups


def test_a_group_is_unmentioned_only_when_the_chosen_block_lacks_it() -> None:
    general = make_block(1, "Deleted files remain in the recycle bin for 30 days.")
    admins = make_block(2, "Administrators can empty the recycle bin for everyone.")
    question = "How long does the recycle bin keep deleted files for admins?"
    assert unmentioned_groups(question, [1], [general, admins]) == ["admin"]
    assert unmentioned_groups(question, [2], [general, admins]) == []
