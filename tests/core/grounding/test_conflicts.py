from __future__ import annotations

from dataclasses import replace

import pytest

from kbqa.core.grounding.conflicts import _contested, _side, find_conflicts
from kbqa.core.grounding.mentions import mentions_of
from kbqa.core.text.quantities import extract_quantities
from kbqa.core.types import Block, Chunk, Conflict, ConflictSide


def block(
    n: int, doc: str, text: str, authority: str = "other", updated: str = "2025-01-01"
) -> Block:
    chunk = Chunk(
        chunk_id=f"{doc}#c01",
        doc_id=doc,
        title=f"Title {doc}",
        text=text,
        updated=updated,
        authority=authority,
    )
    return Block(n=n, chunk=chunk, score=1.0, tokens=10, text=text)


# ----------------------------------------------------------------------------- quantities


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Uploads are limited to 200 MB.", [(200.0, "MB", "200 MB")]),
        ("Uploads are limited to 0.2 GB.", [(200.0, "MB", "0.2 GB")]),
        ("Max 1 TB or 500KB.", [(1e6, "MB", "1 TB"), (0.5, "MB", "500KB")]),
        ("A 1 MiB file.", [(1.048576, "MB", "1 MiB")]),
        ("单个文件最大 100MB。", [(100.0, "MB", "100MB")]),
        ("单个文件最大 ２００ＭＢ。", [(200.0, "MB", "200MB")]),
        ("Kept for 30 days.", [(30.0, "day", "30 days")]),
        ("Kept for 24 hours.", [(1.0, "day", "24 hours")]),
        ("Kept for 2 weeks.", [(14.0, "day", "2 weeks")]),
        ("保留 30 天，或三十天。", [(30.0, "day", "30 天"), (30.0, "day", "三十天")]),
        ("保留 3 个小时。", [(0.125, "day", "3 个小时")]),
        ("Refunds take 5 business days.", [(5.0, "business day", "5 business days")]),
        ("Up to 1,000 requests per minute.", [(1000.0, "req/min", "1,000 requests per minute")]),
        ("Up to 10 requests/second.", [(600.0, "req/min", "10 requests/second")]),
        ("Up to 100 rpm.", [(100.0, "req/min", "100 rpm")]),
        ("每分钟最多 100 次。", [(100.0, "req/min", "100 次")]),
        ("上限 60 次/分钟。", [(60.0, "req/min", "60 次/分钟")]),
        ("A 20% discount, 30 percent.", [(20.0, "%", "20%"), (30.0, "%", "30 percent")]),
        ("It costs $30 or 30 USD.", [(30.0, "USD", "$30"), (30.0, "USD", "30 USD")]),
        ("价格 ¥50 或 50 元或 RMB 50。", [(50.0, "CNY", "¥50"), (50.0, "CNY", "50 元"),
                                     (50.0, "CNY", "RMB 50")]),
        ("Version 2.1.0 has 3 items.", []),
    ],
)
def test_extract_quantities(text: str, expected: list[tuple[float, str, str]]) -> None:
    got = [(round(q.value, 6), q.unit, q.text) for q in extract_quantities(text)]
    assert got == expected


# ----------------------------------------------------------------------------- conflicts


UPLOAD_Q = "What is the maximum upload size?"


def sides(conflict: Conflict) -> list[tuple[int, str, str]]:
    return [(s.n, s.doc_id, s.value_text) for s in conflict.sides]


def test_upload_size_conflict_with_all_side_details() -> None:
    blocks = [
        block(1, "faq", "The maximum upload size is 200 MB.", "faq", "2025-03-01"),
        block(2, "wiki", "The maximum upload size is 100 MB per file.", "faq", "2024-01-10"),
    ]
    assert find_conflicts(blocks, UPLOAD_Q) == [
        Conflict(
            unit="MB",
            sides=(
                ConflictSide(1, "faq#c01", "faq", "Title faq", "2025-03-01", "faq", "200 MB"),
                ConflictSide(2, "wiki#c01", "wiki", "Title wiki", "2024-01-10", "faq", "100 MB"),
            ),
            context=("maximum", "upload", "size"),
            preferred=None,
        )
    ]


