"""A Markdown table's body row as one sentence, as the offline reader quotes it and the
verifier reads it: each cell after its column's header ("Plan: Starter; Price: EUR 6 per
user per month; Uptime commitment: none"), so a cell is about its column and a negation in
one cell ("none") is that cell's, not the row's."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence


def cells(line: str) -> list[str]:
    """The cells of the Markdown table row ``line``, stripped (outer pipes dropped)."""
    return [c.strip() for c in line.strip().strip("|").split("|")]


def row_sentence(header: Sequence[str], row: Sequence[str]) -> str:
    """``row``'s non-empty cells, each after its ``header`` cell (``Header: value``; a cell
    past the header or under an empty one as written), joined with ``; `` (a Chinese header:
    ``：`` and ``，``)."""
    zh = any(unicodedata.east_asian_width(ch) in ("W", "F") for ch in "".join(header))
    colon, sep = ("：", "，") if zh else (": ", "; ")
    return sep.join(f"{header[i]}{colon}{cell}" if i < len(header) and header[i] else cell
                    for i, cell in enumerate(row) if cell)
