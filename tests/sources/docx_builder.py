"""DOCX files with the containers python-docx's paragraph API skips, from raw WordprocessingML.

Each piece is the XML Word writes for it (ECMA-376 Part 1, §17.13.5 revisions, §17.5.2
structured document tags, §17.3.3 text boxes via ``mc:AlternateContent``, §17.10 headers).
"""

from __future__ import annotations

import io

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
NS = (
    f'xmlns:w="{W}" '
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
    'xmlns:v="urn:schemas-microsoft-com:vml" '
    'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
    'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
    'xmlns:o="urn:schemas-microsoft-com:office:office"'
)


def run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def para(*inner: str, style: str = "") -> str:
    props = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
    return f"<w:p>{props}{''.join(inner)}</w:p>"


def inserted(text: str, rid: int = 1) -> str:
    return (f'<w:ins w:id="{rid}" w:author="Editor" w:date="2025-07-01T00:00:00Z">'
            f"{run(text)}</w:ins>")


def deleted(text: str, rid: int = 2) -> str:
    return (f'<w:del w:id="{rid}" w:author="Editor" w:date="2025-07-01T00:00:00Z">'
            f'<w:r><w:delText xml:space="preserve">{text}</w:delText></w:r></w:del>')


def block_control(*paragraphs: str) -> str:
    return f"<w:sdt><w:sdtPr/><w:sdtContent>{''.join(paragraphs)}</w:sdtContent></w:sdt>"


def inline_control(text: str) -> str:
    return f"<w:sdt><w:sdtPr/><w:sdtContent>{run(text)}</w:sdtContent></w:sdt>"


def text_box(text: str) -> str:
    """A text box as Word writes it: a DrawingML choice and a VML fallback with the same text."""
    content = f"<w:txbxContent>{para(run(text))}</w:txbxContent>"
    return (
        "<w:r><mc:AlternateContent>"
        '<mc:Choice Requires="wps"><w:drawing><wp:anchor><a:graphic><a:graphicData>'
        f"<wps:wsp><wps:txbx>{content}</wps:txbx></wps:wsp>"
        "</a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice>"
        f"<mc:Fallback><w:pict><v:shape><v:textbox>{content}</v:textbox></v:shape></w:pict>"
        "</mc:Fallback></mc:AlternateContent></w:r>"
    )


def table(rows: list[list[str]]) -> str:
    cells = "".join(
        "<w:tr>" + "".join(f"<w:tc>{c if c.startswith('<w:') else para(run(c))}</w:tc>"
                           for c in row) + "</w:tr>"
        for row in rows
    )
    return f"<w:tbl>{cells}</w:tbl>"


def embedded_object() -> str:
    return ('<w:r><w:object><v:shape/><o:OLEObject ProgID="Excel.Sheet.12" r:id="rIdX" '
            'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"/>'
            "</w:object></w:r>")


def docx_with(body: list[str], *, header: str = "", footer: str = "") -> bytes:
    """A DOCX whose body is ``body`` (raw ``w:p``/``w:tbl``/``w:sdt`` XML), with an
    optional header and footer paragraph."""
    import docx
    from docx.oxml import parse_xml

    document = docx.Document()
    root = document.element.body
    sect = root[-1]  # keep the section properties last
    for xml in body:
        element = parse_xml(f"<w:wrap {NS}>{xml}</w:wrap>")
        for child in list(element):
            sect.addprevious(child)
    if header:
        document.sections[0].header.paragraphs[0].text = header
    if footer:
        document.sections[0].footer.paragraphs[0].text = footer
    buf = io.BytesIO()
    document.save(buf)
    return buf.getvalue()
