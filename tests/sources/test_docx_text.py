"""DOCX text python-docx's paragraph API skips: tracked changes, content controls, text boxes,
tables, headers and footers; and ingest saying what it could not read."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from django.core.management import call_command

from kbqa.core.generation.prompt import build_answer_prompt
from kbqa.core.readers.extractive.reader import ExtractiveProvider
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
         "Plan | Quota\n\nBusiness | 1 TB"),
        ([table([["方案", "空间"], ["商业版", block_control(para(run("1 TB")))]])],
         "方案 | 空间\n\n商业版 | 1 TB"),
    ],
)
def test_docx_containers(body: list[str], expected: str) -> None:
    data = docx_with([para(run("Policy"), style="Heading1"), *body])
    text = parse_file(name="p.docx", data=data).text
    assert text == "# Policy" + (f"\n\n{expected}" if expected else "")


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
    call_command("ingest", str(write_file("quotas2.docx", data)))
    assert "WARNING quotas2.docx: 1 embedded object was not read" in capsys.readouterr().err
