"""Marker forms models and gateways write: one parser for streamed and JSON drafts."""

from __future__ import annotations

import json

import pytest

from kbqa.core.grounding.citations import Verifier, parse_claim, parse_json_draft
from kbqa.core.text.sentences import SentenceBuffer, split_sentences
from tests.fakes import make_block

UPLOAD = make_block(1, "Uploads: the maximum upload size is 200 MB per file.")
BACKUP = make_block(2, "Backups run every night at 02:00.")
ZH_UPLOAD = make_block(1, "上传文件的大小上限为 200 MB。")


@pytest.mark.parametrize(
    ("sentence", "text", "citations"),
    [
        ("The upload limit is 200 MB [ID:1].", "The upload limit is 200 MB.", (1,)),
        ("The upload limit is 200 MB [id: 1, 2].", "The upload limit is 200 MB.", (1, 2)),
        ("The upload limit is 200 MB (Source 1).", "The upload limit is 200 MB.", (1,)),
        ("The upload limit is 200 MB (Sources 1, 2).", "The upload limit is 200 MB.", (1, 2)),
        ("The upload limit is 200 MB [S1].", "The upload limit is 200 MB.", (1,)),
        ("The upload limit is 200 MB [S1][S2].", "The upload limit is 200 MB.", (1, 2)),
        ("The upload limit is 200 MB [source 1].", "The upload limit is 200 MB.", (1,)),
        ("The upload limit is 200 MB [Source: 1].", "The upload limit is 200 MB.", (1,)),
        ("The upload limit is 200 MB¹.", "The upload limit is 200 MB.", (1,)),
        ("The upload limit is 200 MB.¹", "The upload limit is 200 MB.", (1,)),
        ("The upload limit is 200 MB.¹,²", "The upload limit is 200 MB.", (1, 2)),
        ("上传上限为 200 MB[来源1]。", "上传上限为 200 MB。", (1,)),
        ("上传上限为 200 MB【来源：1】。", "上传上限为 200 MB。", (1,)),
        ("上传上限为 200 MB（来源1）。", "上传上限为 200 MB。", (1,)),
        ("上传上限为 200 MB¹。", "上传上限为 200 MB。", (1,)),
        # Not markers: an exponent, an area, a list number, a year in parentheses.
        ("The cache holds 10⁶ entries [1].", "The cache holds 10⁶ entries.", (1,)),
        ("Each desk has 2 m² of space [1].", "Each desk has 2 m² of space.", (1,)),
        ("It was set in (2023) [1].", "It was set in (2023).", (1,)),
        # A news text's own attribution in parentheses is text, not a marker.
        ("气球事件后行程落定（来源：澎湃新闻）[1]。",
         "气球事件后行程落定（来源：澎湃新闻）。", (1,)),
    ],
)
def test_marker_forms(sentence: str, text: str, citations: tuple[int, ...]) -> None:
    claim = parse_claim(sentence)
    assert (claim.text, claim.citations, claim.unknown) == (text, citations, ())


def test_issue_case_id_marker_is_verified_not_no_citation() -> None:
    verdict = Verifier([UPLOAD, BACKUP]).verify(parse_claim("The upload limit is 200 MB [ID:1]."))
    assert (verdict.ok, verdict.verified, verdict.issues) == (True, (1,), ())


@pytest.mark.parametrize(
    ("sentence", "issue"),
    [
        ("The upload limit is 200 MB [S9].", "cited a nonexistent chunk number [9]"),
        ("The upload limit is 200 MB (Source 7).", "cited a nonexistent chunk number [7]"),
        ("The upload limit is 200 MB [Source: Upload policy].",
         "cited [Source: Upload policy], which is not one of the numbered sources"),
        ("The upload limit is 200 MB [doc-010#c02].",
         "cited [doc-010#c02], which is not one of the numbered sources"),
        ("The upload limit is 200 MB [ID:upload].",
         "cited [ID:upload], which is not one of the numbered sources"),
        ("上传上限为 200 MB【来源：上传制度】。",
         "cited 【来源：上传制度】, which is not one of the numbered sources"),
        ("上传上限为 200 MB[来源9]。", "cited a nonexistent chunk number [9]"),
    ],
)
def test_marker_naming_no_issued_block_is_a_nonexistent_citation(sentence: str, issue: str) -> None:
    verdict = Verifier([UPLOAD, BACKUP]).verify(parse_claim(sentence))
    assert (verdict.ok, verdict.issues) == (False, (issue,))


def test_json_draft_claims_use_the_same_marker_parser() -> None:
    draft = json.dumps({"claims": [
        {"text": "The upload limit is 200 MB (Source 1).", "citations": []},
        {"text": "Backups run every night [Source: Backups].", "citations": []},
    ]})
    claims = parse_json_draft(draft)
    assert [(c.text, c.citations, c.unknown) for c in claims] == [
        ("The upload limit is 200 MB.", (1,), ()),
        ("Backups run every night.", (), ("[Source: Backups]",)),
    ]


STREAMED = [
    "The upload limit is 200 MB. (Source 1) Backups run every night. [S2] Done [ID:2].",
    "The upload limit is 200 MB.¹ Backups run every night at 02:00.² Done.",
    "The limit is 200 MB [source 1]. It applies per file [Source: Upload policy]. End.",
    "上传上限为 200 MB。（来源1）备份每晚运行[来源2]。结束。",
]


@pytest.mark.parametrize("text", STREAMED)
def test_stream_buffer_never_splits_a_marker(text: str) -> None:
    whole = split_sentences(text)
    for cut in range(1, len(text)):
        buffer = SentenceBuffer()
        got = buffer.feed(text[:cut]) + buffer.feed(text[cut:]) + buffer.flush()
        assert got == whole, cut
    one_char = SentenceBuffer()
    got = [s for ch in text for s in one_char.feed(ch)] + one_char.flush()
    assert got == whole


def test_markers_stay_with_their_sentence() -> None:
    assert split_sentences(STREAMED[0]) == [
        "The upload limit is 200 MB. (Source 1)",
        "Backups run every night. [S2]",
        "Done [ID:2].",
    ]
    assert split_sentences(STREAMED[1]) == [
        "The upload limit is 200 MB.¹",
        "Backups run every night at 02:00.²",
        "Done.",
    ]
    assert split_sentences(STREAMED[3]) == [
        "上传上限为 200 MB。（来源1）", "备份每晚运行[来源2]。", "结束。"
    ]
