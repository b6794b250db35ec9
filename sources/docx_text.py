"""DOCX text as Markdown-like text, including what python-docx's paragraph API skips.

``Paragraph.text`` in python-docx reads only runs that are direct children of a paragraph,
so a tracked insertion ("The upload limit is " + inserted "200 MB per file."), a content
control, a text box or a table cell holding either was stored without that text. Here the
WordprocessingML tree (ECMA-376 Part 1) that python-docx opened is read directly:

- paragraphs (``w:p``) with their text in document order: runs anywhere inside, tracked
  insertions (``w:ins``, ``w:moveTo``) and inline content controls (``w:sdt``) included;
  deleted or moved-away text (``w:del``/``w:delText``, ``w:moveFrom``) never is;
- block content controls, custom XML and block-level insertions are read through;
- text boxes (``w:txbxContent``) become paragraphs after the paragraph anchoring them, read
  once: Word writes each box twice (a DrawingML ``mc:Choice`` and a VML ``mc:Fallback``)
  and only the choice is read;
- tables become one statement per row, each cell after its header row's label when the
  table has one (``row_statement``: "City: Paris; Hotel: EUR 240 per night; Meals: EUR 60
  a day.", as a Markdown table's row is read), so a sentence quoted from a table reads as a
  sentence and its citation opens a readable passage; cells are read the same way as
  paragraphs;
- headers and footers of every section, each distinct text once at the end, unless it is
  only a page number or repeats the title;
- headings and list items from the paragraph styles (``Heading n``, ``Title``, ``List…``).

``unread`` counts what holds content that is not text (pictures, charts, diagrams,
embedded objects, equations), so ingest can say that the file had more than it stored.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from docx.oxml.ns import qn
from docx.text.paragraph import Paragraph

from kbqa.core.text.normalise import has_cjk
from kbqa.core.text.tables import row_sentence

_MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
_SKIP = {qn("w:del"), qn("w:moveFrom"), qn("w:txbxContent"), _MC + "Fallback",
         qn("w:pPr"), qn("w:rPr"), qn("w:sdtPr"), qn("w:instrText"), qn("w:delText")}
_THROUGH = {qn("w:sdt"), qn("w:sdtContent"), qn("w:customXml"), qn("w:ins"), qn("w:moveTo"),
            qn("w:smartTag"), _MC + "AlternateContent", _MC + "Choice"}
_BREAKS = {qn("w:tab"): " ", qn("w:br"): " ", qn("w:cr"): " ", qn("w:noBreakHyphen"): "-"}
_PAGE_NUMBER_RE = re.compile(r"^(?:page\s*)?\d+(?:\s*(?:of|/)\s*\d+)?$|^第\s*\d+\s*页", re.I)
#: Elements whose content is not text, by the name ingest reports them under.
UNREAD_KINDS = {
    "picture": ("{http://schemas.openxmlformats.org/drawingml/2006/picture}pic",
                "{urn:schemas-microsoft-com:vml}imagedata"),
    "chart": ("{http://schemas.openxmlformats.org/drawingml/2006/chart}chart",),
    "diagram": ("{http://schemas.openxmlformats.org/drawingml/2006/diagram}relIds",),
    "embedded object": ("{urn:schemas-microsoft-com:office:office}OLEObject",),
    "equation": ("{http://schemas.openxmlformats.org/officeDocument/2006/math}oMath",),
}


@dataclass(frozen=True)
class DocxText:
    """The document's Markdown-like text and the count of unread elements by kind."""

    text: str
    unread: dict[str, int]


def docx_text(document: Any, title: str = "") -> DocxText:
    """Text of a python-docx ``Document`` (module doc); ``title`` is left out of headers."""
    body = document.element.body
    blocks = [b for b in _blocks(body, document) if b.strip()]
    extra = _headers_and_footers(document, title, {b.lstrip("#- ").strip() for b in blocks})
    return DocxText("\n\n".join([*blocks, *extra]), _unread(body))


def _blocks(container: Any, document: Any) -> Iterator[str]:
    """Paragraphs (with their text boxes after them) and tables of ``container``, in order."""
    number = 0  # Word numbers a "List Number" run itself; its text holds no "1."
    for child in container.iterchildren():
        if child.tag == qn("w:p"):
            text, numbered = _paragraph(child, document)
            number = number + 1 if numbered else 0
            yield f"{number}. {text}" if numbered else text
            for box in _text_boxes(child):
                yield from _blocks(box, document)
        elif child.tag == qn("w:tbl"):
            yield _table(child, document)
        elif child.tag in _THROUGH:
            yield from _blocks(child, document)


