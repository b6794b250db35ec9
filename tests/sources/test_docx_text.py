"""DOCX text python-docx's paragraph API skips: tracked changes, content controls, text boxes,
tables, headers and footers; and ingest saying what it could not read."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import docx
import pytest
from django.core.management import call_command

from kbqa.core.generation.prompt import build_answer_prompt
from kbqa.core.readers.extractive.reader import ExtractiveProvider
from sources.models import Chunk
from sources.parsers import parse_file
from sources.services import document_ingest
from tests.fakes import make_block
from tests.sources.docx_builder import (
    block_control,
    deleted,
    docx_with,
    embedded_object,
    inline_control,
    inserted,
    para,
    run,
    table,
    text_box,
)

WriteFile = Callable[[str, bytes | str], Path]
ISSUE_DOCX = docx_with([
    para(run("Uploads"), style="Heading1"),
    para(run("The upload limit is "), inserted("200 MB per file.")),
    para(run("Backups run every night at 02:00.")),
])


def test_issue_case_tracked_insertion_is_stored_and_answers_the_question() -> None:
    parsed = parse_file(name="uploads.docx", data=ISSUE_DOCX)
    assert parsed.text == (
        "# Uploads\n\nThe upload limit is 200 MB per file.\n\nBackups run every night at 02:00."
    )
    block = make_block(1, parsed.text, title="Uploads")
    prompt = build_answer_prompt(question="What is the upload limit?", blocks=[block])
    assert ExtractiveProvider().compose(prompt) == "The upload limit is 200 MB per file. [1]"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        # tracked changes: insertions in, deletions out (English and Chinese)
        ([para(run("Refunds take "), deleted("10"), inserted("5"), run(" business days."))],
         "Refunds take 5 business days."),
        ([para(run("上传上限为 "), deleted("100 MB"), inserted("200 MB"), run("。"))],
         "上传上限为 200 MB。"),
        ([para(deleted("This sentence was removed."))], ""),
        # content controls, block and inline
        ([block_control(para(run("Owner: IT Operations.")))], "Owner: IT Operations."),
        ([para(run("联系人："), inline_control("信息部 王芳"))], "联系人：信息部 王芳"),
        # a text box, read once although Word writes it twice (choice and fallback)
        ([para(run("Backups")), para(text_box("Backups run every night."))],
         "Backups\n\nBackups run every night."),
        ([para(text_box("备份每晚运行。"))], "备份每晚运行。"),
        # tables, cells with tracked insertions and content controls
        ([table([["Plan", "Quota"], ["Business", para(run("1 "), inserted("TB"))]])],
         "Plan: Business; Quota: 1 TB."),
        ([table([["方案", "空间"], ["商业版", block_control(para(run("1 TB")))]])],
         "方案：商业版，空间：1 TB。"),
    ],
)
def test_docx_containers(body: list[str], expected: str) -> None:
    data = docx_with([para(run("Policy"), style="Heading1"), *body])
    text = parse_file(name="p.docx", data=data).text
    assert text == "# Policy" + (f"\n\n{expected}" if expected else "")


TRAVEL_TABLE = docx_with([
    para(run("Travel allowances"), style="Heading1"),
    para(run("The allowances below apply to every business trip.")),
    table([
        ["City", "Hotel", "Meals"],
        ["Paris", "EUR 240 per night", "EUR 60 a day"],
        ["Berlin", "EUR 180 per night", "EUR 50 a day"],
    ]),
])


def test_a_question_on_a_table_row_is_answered_with_a_readable_sentence() -> None:
    parsed = parse_file(name="travel.docx", data=TRAVEL_TABLE)
    assert parsed.text == (
        "# Travel allowances\n\nThe allowances below apply to every business trip.\n\n"
        "City: Paris; Hotel: EUR 240 per night; Meals: EUR 60 a day.\n\n"
        "City: Berlin; Hotel: EUR 180 per night; Meals: EUR 50 a day."
    )
    block = make_block(1, parsed.text, title="Travel allowances")
    prompt = build_answer_prompt(question="What is the hotel allowance in Paris?", blocks=[block])
    assert ExtractiveProvider().compose(prompt) == (
        "City: Paris; Hotel: EUR 240 per night; Meals: EUR 60 a day. [1]"
    )


def header_row(*cells: str) -> str:
    """A row Word repeats as the header on each page (``w:tblHeader``)."""
    tcs = "".join(f"<w:tc>{para(run(c))}</w:tc>" for c in cells)
    return f"<w:tr><w:trPr><w:tblHeader/></w:trPr>{tcs}</w:tr>"


def bold(text: str) -> str:
    return f'<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">{text}</w:t></w:r>'


@pytest.mark.parametrize(
    ("tbl", "expected"),
    [
        # two columns of names and values, no header: each row reads "name: value."
        (table([["Owner", "IT Operations"], ["Contact", "Wang Fang"]]),
         "Owner: IT Operations.\n\nContact: Wang Fang."),
        # labels over figures: a header, also with two columns
        (table([["Plan", "VPN seats"], ["Business", "25"]]), "Plan: Business; VPN seats: 25."),
        # a first row in bold is a header although no cell holds a figure
        (table([[para(bold("Role")), para(bold("Owner"))], ["Payroll", "Li Na"]]),
         "Role: Payroll; Owner: Li Na."),
        # Word's "Repeat as header row"
        ("<w:tbl>" + header_row("Role", "Owner") + "<w:tr><w:tc>" + para(run("Payroll"))
         + "</w:tc><w:tc>" + para(run("Li Na")) + "</w:tc></w:tr></w:tbl>",
         "Role: Payroll; Owner: Li Na."),
        # a cell merged with the one above keeps the row's subject; empty cells left out
        ("<w:tbl><w:tr>" + "".join(f"<w:tc>{para(run(c))}</w:tc>" for c in
                                    ("City", "Item", "Cap")) + "</w:tr>"
         "<w:tr><w:tc><w:tcPr><w:vMerge w:val=\"restart\"/></w:tcPr>" + para(run("Paris"))
         + "</w:tc><w:tc>" + para(run("Hotel")) + "</w:tc><w:tc>" + para(run("EUR 240"))
         + "</w:tc></w:tr><w:tr><w:tc><w:tcPr><w:vMerge/></w:tcPr><w:p/></w:tc><w:tc>"
         + para(run("Meals")) + "</w:tc><w:tc><w:p/></w:tc></w:tr></w:tbl>",
         "City: Paris; Item: Hotel; Cap: EUR 240.\n\nCity: Paris; Item: Meals."),
        # Chinese: full-width colon and comma, as a Markdown row; a full stop at the end
        (table([["城市", "酒店", "餐费"], ["北京", "每晚 800 元", "每天 100 元"]]),
         "城市：北京，酒店：每晚 800 元，餐费：每天 100 元。"),
        # a cell that ends a sentence gets no second full stop
        (table([["Item", "Rule"], ["Refunds", "Paid within 5 days."]]),
         "Item: Refunds; Rule: Paid within 5 days."),
    ],
)
def test_table_rows_read_as_statements(tbl: str, expected: str) -> None:
    text = parse_file(name="t.docx", data=docx_with([tbl])).text
    assert text == expected


@pytest.mark.parametrize(
    ("header", "footer", "expected"),
    [
        ("Effective 2025-07-01", "Owner: IT Operations",
         "Effective 2025-07-01\n\nOwner: IT Operations"),
        ("生效日期：2025-07-01", "Page 3", "生效日期：2025-07-01"),  # a page number says nothing
        ("Policy", "", ""),  # the heading again says nothing
    ],
)
def test_headers_and_footers_once_at_the_end(header: str, footer: str, expected: str) -> None:
    data = docx_with([para(run("Policy"), style="Heading1"), para(run("Text."))],
                     header=header, footer=footer)
    text = parse_file(name="p.docx", data=data).text
    assert text == "# Policy\n\nText." + (f"\n\n{expected}" if expected else "")


def test_unread_content_is_reported_by_the_parser() -> None:
    data = docx_with([para(run("Quotas are in the sheet below.")), para(embedded_object())])
    parsed = parse_file(name="quotas.docx", data=data)
    assert parsed.warnings == (
        "quotas.docx: 1 embedded object was not read: only text is stored, and that content "
        "cannot be cited",
    )
    assert parse_file(name="uploads.docx", data=ISSUE_DOCX).warnings == ()


@pytest.mark.django_db
def test_ingest_reports_unread_content(
    write_file: WriteFile, capsys: pytest.CaptureFixture[str]
) -> None:
    data = docx_with([para(run("Quotas are in the sheet below.")), para(embedded_object())])
    result = document_ingest(path=write_file("quotas.docx", data))
    assert result.warnings == (
        "quotas.docx: 1 embedded object was not read: only text is stored, and that content "
        "cannot be cited",
    )
    # (another text: a copy of a stored one is not added, and says only that)
    other = docx_with([para(run("Quotas for 2026 are in the sheet below.")),
                       para(embedded_object())])
    path = write_file("quotas2.docx", other)
    call_command("ingest", str(path))
    assert f"WARNING {path}: 1 embedded object was not read" in capsys.readouterr().err


def test_a_numbered_list_keeps_its_numbers() -> None:
    # Word numbers a "List Number" run itself; before, its steps read as "- " bullets, so a
    # how-to answer could not tell a procedure from a checklist
    data = docx_with([para(run("Rotor inspection"), style="Heading2"),
                      para(run("Switch off the centrifuge."), style="ListNumber"),
                      para(run("Open the lid."), style="ListNumber"),
                      para(run("Tools you need:")),
                      para(run("Lifting tool"), style="ListBullet"),
                      para(run("Record the inspection."), style="ListNumber")])
    assert parse_file(name="m.docx", data=data).text == (
        "## Rotor inspection\n\n1. Switch off the centrifuge.\n\n2. Open the lid.\n\n"
        "Tools you need:\n\n- Lifting tool\n\n1. Record the inspection.")


def word_table_docx(header: list[str], rows: list[list[str]]) -> bytes:
    """A DOCX written by python-docx as Word writes a simple table: a heading, then the
    table with its header row in bold."""
    document = docx.Document()
    document.add_heading("Office facilities", level=1)
    grid = document.add_table(rows=1 + len(rows), cols=len(header))
    for r, values in enumerate([header, *rows]):
        for c, value in enumerate(values):
            grid.cell(r, c).paragraphs[0].add_run(value).bold = r == 0
    buf = io.BytesIO()
    document.save(buf)
    return buf.getvalue()


@pytest.mark.django_db
def test_a_stored_table_row_says_which_value_is_in_which_column(write_file: WriteFile) -> None:
    # A header label with a space ran into its cell: "Chengdu: Bike storage Outdoor racks at
    # gate C." A row now reads as a Markdown table's row is read (kbqa.core.text.tables).
    data = word_table_docx(["City", "Bike storage", "Opening hours"],
                           [["Chengdu", "Outdoor racks at gate C", "7:00 to 22:00"],
                            ["Xi'an", "", "8:00 to 20:00"]])
    document_ingest(path=write_file("facilities.docx", data))
    stored = "\n\n".join(Chunk.objects.order_by("ordinal").values_list("text", flat=True))
    assert stored == (
        "City: Chengdu; Bike storage: Outdoor racks at gate C; Opening hours: 7:00 to 22:00.\n\n"
        "City: Xi'an; Opening hours: 8:00 to 20:00."
    )
