"""A Markdown body as the text its reader sees: inline markup out, block layout kept.

Chunk text is what citations are checked against and what answers quote, so it must read as
the rendered document does: a tester was shown "<br> See the [booking portal]
(https://travel.example/portal) for details." markdown-it-py (CommonMark, with GFM tables
and strikethrough) parses the body; in each line holding inline markup only that markup
changes: a link is its text, an image its alt text, ``**bold**``, ``_it_``, ``~~gone~~`` and
``code`` lose their markers, ``<br>`` is a line break and other inline HTML tags go. An HTML
block is its text, and link reference definitions (``[id]: https://…``), which show nothing,
go. The block layout the chunker reads (``#`` headings, ``-`` items, tables, fences, blank
lines) stays as written, so a document without inline markup keeps its text byte for byte.
"""

from __future__ import annotations

import re
from typing import Any

from markdown_it import MarkdownIt

_PARSER = MarkdownIt("commonmark").enable(["table", "strikethrough"])
# What inline markup starts with; a body without any is returned as it is, unparsed: parsing
# costs about 1 s per MB of prose and 4 s per MB of tables (markdown-it-py 4.3, this 2-core
# machine), and most documents have no markup to remove.
_MARKUP_RE = re.compile(r"[*_]\S|\S[*_]|`|\[|<[A-Za-z/!]|~~|&#?\w+;|\\[!-/:-@\[-`{-~]")
_BREAK_RE = re.compile(r"^<br\s*/?>$", re.IGNORECASE)
_MARKERS_RE = re.compile(r"[-*+]|\d{1,9}[.)]")  # a list item's marker, in a line's prefix


def markdown_plain(body: str) -> str:
    """``body`` (Markdown, front matter already split off) with its inline markup rendered
    as plain text (see the module's docstring); the same number of blocks, in order."""
    if _MARKUP_RE.search(body) is None:
        return body
    lines = body.split("\n")
    tokens = _PARSER.parse(body)
    covered = [False] * len(lines)
    cursors = [0] * len(lines)  # where the next cell of a table row is searched from
    replaced: dict[int, str] = {}
    previous = ""
    for token in tokens:
        in_cell, previous = previous in ("th_open", "td_open"), token.type
        if token.map is None:
            continue
        start, end = token.map
        if token.level == 0:
            covered[start:end] = [True] * (end - start)
        if token.type == "html_block":
            for n, line in enumerate(_html_text(token.content, end - start)):
                replaced[start + n] = line
        elif token.type == "inline" and token.children:
            _inline_rewritten(token, lines, cursors, table=in_cell)
    for n, line in replaced.items():
        lines[n] = line
    # lines no block holds are link reference definitions (blank lines aside): not shown
    return "\n".join(line if covered[n] or not line.strip() else ""
                     for n, line in enumerate(lines))


def _inline_rewritten(token: Any, lines: list[str], cursors: list[int], *, table: bool) -> None:
    """Write the plain text of the inline ``token`` into ``lines`` in place of its source,
    line by line; a line whose source cannot be found is left as written."""
    start = token.map[0]
    sources = token.content.split("\n")
    plains = _plain_lines(token.children)
    if len(plains) != len(sources) or all(
            p == s.strip() for p, s in zip(plains, sources, strict=True)):
        return
    heading = lines[start].lstrip().startswith("#")
    for n, (source, plain) in enumerate(zip(sources, plains, strict=True)):
        row = start + n
        if row >= len(lines) or source.strip() == plain:
            continue
        at = lines[row].find(source.strip(), cursors[row])
        if at < 0:
            continue
        prefix = lines[row][:at]
        if table or heading:
            plain = " ".join(plain.split("\n"))
        else:  # a <br>: a new line, under the same blockquote/list indentation
            indent = _MARKERS_RE.sub(lambda m: " " * len(m.group()), prefix)
            plain = ("\n" + indent).join(plain.split("\n"))
        rest = lines[row][at + len(source.strip()):]
        lines[row] = prefix + plain + rest
        cursors[row] = len(prefix) + len(plain)


def _plain_lines(children: list[Any]) -> list[str]:
    """The text a reader sees of inline ``children``, one string per source line (soft and
    hard breaks end one); a ``<br>`` is a "\\n" within its line's string."""
    lines = [""]
    for child in children:
        kind = child.type
        if kind in ("softbreak", "hardbreak"):
            lines.append("")
        elif kind == "html_inline":
            if _BREAK_RE.match(child.content.strip()):
                lines[-1] = lines[-1].rstrip() + "\n"
        elif kind == "image":
            lines[-1] += "".join(c.content for c in child.children or ())
        elif kind in ("text", "code_inline"):
            text = child.content
            lines[-1] += text.lstrip() if lines[-1].endswith("\n") else text
    return lines


def _html_text(html: str, count: int) -> list[str]:
    """The text of an HTML block as ``count`` lines (its tags out, ``<br>`` a line break;
    lines beyond ``count`` joined to the last, blank lines where it has fewer)."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    for br in soup.find_all("br"):
        br.replace_with("\n")
    text = [" ".join(line.split()) for line in soup.get_text().split("\n")]
    text = [line for line in text if line]
    if len(text) > count:
        text = [*text[: count - 1], " ".join(text[count - 1:])]
    return text + [""] * (count - len(text))
