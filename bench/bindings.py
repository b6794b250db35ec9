"""What the binding, predicate, restriction and fragment checks cost and catch.

Run after the demo knowledge base is loaded (``bench/eval.sh`` step 1, or ``manage.py
demo_setup``): ``KBQA_DEBUG=1 .venv/bin/python bench/bindings.py``. No model is called.
Each part runs twice side by side, with the checks of ``kbqa.core.grounding.bindings`` and
``kbqa.core.grounding.predicates`` and with them switched off, and prints:

1. every quotable sentence of every current demo chunk (``readers.extractive.text``: what
   the offline reader may quote), cited to its own chunk: how many the verifier drops;
2. ``bench/claim_words.py``'s 39 realistic model answers (paraphrased, numbers copied)
   streamed through the real pipeline: dropped sentences per answer, answer accuracy;
3. the tester's false sentences (report of 2026-12-01) cited to each chunk of their demo
   document, and true sentences beside them: how many of each are shown (no question is
   asked here, so the Chinese ones say 每个自然年 as the policy does: the claim words would
   drop 每年).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kbqa.settings")

import claim_words  # noqa: E402  (sets up Django)

from kbqa.core.grounding import bindings, citations, clauses, source_text  # noqa: E402
from kbqa.core.grounding.parsing import parse_claim  # noqa: E402
from kbqa.core.readers.extractive.text import clean, quotable_sentences  # noqa: E402
from kbqa.core.types import Block  # noqa: E402
from kbqa.core.types import Chunk as CoreChunk  # noqa: E402
from sources.models import Chunk  # noqa: E402

#: (doc id, sentence, whether it is true): the tester's kinds, and true ones beside them.
SENTENCES: tuple[tuple[str, str, bool], ...] = (
    ("doc-060", "Hotels in London are reimbursed up to EUR 170 per night.", False),
    ("doc-060", "Hotels in other cities are up to EUR 240 per night.", False),
    ("doc-060", "Minibar and pay-TV are reimbursed.", False),
    ("doc-070", "Laptops are replaced every 4 years only for managers.", False),
    ("doc-062", "兼职员工每个自然年享有 20 天带薪年假。", False),
    ("doc-060", "- item two", False),
    ("doc-060", "Hotels in London are reimbursed up to EUR 240 per night.", True),
    ("doc-060", "Hotels are reimbursed up to EUR 170 per night.", True),
    ("doc-060", "Minibar and pay-TV are personal costs.", True),
    ("doc-070", "Company laptops are replaced every 4 years.", True),
    ("doc-062", "全职员工每个自然年有 20 天带薪年假。", True),
    ("doc-060", "Meals with customers are reimbursed up to EUR 80 per person.", True),
)


@contextmanager
def new_checks_off() -> Iterator[None]:
    saved = (bindings.binding_issue, bindings.group_issue, clauses.polar_form,
             source_text.polar_form, clauses.restriction_scope, citations.is_fragment)
    bindings.binding_issue = lambda *a, **k: ""  # type: ignore[assignment]
    bindings.group_issue = lambda *a, **k: ""  # type: ignore[assignment]
    clauses.polar_form = lambda text: text  # type: ignore[assignment]
    source_text.polar_form = lambda text: text  # type: ignore[assignment]
    clauses.restriction_scope = lambda text: None  # type: ignore[assignment]
    citations.is_fragment = lambda text: False  # type: ignore[assignment]
    source_text.source_text.cache_clear()
    try:
        yield
    finally:
        (bindings.binding_issue, bindings.group_issue, clauses.polar_form,
         source_text.polar_form, clauses.restriction_scope, citations.is_fragment) = saved
        source_text.source_text.cache_clear()


def _block(chunk: Chunk) -> Block:
    core = CoreChunk(chunk_id=chunk.chunk_id, doc_id=chunk.document.doc_id,
                     title=chunk.document.title, text=chunk.text, section=chunk.section,
                     updated=str(chunk.document.updated or ""))
    return Block(n=1, chunk=core, score=1.0, tokens=0, text=chunk.text)


def _ok(block: Block, sentence: str) -> bool:
    return citations.Verifier([block]).verify(parse_claim(f"{sentence} [1]")).ok


def verbatim(blocks: list[Block]) -> tuple[int, list[str]]:
    """Quotable sentences, and those the verifier drops against their own chunk."""
    quotes = [(b, s) for b in blocks for raw in quotable_sentences(b.chunk.text)
              if (s := clean(raw))]
    return len(quotes), [s for b, s in quotes if not _ok(b, s)]


def tester(blocks: list[Block]) -> tuple[int, int]:
    """(false sentences shown, true sentences shown), each against its document's chunks."""
    shown = [any(_ok(b, s) for b in blocks if b.chunk.doc_id == doc)
             for doc, s, _ in SENTENCES]
    false = sum(s for s, (_, _, t) in zip(shown, SENTENCES, strict=True) if not t)
    true = sum(s for s, (_, _, t) in zip(shown, SENTENCES, strict=True) if t)
    return false, true


def main() -> None:
    blocks = [_block(c) for c in Chunk.objects.filter(is_current=True).select_related(
        "document").order_by("chunk_id")]
    n_false = sum(not t for _, _, t in SENTENCES)
    print(f"{'run':<16} {'verbatim dropped':>17} {'dropped/answer':>15} {'accuracy':>9} "
          f"{'false shown':>12} {'true shown':>11}")
    runs: tuple[tuple[str, AbstractContextManager[None]], ...] = (
        ("new checks on", nullcontext()), ("new checks off", new_checks_off()))
    for label, ctx in runs:
        with ctx:
            total, dropped = verbatim(blocks)
            s = claim_words.summarise(claim_words.run(claim_words.ANSWERS))
            false, true = tester(blocks)
        print(f"{label:<16} {len(dropped):>8}/{total:<8} {s.dropped_per_answer or 0:>15.2f} "
              f"{s.answer_accuracy.value or 0:>9.1%} {false:>6}/{n_false:<5} "
              f"{true:>5}/{len(SENTENCES) - n_false}")
        for sentence in dropped:
            print(f"  verbatim dropped: {sentence}")


if __name__ == "__main__":
    main()