@pytest.mark.parametrize(
    ("text_a", "text_b", "question", "found"),
    [
        # different things measured in the same unit
        (
            "Deleted items stay in the recycle bin for 30 days.",
            "The free trial lasts 90 days.",
            "How long is the free trial?",
            False,
        ),
        # the same value written two ways
        ("The maximum upload size is 0.2 GB.", "The maximum upload size is 200 MB.", UPLOAD_Q,
         False),
        ("Sessions time out after 24 hours.", "Sessions time out after 1 day.",
         "When do sessions time out?", False),
        # Chinese
        ("单个文件最大 200 MB。", "单个文件最大 100MB。", "单个文件最大多少？", True),
        # one shared term is not enough
        ("Uploads are limited to 200 MB.", "Attachments are limited to 100 MB.", UPLOAD_Q, False),
        # the question asks another measure than the values' (a tester got the upload-size
        # conflict card for the file name length)
        ("The maximum size of a single uploaded file is 200 MB. File names can be up to 255 "
         "characters long.", "Files up to 100 MB can be uploaded.",
         "What is the maximum file name length?", False),
        ("单个文件最大 200 MB。", "单个文件最大 100MB。", "文件名最大长度是多少？", False),
        # what the measure is of: a page size is not what two upload sizes are of (a tester
        # got the upload-size conflict card for the API's page size)
        ("The maximum size of a single uploaded file is 200 MB.",
         "Files up to 100 MB can be uploaded.", "What's the page size limit of the API?", False),
        ("The maximum size of a single uploaded file is 200 MB.",
         "Files up to 100 MB can be uploaded.", "What's the per-file size cap?", True),
        # same document twice is never a conflict
        ("The maximum upload size is 200 MB.", "The maximum upload size is 100 MB.", UPLOAD_Q,
         None),
    ],
)
def test_conflict_rules(text_a: str, text_b: str, question: str, found: bool | None) -> None:
    doc_b = "a" if found is None else "b"
    blocks = [block(1, "a", text_a), block(2, doc_b, text_b)]
    assert bool(find_conflicts(blocks, question)) is bool(found)


def test_both_values_must_be_of_the_thing_the_measure_is_of() -> None:
    # A meeting note under "Upload limit pages disagree" names "page" (the documentation's
    # pages): its 200 MB is still an upload size, as the guide's 100 MB is, and neither is
    # the API's page size. A tester got the upload-size conflict card for "the max page size".
    note = block(1, "note", "The manual says the maximum size of a single uploaded file is "
                            "200 MB.")
    note = replace(note, chunk=replace(note.chunk, section="Upload limit pages disagree"))
    guide = block(2, "guide", "The maximum size for a single uploaded file is 100 MB.")
    assert find_conflicts([note, guide], "what's the max page size for the API?") == []
    assert [c.unit for c in find_conflicts([note, guide], UPLOAD_Q)] == ["MB"]


@pytest.mark.parametrize(("question", "found"), [
    # what happens, or how to do it, asks no value: the upload limits do not block it
    ("网断了上传会怎样", False),
    ("How do I upload a folder?", False),
    # ...unless it states a value, names a bound or the unit
    ("What happens if I upload a 150 MB file?", True),
    ("上传文件超过大小限制会怎样？", True),
])
def test_an_outcome_or_a_procedure_is_no_ask_for_a_value(question: str, found: bool) -> None:
    blocks = [block(1, "a", "单个上传文件的最大大小为 200 MB。The maximum upload size is 200 MB."),
              block(2, "b", "单个上传文件的最大大小为 100 MB。The maximum upload size is 100 MB.")]
    assert bool(find_conflicts(blocks, question)) is found


def test_conflict_must_be_about_the_question() -> None:
    blocks = [
        block(1, "a", "The maximum upload size is 200 MB. Deleted items stay 30 days."),
        block(2, "b", "The maximum upload size is 100 MB."),
    ]
    assert find_conflicts(blocks, "How long do deleted items stay in the recycle bin?") == []
    assert [c.unit for c in find_conflicts(blocks, UPLOAD_Q)] == ["MB"]
    # the question names the unit and shares a word with one side's context
    assert [c.unit for c in find_conflicts(blocks, "How many MB can an upload be?")] == ["MB"]


@pytest.mark.parametrize(
    ("text_a", "values_a"),
    [
        # without the clause cut "recycle bin files" would precede "90 days" too
        ("Recycle bin files are purged after review; the trial lasts 90 days.", []),
        ("Recycle bin files are purged after review. The trial lasts 90 days.", []),
        # without the cut at the previous quantity, likewise
        ("Recycle bin files are purged after 2 days, the trial lasts 90 days.", ["2 days"]),
    ],
)
def test_context_stops_at_the_clause_or_previous_quantity(
    text_a: str, values_a: list[str]
) -> None:
    blocks = [block(1, "a", text_a), block(2, "b", "Recycle bin files are kept 60 days.")]
    found = find_conflicts(blocks, "How long are recycle bin files kept?")
    assert [c.sides[0].value_text for c in found] == values_a


