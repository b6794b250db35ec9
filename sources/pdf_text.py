"""PDF text layers as Markdown-like text: printed lines kept, headings found by their font.

pypdf's plain extraction runs lines together where the PDF has no explicit break (a Chinese
heading and its first sentence came out as one line), and nothing in plain text tells a
heading from body text, so the chunker and the sentence splitter read a heading and the first
body line as one sentence ("Gym membership subsidy Nimbus Works pays 50 percent…"). So:

- Lines come from pypdf's layout mode (7.x), which places text by its position on the page:
  every printed line is a line and a vertical gap a blank line. Plain extraction is the
  fallback when layout mode fails or loses text (it drops rotated text).
- A line whose text was set in a heading font becomes a ``#``/``##``/``###`` heading: larger
  than the body font by ``HEADING_RATIO`` or more, or entirely bold where the body is not.
  The body font is the one most characters are set in. Font sizes and names come from
  pypdf's ``visitor_text`` callback during a plain extraction.
"""

from __future__ import annotations

import io
import logging
import math
import re
import warnings
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from kbqa.core.errors import IngestError, gettext_noop
from sources.parsed import ParsedDocument, title_like, titled

# Word's Heading 2 is 13 pt on 11 pt body (1.18), LibreOffice's 115% (and bold); Heading 3 is
# 101-109% and bold or coloured, so the bold rule catches it. Superscripts are smaller.
HEADING_RATIO = 1.12
_BOLD_RE = re.compile(r"bold|black|heavy|semibold|demi", re.IGNORECASE)
# A /Title a printing or converting application wrote, not the author: a file name
# ("pdfsrc.html", "Doc1.docx") or Office's print prefix ("Microsoft Word - Doc1.docx").
_FILE_NAME_TITLE_RE = re.compile(
    r"\.(?:docx?|dotx?|rtf|odt|pdf|html?|txt|md|xlsx?|pptx?|pages|key|tex|ps|indd|pub)$",
    re.IGNORECASE,
)
_PRINTED_BY_RE = re.compile(r"^Microsoft (?:Office )?\w+ +[-–] ")


@dataclass(frozen=True)
class _Run:
    """A piece of text as pypdf showed it: ``size`` is the font size on the page (points)."""

    text: str
    size: float
    bold: bool


def parse_pdf(name: str, data: bytes) -> ParsedDocument:
    """The text layer of a PDF with its headings marked; the title is the metadata title,
    else the first heading, else a title-like first line (``title_line``).

    Raises IngestError for a broken PDF (naming what pypdf found) or one with no text layer.
    """
    from pypdf import PdfReader

    with quiet_pypdf() as notes:
        try:
            reader = PdfReader(io.BytesIO(data))
            runs: list[_Run] = []
            pages = [_page_text(page, runs) for page in reader.pages]
            title = str((reader.metadata or {}).get("/Title") or "")
            modified = _modified(reader)
        except Exception as exc:  # pypdf raises many types for broken files
            detail = notes[0].split(":")[0].strip() if notes else type(exc).__name__
            raise IngestError(
                gettext_noop("%(name)s: not a readable PDF (%(detail)s)"), name=name, detail=detail
            ) from exc
    text = "\n\n".join(p for p in pages if p)
    if not text.strip():
        raise IngestError(
            gettext_noop("%(name)s: the PDF has no text layer (a scan?); run OCR first"), name=name
        )
    text = mark_headings(text, runs)
    return titled(text, authored_title(title), modified)


def authored_title(title: str) -> str:
    """A PDF's metadata ``title`` if its author wrote it, else "" (the document's first
    heading then titles it, as README says): not a placeholder ("untitled"), not a file name,
    not an Office print title ("Microsoft Word - Doc1.docx")."""
    title = title.strip()
    if title.lower() in ("untitled", "(anonymous)"):
        return ""
    if _FILE_NAME_TITLE_RE.search(title) or _PRINTED_BY_RE.match(title):
        return ""
    return title


def _modified(reader: Any) -> datetime | None:
    """The PDF's ``/ModDate``, else its ``/CreationDate`` (a ``datetime``), or None when
    neither is there or readable."""
    meta = reader.metadata
    if meta is None:
        return None
    try:
        return meta.modification_date or meta.creation_date
    except (ValueError, TypeError):  # a malformed date string
        return None


