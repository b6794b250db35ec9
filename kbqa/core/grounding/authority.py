"""Which of two disagreeing sources is preferred: document authority, then the asked year.

``AUTHORITY_RANK`` orders the ``authority`` labels documents are ingested with (README:
Using it): a policy outranks a manual, a manual an FAQ, an FAQ meeting notes, and an
archived document everything; a conflict between two ranks is resolved for the higher one
and shown with an authority notice (``grounding.refusals``), one between equal ranks is
refused with both values. ``of_year`` tells whether a source is of the year a question asks
about (updated that year, or so titled), for the year notice.
"""

from __future__ import annotations

import re

from kbqa.core.types import Block

AUTHORITY_RANK = {"policy": 4, "manual": 3, "faq": 2, "meeting-note": 1, "other": 1, "archived": 0}
YEAR_RE = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")


def authority_rank(authority: str) -> int:
    """Rank of an authority label (unknown labels rank as ``other``)."""
    return AUTHORITY_RANK.get(authority, AUTHORITY_RANK["other"])


def preferred_side(a: Block, b: Block) -> int | None:
    """0 when ``a``'s document outranks ``b``'s, 1 when ``b``'s does, None when equal."""
    rank_a, rank_b = authority_rank(a.chunk.authority), authority_rank(b.chunk.authority)
    if rank_a == rank_b:
        return None
    return 0 if rank_a > rank_b else 1


def of_year(block: Block, years: frozenset[str]) -> bool:
    """Whether ``block``'s document is of one of ``years``: updated then, or so titled."""
    return bool(years) and (block.chunk.updated[:4] in years
                            or bool(years & set(YEAR_RE.findall(block.chunk.title))))
