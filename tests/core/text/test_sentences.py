from __future__ import annotations

import pytest

from kbqa.core.text.sentences import SentenceBuffer, join_quote_lines, split_sentences

CASES = [
    # English basics and abbreviations
    ("One. Two! Three? Four", ["One.", "Two!", "Three?", "Four"]),
    ("Use e.g. the CLI. Then stop.", ["Use e.g. the CLI.", "Then stop."]),
    ("That is, i.e. the admin. Done.", ["That is, i.e. the admin.", "Done."]),
    ("Ask Dr. Lee or Mr. Wu or Mrs. Ho. Done.", ["Ask Dr. Lee or Mr. Wu or Mrs. Ho.", "Done."]),
    ("Plan A vs. plan B. Done.", ["Plan A vs. plan B.", "Done."]),
    ("See form No. 5 today. Done.", ["See form No. 5 today.", "Done."]),
    ("It takes approx. 3 days. Done.", ["It takes approx. 3 days.", "Done."]),
    # a short form before a number or a date: the number is no sentence of its own
    ("Call helpdesk@corvane.com or ext. 5555, Monday to Friday. Done.",
     ["Call helpdesk@corvane.com or ext. 5555, Monday to Friday.", "Done."]),
    ("Tel. 6555 0100 or Rm. 12 on p. 4. Done.", ["Tel. 6555 0100 or Rm. 12 on p. 4.", "Done."]),
    ("Claim by 15 Jan. 2025 at the latest. Done.",
     ["Claim by 15 Jan. 2025 at the latest.", "Done."]),
    ("Dial the ext. Then wait.", ["Dial the ext.", "Then wait."]),
    ("Pens, paper, etc. are free. Done.", ["Pens, paper, etc. are free.", "Done."]),
    ("Pens, paper, etc. The end.", ["Pens, paper, etc.", "The end."]),
    (
        "It covers Nimbus Works B.V. and its subsidiaries. Next.",
        ["It covers Nimbus Works B.V. and its subsidiaries.", "Next."],
    ),
    ("Paid by Nimbus Works B.V. Next.", ["Paid by Nimbus Works B.V.", "Next."]),
    ("Acme Ltd. and Co. KG pay. Next.", ["Acme Ltd. and Co. KG pay.", "Next."]),
    ("Ends here. then a lower-case start.", ["Ends here. then a lower-case start."]),
    # numbers, versions, URLs, e-mail
    ("It costs 3.5 USD. Done.", ["It costs 3.5 USD.", "Done."]),
    ("Version 2.1.0 is out. Upgrade.", ["Version 2.1.0 is out.", "Upgrade."]),
    (
        "Open https://kb.example.com/a.html?x=1. Then log in.",
        ["Open https://kb.example.com/a.html?x=1.", "Then log in."],
    ),
    ("Mail it-help@corp.example.com. Thanks.", ["Mail it-help@corp.example.com.", "Thanks."]),
    # ellipsis
    ("Wait... then retry. Done.", ["Wait... then retry.", "Done."]),
    ("It failed... Retry later.", ["It failed...", "Retry later."]),
    ("It failed… Retry later.", ["It failed…", "Retry later."]),
    # a search snippet's cut: a Latin "... " between Chinese words ends one; 他说……我们 and
    # 价格是...多少 (no space) do not
    ("这部电影拍的是... 还是《曾经》的导演。", ["这部电影拍的是...", "还是《曾经》的导演。"]),
    ("他说……我们走吧。价格是...多少", ["他说……我们走吧。", "价格是...多少"]),
    # closing quotes and brackets stay with their sentence
    ('He said "Stop." Then left.', ['He said "Stop."', "Then left."]),
    ("(See the manual.) Next.", ["(See the manual.)", "Next."]),
    ("他说「好。」然后走了。", ["他说「好。」", "然后走了。"]),
    # citation markers after the final punctuation
    (
        "Items stay 30 days. [2] The trial is 90 days.",
        ["Items stay 30 days. [2]", "The trial is 90 days."],
    ),
    ("Items stay 30 days.[2][3] Next.", ["Items stay 30 days.[2][3]", "Next."]),
    ("Items stay 30 days [2]. Next.", ["Items stay 30 days [2].", "Next."]),
    ("Items stay 30 days. [1, 3] Next.", ["Items stay 30 days. [1, 3]", "Next."]),
    ("Items stay 30 days. [sic] Next.", ["Items stay 30 days.", "[sic] Next."]),
    # Chinese
    ("回收站保留 30 天。【2】试用期 90 天[3]。", ["回收站保留 30 天。【2】", "试用期 90 天[3]。"]),
    (
        "能上传吗？可以！大小有限制；最大 200 MB。",
        ["能上传吗？", "可以！", "大小有限制；", "最大 200 MB。"],
    ),
    ("版本 2.1.0 已发布。请升级。", ["版本 2.1.0 已发布。", "请升级。"]),
    ("API 限流是 100 次/分钟。[1]详见文档。", ["API 限流是 100 次/分钟。[1]", "详见文档。"]),
    # lines and list items
    (
        "Steps:\n1. Upload the file\n2. Click save\n\n- Done [1]",
        ["Steps:", "1. Upload the file", "2. Click save", "- Done [1]"],
    ),
    ("Title line\nBody. More", ["Title line", "Body.", "More"]),
    ("", []),
    ("   \n  ", []),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_split_sentences(text: str, expected: list[str]) -> None:
    assert split_sentences(text) == expected


def _stream(deltas: list[str]) -> list[str]:
    buf = SentenceBuffer()
    out: list[str] = []
    for delta in deltas:
        out += buf.feed(delta)
    return out + buf.flush()


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_buffer_char_by_char_equals_split(text: str, expected: list[str]) -> None:
    assert _stream(list(text)) == expected


@pytest.mark.parametrize(
    ("deltas", "released_after_each"),
    [
        # a marker split across deltas is never cut from its sentence
        (["Items stay 30 days. [", "2]", " The"], [[], [], ["Items stay 30 days. [2]"]]),
        (["回收站保留 30 天。【", "2】", "试用"], [[], [], ["回收站保留 30 天。【2】"]]),
        (["Items stay 30 days. [^", "2]", " Next"], [[], [], ["Items stay 30 days. [^2]"]]),
        # a full stop at the end of a delta may be a decimal point
        (["It costs 3.", "5 USD. ", "Done"], [[], [], ["It costs 3.5 USD."]]),
        # a closing quote may still arrive
        (['He said "Stop.', '" Then'], [[], ['He said "Stop."']]),
        # a line break proves the end of a list item at once
        (["- first item\n", "- second"], [["- first item"], []]),
        (["第一句。", "第二句"], [[], ["第一句。"]]),
    ],
)
def test_buffer_releases_only_proven_sentences(
    deltas: list[str], released_after_each: list[list[str]]
) -> None:
    buf = SentenceBuffer()
    assert [buf.feed(d) for d in deltas] == released_after_each


def test_flush_returns_the_rest_including_a_half_marker() -> None:
    buf = SentenceBuffer()
    assert buf.feed("One. Two [") == ["One."]
    assert buf.pending == " Two ["
    assert buf.flush() == ["Two ["]
    assert buf.pending == ""


@pytest.mark.parametrize(
    ("text", "joined"),
    [
        ("> This page is archived. It is kept\n> only as a historical reference.",
         "This page is archived. It is kept only as a historical reference."),
        ("Intro line.\n> 本页已归档，\n> 仅供参考。\n\nNext.",
         "Intro line.\n\n本页已归档，仅供参考。\n\nNext."),
        ("No quote here.\nSecond line.", "No quote here.\nSecond line."),
    ],
)
def test_a_markdown_quote_reads_as_one_paragraph(text: str, joined: str) -> None:
    assert join_quote_lines(text) == joined


def test_a_wrapped_quote_is_one_verified_sentence() -> None:
    """The archived policy's note was quoted cut off at its line end ("…and is kept"), and
    the whole sentence was withheld as adding a restriction its source did not state."""
    from kbqa.core.grounding.citations import Verifier, parse_claim
    from tests.fakes import make_block

    text = ("> This page is archived. It has been superseded by the current policy and is "
            "kept\n> only as a historical reference.")
    verifier = Verifier([make_block(1, text)], question="Does the archived policy apply?")
    claim = "It has been superseded by the current policy and is kept only as a historical " \
            "reference. [1]"
    assert verifier.verify(parse_claim(claim)).ok


def test_sentences_join_with_a_space_except_after_a_chinese_full_stop() -> None:
    # An integrator's report: the JSON answer read "…保存 180 天。 NimbusDrive…"
    from kbqa.core.text.sentences import joined

    assert joined(["所有方案的历史版本都保存 180 天。", "NimbusDrive 每天备份。", "See [2]."]) == (
        "所有方案的历史版本都保存 180 天。NimbusDrive 每天备份。See [2].")
    assert joined(["Files stay 30 days.", "Admins can restore them."]) == (
        "Files stay 30 days. Admins can restore them.")
