"""Parsing each format into Markdown-like text and metadata; unparseable files refused."""

from __future__ import annotations

import codecs
import io
import re
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from kbqa.core.errors import IngestError
from sources.chunking import chunk_text
from sources.parsers import parse_file
from sources.services import document_ingest
from tests.sources.conftest import docx_bytes, pdf_bytes, pdf_styled


def test_markdown_front_matter_becomes_metadata() -> None:
    data = (
        b"---\ndoc_id: doc-010\ntitle: Travel\nupdated: 2025-06-30\nsource_url: https://x.test/t\n"
        b"authority: policy\nlanguage: en\n---\n# Hotels\n\nUp to 200 USD.\n"
    )
    parsed = parse_file(name="travel.md", data=data)
    assert parsed.meta == {
        "doc_id": "doc-010",
        "title": "Travel",
        "updated": "2025-06-30",
        "source_url": "https://x.test/t",
        "authority": "policy",
        "language": "en",
    }
    assert parsed.text == "# Hotels\n\nUp to 200 USD."


def test_effective_date_is_accepted_as_updated() -> None:
    parsed = parse_file(name="a.md", data=b"---\neffective: 2024-01-31\n---\nText.")
    assert parsed.meta == {"updated": "2024-01-31"}


def test_plain_text_and_gb18030_text() -> None:
    assert parse_file(name="a.txt", data=b"Hello there.").text == "Hello there."
    assert parse_file(name="b.txt", data="报销制度".encode("gb18030")).text == "报销制度"


def test_html_keeps_headings_lists_and_code_and_drops_chrome() -> None:
    html = (
        "<html><head><title>Guide</title><style>p{}</style></head><body>"
        "<nav>Home | About</nav><h1>Setup</h1><div>Install <b>the</b> client.</div>"
        "<ul><li>Step one</li><li>Step two</li></ul><pre>run --fast\n  --now</pre>"
        "<script>alert('x')</script><footer>(c) corp</footer></body></html>"
    )
    parsed = parse_file(name="guide.html", data=html.encode())
    assert parsed.title_guess == "Guide"
    assert parsed.text == (
        "# Setup\n\nInstall the client.\n\n- Step one\n\n- Step two\n\n"
        "```\nrun --fast\n  --now\n```"
    )


def test_html_line_breaks_end_lines() -> None:
    """A link's text followed by <br> no longer runs into the next line ("clickThe password
    is posted at reception." was one sentence, quoted as such)."""
    html = (
        '<div>To connect, <a href="/wifi">click here</a><br>The password is posted at '
        "reception.</div><p>Mon-Fri<br/>9:00-18:00</p><pre>a<br>b</pre>"
    )
    assert parse_file(name="wifi.html", data=html.encode()).text == (
        "To connect, click here\n\nThe password is posted at reception.\n\n"
        "Mon-Fri\n\n9:00-18:00\n\n```\na\nb\n```"
    )


def test_html_table_rows_read_as_statements() -> None:
    """An HTML table is read row by row with its header's labels, as a DOCX table is: cell by
    cell, "Suzhou" and "ext. 8400" were two paragraphs (a tester's helpdesk number)."""
    html = ("<h2>IT Service Desk</h2><table><tr><th>Site</th><th>Phone</th><th>Hours</th></tr>"
            "<tr><td>Munich</td><td>ext. 4400</td><td>7:00 to 18:00 CET</td></tr>"
            "<tr><td>Suzhou</td><td>ext. 8400</td><td>8:00 to 20:00 CST</td></tr></table>"
            "<p>E-mail: servicedesk@halvard.example</p>")
    assert parse_file(name="it.html", data=html.encode()).text == (
        "## IT Service Desk\n\nSite: Munich; Phone: ext. 4400; Hours: 7:00 to 18:00 CET.\n\n"
        "Site: Suzhou; Phone: ext. 8400; Hours: 8:00 to 20:00 CST.\n\n"
        "E-mail: servicedesk@halvard.example")


def test_pdf_text_layer_is_read() -> None:
    parsed = parse_file(
        name="memo.pdf", data=pdf_bytes(["Parking is free on weekends.", "Ask HR."])
    )
    assert "Parking is free on weekends." in parsed.text
    assert "Ask HR." in parsed.text


