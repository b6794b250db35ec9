"""Split a document's text into chunks by headings and paragraphs, up to a token size.

Pure functions: no database, no Django. Evaluation builds temporary per-case knowledge bases
with them.

Input is Markdown-like text (every parser in ``sources.parsers`` produces it): ``#`` heading
lines start a section; blank lines separate paragraphs; ``-``/``*``/``+``/``1.`` lines are
list items; ``` or ~~~ fences enclose code. Units that are never cut: a sentence, a list item
(with its indented continuation lines), a fenced code block. A paragraph longer than the
budget is split at sentence boundaries (``kbqa.core.text.sentences.split_sentences``); a single
unit longer than the budget becomes a chunk of its own, over budget, rather than being cut.
Tokens are tiktoken cl100k_base (``kbqa.core.text.tokens.count_tokens``); Chinese text without
spaces is measured and split the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

from kbqa.core.text.normalise import fingerprint
from kbqa.core.text.sentences import split_sentences
from kbqa.core.text.tokens import count_tokens

DEFAULT_MAX_TOKENS = 300  # settings.KBQA_CHUNK_TOKENS default

# A Markdown heading line; group 1 is its text. MULTILINE so ``search`` finds one in a text.
HEADING_RE = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)
_FENCE_RE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
ITEM_RE = re.compile(r"^\s{0,3}(?:[-*+•]|\d{1,3}[.)])\s+")


@dataclass(frozen=True)
class ChunkDraft:
    """A chunk before it is stored: 1-based ``ordinal``, nearest ``section`` heading ("" before
    the first heading), original ``text`` and its cl100k ``tokens``."""

    ordinal: int
    section: str
    text: str
    tokens: int

    @cached_property
    def fingerprint(self) -> str:
        """``kbqa.core.text.normalise.fingerprint`` of the text, computed once: duplicate
        detection and versioning both compare it (a 15 MB text: 5 s each time)."""
        return fingerprint(self.text)


@dataclass(frozen=True)
class _Unit:
    """A piece that is never cut; ``kind`` decides how it joins its neighbours."""

    kind: str  # "para" | "item" | "code" | "sentence"
    text: str
    tokens: int = -1  # its cl100k tokens when already counted, else -1


def chunk_text(text: str, *, max_tokens: int = DEFAULT_MAX_TOKENS) -> list[ChunkDraft]:
    """Chunks of ``text`` in reading order, each at most ``max_tokens`` tokens unless a single
    unbreakable unit (sentence, list item, code block) is longer on its own.

    Returns [] for empty or whitespace-only text. Raises ValueError if ``max_tokens`` < 1.
    """
    return list(chunks_of(text, max_tokens=max_tokens))


def chunks_of(text: str, *, max_tokens: int = DEFAULT_MAX_TOKENS) -> Iterator[ChunkDraft]:
    """``chunk_text``'s chunks one at a time, as they are made (so a consumer can work on
    the first ones while the rest are cut). Raises ValueError if ``max_tokens`` < 1."""
    if max_tokens < 1:
        raise ValueError("max_tokens must be at least 1")
    ordinal = 0
    for section, units in _sections(text):
        for body, tokens in _pack(units, max_tokens):
            ordinal += 1
            yield ChunkDraft(ordinal, section, body, tokens)


def _sections(text: str) -> Iterator[tuple[str, list[_Unit]]]:
    """(heading, units) per section; sections with no body text are skipped."""
    section, units = "", []
    for kind, block in markdown_blocks(text):
        if kind == "heading":
            if units:
                yield section, units
            section, units = block, []
        else:
            units.extend(_units(kind, block))
    if units:
        yield section, units


def markdown_blocks(text: str) -> Iterator[tuple[str, str]]:
    """("heading" | "code" | "para", text) blocks of Markdown-like text."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    para: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = _FENCE_RE.match(line)
        heading = HEADING_RE.match(line)
        if fence or heading or not line.strip():
            if para:
                yield "para", "\n".join(para)
                para = []
        if fence:
            end = _fence_end(lines, i, fence.group(1))
            yield "code", "\n".join(lines[i : end + 1])
            i = end + 1
            continue
        if heading:
            yield "heading", heading.group(1).strip()
        elif line.strip():
            para.append(line.rstrip())
        i += 1
    if para:
        yield "para", "\n".join(para)


def _fence_end(lines: list[str], start: int, marker: str) -> int:
    """Index of the line closing the fence opened at ``start`` (last line if unclosed)."""
    for j in range(start + 1, len(lines)):
        if lines[j].strip().startswith(marker[0] * len(marker)) and not lines[j].strip().strip(
            marker[0]
        ):
            return j
    return len(lines) - 1


def _units(kind: str, block: str) -> list[_Unit]:
    """A paragraph made of list items becomes one unit per item; anything else one unit."""
    if kind == "code":
        return [_Unit("code", block)]
    lines = block.split("\n")
    if not ITEM_RE.match(lines[0]):
        return [_Unit("para", block)]
    items: list[list[str]] = []
    for line in lines:
        if ITEM_RE.match(line) or not items:
            items.append([line])
        else:
            items[-1].append(line)  # continuation line belongs to the item above
    return [_Unit("item", "\n".join(item)) for item in items]


def _split_long(unit: _Unit, max_tokens: int) -> list[_Unit]:
    """A paragraph over budget becomes its sentences; items and code stay whole."""
    if unit.kind != "para":
        return [unit]
    tokens = count_tokens(unit.text)
    if tokens <= max_tokens:
        return [_Unit(unit.kind, unit.text, tokens)]
    sentences = [s for s in split_sentences(unit.text) if s.strip()]
    return [_Unit("sentence", s.strip()) for s in sentences] or [unit]


def _join(units: list[_Unit]) -> str:
    """Items stay on consecutive lines, sentences of one paragraph on one line."""
    out = units[0].text
    for prev, unit in zip(units, units[1:], strict=False):
        if prev.kind == unit.kind == "item":
            sep = "\n"
        elif prev.kind == unit.kind == "sentence":
            sep = "" if _is_cjk_end(prev.text) else " "
        else:
            sep = "\n\n"
        out += sep + unit.text
    return out


def _is_cjk_end(text: str) -> bool:
    return bool(text) and ord(text[-1]) >= 0x2E80


def _pack(units: list[_Unit], max_tokens: int) -> Iterator[tuple[str, int]]:
    """Greedily pack units into chunk texts of at most ``max_tokens`` tokens; each with its
    token count. Every text is counted once as it grows and the count of the last one that
    fitted is the chunk's (a 15 MB text: 111,105 counts before, bench/ingest.py --big)."""
    current: list[_Unit] = []
    tokens = -1  # of ``_join(current)``, -1 while not counted
    for unit in (piece for u in units for piece in _split_long(u, max_tokens)):
        if current:
            grown = count_tokens(_join([*current, unit]))
            if grown > max_tokens:
                yield _join(current), _counted(current, tokens)
                current, tokens = [unit], unit.tokens
            else:
                current.append(unit)
                tokens = grown
        else:
            current, tokens = [unit], unit.tokens
    if current:
        yield _join(current), _counted(current, tokens)


def _counted(units: list[_Unit], tokens: int) -> int:
    return tokens if tokens >= 0 else count_tokens(_join(units))