def _text(element: Any) -> str:
    """The visible text under ``element``: deleted text, text boxes and fallbacks left out."""
    parts: list[str] = []
    for child in element.iterchildren():
        if child.tag in _SKIP:
            continue
        if child.tag == qn("w:t"):
            parts.append(child.text or "")
        elif child.tag in _BREAKS:
            parts.append(_BREAKS[child.tag])
        else:
            parts.append(_text(child))
    return "".join(parts)


def _paragraph(p: Any, document: Any) -> tuple[str, bool]:
    """The paragraph's Markdown-like text, and whether it is a numbered list item (its
    number is ``_blocks``' to give)."""
    text = " ".join(_text(p).split())
    if not text:
        return "", False
    style = Paragraph(p, document).style
    name = (style.name if style is not None else "") or ""
    level = re.match(r"Heading (\d)", name)
    if level or name == "Title":
        return "#" * (int(level.group(1)) if level else 1) + " " + text, False
    if name.startswith("List Number"):
        return text, True
    return ("- " + text if name.startswith("List") else text), False


def _text_boxes(p: Any) -> list[Any]:
    """The text boxes anchored in paragraph ``p`` (outermost only, never a VML fallback)."""
    boxes = []
    for box in p.iter(qn("w:txbxContent")):
        ancestors = {a.tag for a in box.iterancestors()}
        nested = qn("w:txbxContent") in ancestors
        if not nested and _MC + "Fallback" not in ancestors:
            boxes.append(box)
    return boxes


def _table(tbl: Any, document: Any) -> str:
    """Each row of the table as a statement of its own paragraph (``row_statement``), read
    with the header row's labels when the table has one (``_has_header``)."""
    rows = [(tr, _cells(tr, document)) for tr in _rows(tbl)]
    rows = _filled_down(rows)
    header: list[str] = []
    if len(rows) > 1 and _has_header(tbl, rows):
        header = rows[0][1]
        rows = rows[1:]
    statements = (row_statement(header, cells) for _, cells in rows if any(cells))
    return "\n\n".join(s for s in statements if s)


def _rows(tbl: Any) -> Iterator[Any]:
    """The table's own rows (a nested table's rows are read inside their cell)."""
    for tr in tbl.iter(qn("w:tr")):
        if tr.getparent() is tbl or tr.getparent().tag == qn("w:sdtContent"):
            yield tr


def _cells(tr: Any, document: Any) -> list[str]:
    return [" ".join(" ".join(_blocks(tc, document)).split()).lstrip("#- ")
            for tc in tr.iterchildren(qn("w:tc"))]


def _filled_down(rows: list[tuple[Any, list[str]]]) -> list[tuple[Any, list[str]]]:
    """A cell merged with the one above (``w:vMerge`` without ``restart``) holds no text in
    the file; it reads as the cell above, so each row keeps its subject."""
    out: list[tuple[Any, list[str]]] = []
    for tr, cells in rows:
        merged = [_continues(tc) for tc in tr.iterchildren(qn("w:tc"))]
        above = out[-1][1] if out else []
        cells = [above[i] if merged[i] and i < len(above) and not c else c
                 for i, c in enumerate(cells)]
        out.append((tr, cells))
    return out


def _continues(tc: Any) -> bool:
    merge = tc.find(f"{qn('w:tcPr')}/{qn('w:vMerge')}")
    return merge is not None and merge.get(qn("w:val")) in (None, "continue")


_DIGIT_RE = re.compile(r"\d")


def _has_header(tbl: Any, rows: list[tuple[Any, list[str]]]) -> bool:
    """Whether the first row labels the columns: Word's "Repeat as header row"
    (``w:tblHeader``), or a first row of bold text, or one without digits over rows with
    digits (labels over figures), or, with three columns or more, the table style's
    "header row" look (``w:tblLook w:firstRow``) over a first row without digits. A
    two-column table without these is read as names and values ("Owner | IT")."""
    first_tr, first = rows[0]
    if first_tr.find(f"{qn('w:trPr')}/{qn('w:tblHeader')}") is not None:
        return True
    if not all(first) or _DIGIT_RE.search(" ".join(first)):
        return False
    if _all_bold(first_tr) or any(_DIGIT_RE.search(" ".join(c)) for _, c in rows[1:]):
        return True
    look = tbl.find(f"{qn('w:tblPr')}/{qn('w:tblLook')}")
    first_row_look = look is not None and (
        look.get(qn("w:firstRow")) in ("1", "true", "on")
        or int(look.get(qn("w:val")) or "0", 16) & 0x0020
    )
    return len(first) >= 3 and bool(first_row_look)