def test_docx_headings_come_from_styles() -> None:
    data = docx_bytes([("h1", "Leave"), ("", "25 days per year."), ("li", "Carry over 5 days")])
    parsed = parse_file(name="leave.docx", data=data)
    assert parsed.text == "# Leave\n\n25 days per year.\n\n- Carry over 5 days"
    assert parsed.title_guess == "Leave"


def test_docx_without_properties_is_titled_by_its_heading() -> None:
    """Word files written by other tools may have no document properties at all; python-docx
    then calls them "Word Document", a title the user never gave."""
    source = zipfile.ZipFile(io.BytesIO(docx_bytes([("h1", "Travel Insurance"), ("", "Cover.")])))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as bare:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "docProps/core.xml":
                continue
            if item.filename == "_rels/.rels":
                data = re.sub(rb"<Relationship [^>]*core-properties[^>]*/>", b"", data)
            bare.writestr(item, data)
    parsed = parse_file(name="Travel Insurance.docx", data=out.getvalue())
    assert parsed.title_guess == "Travel Insurance"


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        ("empty.md", b"", "empty.md: the file contains no text"),
        ("blank.txt", b" \n\n \t", "blank.txt: the file contains no text"),
        ("junk.txt", bytes(range(256)) * 4, "junk.txt: looks like a binary file, not text"),
        ("scan.pdf", pdf_bytes([]), "scan.pdf: the PDF has no text layer (a scan?); run OCR first"),
        ("broken.pdf", b"%PDF-1.4 nonsense", "broken.pdf: not a readable PDF"),
        (
            "broken.docx",
            b"PK\x03\x04 nonsense",
            "broken.docx: not a readable Word document (.docx): the file is damaged or is not"
            " really a .docx",
        ),
        ("image.png", b"\x89PNG", "image.png: unsupported file type '.png'"),
        (
            "bad.md",
            b"---\ntitle: [unclosed\n---\nText",
            "bad.md: bad front matter (did not find expected ',' or ']' on line 2)",
        ),
        ("list.md", b"---\n- a\n- b\n---\nText", "bad front matter (not a mapping)"),
        (
            "open.md",
            b"---\ntitle: Coffee\n# Coffee\nThe machine is descaled monthly.",
            "open.md: the front matter that the --- on its first line opens is never closed."
            " Add a line holding only --- after its last field, or remove the first line if"
            " the file has no front matter.",
        ),
        (
            "colon.md",
            b"---\ntitle: Travel: Europe\n---\nText",
            "colon.md: bad front matter (mapping values are not allowed in this context on line"
            ' 2). The block between the --- lines at the top is YAML: put a value that holds a'
            ' colon or a # in quotes, e.g. title: "Travel: Europe"',
        ),
    ],
)
def test_unparseable_files_raise_ingest_error_naming_the_file(
    name: str, data: bytes, reason: str
) -> None:
    with pytest.raises(IngestError) as info:
        parse_file(name=name, data=data)
    assert reason in str(info.value)


NOTEPAD = "Gym membership subsidy\r\nNimbus Works pays 50 percent.\r\n"
NOTEPAD_ZH = "健身补贴\r\n公司报销一半的健身费用。\r\n"
EN = "# Gym membership subsidy\n\nNimbus Works pays 50 percent.\n"
ZH = "# 健身补贴\n\n公司报销一半的健身费用。\n"


@pytest.mark.parametrize(
    ("data", "text"),
    [
        (NOTEPAD.encode("utf-16"), EN),  # Notepad's "Unicode": UTF-16 LE with a BOM
        (codecs.BOM_UTF16_BE + NOTEPAD.encode("utf-16-be"), EN),
        (NOTEPAD.encode("utf-16-le"), EN),  # no BOM
        (NOTEPAD.encode("utf-16-be"), EN),  # no BOM
        (NOTEPAD.encode("utf-32"), EN),
        (NOTEPAD_ZH.encode("utf-16"), ZH),
        (codecs.BOM_UTF8 + NOTEPAD.encode(), EN),
        (NOTEPAD_ZH.encode("gbk"), ZH),
    ],
    ids=[
        "utf16-le-bom",
        "utf16-be-bom",
        "utf16-le",
        "utf16-be",
        "utf32",
        "utf16-zh",
        "utf8-bom",
        "gbk",
    ],
)
def test_unicode_text_files_from_windows_are_read(data: bytes, text: str) -> None:
    parsed = parse_file(name="notes.txt", data=data)
    assert (parsed.title_guess, parsed.text) == (text.split("\n")[0][2:], text)


