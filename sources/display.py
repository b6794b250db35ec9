"""Stored chunk text -> a readable structure for the chunk view; the text itself never changes.

Citations are verified against the stored text, so it is kept exactly as ingested (hard line
breaks, ``**bold**`` markers...). For reading, this module turns it into blocks: paragraphs
whose hard-wrapped lines are joined (with a space, or with nothing next to Chinese), list
items one per line, table rows one per line, code as it is, and inline ``**strong**``,
``*emphasis*``, ``code`` and ``[link](url)`` marks as styled spans without their markers.
Every piece stays plain text; the template escapes each one (never ``|safe``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal

from kbqa.core.grounding.support import support_sentences
from kbqa.core.text.sentences import split_sentences
from sources.chunking import ITEM_RE, markdown_blocks

SpanStyle = Literal["", "strong", "em", "code"]
BlockKind = Literal["para", "heading", "list", "rows", "quote", "code"]
_TAGS = {"para": "p", "heading": "p", "list": "ul", "rows": "p", "quote": "blockquote"}

_INLINE_RE = re.compile(
    r"`(?P<code>[^`\n]+)`"
    r"|\*\*(?P<strong>[^*\n]+?)\*\*"
    r"|__(?P<strong2>[^_\n]+?)__"
    r"|(?<![*\w])\*(?P<em>[^*\s](?:[^*\n]*?[^*\s])?)\*(?![*\w])"
    r"|\[(?P<link>[^\]\n]+)\]\([^)\s]+\)"
)
_TABLE_RULE_RE = re.compile(r"^\s*\|?\s*:?-{3,}")


@dataclass(frozen=True)
class Span:
    """A run of text in one style ("" is plain); ``mark`` when it supports the cited claim."""

    text: str
    style: SpanStyle = ""
    mark: bool = False


@dataclass(frozen=True)
class DisplayBlock:
    """One block to show: ``lines`` are list items / table rows, or one line for a paragraph.

    ``tag`` is the HTML element (from a fixed set, never from the text); ``code`` holds a code
    block's text (its ``lines`` are empty); ``ordered`` marks a numbered list, whose numbers
    stay in the item text.
    """

    kind: BlockKind
    lines: tuple[tuple[Span, ...], ...] = ()
    code: str = ""
    ordered: bool = False
    anchor: bool = False  # holds the first sentence marked as support (``id="support"``)

    @property
    def tag(self) -> str:
        return _TAGS.get(self.kind, "pre")


def display_blocks(text: str) -> list[DisplayBlock]:
    """The blocks of a chunk's stored ``text`` in reading order; [] for blank text."""
    blocks: list[DisplayBlock] = []
    for kind, block in markdown_blocks(text):
        if kind == "code":
            inner = block.split("\n")[1:]
            if inner and inner[-1].strip()[:3] in ("```", "~~~"):
                inner = inner[:-1]
            blocks.append(DisplayBlock("code", code="\n".join(inner)))
        elif kind == "heading":
            blocks.append(DisplayBlock("heading", (spans(block),)))
        else:
            blocks.extend(_paragraph(block.split("\n")))
    return blocks


def _paragraph(lines: list[str]) -> list[DisplayBlock]:
    """A blank-line-separated paragraph: rows, a quote, or runs of prose and list items."""
    if all("|" in line for line in lines) and (lines[0].lstrip().startswith("|") or len(lines) > 1):
        rows = [line.strip().strip("|").strip() for line in lines if not _TABLE_RULE_RE.match(line)]
        return [DisplayBlock("rows", tuple(spans(r) for r in rows))]
    if all(line.lstrip().startswith(">") for line in lines):
        quoted = [line.lstrip()[1:].strip() for line in lines]
        return [DisplayBlock("quote", (spans(join_lines(quoted)),))]
    out: list[DisplayBlock] = []
    prose: list[str] = []
    items: list[list[str]] = []
    for line in lines:
        if ITEM_RE.match(line) or (items and not prose and line[:1].isspace()):
            if prose:
                out.append(DisplayBlock("para", (spans(join_lines(prose)),)))
                prose = []
            if ITEM_RE.match(line):
                items.append([line])
            else:
                items[-1].append(line)  # an indented continuation of the item above
        else:
            if items:
                out.append(_list(items))
                items = []
            prose.append(line)
    if prose:
        out.append(DisplayBlock("para", (spans(join_lines(prose)),)))
    if items:
        out.append(_list(items))
    return out