def _page_text(page: Any, runs: list[_Run]) -> str:
    """The page's lines (spaces collapsed, at most one blank line in a row); appends the
    page's text runs with their fonts to ``runs``."""

    def visit(text: str, cm: list[float], tm: list[float], font: Any, size: float) -> None:
        if text:
            base = str(font.get("/BaseFont", "")) if isinstance(font, dict) else ""
            runs.append(_Run(text, abs(size) * _scale(tm, cm), bool(_BOLD_RE.search(base))))

    plain = page.extract_text(visitor_text=visit) or ""
    try:
        layout = page.extract_text(extraction_mode="layout") or ""
    except Exception:  # layout mode is stricter about fonts than plain mode
        layout = ""
    if _letters(layout) < 0.95 * _letters(plain):
        layout = plain  # layout mode drops rotated text
    lines = [" ".join(line.split()) for line in layout.splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def _letters(text: str) -> int:
    return sum(1 for ch in text if not ch.isspace())


def _scale(tm: Sequence[float], cm: Sequence[float]) -> float:
    """Vertical scale of text space on the page: of the text matrix times the CTM."""
    c = tm[2] * cm[0] + tm[3] * cm[2]
    d = tm[2] * cm[1] + tm[3] * cm[3]
    return math.hypot(c, d) or 1.0


def mark_headings(text: str, runs: Sequence[_Run]) -> str:
    """``text`` with each title-like line set in a heading font as a Markdown heading: the
    largest heading size gets ``#``, the next ``##``, smaller ones ``###``."""
    headings = _heading_lines(runs)
    if not headings:
        return text
    levels = {s: min(i + 1, 3) for i, s in enumerate(sorted(set(headings.values()), reverse=True))}
    out: list[str] = []
    for line in text.split("\n"):
        size = headings.get(_key(line))
        if size is not None and title_like(line, numbered=True):
            out += ["", "#" * levels[size] + " " + line.strip(), ""]
        else:
            out.append(line)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip()


def _key(line: str) -> str:
    """A line compared without its spaces (layout and plain mode space words differently)."""
    return "".join(line.split())


def _heading_lines(runs: Sequence[_Run]) -> dict[str, float]:
    """Text (as ``_key``) set entirely in a heading font -> its font size: each run's lines,
    and each line pypdf ended with a line break."""
    if not runs:
        return {}
    weights: Counter[float] = Counter()
    for run in runs:
        weights[round(run.size, 1)] += _letters(run.text)
    body = weights.most_common(1)[0][0]
    body_bold = 2 * sum(_letters(r.text) for r in runs if r.bold) > sum(weights.values())

    def heading(run: _Run) -> bool:
        return run.size >= body * HEADING_RATIO or (
            run.bold and not body_bold and run.size >= body - 0.5
        )

    found: dict[str, float] = {}
    for pieces in _lines(runs):
        inked = [(t, r) for t, r in pieces if t.strip()]
        for t, r in inked:
            if heading(r):
                found[_key(t)] = r.size
        if inked and all(heading(r) for _, r in inked):
            found["".join(_key(t) for t, _ in inked)] = min(r.size for _, r in inked)
    return {k: v for k, v in found.items() if any(ch.isalpha() for ch in k)}


def _lines(runs: Sequence[_Run]) -> Iterator[list[tuple[str, _Run]]]:
    """Runs cut at their line breaks: per line, its (text piece, run) pairs."""
    line: list[tuple[str, _Run]] = []
    for run in runs:
        first, *more = run.text.split("\n")
        line.append((first, run))
        for part in more:
            yield line
            line = [(part, run)]
    yield line


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextmanager
def quiet_pypdf() -> Iterator[list[str]]:
    """Keep pypdf's warnings (logger "pypdf", and ``warnings``) off the console; yields the
    list their messages are collected in, so a failure can say what pypdf found."""
    log = logging.getLogger("pypdf")
    collect, propagate = _Collect(), log.propagate
    log.addHandler(collect)
    log.propagate = False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield collect.messages
    finally:
        log.removeHandler(collect)
        log.propagate = propagate