def test_utf16_bom_followed_by_binary_is_still_refused() -> None:
    with pytest.raises(IngestError, match="notes.txt: not valid UTF-16 text"):
        parse_file(name="notes.txt", data=codecs.BOM_UTF16_LE + b"\x00\xd8\x41")


BOLD, REGULAR, SONG = "Helvetica-Bold", "Helvetica", "STSong-Light"


@pytest.mark.parametrize(
    ("lines", "title", "text"),
    [
        (
            [
                (BOLD, 16, "Benefits"),
                (REGULAR, 11, "Nimbus Works offers benefits to all staff."),
                (BOLD, 13, "Gym membership subsidy"),
                (REGULAR, 11, "Nimbus Works pays 50 percent of a gym membership."),
                (REGULAR, 11, "Up to 40 EUR per month."),
            ],
            "Benefits",
            "# Benefits\n\nNimbus Works offers benefits to all staff.\n\n"
            "## Gym membership subsidy\n\n"
            "Nimbus Works pays 50 percent of a gym membership.\nUp to 40 EUR per month.",
        ),
        (
            [
                (REGULAR, 11, "Staff benefits are listed below."),
                (BOLD, 11, "Gym membership subsidy"),
                (REGULAR, 11, "Nimbus Works pays 50 percent."),
            ],
            "Gym membership subsidy",
            "Staff benefits are listed below.\n\n# Gym membership subsidy\n\n"
            "Nimbus Works pays 50 percent.",
        ),
        (
            [
                (REGULAR, 11, "Staff benefits are listed below."),
                (BOLD, 14, "2. Gym membership subsidy"),
                (REGULAR, 11, "Nimbus Works pays 50 percent."),
            ],
            "2. Gym membership subsidy",
            "Staff benefits are listed below.\n\n# 2. Gym membership subsidy\n\n"
            "Nimbus Works pays 50 percent.",
        ),
        (
            [
                (SONG, 16, "健身补贴"),
                (SONG, 10, "公司报销一半的健身费用。"),
                (SONG, 10, "每月最多四十欧元。"),
            ],
            "健身补贴",
            "# 健身补贴\n\n公司报销一半的健身费用。\n每月最多四十欧元。",
        ),
        (
            [
                (REGULAR, 11, "Staff benefits are listed below."),
                (REGULAR, 16, "Read this first."),
                (REGULAR, 11, "Nimbus Works pays 50 percent."),
            ],
            "",
            "Staff benefits are listed below.\nRead this first.\nNimbus Works pays 50 percent.",
        ),
    ],
    ids=["larger-font", "bold-body-size", "numbered", "chinese", "large-sentence-is-body"],
)
def test_pdf_lines_in_a_heading_font_become_headings(
    lines: list[tuple[str, float, str]], title: str, text: str
) -> None:
    parsed = parse_file(name="benefits.pdf", data=pdf_styled(lines))
    assert (parsed.title_guess, parsed.text) == (title, text)


def test_pdf_heading_is_the_chunk_section_not_part_of_its_first_sentence() -> None:
    data = pdf_styled(
        [
            (BOLD, 16, "Benefits"),
            (REGULAR, 11, "Nimbus Works offers benefits to all staff."),
            (BOLD, 13, "Gym membership subsidy"),
            (REGULAR, 11, "Nimbus Works pays 50 percent of a gym membership."),
        ],
        title="Staff handbook",
    )
    parsed = parse_file(name="benefits.pdf", data=data)
    chunks = [(c.section, c.text) for c in chunk_text(parsed.text, max_tokens=12)]
    assert parsed.title_guess == "Staff handbook"
    assert chunks == [
        ("Benefits", "Nimbus Works offers benefits to all staff."),
        ("Gym membership subsidy", "Nimbus Works pays 50 percent of a gym membership."),
    ]


