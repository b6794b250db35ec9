"""The conflict gate as a user meets it: prices that disagree are caught in any currency,
and a disagreement is raised only when it is about what was asked."""

from __future__ import annotations

import pytest

from kbqa.core.grounding.conflicts import find_conflicts
from kbqa.core.grounding.refusals import refuse_conflict
from kbqa.core.types import Block
from tests.fakes import make_block


def block(
    n: int,
    doc: str,
    text: str,
    *,
    title: str = "",
    section: str = "",
    authority: str = "policy",
    updated: str = "2026-01-01",
    score: float = 1.0,
) -> Block:
    """Block ``n``: chunk ``n`` of document ``doc`` (two blocks may share a document)."""
    return make_block(
        n, text, doc_id=doc, chunk_no=n, title=title or f"Title {doc}", section=section,
        authority=authority, updated=updated, score=score,
    )


def values(blocks: list[Block], question: str) -> list[tuple[str, str]]:
    return [(c.sides[0].value_text, c.sides[1].value_text)
            for c in find_conflicts(blocks, question)]


# ------------------------------------------------------------------------- prices


@pytest.mark.parametrize(
    ("a", "b", "question", "expected"),
    [
        ("Employees may park in the company garage for EUR 40 per month.",
         "Employees may park in the company garage for EUR 55 per month.",
         "How much does parking in the company garage cost per month?",
         ("EUR 40 per month", "EUR 55 per month")),
        ("Employees may park in the company garage for €40/month.",
         "Employees may park in the company garage for 55 euros per month.",
         "What does the company garage cost?", ("€40/month", "55 euros per month")),
        ("Employees may park in the company garage for $40 a month.",
         "Employees may park in the company garage for USD 55 per month.",
         "How many dollars is the company garage?", ("$40 a month", "USD 55 per month")),
        ("员工在公司车库停车每月 300 元。", "员工在公司车库停车每月 ¥400。",
         "公司车库停车每月多少钱？", ("每月 300 元", "每月 ¥400")),
        ("员工在公司车库停车的费用为 40 欧元/月。", "员工在公司车库停车的费用为每月 55 欧元。",
         "公司车库的停车费用是多少？", ("40 欧元/月", "每月 55 欧元")),
    ],
)
def test_prices_that_disagree_are_a_conflict_in_any_currency(
    a: str, b: str, question: str, expected: tuple[str, str]
) -> None:
    blocks = [block(1, "parking-a", a), block(2, "parking-b", b)]
    assert values(blocks, question) == [expected]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # the same price per year and per month
        ("Employees may park in the company garage for EUR 480 per year.",
         "Employees may park in the company garage for EUR 40 per month."),
        # a monthly fee and a one-off deposit are different things
        ("Employees may park in the company garage for EUR 40 per month.",
         "Employees may park in the company garage for a deposit of EUR 55."),
        # euros and dollars are never converted into each other
        ("Employees may park in the company garage for EUR 40 per month.",
         "Employees may park in the company garage for USD 55 per month."),
    ],
)
def test_prices_in_other_units_or_equal_per_month_are_no_conflict(a: str, b: str) -> None:
    blocks = [block(1, "parking-a", a), block(2, "parking-b", b)]
    assert values(blocks, "How much does parking in the company garage cost?") == []


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", ["“Parking policy” (updated 2026-03-01) says EUR 40 per month",
                "“Garage rules” (updated 2026-04-01) says EUR 55 per month"]),
        ("zh", ["《Parking policy》（更新于 2026-03-01）写的是 EUR 40 per month",
                "《Garage rules》（更新于 2026-04-01）写的是 EUR 55 per month"]),
    ],
)
def test_equal_authority_shows_both_values_with_sources_and_dates(
    lang: str, expected: list[str]
) -> None:
    blocks = [
        block(1, "parking-a", "Employees may park in the company garage for EUR 40 per month.",
              title="Parking policy", updated="2026-03-01"),
        block(2, "parking-b", "Employees may park in the company garage for EUR 55 per month.",
              title="Garage rules", updated="2026-04-01"),
    ]
    (conflict,) = find_conflicts(blocks, "How much does parking in the company garage cost?")
    assert conflict.preferred is None
    message = refuse_conflict(lang, conflict).message  # type: ignore[arg-type]
    assert all(part in message for part in expected)


