"""Whether the blocks mention what a question's ask clause names, before answering it.

The pipeline's typed-ask gate (``kbqa.core.readers.typed_answer_possible``) lets a question
below the calibrated relevance through only when its ask is covered: read here with the
same expansions ``select`` uses (synonyms, acronyms, ``能报`` -> ``报销``).
"""

from __future__ import annotations

from collections.abc import Sequence

from kbqa.core.readers.extractive.absent import OTHER_PLACES_RE, asked_absent
from kbqa.core.readers.extractive.acronyms import acronym_bridges
from kbqa.core.readers.extractive.expand import spell_numbers
from kbqa.core.readers.extractive.focus import ask_clause, names
from kbqa.core.readers.extractive.scoring import block_frequency
from kbqa.core.readers.extractive.synonyms import block_synonyms, expanded_question_terms
from kbqa.core.readers.extractive.text import folded_terms
from kbqa.core.types import Chunk


def ask_covered(question: str, chunks: Sequence[Chunk]) -> bool:
    """Whether ``chunks`` (texts, headings, titles) mention every noun the ask clause names
    (``asked_absent`` share 1: "实习生" of "实习生每年有多少天病假？" is not covered by a
    policy about employees), as ``select`` expands it (``能报`` -> ``报销``)."""
    terms = [folded_terms(f"{c.text}\n{c.section}\n{c.title}") for c in chunks]
    ask = ask_clause(spell_numbers(question))
    qterms = expanded_question_terms(ask, terms, block_synonyms(ask, terms),
                             bridges=acronym_bridges(ask, chunks))
    df = block_frequency(qterms, terms)
    missing = [t for t, share in asked_absent(ask, qterms, df, len(chunks)).items()
               if share >= 1.0]
    # A place a rule for the other places covers ("其他城市每晚不超过 500 元" for 成都): the
    # question is about a place the rule meant, not one the documents lack.
    if missing and any(OTHER_PLACES_RE.search(c.text) for c in chunks):
        places = names(ask)
        missing = [t for t in missing if t not in places]
    return not missing
