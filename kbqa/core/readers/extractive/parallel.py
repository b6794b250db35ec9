"""A rule stated case by case in one sentence is quoted whole when the question names no case.

Chinese FAQs list a rule's cases in one sentence, one clause each, cut at semicolons
("上海、北京、深圳出差住宿每晚不超过人民币 800 元；其他国内城市每晚不超过人民币 500 元；阿姆斯特丹
及其他欧洲城市每晚不超过 180 欧元。"), and the sentence splitter quotes a clause as a sentence
(``text.quotable_sentences``). Asked "住宿标准是多少？", the reader quoted the first city's
limit alone: true, cited, and a third of the answer (a tester's bilingual company).

``with_parallel`` adds, after a quoted clause that ends at a semicolon, the clauses after it
in the same sentence that state a value of the same kind (money in any currency, or the
same unit: ``kbqa.core.text.quantities``), while each one does; for a value asked (money,
a quantity) also the sentences after it that say the same of the next case
(``same_frame``: "The Starter plan costs USD 12…" then "The Team plan costs USD 29…";
"how much does TideLog cost?" got the first plan's price alone, a tester's company); never
when the question names a case itself (a place, a name: ``focus.names``) or states its own amount
(``thresholds.asker_amounts``: "8000块的报销要谁批？" is the case above 5,000 元, not the one
above 20,000): that case's clause is the answer.
"""

from __future__ import annotations

from collections.abc import Sequence

from kbqa.core.readers.extractive.focus import ask_kind, names
from kbqa.core.readers.extractive.text import Candidate
from kbqa.core.readers.extractive.thresholds import asker_amounts
from kbqa.core.text.quantities import extract_quantities, is_currency

_SEMICOLONS = ("；", ";")


def with_parallel(question: str, pool: Sequence[Candidate],
                  chosen: Sequence[Candidate]) -> list[Candidate]:
    """``chosen`` with the parallel clauses after its lead (module doc) right after it."""
    if not chosen or names(question) or asker_amounts(question):
        return list(chosen)
    at = {(c.n, c.position): c for c in pool}
    c, added = chosen[0], []
    kinds = value_kinds(c.text)
    # ...and the next sentences saying the same of the next cases, for a value asked
    # ("how much does it cost?": each plan's price sentence), never of a table's rows
    valued = ask_kind(question) in ("money", "quantity", "number") and not c.lead
    while kinds:
        nxt = at.get((c.n, c.position + 1))
        if nxt is None or nxt in chosen or not kinds & value_kinds(nxt.text):
            break
        if not (c.text.rstrip().endswith(_SEMICOLONS) or (valued and same_frame(c, nxt))):
            break
        added.append(nxt)
        c = nxt
    return [chosen[0], *added, *chosen[1:]]


SAME_FRAME = 0.6  # shared share of two sentences' words: "The Starter/Team plan costs…" 5/7


def same_frame(a: Candidate, b: Candidate) -> bool:
    """Whether two sentences say the same thing of two cases: at least ``SAME_FRAME`` of
    their words, numbers aside, are shared (Jaccard)."""
    wa = {t for t in a.terms if not t[:1].isdigit()}
    wb = {t for t in b.terms if not t[:1].isdigit()}
    return bool(wa and wb) and len(wa & wb) / len(wa | wb) >= SAME_FRAME


def value_kinds(text: str) -> frozenset[str]:
    """The kinds of the values ``text`` states: the unit, any currency read as "money"
    (``CNY/night`` and ``EUR/night`` are both ``money/night``)."""
    heads = (q.unit.partition("/") for q in extract_quantities(text) if q.unit)
    return frozenset(("money" if is_currency(head) else head) + slash + per
                     for head, slash, per in heads)