MEALS = "Meals with customers are reimbursed up to EUR 80 per person."


def test_the_same_number_said_of_another_thing_does_not_hide_a_conflict() -> None:
    # A copy of the expense policy says 60 for team outings; both say 80 for meals.
    copy = f"{MEALS}\nTeam outings are reimbursed up to EUR 60 per person."
    original = f"{MEALS}\nTeam outings are reimbursed up to EUR 80 per person."
    blocks = [block(1, "expenses-2026", copy), block(2, "doc-060", original)]
    assert values(blocks, "What is the budget for team outings?") == [
        ("EUR 60 per person", "EUR 80 per person")]


# ------------------------------------------------------------------------- focus

NAMES_ZH = ("文件名最长为 255 个字符。文件名中不能包含 `\\ / : * ? \" < > |`。"
            "只有大小写不同的文件名会被视为同一个名称。")
SIZE_ZH_A = "单个文件上传的最大大小为 200 MB。一次上传包含多少个文件没有单独的限制。"
SIZE_ZH_B = "单个上传文件的最大大小为 100 MB。上传工具会跳过超限的文件。"
NAMES_EN = ("A file name may be up to 255 characters long. The characters \\ / : * ? are not "
            "allowed in file names.")
SIZE_EN_A = "The maximum size of a single uploaded file is 200 MB."
SIZE_EN_B = "The maximum size for a single uploaded file is 100 MB."


def manuals(names: str, size_a: str, size_b: str) -> list[Block]:
    return [
        block(1, "manual", names, authority="manual", score=20.0),
        block(2, "manual", size_a, authority="manual", score=12.0),
        block(3, "uploader", size_b, authority="manual", score=14.0),
    ]


@pytest.mark.parametrize(
    ("texts", "question", "expected"),
    [
        ((NAMES_ZH, SIZE_ZH_A, SIZE_ZH_B), "上传文件时文件名有什么限制？", []),
        ((NAMES_ZH, SIZE_ZH_A, SIZE_ZH_B), "单个文件上传的最大大小是多少？",
         [("200 MB", "100 MB")]),
        ((NAMES_ZH, SIZE_ZH_A, SIZE_ZH_B), "用网页版上传，一个文件能多大？",
         [("200 MB", "100 MB")]),
        ((NAMES_EN, SIZE_EN_A, SIZE_EN_B), "What are the limits on file names when uploading?",
         []),
        ((NAMES_EN, SIZE_EN_A, SIZE_EN_B), "What is the maximum size of a single uploaded file?",
         [("200 MB", "100 MB")]),
        ((NAMES_EN, SIZE_EN_A, SIZE_EN_B), "How many MB can one file have?",
         [("200 MB", "100 MB")]),
    ],
)
def test_a_conflict_is_raised_only_when_its_values_are_what_was_asked(
    texts: tuple[str, str, str], question: str, expected: list[tuple[str, str]]
) -> None:
    assert values(manuals(*texts), question) == expected


MANUAL_TITLE = "NimbusDrive product manual: Recycle bin and version history"
VERSIONS = ("Every time a file changes, the previous content is kept as a version. Earlier "
            "versions of a file are kept for 180 days on all plans. From the version history "
            "you can restore any earlier version.")
WHO = "Editors and Owners can restore from the recycle bin and from the version history."
BIN_POLICY = "Deleted files are kept in the recycle bin for 30 days. Restore them before then."


@pytest.mark.parametrize(
    "question",
    ["How can I restore files faster?", "How long are deleted files kept?",
     "删除的文件保留多久？"],
)
def test_values_of_another_subject_in_one_document_are_no_disagreement(question: str) -> None:
    blocks = [
        block(1, "doc-042", WHO, title=MANUAL_TITLE, section="Who can restore",
              authority="manual", score=10.0),
        block(2, "doc-042", VERSIONS, title=MANUAL_TITLE, section="Version history",
              authority="manual", score=7.0),
        block(3, "bin-policy", BIN_POLICY, title="Recycle bin policy", score=9.0),
    ]
    assert values(blocks, question) == []


