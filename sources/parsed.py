"""What a parser returns: ``ParsedDocument``, and the title rules every format shares.

Pure Python (no Django). ``sources.parsers`` (Markdown, text, HTML, DOCX) and
``sources.pdf_text`` both build on this module, so neither imports the other's internals.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

from sources.chunking import HEADING_RE
from sources.front_matter import after_tomorrow


@dataclass(frozen=True)
class ParsedDocument:
    """Text of a file in Markdown-like form and metadata found in the file itself.

    ``meta`` holds only keys of ``META_KEYS`` the file stated, as strings (``updated`` as an
    ISO date); ``title_guess`` is the document's own title, if it has one: the first heading,
    the HTML/DOCX/PDF title, or for plain text, PDF and DOCX a short first line (which is then
    given as a ``#`` heading in ``text``, so it becomes the section, not body text).
    """

    text: str
    meta: dict[str, str] = field(default_factory=dict)
    title_guess: str = ""
    #: what the file held that could not be read as text, in words safe to show
    warnings: tuple[str, ...] = ()


_TITLE_HEADING_RE = re.compile(r"^\s{0,3}#\s+(.+?)\s*#*\s*$", re.MULTILINE)


def first_heading(text: str) -> str:
    """The text of the first level-1 heading (``# Title``), else "": a file whose first
    heading is ``## Section 0`` is titled by its front matter or its file name, not by
    its first section."""
    match = _TITLE_HEADING_RE.search(text)
    return match.group(1).strip() if match else ""


_TITLE_END = tuple(".。!！?？;；:：,，、…")
_TITLE_MAX_WIDTH = 80  # display columns: a CJK character counts 2; longer lines are prose
_NOT_TITLE_RE = re.compile(r"^\s*(?:[-*+•|>]|\d{1,3}[.)]\s|#|```|~~~)")


def title_line(text: str, stated: str) -> tuple[str, str]:
    """(title, text) where a title-like first line became a ``#`` heading line.

    With a ``stated`` title (PDF/DOCX metadata), the first line becomes a heading only if it
    is that title. Otherwise a first line is a title when more text follows it, it is at most
    ``_TITLE_MAX_WIDTH`` columns, is not a list item/table row/heading/fence, and does not
    end like a sentence or clause. Returns ("", text) unchanged when there is none.
    """
    stripped = text.lstrip()
    first, _, rest = stripped.replace("\r\n", "\n").partition("\n")
    first = first.strip()
    if stated:
        if " ".join(first.split()) != " ".join(stated.split()) or not rest.strip():
            return stated, text
        return stated, f"# {first}\n\n{rest.lstrip()}"
    if not rest.strip() or not title_like(first):
        return "", text
    return first, f"# {first}\n\n{rest.lstrip()}"


def titled(text: str, stated: str, modified: datetime | None = None) -> ParsedDocument:
    """A PDF's or DOCX's text with its title: the ``stated`` (metadata) title, else the
    opening heading, else a title-like first line (``title_line``), else the first heading;
    ``modified`` (the file's own last-modified ``datetime``, else its creation time, from
    its metadata; None when it has none) is its ``updated`` date, so an uploaded Word or PDF
    file shows a date as a Markdown file with front matter does."""
    if stated or HEADING_RE.match(text):  # a stated title, or it opens with a heading
        title, text = title_line(text, stated or first_heading(text))
    else:
        title, text = title_line(text, "")
    # a stamp after tomorrow is a wrong clock, not a date the user gave: the file has none
    if modified and after_tomorrow(modified.date()):
        modified = None
    meta = {"updated": modified.date().isoformat()} if modified else {}
    return ParsedDocument(text, meta, title or first_heading(text))


def _width(line: str) -> int:
    """``line``'s display columns: a CJK character (U+2E80 and up) counts 2."""
    return sum(2 if ord(ch) >= 0x2E80 else 1 for ch in line)


def title_like(line: str, *, numbered: bool = False) -> bool:
    """Whether ``line`` could be a title: not empty, at most ``_TITLE_MAX_WIDTH`` columns, not
    a list item/table row/heading/fence, not ending like a sentence or clause. ``numbered``
    allows ``1. Scope`` (for a line already known to be set as a heading)."""
    line = line.strip()
    if not line or _width(line) > _TITLE_MAX_WIDTH or line.endswith(_TITLE_END):
        return False
    match = _NOT_TITLE_RE.match(line)
    return match is None or (numbered and match.group(0).strip()[:1].isdigit())


# A section number opening a line of plain text: 一、 第二章 （三） 4. 4.2 IV.
_SECTION_NUMBER_RE = re.compile(
    r"^(?:[一二三四五六七八九十百]+[、.．]|第[一二三四五六七八九十百\d]+[章节条部篇]"
    r"|[（(][一二三四五六七八九十\d]+[)）]|\d{1,2}(?:\.\d{1,2})*[.、)]?\s*(?=\D)|[IVX]+\.\s)")
_SECTION_MAX_WIDTH = 40  # display columns: a section title is a few words


def numbered_headings(text: str) -> str:
    """``text`` (a plain-text file) with its numbered section titles as ``##`` headings:
    a line opening with a section number ("一、服务时间", "第二章 报销", "3. Refunds") that
    is title-like and short (``_SECTION_MAX_WIDTH`` columns), stands after a blank line (or
    first) and is followed by a line of text that is not the next numbered item (a list of
    steps stays a list). Without it such a title was glued to its section's first sentence
    ("五、常见问题客户忘记密码时…") and every passage's section was the document title."""
    lines = text.split("\n")
    out = list(lines)
    for i, line in enumerate(lines):
        title = line.strip()
        before = lines[i - 1].strip() if i else ""
        after = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if (title and not before and after and _width(title) <= _SECTION_MAX_WIDTH
                and _SECTION_NUMBER_RE.match(title) and not _SECTION_NUMBER_RE.match(after)
                and title_like(title, numbered=True)):
            out[i] = f"## {title}"
    return "\n".join(out)


# A date the document states about itself near its top: "Last reviewed 2026-08-20",
# "Version of 2026-05-12", "Updated: 12 May 2026", "更新日期：2026-10-20", "修订于2026年5月12日".
_STATED_LABEL = (
    r"(?:(?:last\s+)?(?:updated|reviewed|revised|modified)(?:\s+on)?|version\s+(?:of|date)"
    r"|effective(?:\s+(?:from|date|as\s+of))?"
    r"|更新日期|更新时间|更新于|最后更新|修订日期|修订于|发布日期|生效日期|版本日期)")
_STATED_DATE_RE = re.compile(
    _STATED_LABEL + r"\s*[:：]?\s*(?:(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})"
    r"|(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日"
    r"|(\d{1,2}\s+[A-Za-z]{3,9}\.?\s+\d{4}|[A-Za-z]{3,9}\.?\s+\d{1,2},?\s+\d{4}))",
    re.IGNORECASE)
_STATED_WITHIN = 1200  # characters from the top: a date further down is about something else
_ENGLISH_DATES = ("%d %B %Y", "%d %b %Y", "%B %d %Y", "%b %d %Y")


def stated_date(text: str) -> str | None:
    """The ISO date (``YYYY-MM-DD``) a document's text gives itself near its top, after a
    label saying what it is ("Last reviewed", "Version of", "Updated", 更新日期, 修订于, 生效
    日期), or None: none there, no real day, or after tomorrow. An exported PDF's or Word
    file's own metadata says when the file was made, so the date its author wrote wins
    over it (a tester's 2026-05 office guide, exported today, was \"more recently updated\"
    than a 2026-10 handbook in a conflict card)."""
    match = _STATED_DATE_RE.search(text[:_STATED_WITHIN])
    if not match:
        return None
    numbers = [g for g in match.groups()[:6] if g]
    day: datetime | None = None
    try:
        if numbers:
            day = datetime(int(numbers[0]), int(numbers[1]), int(numbers[2]))
        else:
            words = " ".join(match.group(7).replace(",", " ").replace(".", " ").split())
            day = next((d for d in (_english_date(words, f) for f in _ENGLISH_DATES) if d), None)
    except ValueError:
        return None
    if day is None or after_tomorrow(day.date()):
        return None
    return day.date().isoformat()


def _english_date(words: str, form: str) -> datetime | None:
    try:
        return datetime.strptime(words, form)
    except ValueError:
        return None
