"""File bytes -> ``ParsedDocument``: Markdown-like text plus the metadata the file states.

Pure Python (no Django). Every format is turned into the same Markdown-like text (``#``
heading lines, blank-line paragraphs, ``-`` list items, fenced code) so one chunker serves all.

Formats: Markdown with YAML front matter (python-frontmatter), plain text, HTML
(beautifulsoup4 + lxml; script/style/nav and similar chrome dropped), PDF text layer (pypdf),
DOCX (python-docx's tree read by ``sources.docx_text``: tracked insertions, content
controls, text boxes, tables, headers and footers; headings from the paragraph styles).
Every failure raises ``IngestError`` with the file name and a reason a person can act on.
"""

from __future__ import annotations

import codecs
import io
import re
from dataclasses import replace
from pathlib import PurePath
from typing import Any

import filetype

from kbqa.core.errors import IngestError, gettext_noop
from sources.docx_text import docx_modified, docx_text, docx_title, row_statement
from sources.front_matter import clean_meta, yaml_load, yaml_problem
from sources.markdown_text import markdown_plain
from sources.parsed import (
    ParsedDocument,
    first_heading,
    numbered_headings,
    stated_date,
    title_line,
    titled,
)
from sources.pdf_text import parse_pdf

TEXT_SUFFIXES = frozenset({".md", ".markdown", ".txt", ".text"})
HTML_SUFFIXES = frozenset({".html", ".htm"})
SUPPORTED_SUFFIXES = TEXT_SUFFIXES | HTML_SUFFIXES | {".pdf", ".docx"}
BINARY = gettext_noop("%(name)s: looks like a binary file, not text")


def parse_file(*, name: str, data: bytes) -> ParsedDocument:
    """Parse ``data`` (the bytes of a file called ``name``) by its extension.

    Raises ``IngestError`` for an unknown extension (``check_type``), binary junk, bad front
    matter, a PDF without a text layer, a broken DOCX/PDF, or a file with no text at all.
    """
    suffix = check_type(name)
    if suffix in TEXT_SUFFIXES:
        parsed = _parse_markdown(name, _decode(name, data), plain=suffix in (".txt", ".text"))
    elif suffix in HTML_SUFFIXES:
        parsed = _parse_html(name, _decode(name, data))
    elif suffix == ".pdf":
        parsed = parse_pdf(name, _as_named(name, suffix, data))
    else:
        parsed = _parse_docx(name, _as_named(name, suffix, data))
    if not parsed.text.strip():
        raise IngestError(gettext_noop("%(name)s: the file contains no text"), name=name)
    # The date the text gives itself: where the file states none (text, HTML, Markdown
    # without an updated field), and over a PDF's or Word file's metadata, which says when
    # the file was made (``parsed.stated_date``). Front matter and the upload form win.
    day = stated_date(parsed.text)
    if day and (suffix in (".pdf", ".docx") or "updated" not in parsed.meta):
        parsed = replace(parsed, meta={**parsed.meta, "updated": day})
    return parsed


def check_type(name: str) -> str:
    """The extension of a file called ``name`` that ``parse_file`` reads (lower case); raises
    ``IngestError`` naming the supported ones for any other (the upload form asks first)."""
    suffix = PurePath(name).suffix.lower()
    if not suffix and PurePath(name).name.lower() in SUPPORTED_SUFFIXES:  # ".md": no name
        raise IngestError(gettext_noop(
            "%(name)s: the file name is only an extension; give the file a name before it"
            " (e.g. notes%(name)s)"), name=PurePath(name).name)
    if suffix not in SUPPORTED_SUFFIXES:
        raise IngestError(
            gettext_noop("%(name)s: unsupported file type %(suffix)s; use %(supported)s"),
            name=name, suffix=repr(suffix or "(none)"),
            supported=", ".join(sorted(SUPPORTED_SUFFIXES)))
    return suffix


