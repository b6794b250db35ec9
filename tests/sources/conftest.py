"""Fixtures for the knowledge-base tests: the fixture KB folder and file makers (PDF, DOCX)."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

KB_DIR = Path(__file__).resolve().parent.parent / "fixtures" / "sources" / "kb"


@pytest.fixture
def kb_dir() -> Path:
    return KB_DIR


def pdf_bytes(lines: list[str], title: str = "") -> bytes:
    """A one-page PDF with a text layer (reportlab); [] gives a page without any text;
    ``title`` is the document information title (reportlab writes "untitled" without it)."""
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    pdf = canvas.Canvas(buf)
    if title:
        pdf.setTitle(title)
    y = 800
    for line in lines:
        pdf.drawString(72, y, line)
        y -= 20
    if not lines:
        pdf.rect(100, 100, 200, 200, fill=1)  # a drawing, like a scan: no text layer
    pdf.showPage()
    pdf.save()
    return buf.getvalue()


def pdf_styled(lines: list[tuple[str, float, str]], title: str = "") -> bytes:
    """A one-page PDF of (font, size in points, text) lines, e.g. a bold heading line over
    body lines; font "STSong-Light" is reportlab's built-in Chinese font."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    buf = io.BytesIO()
    pdf = canvas.Canvas(buf)
    if title:
        pdf.setTitle(title)
    y = 800.0
    for font, size, text in lines:
        y -= size * 1.4
        pdf.setFont(font, size)
        pdf.drawString(72, y, text)
    pdf.showPage()
    pdf.save()
    return buf.getvalue()


def docx_bytes(blocks: list[tuple[str, str]], title: str = "") -> bytes:
    """A DOCX from (style, text) pairs; style "h1"/"h2" makes a heading, "title" a Title
    paragraph, "" a paragraph; ``title`` is the core properties title."""
    import docx

    document = docx.Document()
    document.core_properties.title = title
    for style, text in blocks:
        if style == "title":
            document.add_heading(text, level=0)
        elif style.startswith("h"):
            document.add_heading(text, level=int(style[1:]))
        elif style == "li":
            document.add_paragraph(text, style="List Bullet")
        else:
            document.add_paragraph(text)
    buf = io.BytesIO()
    document.save(buf)
    return buf.getvalue()


@pytest.fixture
def write_file(tmp_path: Path) -> Callable[[str, bytes | str], Path]:
    def write(name: str, content: bytes | str) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
        return path

    return write


@pytest.fixture(autouse=True)
def _media_root(tmp_path: Path, settings: Any) -> Iterator[None]:
    settings.MEDIA_ROOT = str(tmp_path / "media")
    yield