def test_meeting_note_quoting_both_values_is_no_conflict() -> None:
    note = "We raised the maximum upload size from 100 MB to 200 MB. Maximum upload size 100 MB."
    blocks = [
        block(1, "policy", "The maximum upload size is 200 MB.", "policy"),
        block(2, "note", note, "meeting-note"),
    ]
    assert find_conflicts(blocks, UPLOAD_Q) == []


@pytest.mark.parametrize(
    ("authority_a", "authority_b", "preferred"),
    [
        ("policy", "faq", 0),
        ("faq", "manual", 1),
        ("meeting-note", "faq", 1),
        ("archived", "other", 1),
        ("archived", "meeting-note", 1),
        ("faq", "faq", None),
        ("other", "meeting-note", None),
    ],
)
def test_authority_preference(authority_a: str, authority_b: str, preferred: int | None) -> None:
    blocks = [
        block(1, "a", "The maximum upload size is 200 MB.", authority_a),
        block(2, "b", "The maximum upload size is 100 MB.", authority_b),
    ]
    (conflict,) = find_conflicts(blocks, UPLOAD_Q)
    assert conflict.preferred == preferred


@pytest.mark.parametrize(
    ("question", "preferred", "preferred_by"),
    [
        ("What is the maximum upload size in 2022?", 1, "year"),  # the archived 2022 version
        ("What was the maximum upload size in 2025?", 0, "year"),
        ("What is the maximum upload size?", 0, "authority"),  # no year: authority decides
        ("What is the maximum upload size in 2019?", 0, "authority"),  # neither is of 2019
    ],
)
def test_a_year_in_the_question_prefers_that_years_document(
    question: str, preferred: int, preferred_by: str
) -> None:
    blocks = [
        block(1, "a", "The maximum upload size is 200 MB.", "policy", "2025-03-01"),
        block(2, "b", "The maximum upload size is 100 MB.", "archived", "2022-03-01"),
    ]
    (conflict,) = find_conflicts(blocks, question)
    assert (conflict.preferred, conflict.preferred_by) == (preferred, preferred_by)


def test_two_amounts_in_a_currency_of_any_code_are_a_conflict() -> None:
    # a tester's Singapore FAQ and policy: SGD was no currency, so the FAQ's older value was
    # quoted alone, with no card and no notice
    blocks = [
        block(1, "faq", "The meal allowance for overseas business travel is SGD 50 per day.",
              "faq", "2024-06-15"),
        block(2, "policy", "The meal allowance for overseas business travel is SGD 60 per day.",
              "policy", "2025-03-01"),
    ]
    (conflict,) = find_conflicts(blocks, "How much is the daily meal allowance overseas?")
    assert conflict.unit == "SGD/day"
    assert (conflict.preferred, conflict.preferred_by) == (1, "authority")


def test_one_conflict_per_document_pair_and_unit() -> None:
    blocks = [
        block(1, "a", "The maximum upload size is 200 MB. The maximum upload size is 200 MB."),
        block(2, "b", "The maximum upload size is 100 MB."),
        block(3, "c", "The maximum upload size is 50 MB."),
    ]
    got = [sides(c) for c in find_conflicts(blocks, UPLOAD_Q)]
    assert got == [
        [(1, "a", "200 MB"), (2, "b", "100 MB")],
        [(1, "a", "200 MB"), (3, "c", "50 MB")],
        [(2, "b", "100 MB"), (3, "c", "50 MB")],
    ]


def test_one_statement_with_another_number_is_a_conflict() -> None:
    # A copy of a page edited later: the words agree, the number does not; one shared context
    # word before the number ("compared") would not have been enough.
    a = block(1, "d1", "Sales rose 81 percent, compared to $10.4 billion in revenue in Q1 2021.")
    b = block(2, "d2", "Sales rose 81 percent, compared to $1.39 billion in revenue in Q1 2021.")
    found = find_conflicts([a, b], "What was the revenue in Q1 2021?")
    assert [(c.sides[0].value_text, c.sides[1].value_text) for c in found] == [
        ("$10.4 billion", "$1.39 billion")
    ]
    assert find_conflicts([a, b], "Who runs the Berlin factory?") == []


def test_two_dates_for_one_release_are_a_conflict() -> None:
    said = "Marvel's Spider-Man was released for the PlayStation 4 on"
    a = block(1, "d1", f"{said} September 7, 2018.")
    b = block(2, "d2", f"{said} September 1, 2020.")
    found = find_conflicts([a, b], "When was Marvel's Spider-Man released?")
    assert [(c.unit, c.sides[0].value_text, c.sides[1].value_text) for c in found] == [
        ("date", "September 7, 2018", "September 1, 2020")
    ]
    assert find_conflicts([a, b], "Which console was Spider-Man made for?") == []