# Longest first: the UTF-32 LE byte order mark begins with the UTF-16 LE one.
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def _wide_encoding(data: bytes) -> str:
    """"utf-16"/"utf-32" (byte order from the BOM), "utf-16-le"/"-be" for UTF-16 without a
    BOM whose first 4 KB are mostly Latin text (a NUL in at least 40% of the odd or the even
    positions and none in the others, as ASCII/Latin-1 text in UTF-16 has), else ""."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return encoding
    sample = data[:4096]
    if len(sample) < 4 or len(sample) % 2:
        return ""
    even, odd = sample[0::2].count(0), sample[1::2].count(0)
    half = len(sample) // 2
    if odd >= 0.4 * half and even == 0:
        return "utf-16-le"
    if even >= 0.4 * half and odd == 0:
        return "utf-16-be"
    return ""


# Signatures that are also ordinary words at the start of a text ("ID3 tags...", "CWS
# notes..."): a match counts only when the file is not clean UTF-8 text as well.
_WORDLIKE_SIGNATURES = frozenset({"mp3", "swf", "ps", "rtf"})
# Share of the non-ASCII characters of a non-UTF-8 file that must be in GB2312 (the common
# simplified Chinese set) for it to be read as GB18030. Any byte run decodes as GB18030, so
# this is what tells Chinese text from binary; chosen, not measured: simplified Chinese
# prose stays above 99%, bytes that merely decode fall far below.
GB2312_SHARE = 0.9


def _decode(name: str, data: bytes) -> str:
    """UTF-16/32 (with a BOM, or UTF-16 recognised by ``_wide_encoding``), UTF-8 (BOM
    allowed), else GB18030 that reads as Chinese text (``GB2312_SHARE``). Refused, by name:
    bytes of a known binary format whatever the extension (PDF, ZIP/DOCX, images...:
    ``filetype``'s signatures), NUL bytes, control characters, undecodable text."""
    _refuse_binary_kind(name, data)
    if wide := _wide_encoding(data):
        try:
            return _refuse_controls(name, data.decode(wide))
        except UnicodeDecodeError as exc:
            raise IngestError(
                gettext_noop("%(name)s: not valid %(encoding)s text"),
                name=name,
                encoding=wide.upper(),
            ) from exc
    if b"\x00" in data:
        raise IngestError(BINARY, name=name)
    try:
        return _refuse_controls(name, data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        pass
    undecodable = IngestError(
        gettext_noop(
            "%(name)s: not valid UTF-8 or GB18030 text (perhaps Latin-1 or Windows-1252): "
            "open it in a text editor, save it as UTF-8 and upload it again"
        ),
        name=name,
    )
    try:
        text = data.decode("gb18030")
    except UnicodeDecodeError:
        raise undecodable from None
    if not _reads_as_chinese(text):
        raise undecodable
    return _refuse_controls(name, text)


def _refuse_binary_kind(name: str, data: bytes) -> None:
    """Raise ``IngestError`` when ``data`` starts like a binary format (``filetype``)."""
    kind = filetype.guess(data[:8192])
    if kind is None:
        return
    if kind.extension in _WORDLIKE_SIGNATURES and _clean_utf8(data):
        return
    params = {"name": name, "kind": kind.extension.upper(), "mime": kind.mime}
    if kind.extension in ("pdf", "docx"):
        raise IngestError(
            gettext_noop(
                "%(name)s: the content is a %(kind)s file (%(mime)s), not text; upload it as "
                ".%(suffix)s"
            ),
            suffix=kind.extension,
            **params,
        )
    raise IngestError(
        gettext_noop("%(name)s: the content is a %(kind)s file (%(mime)s), not text"), **params
    )


def _as_named(name: str, suffix: str, data: bytes) -> bytes:
    """``data`` of a .pdf or .docx file, or ``IngestError`` when its bytes are another
    binary format (``filetype``'s signatures): a Word document named .pdf was "not a
    readable PDF (invalid pdf header)" where a PDF named .md was told to be uploaded as
    .pdf (a tester, 2026-12-06). Text and unknown bytes go on to the parser's own error."""
    kind = filetype.guess(data[:8192])
    # a .docx is a ZIP container: a ZIP that is no Word document is the parser's to say
    if kind is None or f".{kind.extension}" == suffix or (kind.extension, suffix) == (
            "zip", ".docx"):
        return data
    params = {"name": name, "kind": kind.extension.upper(), "mime": kind.mime, "named": suffix}
    if f".{kind.extension}" in SUPPORTED_SUFFIXES:
        raise IngestError(
            gettext_noop("%(name)s: the content is a %(kind)s file (%(mime)s), not a "
                         "%(named)s file; upload it as .%(suffix)s"),
            suffix=kind.extension, **params)
    raise IngestError(
        gettext_noop("%(name)s: the content is a %(kind)s file (%(mime)s), not a %(named)s "
                     "file"), **params)


# Unicode's control characters (category Cc: U+0000-U+001F and U+007F-U+009F) other than
# tab, line feed, form feed and carriage return; one regex pass instead of a category look-up
# per character (a 15 MB text: 7.9 s before, 0.3 s as one regex; 2026-12-01, machine shared).
_CONTROL_RE = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")


def _clean_utf8(data: bytes) -> bool:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return False
    return _CONTROL_RE.search(text) is None


def _reads_as_chinese(text: str) -> bool:
    """Whether at least ``GB2312_SHARE`` of the non-ASCII characters are in GB2312."""
    wide = [ch for ch in text if ord(ch) > 127]
    if not wide:
        return True
    common = sum(1 for ch in wide if _in_gb2312(ch))
    return common >= GB2312_SHARE * len(wide)


def _in_gb2312(ch: str) -> bool:
    try:
        ch.encode("gb2312")
    except UnicodeEncodeError:
        return False
    return True


def _refuse_controls(name: str, text: str) -> str:
    """``text``, unless control characters (other than line breaks and tabs) make it binary."""
    controls = sum(1 for _ in _CONTROL_RE.finditer(text))
    if controls > max(2, len(text) // 100):
        raise IngestError(BINARY, name=name)
    return text


def _parse_markdown(name: str, text: str, *, plain: bool = False) -> ParsedDocument:
    """YAML front matter (python-frontmatter's handler) plus the Markdown body, its inline
    markup rendered as the reader sees it (``sources.markdown_text``; not for ``plain``).

    ``plain`` (a .txt file): without front matter and headings, a title-like first line is
    the title (``title_line``).
    """
    import frontmatter

    handler = frontmatter.YAMLHandler()
    if not handler.detect(text):
        if plain and not first_heading(text):
            title, text = title_line(text, "")
            return ParsedDocument(numbered_headings(text), {}, title)
        text = text if plain else markdown_plain(text)
        return ParsedDocument(text, {}, first_heading(text))
    raw_meta = ""
    try:
        raw_meta, body = handler.split(text)
    except ValueError as exc:  # the opening --- has no closing one
        raise IngestError(
            gettext_noop(
                "%(name)s: the front matter that the --- on its first line opens is never"
                " closed. Add a line holding only --- after its last field, or remove the"
                " first line if the file has no front matter."
            ),
            name=name,
        ) from exc
    try:
        metadata = yaml_load(handler, raw_meta)
    except Exception as exc:  # yaml.YAMLError and friends: message is about the file
        lines_before = text[: max(text.find(raw_meta), 0)].count("\n")
        raise IngestError(
            gettext_noop(
                "%(name)s: bad front matter (%(problem)s). The block between the --- lines at"
                " the top is YAML: put a value that holds a colon or a # in quotes, e.g."
                ' title: "Travel: Europe"'
            ),
            name=name,
            problem=yaml_problem(exc, lines_before),
        ) from exc
    if metadata is None:
        metadata = {}
    if not isinstance(metadata, dict):
        raise IngestError(gettext_noop(
            "%(name)s: bad front matter (not a mapping). Write one field per line, a name, a"
            " colon and its value, e.g. title: Travel policy, then updated: 2025-06-30; not a"
            " list of items starting with -"), name=name)
    body = body.strip("\n") if plain else markdown_plain(body.strip("\n"))
    return ParsedDocument(body, clean_meta(name, metadata), first_heading(body))


LINE_BREAK = "\u2028"  # what an HTML <br> becomes while a block's strings are joined
_DROP_TAGS = ["script", "style", "nav", "noscript", "template", "svg", "header", "footer", "form"]


_HTML_BLOCKS = [
    "h1", "h2", "h3", "h4", "h5", "h6", "p", "li", "pre", "td", "th", "dt", "dd",
    "blockquote", "div", "section", "article", "main", "body", "caption", "figcaption",
]


def _parse_html(name: str, text: str) -> ParsedDocument:
    from bs4 import BeautifulSoup, NavigableString

    soup = BeautifulSoup(text, "lxml")
    for tag in soup(_DROP_TAGS):
        tag.decompose()
    title = soup.title.get_text(" ", strip=True) if soup.title else ""
    if soup.head is not None:
        soup.head.decompose()
    for br in soup.find_all("br"):  # a line break ends a line: "click<br>The password" is two
        br.replace_with(LINE_BREAK)
    _tables_as_rows(soup)
    groups: list[tuple[Any, list[str]]] = []  # (nearest block element, its strings) in order
    for string in soup.find_all(string=True):
        if type(string) is not NavigableString:
            continue  # comments, doctype, CDATA
        block = string.find_parent(_HTML_BLOCKS)
        if groups and groups[-1][0] is block:
            groups[-1][1].append(str(string))
        else:
            groups.append((block, [str(string)]))
    blocks = [_html_block(getattr(el, "name", "") or "", "".join(parts)) for el, parts in groups]
    body = "\n\n".join(b for b in blocks if b.strip())
    return ParsedDocument(body, {}, title or first_heading(body))


def _tables_as_rows(soup: Any) -> None:
    """Each outermost ``<table>`` of ``soup`` replaced by one paragraph per row, read with
    the header row's labels as a DOCX table is (``row_statement``: "Site: Suzhou; Phone:
    ext. 8400; Hours: 8:00 to 20:00 CST."): cell by cell, "Suzhou" and "ext. 8400" were two
    paragraphs that said nothing of each other."""
    for table in soup.find_all("table"):
        if table.find_parent("table") is not None:
            continue
        rows = [(tr, [" ".join(c.get_text(" ").replace(LINE_BREAK, " ").split())
                      for c in tr.find_all(["td", "th"], recursive=False)])
                for tr in table.find_all("tr") if tr.find_parent("table") is table]
        rows = [(tr, cells) for tr, cells in rows if any(cells)]
        header: list[str] = []
        if len(rows) > 1 and rows[0][0].find("th", recursive=False) is not None:
            header = rows[0][1]
            rows = rows[1:]
        div = soup.new_tag("div")
        for _, cells in rows:
            p = soup.new_tag("p")
            p.string = row_statement(header, cells)
            div.append(p)
        table.replace_with(div)


def _html_block(tag: str, text: str) -> str:
    """The text of one HTML block element as a Markdown-like block; its ``<br>`` lines
    become paragraphs of their own."""
    if tag == "pre":
        return "```\n" + text.replace(LINE_BREAK, "\n").strip("\n") + "\n```"
    lines = (" ".join(line.split()) for line in text.split(LINE_BREAK))
    words = "\n\n".join(line for line in lines if line)
    if not words:
        return ""
    if len(tag) == 2 and tag[0] == "h" and tag[1].isdigit():
        return "#" * int(tag[1]) + " " + words
    if tag == "li":
        return "- " + words
    return words


def _parse_docx(name: str, data: bytes) -> ParsedDocument:
    import docx

    try:
        document = docx.Document(io.BytesIO(data))
        title = docx_title(document)
        extracted = docx_text(document, title)
    except Exception as exc:  # python-docx raises zipfile/lxml/KeyError for broken files
        raise IngestError(
            gettext_noop(
                "%(name)s: not a readable Word document (.docx): the file is damaged or is not "
                "really a .docx"
            ),
            name=name,
        ) from exc
    parsed = titled(extracted.text, title, docx_modified(document))
    if not extracted.unread:
        return parsed
    return replace(parsed, warnings=(unread_warning(name, extracted.unread),))


def unread_warning(name: str, unread: dict[str, int]) -> str:
    """What ingest says about content it could not read: ``policy.docx: 2 pictures and 1
    chart were not read: only text is stored, and that content cannot be cited``."""
    items = [f"{n} {kind}{'s' if n > 1 else ''}" for kind, n in unread.items()]
    listed = items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
    verb = "was" if len(items) == 1 and next(iter(unread.values())) == 1 else "were"
    return (f"{name}: {listed} {verb} not read: only text is stored, and that content "
            "cannot be cited")
