"""Claim words the cited block never says: named in the verdict, risky kinds dropped."""

from __future__ import annotations

import pytest

from kbqa.core.grounding.citations import Verifier, parse_claim
from tests.fakes import make_block

UPLOAD = make_block(1, "Uploads: the maximum upload size is 200 MB per file.")
BACKUP = make_block(2, "Backups run every night at 02:00.")
ZH_UPLOAD = make_block(1, "上传：单个文件的大小上限为 200 MB。", title="上传制度")
ZH_BACKUP = make_block(2, "备份每晚 02:00 运行。", title="备份")
RETENTION = make_block(
    3, "Deleted files stay in the recycle bin for 30 days. Only admins can restore them.",
    title="Recycle bin", updated="2025-07-04",
)
ZH_RETENTION = make_block(3, "删除的文件在回收站保留 30 天。只有管理员可以恢复。", title="回收站")
EN = [UPLOAD, BACKUP, RETENTION]
ZH = [ZH_UPLOAD, ZH_BACKUP, ZH_RETENTION]


def test_issue_case_hourly_is_dropped_with_a_reason() -> None:
    verdict = Verifier([UPLOAD, BACKUP]).verify(parse_claim("Backups run hourly [2]."))
    assert (verdict.ok, verdict.issues, verdict.unsupported) == (
        False, ("[2] does not say “hourly”",), ("hourly",))
    assert verdict.overlaps == ((2, 0.6667),)  # gate two alone would have passed it


@pytest.mark.parametrize(
    ("sentence", "issue"),
    [
        # frequency
        ("Backups run weekly [2].", "[2] does not say “weekly”"),
        ("备份每小时运行[2]。", "[2] does not say “每小时”"),
        # time
        ("Backups run every morning at 02:00 [2].", "[2] does not say “morning”"),
        ("备份每晚 02:00 运行，周末除外[2]。", "[2] does not say “周末”"),
        ("Deleted files stay in the recycle bin for 30 hours [3].", "[3] does not say “hours”"),
        ("删除的文件在回收站保留 30 小时[3]。", "[3] does not say “小时”"),
        # number words
        ("Deleted files stay in the recycle bin for three days [3].",
         "[3] does not say “three”"),
        ("删除的文件在回收站保留三天[3]。", "[3] does not say “三”"),
        # comparison
        ("Uploads of at least 200 MB per file are allowed [1].", "[1] does not say “at least”"),
        ("单个文件至少 200 MB[1]。", "[1] does not say “至少”"),
        # negation: every other word is the block's own
        ("Backups do not run every night at 02:00 [2].",
         "[2] does not say “not” (the sentence denies what [2] states)"),
        ("备份每晚 02:00 不运行[2]。",
         "[2] does not say “不” (the sentence denies what [2] states)"),
        # names
        ("Backups run every night at 02:00 in Frankfurt [2].", "[2] does not say “Frankfurt”"),
        ("The Finance team restores deleted files [3].", "[3] does not say “Finance”"),
        ("北京的备份每晚 02:00 运行[2]。", "[2] does not say “北京”"),
        ("备份每晚 02:00 在 AWS 运行[2]。", "[2] does not say “AWS”"),
    ],
)
def test_risky_claim_word_drops_the_sentence(sentence: str, issue: str) -> None:
    blocks = ZH if any("\u4e00" <= ch <= "\u9fff" for ch in sentence) else EN
    verdict = Verifier(blocks).verify(parse_claim(sentence))
    assert (verdict.ok, verdict.issues) == (False, (issue,))


@pytest.mark.parametrize(
    ("sentence", "blocks"),
    [
        ("Backups run every night at 02:00 [2].", EN),
        ("Backups run nightly [2].", EN),  # a form of the same frequency
        ("Backups run daily at 02:00 [2].", EN),
        ("备份每晚 02:00 运行[2]。", ZH),
        ("备份每天运行[2]。", ZH),
        ("The upload limit is 200 MB per file [1].", EN),  # "limit" bounds like "maximum"
        ("单个文件最大 200 MB[1]。", ZH),  # 最大 bounds like 上限
        ("Guests cannot restore deleted files from the recycle bin [3].", EN),  # "only admins"
        ("访客不能恢复回收站的文件[3]。", ZH),  # 只有管理员
        ("Deleted files stay in the Recycle Bin for 30 days [3].", EN),  # its title
        ("The Recycle bin page, updated 2025-07-04, keeps deleted files 30 days [3].", EN),
        # measured with realistic answers (bench/claim_words.py): possessives, plurals of a
        # name, and a yes/no answer word are not new claims
        ("The Uploads' maximum upload size is 200 MB per file [1].", EN),
        ("No, the maximum upload size is 200 MB per file [1].", EN),
        ("不，单个文件的大小上限为 200 MB[1]。", ZH),
        # measured on RGB: digits glued to a Latin word, and Latin next to CJK
        ("世界5G大会自2019年在北京首次举办[4]。",
         [make_block(4, "世界5G大会自2019年在北京首次举办。")]),
        ("小米Max搭载骁龙652处理器[4]。", [make_block(4, "小米Max搭载骁龙652处理器。")]),
        ("杰锐思2021Q4收入占比在75%以上[4]。",
         [make_block(4, "杰锐思2021Q4收入占比在75%以上。")]),
    ],
)
def test_supported_claim_words_pass(sentence: str, blocks: list) -> None:  # type: ignore[type-arg]
    verdict = Verifier(blocks).verify(parse_claim(sentence))
    assert (verdict.ok, verdict.issues) == (True, ())


@pytest.mark.parametrize(
    ("question", "sentence"),
    [
        ("Do backups run hourly?", "Backups run every night at 02:00, not hourly [2]."),
        ("备份是每小时运行吗？", "备份不是每小时运行，而是每晚 02:00 运行[2]。"),
    ],
)
def test_a_word_of_the_question_may_be_named(question: str, sentence: str) -> None:
    blocks = ZH if "备份" in question else EN
    verdict = Verifier(blocks, question=question).verify(parse_claim(sentence))
    assert (verdict.ok, verdict.issues) == (True, ())


def test_other_unsupported_words_are_named_but_do_not_fail() -> None:
    verdict = Verifier(EN).verify(parse_claim("Backups quietly run every night at 02:00 [2]."))
    assert (verdict.ok, verdict.unsupported) == (True, ("quietly",))