def test_a_measured_word_meets_its_other_forms() -> None:
    # "upload" of the question is "uploaded" in the text and "uploader" in the title
    blocks = [
        block(1, "manual-a", "The maximum size of a single uploaded file is 200 MB.", "manual"),
        block(2, "manual-b", "The maximum size for a single uploaded file is 100 MB.", "manual"),
    ]
    (conflict,) = find_conflicts(blocks, UPLOAD_Q)
    assert conflict.preferred is None


def test_a_weaker_sides_value_stated_by_an_equal_source_leaves_the_conflict_open() -> None:
    note = block(1, "note", "The maximum upload size of a single file is 200 MB.", "meeting-note")
    guide = block(2, "guide", "The maximum upload size of a single file is 100 MB.", "manual")
    manual = block(3, "manual", "The maximum upload size of a single file is 200 MB.", "manual")
    (weak,), (strong,), (same,) = (mentions_of(b) for b in (note, guide, manual))
    resolved = Conflict(unit="MB", sides=(_side(weak), _side(strong)), context=("upload",),
                        preferred=1)
    contested = _contested(resolved, weak, strong, [weak, strong, same])
    assert contested.preferred is None
    assert [s.doc_id for s in contested.sides] == ["guide", "manual"]
    # only the weaker source says it: the notice stands
    assert _contested(resolved, weak, strong, [weak, strong]) == resolved


def _office(n: int, doc: str, title: str, text: str) -> Block:
    chunk = Chunk(chunk_id=f"{doc}#c02", doc_id=doc, title=title, section="二、报销时限",
                  text=text, updated="2025-06-01", authority="policy")
    return Block(n=n, chunk=chunk, score=1.0, tokens=10, text=text)


@pytest.mark.parametrize(
    ("question", "preferred", "preferred_by"),
    [
        # two offices' policies: the office the question names decides, however current
        ("杭州办公室的报销单要在多少天内提交？", 1, "place"),
        ("报销单要在多少天内提交？", None, "authority"),  # no place: the card
        ("In the Berlin office, how many days do I have to submit an expense claim?", 1,
         "place"),
    ],
)
def test_a_place_the_question_names_prefers_that_places_document(
    question: str, preferred: int | None, preferred_by: str
) -> None:
    zh = not question.isascii()
    blocks = [
        _office(1, "cn", "费用报销制度（中国区）" if zh else "Expense policy (Europe)",
                "报销单须在费用发生之日起 60 天内提交。" if zh
                else "Submit an expense claim within 60 days."),
        _office(2, "hz", "杭州办公室报销制度" if zh else "Expense policy: Berlin office",
                "报销单须在费用发生之日起 30 天内提交。" if zh
                else "Submit an expense claim within 30 days."),
    ]
    (conflict,) = find_conflicts(blocks, question)
    assert (conflict.preferred, conflict.preferred_by) == (preferred, preferred_by)


@pytest.mark.parametrize(
    ("people", "rule", "question"),
    [
        ("每周至少两天居家办公的员工，可以借用一台显示器。", "实习生每周至少出勤 3 天。",
         "实习生每周至少要来几天？"),
        ("Employees who work from home at least two days a week can borrow a monitor.",
         "Interns must be in the office at least 3 days a week.",
         "How many days a week do interns have to come in?"),
    ],
)
def test_a_value_saying_which_people_a_rule_is_for_is_no_value_of_another_rule(
    people: str, rule: str, question: str
) -> None:
    blocks = [block(1, "equipment", people, "policy"), block(2, "interns", rule, "manual")]
    assert find_conflicts(blocks, question) == []


def test_values_in_a_unit_no_price_is_are_no_conflict_for_a_price_question() -> None:
    # a tester's "and what about the parking fee?" after the upload-size conflict became
    # "What is the parking fee of a single uploaded file?" and got the size card again
    blocks = [block(1, "guide", "A single uploaded file can be at most 150 MB."),
              block(2, "admin", "A single uploaded file can be at most 250 MB.")]
    assert find_conflicts(blocks, "What is the maximum size of a single uploaded file?")
    assert not find_conflicts(blocks, "What is the locker fee of a single uploaded file?")
    # ...while two prices do disagree on a price question
    prices = [block(1, "a", "The locker fee is EUR 5 per month."),
              block(2, "b", "The locker fee is EUR 8 per month.")]
    assert find_conflicts(prices, "What is the locker fee?")
