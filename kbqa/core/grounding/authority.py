"""Which of two disagreeing sources is preferred: document authority, then the asked year.

``AUTHORITY_RANK`` orders the ``authority`` labels documents are ingested with (README:
Using it): a policy outranks a manual, a manual an FAQ, an FAQ meeting notes, and an
archived document everything; a conflict between two ranks is resolved for the higher one
and shown with an authority notice (``grounding.refusals``), one between equal ranks is
refused with both values. ``of_year`` tells whether a source is of the year a question asks
about (updated that year, or so titled), for the year notice; ``scoped`` prefers, before
authority, the source of the asked year, then the one whose title or section names a place
the question names (two offices' policies: "深圳办公室的报销单要在多长时间内交？" is asked of
the Shenzhen policy, not of the China-wide one beside it).
"""

from __future__ import annotations

import re
from dataclasses import replace

from kbqa.core.text.places import place_in
from kbqa.core.types import Block, Conflict

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


def scoped(conflict: Conflict, a: Block, b: Block, years: frozenset[str],
           places: frozenset[str]) -> Conflict:
    """``conflict`` (sides ``a``, ``b``) resolved for the document of the asked year
    (``of_year``), else for the one whose title or section names a place of ``places``
    (``of_place``) when the other's does not; as it was otherwise."""
    of_years = [of_year(a, years), of_year(b, years)]
    if of_years[0] != of_years[1]:
        return replace(conflict, preferred=of_years.index(True), preferred_by="year")
    named = [of_place(a, places), of_place(b, places)]
    if bool(named[0]) != bool(named[1]):
        side = 0 if named[0] else 1
        return replace(conflict, preferred=side, preferred_by="place", preferred_for=named[side])
    return conflict


def of_place(block: Block, places: frozenset[str]) -> str:
    """The first of ``places`` (sorted) that ``block``'s document title or section names;
    "" for none."""
    scope = f"{block.chunk.title} {block.chunk.section}"
    return next((p for p in sorted(places) if place_in(p, scope)), "")