def _list(items: list[list[str]]) -> DisplayBlock:
    ordered = bool(re.match(r"^\s*\d", items[0][0]))
    texts = [join_lines(item) if ordered else ITEM_RE.sub("", join_lines(item), count=1)
             for item in items]
    return DisplayBlock("list", tuple(spans(t) for t in texts), ordered=ordered)


def join_lines(lines: list[str]) -> str:
    """Hard-wrapped lines as one line: joined with a space, or with nothing where either
    side of the break is Chinese/Japanese/Korean (those scripts put no space between words).
    """
    out = ""
    for line in (stripped for raw in lines if (stripped := raw.strip())):
        if out and not (_is_cjk(out[-1]) or _is_cjk(line[0])):
            out += " "
        out += line
    return out


def _is_cjk(char: str) -> bool:
    """CJK ideographs, kana, hangul and full-width punctuation (U+2E80 and up, below the
    surrogates), as ``sources.chunking`` treats them."""
    return 0x2E80 <= ord(char) < 0xD800 or 0xFF00 <= ord(char) <= 0xFFEF


def spans(line: str) -> tuple[Span, ...]:
    """``line`` as styled spans with the Markdown markers removed."""
    out: list[Span] = []
    pos = 0
    for match in _INLINE_RE.finditer(line):
        if match.start() > pos:
            out.append(Span(line[pos : match.start()]))
        style, inner = _style(match)
        out.append(Span(inner, style))
        pos = match.end()
    if pos < len(line):
        out.append(Span(line[pos:]))
    return tuple(out)


def _style(match: re.Match[str]) -> tuple[SpanStyle, str]:
    groups = match.groupdict()
    if groups["code"] is not None:
        return "code", groups["code"]
    if groups["strong"] is not None or groups["strong2"] is not None:
        return "strong", groups["strong"] or groups["strong2"]
    if groups["em"] is not None:
        return "em", groups["em"]
    return "", groups["link"]


# ------------------------------------------------------------------ highlighted support

Where = tuple[int, int, int, int]  # block index, line index, start, end (characters)


def display_marked(blocks: list[DisplayBlock], claim: str) -> list[DisplayBlock]:
    """``blocks`` with the sentences that support ``claim`` marked (``Span.mark``), as chosen
    by ``kbqa.core.grounding.support.support_sentences`` over the passage's sentences as
    displayed. Unchanged when ``claim`` is blank or nothing in the passage supports it."""
    if not claim.strip():
        return blocks
    places: list[Where] = []
    texts: list[str] = []
    for b, block in enumerate(blocks):
        for ln, line in enumerate(block.lines):
            line_text = "".join(span.text for span in line)
            pos = 0
            for sentence in split_sentences(line_text):
                start = line_text.find(sentence, pos)
                pos = start + len(sentence)
                places.append((b, ln, start, pos))
                texts.append(sentence)
    chosen = [places[i] for i in support_sentences(claim, texts)]
    out = list(blocks)
    for k, (b, ln, start, end) in enumerate(chosen):
        lines = list(out[b].lines)
        lines[ln] = _mark(lines[ln], start, end)
        out[b] = replace(out[b], lines=tuple(lines), anchor=out[b].anchor or k == 0)
    return out


def _mark(line: tuple[Span, ...], start: int, end: int) -> tuple[Span, ...]:
    """``line`` with characters ``start``..``end`` (of its joined text) in marked spans."""
    out: list[Span] = []
    pos = 0
    for span in line:
        inner = (c - pos for c in (start, end) if pos < c < pos + len(span.text))
        cuts = sorted({0, len(span.text), *inner})
        for a, z in zip(cuts, cuts[1:], strict=False):
            inside = span.mark or start <= pos + a < end
            out.append(Span(span.text[a:z], span.style, inside))
        pos += len(span.text)
    return tuple(out)