PDF_AS_TEXT = b"%PDF-1.3\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog >>\nendobj\n" * 20


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        # mostly ASCII: it used to decode as GB18030 and be chunked as Chinese
        ("report.md", PDF_AS_TEXT,
         "report.md: the content is a PDF file (application/pdf), not text; upload it as .pdf"),
        ("minutes.txt", docx_bytes([("", "Minutes.")]),
         "minutes.txt: the content is a DOCX file"),
        ("archive.md", b"PK\x03\x04" + b"plain words" * 50,
         "archive.md: the content is a ZIP file"),
        ("photo.txt", b"\xff\xd8\xff\xe0" + b"words " * 50, "photo.txt: the content is a JPG file"),
        ("logo.md", b"\x89PNG\r\n\x1a\n" + b"words " * 50, "logo.md: the content is a PNG file"),
        # Latin-1 whose bytes happen to decode as GB18030, as rare ideographs
        ("latin1.md", "Caf\u00e9s and r\u00e9sum\u00e9s are na\u00efve ideas. ".encode("latin-1")
         * 30,
         "latin1.md: not valid UTF-8 or GB18030 text (perhaps Latin-1 or Windows-1252): "
         "open it in a text editor, save it as UTF-8 and upload it again"),
        # a tester's DOCX renamed .pdf was "not a readable PDF (invalid pdf header)"
        ("renamed.pdf", docx_bytes([("", "Minutes.")]),
         "renamed.pdf: the content is a DOCX file (application/vnd.openxmlformats-"
         "officedocument.wordprocessingml.document), not a .pdf file; upload it as .docx"),
        ("report.docx", PDF_AS_TEXT,
         "report.docx: the content is a PDF file (application/pdf), not a .docx file; upload it"
         " as .pdf"),
        ("logo.pdf", b"\x89PNG\r\n\x1a\n" + b"words " * 50,
         "logo.pdf: the content is a PNG file (image/png), not a .pdf file"),
    ],
)
def test_bytes_that_are_not_text_are_refused_by_name_whatever_the_extension(
    name: str, data: bytes, reason: str
) -> None:
    with pytest.raises(IngestError) as caught:
        parse_file(name=name, data=data)
    assert str(caught.value).startswith(reason)


@pytest.mark.parametrize(
    "text",
    ["ID3 tags name the artist of an MP3 file.", "CWS notes: the meeting moved to Monday."],
)
def test_text_that_starts_like_a_binary_signature_is_still_text(text: str) -> None:
    assert parse_file(name="notes.md", data=text.encode()).text == text


def test_a_front_matter_mistake_is_reported_on_its_file_line() -> None:
    data = b"---\ntitle: Leave\nupdated: 2025-01-01: noon\nauthority: policy\n---\nText"
    with pytest.raises(IngestError, match=r"on line 3\)\. The block"):
        parse_file(name="leave.md", data=data)


def test_a_pdf_or_word_file_is_dated_by_its_own_last_modified_time() -> None:
    """An uploaded PDF or DOCX without front matter showed no date ("-" in the document
    list, none on a conflict card); its metadata says when it was last changed."""
    import datetime

    import docx

    before = datetime.date.today().isoformat()
    pdf = parse_file(name="memo.pdf", data=pdf_bytes(["Parking is free on weekends."]))
    # reportlab stamps the time of writing
    assert pdf.meta["updated"] in (before, datetime.date.today().isoformat())

    document = docx.Document()
    document.add_paragraph("Parking costs EUR 5 per day.")
    plain = io.BytesIO()
    document.save(plain)  # python-docx's template stamp (2013-12-23) is no date of the file
    assert "updated" not in parse_file(name="parking.docx", data=plain.getvalue()).meta
    document.core_properties.modified = datetime.datetime(2025, 7, 1, 9, 30)
    dated = io.BytesIO()
    document.save(dated)
    assert parse_file(name="parking.docx", data=dated.getvalue()).meta == {"updated": "2025-07-01"}


@pytest.mark.django_db
def test_a_file_without_a_title_heading_is_titled_by_its_name() -> None:
    """Its first section's heading ("## Room 1") names one part, not the document."""
    result = document_ingest(file=SimpleUploadedFile(
        "archive-rooms.md", b"## Room 1\n\nKeys at the desk.\n\n## Room 2\n\nBadge only.\n"))
    assert result.title == "archive-rooms"
    assert parse_file(name="n.md", data=b"Intro.\n\n# Real title\n\nText").title_guess == (
        "Real title")


