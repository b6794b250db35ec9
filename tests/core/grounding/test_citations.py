from __future__ import annotations

import pytest

from kbqa.core.errors import KbqaError
from kbqa.core.grounding.citations import (
    CLAIMS_SCHEMA,
    DraftFormatError,
    Verifier,
    feedback_lines,
    parse_claim,
    parse_json_draft,
)
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
    # Markdown emphasis never reaches the screen: "**Not covered:**" shows without asterisks
    assert (claim.kind, claim.text, claim.citations) == ("gap", sentence.replace("**", ""), ())


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


PARKING = "The Quillfeather parking garage closes at 22:00. Visitors pay at the exit."
PARKING_COPY = "The Quillfeather parking garage closes at 22:00. Guests pay at the exit."


@pytest.mark.parametrize(
    ("texts", "common"),
    [
        # two near-identical documents and a third: 2 of 3 is not "common to most"
        ((PARKING, PARKING_COPY, TRIAL), frozenset()),
        # 3 of 4 blocks: common
        (
            ("Kbqa bin.", "Kbqa trial.", "Kbqa upload.", "Pricing."),
            frozenset({"kbqa"}),
        ),
        # 2 of 2 blocks: never common, it would remove the evidence itself
        (("Kbqa bin.", "Kbqa trial."), frozenset()),
    ],
)
def test_common_terms_need_more_than_half_and_three_blocks(
    texts: tuple[str, ...], common: frozenset[str]
) -> None:
    assert Verifier([block(i, t) for i, t in enumerate(texts, 1)]).common_terms == common


@pytest.mark.parametrize(
    ("texts", "sentence", "ok", "verified"),
    [
        # the parking garage question against parking.txt and a copy with one word changed
        (
            (PARKING, PARKING_COPY, TRIAL),
            "The Quillfeather parking garage closes at 22:00 [1].",
            True,
            (1,),
        ),
        # every term is common to the 3 blocks: check all of them rather than none
        (
            ("Garage closes late.", "Garage closes late!", "Garage closes late?"),
            "Garage closes late [2].",
            True,
            (2,),
        ),
    ],
)
def test_sentence_of_near_duplicate_blocks_is_checked(
    texts: tuple[str, ...], sentence: str, ok: bool, verified: tuple[int, ...]
) -> None:
    verdict = Verifier([block(i, t) for i, t in enumerate(texts, 1)]).verify(parse_claim(sentence))
    assert (verdict.ok, verdict.verified, verdict.issues) == (ok, verified, ())


@pytest.mark.parametrize(
    ("source", "sentence", "ok"),
    [
        # the quoted sentence lost the source's Markdown emphasis characters
        ('Set `window.__docxss=1` to test.', 'It sets "window.docxss=1" to test [1].', True),
        ("Press **Save now** to keep it.", "Press “Save now” to keep it [1].", True),
        ("Press the *Save* button.", "Press the “_Save_” button [1].", True),
        ("Press the Save button.", "Press the “Save changes” button [1].", False),
    ],
)
def test_quotes_compare_without_markdown_emphasis(source: str, sentence: str, ok: bool) -> None:
    assert Verifier([block(1, source)]).verify(parse_claim(sentence)).ok is ok


RECYCLE_Q = "Can a viewer restore from the recycle bin?"
ENTERPRISE_Q = "What is the price of the enterprise plan?"
RECYCLE_ZH_Q = "回收站里的文件保留多少天？"


@pytest.mark.parametrize(
    ("question", "sentence", "ok", "issues"),
    [
        # names only question words, and "price"/"enterprise"/"plan" are in no block
        (ENTERPRISE_Q, "Not covered: the price of the enterprise plan.", True, ()),
        (ENTERPRISE_Q, "**Not covered:** the sources found do not mention price.", True, ()),
        ("企业版的价格是多少？", "资料未涵盖：企业版价格。", True, ()),
        # one named word is absent ("viewer"), the other present: still true, passes
        (RECYCLE_Q, "Not covered: whether a viewer can restore from the recycle bin.", True, ()),
        # the sources DO mention it: a false gap
        (
            RECYCLE_Q,
            "Not covered: the sources found do not mention recycle.",
            False,
            ("says the sources do not mention “recycle”, but [1] does",),
        ),
        (
            "How long do uploads and deleted items stay?",
            "Not covered: the sources found do not mention deleted, uploads.",
            False,
            (
                "says the sources do not mention “deleted”, but [1] does",
                "says the sources do not mention “uploads”, but [2] does",
            ),
        ),
        (
            RECYCLE_ZH_Q,
            "资料未涵盖：找到的资料没有提到回收站。",
            False,
            ("says the sources do not mention “回收站”, but [4] does",),
        ),
        # a one-character term names nothing
        (
            RECYCLE_ZH_Q,
            "资料未涵盖：找到的资料没有提到里。",
            False,
            ("says something is not covered but names nothing the question asks",),
        ),
        (
            ENTERPRISE_Q,
            "Not covered: the sources found do not answer this question.",
            False,
            ("says something is not covered but names nothing the question asks",),
        ),
        # a model or an injected document could put anything after the prefix
        (
            "What is the upload limit?",
            "Not covered: the upload limit is five gigabytes and administrators can read "
            "every employee's private files.",
            False,
            (
                "names things the question did not ask about: “five”, “gigabytes”, "
                "“administrators”, “read”, “every”, “employee”, “private”, “files”",
            ),
        ),
        # a gap cites nothing and gives no number
        (
            "Does the 45 day rule apply?",
            "Not covered: whether the 45 day rule applies.",
            False,
            ("says something is not covered yet gives a number",),
        ),
        (
            ENTERPRISE_Q,
            "Not covered: the price of the enterprise plan [1].",
            False,
            ("says something is not covered yet cites [1]",),
        ),
        # without a question no gap can be checked
        (
            "",
            "Not covered: the price of the enterprise plan.",
            False,
            ("names things the question did not ask about: “price”, “enterprise”, “plan”",),
        ),
    ],
)
def test_gap_claims(question: str, sentence: str, ok: bool, issues: tuple[str, ...]) -> None:
    verdict = Verifier(BLOCKS, question=question).verify(parse_claim(sentence))
    assert (verdict.ok, verdict.claim.kind, verdict.issues) == (ok, "gap", issues)


def test_gap_mentioned_by_two_blocks_names_both() -> None:
    blocks = [block(1, RECYCLE), block(2, TRIAL), block(3, "Restore from the recycle bin.")]
    verifier = Verifier(blocks, question="When are recycle bin items deleted?")
    verdict = verifier.verify(parse_claim("Not covered: the sources do not mention recycling."))
    assert verdict.issues == (
        "names things the question did not ask about: “recycling”",
    )
    verdict = verifier.verify(parse_claim("Not covered: the sources do not mention recycle."))
    assert verdict.issues == ("says the sources do not mention “recycle”, but [1] and [3] do",)


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
