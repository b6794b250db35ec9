from __future__ import annotations

import pytest

from kbqa.core.citations import (
    CLAIMS_SCHEMA,
    DraftFormatError,
    Verifier,
    feedback_lines,
    parse_claim,
    parse_json_draft,
)
from kbqa.core.errors import KbqaError
from kbqa.core.types import Block, Chunk, Claim, Verdict

RECYCLE = "Deleted items stay in the recycle bin for 30 days, after which they are removed."
UPLOAD = 'Uploads are limited to 200 MB per file. Files are "scanned for viruses" on arrival.'
TRIAL = "The free trial lasts 90 days and includes all features."
RECYCLE_ZH = "回收站中的文件保留 30 天，之后永久删除。"


def block(n: int, text: str, shown: str | None = None) -> Block:
    chunk = Chunk(chunk_id=f"doc-{n}#c01", doc_id=f"doc-{n}", title=f"Doc {n}", text=text)
    return Block(n=n, chunk=chunk, score=1.0, tokens=10, text=shown if shown else text)


# ----------------------------------------------------------------------------- parse_claim


@pytest.mark.parametrize(
    ("sentence", "text", "citations"),
    [
        ("Items stay 30 days [2].", "Items stay 30 days.", (2,)),
        ("Items stay 30 days. [2]", "Items stay 30 days.", (2,)),
        ("Items stay 30 days.[2]", "Items stay 30 days.", (2,)),
        ("Items stay 30 days [1][3].", "Items stay 30 days.", (1, 3)),
        ("Items stay 30 days [1, 3].", "Items stay 30 days.", (1, 3)),
        ("Items stay 30 days [1-3].", "Items stay 30 days.", (1, 2, 3)),
        ("Items stay 30 days [^2].", "Items stay 30 days.", (2,)),
        ("Items stay 30 days [３].", "Items stay 30 days.", (3,)),
        ("Items stay [2] 30 days [2][1].", "Items stay 30 days.", (2, 1)),
        ("回收站保留 30 天[2]。", "回收站保留 30 天。", (2,)),
        ("回收站保留 30 天。【2】", "回收站保留 30 天。", (2,)),
        ("回收站保留 30 天【２】。", "回收站保留 30 天。", (2,)),
        ("回收站[1]保留 30 天。", "回收站保留 30 天。", (1,)),
        ("He wrote teh [sic] word.", "He wrote teh [sic] word.", ()),
        ("See note [a] here.", "See note [a] here.", ()),
        ("Cats fly [citation needed].", "Cats fly [citation needed].", ()),
        ("See [1](https://x.example/1).", "See [1](https://x.example/1).", ()),
        ("- Upload the file [1].", "Upload the file.", (1,)),
        ("2. Upload the file [1].", "Upload the file.", (1,)),
        ("It costs 3.5 USD [1].", "It costs 3.5 USD.", (1,)),
    ],
)
def test_parse_claim_markers(sentence: str, text: str, citations: tuple[int, ...]) -> None:
    assert parse_claim(sentence) == Claim(text=text, citations=citations, kind="claim")


@pytest.mark.parametrize(
    "sentence",
    [
        "Not covered: the price of the enterprise plan.",
        "not covered: the price.",
        "资料未涵盖：企业版价格。",
        "资料未涵盖:企业版价格。",
        "**Not covered:** the price.",
    ],
)
def test_gap_prefix_makes_a_gap_claim(sentence: str) -> None:
    claim = parse_claim(sentence)
    assert (claim.kind, claim.text, claim.citations) == ("gap", sentence, ())


# ----------------------------------------------------------------------------- gates


BLOCKS = [block(1, RECYCLE), block(2, UPLOAD), block(3, TRIAL), block(4, RECYCLE_ZH)]


@pytest.mark.parametrize(
    ("sentence", "ok", "verified", "issues"),
    [
        ("Deleted items stay in the recycle bin for 30 days [1].", True, (1,), ()),
        ("Uploads are limited to 200 MB per file [2].", True, (2,), ()),
        ("回收站中的文件保留 30 天【4】。", True, (4,), ()),
        # gate one: the closed set of numbers
        (
            "Uploads are limited to 200 MB per file [8].",
            False,
            (),
            ("cited a nonexistent chunk number [8]",),
        ),
        (
            "Uploads are limited to 200 MB per file [2][8].",
            False,
            (),
            ("cited a nonexistent chunk number [8]",),
        ),
        # gate two: substantive overlap with the ORIGINAL chunk text
        (
            "The cafeteria opens at noon near the recycle bin [2].",
            False,
            (),
            ("[2] has only 0.00 substantive overlap with this sentence",),
        ),
        (
            "The cafeteria opens at noon for files [2].",
            False,
            (),
            ("[2] has only 0.25 substantive overlap with this sentence",),
        ),
        ("Deleted items stay in the recycle bin.", False, (), ("has no citation",)),
        ("And then [1].", False, (), ("has no substantive terms to check against the sources",)),
        # a wrong number is the worst hallucination
        (
            "Uploads are limited to 500 MB per file [2].",
            False,
            (),
            ("gives the number 500, which appears in none of [2]",),
        ),
        # quotations must be verbatim
        ('Files are "scanned for viruses" on arrival [2].', True, (2,), ()),
        ("Files are “Scanned  for viruses” on arrival [2].", True, (2,), ()),
        (
            'Files are "checked for malware" on arrival [2].',
            False,
            (),
            ("quotes “checked for malware” which does not appear in [2]",),
        ),
        # two facts from two blocks: each block carries part, together they pass
        (
            "Uploads are limited to 200 MB and deleted items stay 30 days [2][1].",
            True,
            (2, 1),
            (),
        ),
        # a decorative extra citation is dropped from the chips, the sentence still passes
        ("Uploads are limited to 200 MB per file [2][3].", True, (2,), ()),
    ],
)
def test_verify(
    sentence: str, ok: bool, verified: tuple[int, ...], issues: tuple[str, ...]
) -> None:
    verdict = Verifier(BLOCKS).verify(parse_claim(sentence))
    assert (verdict.ok, verdict.verified, verdict.issues) == (ok, verified, issues)


