"""What the conflict gate reads of a passage, kept per passage.

Every answer's conflict gate (``kbqa.core.grounding.conflicts``) reads the same few things
of each block: the text of the clause that carries a value, the terms of the chunk's
heading and of each of its clauses, and each document's blocks as one normalised text.
They depend on the passage alone, and the same passages come back answer after answer
(every user asking about uploads gets the upload manual), so each is kept in a bounded
cache keyed by the passage's own text: a changed passage is another key, and an old one
falls out of the cache. Nothing here is keyed by a question or an answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from kbqa.core.grounding.conflict_focus import CLAUSE_END, clauses
from kbqa.core.grounding.instructions import without_instructions
from kbqa.core.grounding.mentions import Mention
from kbqa.core.text.normalise import normalise
from kbqa.core.text.terms import term_set
from kbqa.core.types import Chunk

PASSAGES = 1024  # chunks whose facts each cache keeps (the verifier's own caches hold 1,024)


def clause_of(m: Mention) -> str:
    """The first clause of ``m``'s block text (without the sentences addressed to the
    assistant, cut at ``CLAUSE_END``) whose terms are ``m.clause``, normalised; "" when
    none is."""
    return _clause_texts(m.block.chunk.text).get(m.clause, "")


@lru_cache(maxsize=PASSAGES)
def _clause_texts(raw: str) -> Mapping[frozenset[str], str]:
    """Each clause's terms -> the first clause of ``raw`` (a chunk's text) with those
    terms, normalised."""
    found: dict[frozenset[str], str] = {}
    for piece in CLAUSE_END.split(without_instructions(raw)):
        terms = term_set(piece)
        if terms not in found:
            found[terms] = normalise(piece)
    return found


def heading_terms(chunk: Chunk) -> frozenset[str]:
    """The terms of ``chunk``'s section heading, or of its title when it has none."""
    return _terms_of(chunk.section or chunk.title)


@lru_cache(maxsize=4 * PASSAGES)
def _terms_of(heading: str) -> frozenset[str]:
    return term_set(heading)


def chunk_clauses(chunk: Chunk) -> tuple[frozenset[str], ...]:
    """The term sets of ``chunk``'s clauses (``conflict_focus.clauses``), then of its
    section heading and of its title."""
    return (*clauses(chunk.text), _terms_of(chunk.section), _terms_of(chunk.title))


def document_parts(parts: tuple[str, ...]) -> tuple[str, ...]:
    """One document's title, section headings and block texts (``parts``, in the order
    the blocks give them), each normalised, the empty ones left out: joined by a space,
    the normalised text of the parts joined by newlines (``normalise`` folds, lower-cases
    and collapses whitespace one character at a time, never across a newline). Each part
    is normalised once per process: the combinations change from answer to answer, the
    passages do not."""
    return tuple(p for p in map(_normalised, parts) if p)


@lru_cache(maxsize=4 * PASSAGES)
def _normalised(part: str) -> str:
    return normalise(part)
