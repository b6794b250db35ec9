"""Readers: what turns blocks into a draft without a model (the offline extractive reader).

The pipeline asks a reader one question of its own before generation, through this
package's public surface only (``typed_answer_possible``), so the reader's question
analysis can change without the pipeline reaching into its modules.
"""

from __future__ import annotations

from collections.abc import Sequence

from kbqa.core.readers.extractive.coverage import ask_covered
from kbqa.core.readers.extractive.focus import ask_kind
from kbqa.core.readers.extractive.question import CLOCK_RE
from kbqa.core.readers.extractive.steps import is_procedure
from kbqa.core.types import Chunk


def typed_answer_possible(question: str, chunks: Sequence[Chunk]) -> bool:
    """Whether ``question`` asks for a typed value (a quantity, an amount, a date, a name:
    ``focus.ask_kind``), which an answer must state with a span of its own, and every noun
    its ask clause names is mentioned by ``chunks`` (texts, headings, titles:
    ``coverage.ask_covered``; "实习生" is not covered by a sick-leave policy for
    employees). A yes/no or open question is ``False``: any on-topic sentence would do;
    so is a yes/no question whose only value of its own is a time of day ("Can I claim my
    Uber home at 11pm?", "落地 23:30 打车能报吗？"): a clock time is when it happened, not an
    amount a source could state, and any sentence with some amount would pass the reader's
    type check (a tester got the home-office allowance for an Uber at 11pm).

    A procedure ("How do I stop it syncing?", ``steps.is_procedure``) is an answer type
    too: the reader quotes only a sentence giving an action for the asked task
    (``steps.action_pool``), not any on-topic one. Measured 2026-12-06: the nine demo sets
    +1 right answer ("There's a giant shared folder eating my laptop disk… How do I stop it
    syncing?"), no wrong one; the bilingual sets and RGB's three files identical."""
    kind = ask_kind(CLOCK_RE.sub(" ", question))
    typed = kind != "other" or is_procedure(question, kind)
    return typed and ask_covered(question, chunks)


__all__ = ["typed_answer_possible"]