def test_a_name_without_a_stem_is_refused_clearly() -> None:
    with pytest.raises(IngestError) as caught:
        parse_file(name=".md", data=b"# Notes\n\nText.")
    assert str(caught.value) == (".md: the file name is only an extension; give the file a"
                                 " name before it (e.g. notes.md)")


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "data", "message"), [
    ("date.md", b"---\nupdated: soon\n---\nText", "date.md: bad date 'soon' in 'updated';"
     " use YYYY-MM-DD"),
    ("plan.md", b"---\nupdated: 2999-01-01\n---\n# Plan\n\nText.", "plan.md: the date"
     " 2999-01-01 in 'updated' is in the future; give the day the document last changed"
     " (YYYY-MM-DD)"),
    # every bad value at once, the allowed ones as a list (a tester fixed the date, then
    # learnt of the authority, shown as a Python list)
    ("baddate.md", b"---\nupdated: 2026-02-30\nauthority: supreme\n---\nText",
     "baddate.md: unknown authority 'supreme'; use policy, manual, faq, meeting-note,"
     " archived, other; baddate.md: bad date '2026-02-30' in 'updated' (day is out of range"
     " for month); use YYYY-MM-DD"),
])
def test_bad_metadata_is_refused_with_every_reason(name: str, data: bytes, message: str) -> None:
    with pytest.raises(IngestError) as caught:
        document_ingest(file=SimpleUploadedFile(name, data))
    assert str(caught.value) == message


@pytest.mark.django_db
def test_every_problem_of_one_file_is_listed_in_the_admins_language() -> None:
    # a tester's Chinese admin joined two problems with an English "; "
    from django.utils import translation

    from sources.uploads import ingest_failure_reason

    with pytest.raises(IngestError) as caught:
        document_ingest(file=SimpleUploadedFile(
            "baddate.md", b"---\nupdated: 2026-02-30\nauthority: supreme\n---\nText"))
    with translation.override("zh-hans"):
        said = ingest_failure_reason("baddate.md", caught.value)
    assert "；baddate.md" in said and "; baddate.md" not in said


def test_a_text_files_numbered_section_titles_become_its_sections() -> None:
    # before: "五、常见问题客户忘记密码时…" was one sentence, and every passage's section was
    # the document's title
    data = ("售后服务手册\n\n适用于全体客服人员。\n\n"
            "一、服务时间\n客服工作时间为周一至周五 9:00 至 18:00。\n\n"
            "二、常见问题\n客户忘记密码时，请引导客户使用登录页的重置链接。\n\n"
            "3. Escalation\nTickets open for more than 2 working days go to second-line support.\n"
            ).encode()
    parsed = parse_file(name="手册.txt", data=data)
    chunks = [(c.section, c.text) for c in chunk_text(parsed.text)]
    assert parsed.title_guess == "售后服务手册"
    sections = {section for section, _ in chunks}
    assert {"一、服务时间", "二、常见问题", "3. Escalation"} <= sections
    assert not any("常见问题客户" in text for _, text in chunks)


def test_a_text_files_numbered_steps_stay_a_list() -> None:
    data = b"Refund guide\n\nTo ask for a refund:\n\n1. Open the billing page\n2. Click Refund\n"
    parsed = parse_file(name="refunds.txt", data=data)
    assert "## 1." not in parsed.text and "1. Open the billing page" in parsed.text


def test_the_date_a_pdf_states_about_itself_wins_over_its_files_date() -> None:
    # an exported PDF's metadata says today; its text says which version it is
    data = pdf_bytes(["Office guide", "Version of 2025-05-12.", "The office opens at 07:30."])
    assert parse_file(name="guide.pdf", data=data).meta["updated"] == "2025-05-12"


@pytest.mark.parametrize(("name", "text", "updated"), [
    ("handbook.txt", "客服手册\n\n负责人：陈晓。更新日期：2025-10-20。\n\n工单需在 4 小时内回复。",
     "2025-10-20"),
    ("it.html", "<h1>IT</h1><p>Last reviewed 20 August 2025. Call the helpdesk.</p>",
     "2025-08-20"),
    ("notes.md", "# Notes\n\nNothing dated here, though it was updated often.", None),
    ("leave.md", "---\nupdated: 2024-03-01\n---\n# Leave\n\nLast updated 2025-01-01.",
     "2024-03-01"),
])
def test_a_date_the_text_states_dates_a_file_without_one(name: str, text: str,
                                                         updated: str | None) -> None:
    assert parse_file(name=name, data=text.encode()).meta.get("updated") == updated