def test_overlaps_are_reported_per_issued_citation() -> None:
    verdict = Verifier(BLOCKS).verify(parse_claim("Uploads are limited to 200 MB [2][3][9]."))
    assert verdict.overlaps == ((2, 1.0), (3, 0.0))


def test_verification_reads_the_original_chunk_not_the_compressed_block() -> None:
    compressed = block(2, UPLOAD, shown="Uploads: max 200 MB.")
    verdict = Verifier([compressed]).verify(parse_claim('Files are "scanned for viruses" [2].'))
    assert verdict.ok
    wrong = block(2, "Uploads: max 200 MB.", shown=UPLOAD)
    verdict = Verifier([wrong]).verify(parse_claim('Files are "scanned for viruses" [2].'))
    assert not verdict.ok


def test_common_terms_removed_only_with_three_or_more_blocks() -> None:
    texts = ["Kbqa policy: uploads limited.", "Kbqa policy: trial lasts.", "Kbqa policy: bin."]
    three = Verifier([block(i, t) for i, t in enumerate(texts, 1)])
    assert three.common_terms == frozenset({"kbqa", "policy"})
    # with the product name and "policy" removed only "cafeteria" is left: 0 of 1 found
    verdict = three.verify(parse_claim("Kbqa policy covers the cafeteria [1]."))
    assert verdict.issues == ("[1] has only 0.00 substantive overlap with this sentence",)
    two = Verifier([block(i, t) for i, t in enumerate(texts[:2], 1)])
    assert two.common_terms == frozenset()
    assert two.verify(parse_claim("Kbqa policy covers the cafeteria [1].")).ok


@pytest.mark.parametrize(
    ("sentence", "ok", "issues"),
    [
        ("Not covered: the price of the enterprise plan.", True, ()),
        ("资料未涵盖：企业版价格。", True, ()),
        ("Not covered: whether the 45 day rule applies.", False, ("has no citation",)),
        # a gap that gives a number must cite where the number comes from
        ("Not covered: whether the 30 days apply to the recycle bin [1].", True, ()),
    ],
)
def test_gap_claims(sentence: str, ok: bool, issues: tuple[str, ...]) -> None:
    verdict = Verifier(BLOCKS).verify(parse_claim(sentence))
    assert (verdict.ok, verdict.claim.kind, verdict.issues) == (ok, "gap", issues)


def test_thousands_separator_matches_plain_number() -> None:
    verifier = Verifier([block(1, "The API allows 1000 requests per minute per token.")])
    assert verifier.verify(parse_claim("The API allows 1,000 requests per minute [1].")).ok


# ----------------------------------------------------------------------------- JSON contract


def test_parse_json_draft_merges_markers_and_adds_the_gap() -> None:
    draft = (
        '```json\n{"claims": [{"text": "Uploads are limited to 200 MB [3].", "citations": [2]}],'
        ' "not_covered": "Not covered: the price."}\n```'
    )
    assert parse_json_draft(draft) == [
        Claim(text="Uploads are limited to 200 MB.", citations=(2, 3)),
        Claim(text="Not covered: the price.", citations=(), kind="gap"),
    ]


@pytest.mark.parametrize(
    ("draft", "message"),
    [
        (
            "not json",
            "The model's answer is not valid JSON: Expecting value: line 1 column 1 (char 0).",
        ),
        ("[]", "The model's answer does not match the claims format at the top level: "
               "[] is not of type 'object'."),
        ('{"claims": [{"text": "A.", "citations": ["1"]}]}',
         "The model's answer does not match the claims format at claims/0/citations/0: "
         "'1' is not of type 'integer'."),
        ('{"claims": [{"text": "A."}]}',
         "The model's answer does not match the claims format at claims/0: "
         "'citations' is a required property."),
    ],
)
def test_parse_json_draft_errors(draft: str, message: str) -> None:
    with pytest.raises(DraftFormatError) as info:
        parse_json_draft(draft)
    assert str(info.value) == message
    assert isinstance(info.value, KbqaError)


def test_schema_is_exported() -> None:
    assert CLAIMS_SCHEMA["required"] == ["claims"]


def test_same_verifier_serves_both_contracts() -> None:
    verifier = Verifier(BLOCKS)
    streamed = verifier.verify(parse_claim("Uploads are limited to 200 MB per file [2]."))
    (claim,) = parse_json_draft(
        '{"claims": [{"text": "Uploads are limited to 200 MB per file.", "citations": [2]}]}'
    )
    assert verifier.verify(claim) == streamed


def test_feedback_lines_one_per_failing_sentence() -> None:
    verifier = Verifier(BLOCKS)
    verdicts: list[Verdict] = [
        verifier.verify(parse_claim(s))
        for s in [
            "Uploads are limited to 200 MB per file [2].",
            "Uploads are limited to 200 MB per file [8].",
            "Deleted items stay in the recycle bin.",
        ]
    ]
    assert feedback_lines(verdicts) == (
        'Sentence 2 ("Uploads are limited to 200 MB per file."): '
        "cited a nonexistent chunk number [8]",
        'Sentence 3 ("Deleted items stay in the recycle bin."): has no citation',
    )