def _all_bold(tr: Any) -> bool:
    runs = [r for r in tr.iter(qn("w:r")) if "".join(t.text or "" for t in r.iter(qn("w:t")))]
    bold = [r.find(f"{qn('w:rPr')}/{qn('w:b')}") for r in runs]
    return bool(runs) and all(
        b is not None and b.get(qn("w:val")) not in ("0", "false", "off") for b in bold
    )


_END_RE = re.compile(r"[.!?。！？]$")


def row_statement(header: list[str], cells: list[str]) -> str:
    """A table row as one sentence, the same for every format (DOCX, HTML, and Markdown as
    the reader and verifier read it): with a header row, each cell after its column's label
    (``kbqa.core.text.tables.row_sentence``): ``["City", "Bike storage"], ["Chengdu",
    "Racks at gate C"]`` -> ``City: Chengdu; Bike storage: Racks at gate C.``;
    ``["城市", "酒店"], ["北京", "每晚 800 元"]`` -> ``城市：北京，酒店：每晚 800 元。``. Without
    one, the first cell names the rest: ``Owner: IT Operations.`` Empty cells are left out;
    a row with one filled cell (a title across the table) is that cell as written.

    Labels are never reworded: "Paris: hotel EUR 240" read well, but a label of two words
    ran into its cell ("Chengdu: Bike storage Outdoor racks at gate C.")."""
    filled = [c for c in cells if c]
    if len(filled) < 2:
        return filled[0] if filled else ""
    cjk = has_cjk(" ".join(header or cells))
    colon, semicolon, stop = ("：", "；", "。") if cjk else (": ", "; ", ".")
    if header:
        statement = row_sentence(header, cells)
    else:
        subject, *rest = cells
        statement = (subject + colon if subject else "") + semicolon.join(v for v in rest if v)
    return statement if _END_RE.search(statement) else statement + stop


def _headers_and_footers(document: Any, title: str, body: set[str]) -> list[str]:
    """Distinct header and footer paragraphs of every section, page numbers, the title and
    paragraphs of the ``body`` (plain text of its blocks) aside."""
    seen: dict[str, None] = {}
    for section in document.sections:
        for part in (section.header, section.footer, section.first_page_header,
                     section.first_page_footer, section.even_page_header,
                     section.even_page_footer):
            if part.is_linked_to_previous:
                continue
            for text in _blocks(part._element, document):
                plain = text.lstrip("#- ").strip()
                if plain and plain != title and plain not in body \
                        and not _PAGE_NUMBER_RE.match(plain):
                    seen.setdefault(plain, None)
    return list(seen)


def _unread(body: Any) -> dict[str, int]:
    counts: Counter[str] = Counter()
    for kind, tags in UNREAD_KINDS.items():
        counts[kind] = sum(1 for tag in tags for _ in body.iter(tag))
    return {k: v for k, v in counts.items() if v}


def docx_title(document: Any) -> str:
    """The file's own title property, or "" when it has none: python-docx gives a file
    without a core-properties part the made-up title "Word Document", which is not one."""
    from docx.opc.constants import RELATIONSHIP_TYPE as RT

    try:
        document.part.package.part_related_by(RT.CORE_PROPERTIES)
    except KeyError:
        return ""
    return (document.core_properties.title or "").strip()


# python-docx's default template is stamped 2013-12-23 23:15 UTC (created and modified):
# a file it wrote without setting its own dates carries that stamp, which is no date of it.
_TEMPLATE_STAMP = "2013-12-23T23:15:00"


def docx_modified(document: Any) -> datetime | None:
    """The DOCX's last-modified time (its core properties), else its creation time; None
    when neither is set or readable, or it is python-docx's template stamp."""
    try:
        props = document.core_properties
        stamp = props.modified or props.created
    except (ValueError, TypeError, KeyError):  # a malformed core.xml date
        return None
    if stamp is None or stamp.strftime("%Y-%m-%dT%H:%M:%S") == _TEMPLATE_STAMP:
        return None
    return stamp