def test_the_same_subject_in_other_words_is_still_a_conflict() -> None:
    blocks = [
        block(1, "doc-042", "Deleted files are kept for 60 days.", title="Recycle bin",
              authority="manual"),
        block(2, "bin-policy", BIN_POLICY, title="Recycle bin policy"),
    ]
    assert values(blocks, "How long are deleted files kept?") == [("60 days", "30 days")]


def test_chinese_values_of_another_subject_are_no_disagreement() -> None:
    title = "产品手册：回收站与历史版本"
    blocks = [
        block(1, "doc-043", "编辑者和所有者可以从回收站和历史版本中恢复文件。", title=title,
              section="谁可以恢复", authority="manual", score=10.0),
        block(2, "doc-043", "所有方案中，文件的历史版本都保存 180 天。", title=title,
              section="历史版本", authority="manual", score=8.0),
        block(3, "bin-policy", "被删除的文件在回收站保存 30 天。", title="回收站制度", score=9.0),
    ]
    assert values(blocks, "怎样更快地恢复文件？") == []
    assert values(blocks, "被删除的文件保存多久？") == []


def test_an_asker_in_their_own_words_still_meets_the_disagreement() -> None:
    # "uploading" is the documents' "uploaded"; "the actual limit" names no thing the limit
    # is of (as "the page size limit" would)
    blocks = [
        block(1, "gallery-faq", "Clients reach the gallery team by phone or in the app. The "
              "gallery keeps every photo a client adds.", title="Gallery FAQ", score=9.0),
        block(2, "gallery-guide", "The maximum size of a single uploaded photo is 20 MB.",
              title="Gallery upload guide", section="Photo size", authority="manual",
              score=8.0),
        block(3, "gallery-policy", "The maximum size for a single uploaded photo is 12 MB.",
              title="Gallery policy", section="Photo size", score=7.0),
    ]
    question = ("a client on the phone asking how big a single photo can be when uploading "
                "to the gallery — what's the actual limit?")
    assert values(blocks, question) == [("20 MB", "12 MB")]


# A Chinese-speaking tester's uploads: values the gate had set aside as another subject's
LEAVE_POLICY = ("全职员工每个自然年享有 18 天带薪年假。", "年假与病假制度")
LEAVE_FAQ = ("问：年假有多少天？\n答：全职员工每年有 8 天年假。", "办公室常见问题")
MEALS_A = ("- **出差餐费**：出差期间个人餐费每天最多报销 120 元。\n"
           "- **住宿**：每晚不超过 600 元。\n- **打车**：加班到 22:00 以后打车能报销。")
MEALS_B = "团建期间的餐费计入团建预算。员工因公出差期间的个人餐费每天最多报销 180 元。"


def test_a_count_word_glued_to_the_next_word_is_no_other_kind_of_leave() -> None:
    # jieba cuts "8 天年假" as 天年/假, which read as another kind of leave than 年假
    blocks = [block(1, "faq", LEAVE_FAQ[0], title=LEAVE_FAQ[1], authority="faq"),
              block(2, "policy", LEAVE_POLICY[0], title=LEAVE_POLICY[1])]
    assert values(blocks, "全职员工年假有多少天？") == [("8 天", "18 天")]


def test_a_word_jieba_only_guessed_is_no_noun_of_the_question() -> None:
    # 能报 of 能报多少 (jieba's HMM guess, tagged n) met 多报 of 最多报销 as a "sibling"
    blocks = [block(1, "tb", MEALS_B, title="团建管理办法", updated="2026-06-01"),
              block(2, "exp", MEALS_A, title="费用报销制度")]
    assert values(blocks, "出差餐费每天能报多少？") == [("180 元", "120 元")]


def test_a_rate_per_another_period_is_not_what_was_asked() -> None:
    plain = MEALS_A.rsplit("\n", 1)[0]  # no 能报销: the meal values stand on their own
    blocks = [block(1, "tb", MEALS_B, title="团建管理办法", updated="2026-06-01"),
              block(2, "exp", plain, title="费用报销制度")]
    assert values(blocks, "出差餐费每天能报多少？") == [("180 元", "120 元")]
    assert values(blocks, "出差住酒店每晚能报多少？") == []
