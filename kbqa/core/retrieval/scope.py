"""Documents scoped to a place the question names: their chunks count the place as matched.

A company with two offices keeps two travel policies, "深圳办公室差旅报销制度" and "费用报销
制度（中国区）"; the Shenzhen policy names 深圳 in its title and scope section, but its
deadline chunk ("报销单须在费用发生之日起 30 天内提交") does not, so for
"深圳办公室的报销单要在多长时间内交？" BM25 ranks the China policy's deadline first and
the Shenzhen one eighth. A hit whose document title names a Chinese place the question
names (``text.places.chinese_places``) and whose own terms do not gets that term's score
at term frequency 1 and BM25's length normalisation at k1 (the score of a place named once
in a chunk of average length: ``idf * (k1 + 1) / (1 + k1)``, Robertson & Zaragoza 2009),
its relevance raised in the same proportion, and the hits are ranked again (ties by chunk
id). Indexing every title with its chunks was measured and dropped (README, Evaluation:
the demo sets lost six right answers); this weighs only the place. English capitalised
words name products as often as places ("NimbusDrive"), so one counts here only as the
romanised name of a Chinese place in a title ("Suzhou" for 苏州办公室指南:
``text.places.romanised``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from kbqa.core.text.places import chinese_places, places_named, romanised
from kbqa.core.text.terms import search_terms
from kbqa.core.types import ScoredChunk


def scope_boosted(hits: Sequence[ScoredChunk], query: str,
                  idf: Callable[[str], float]) -> list[ScoredChunk]:
    """``hits`` with the place boost (module docstring), best first, ties by chunk id;
    ``hits`` as they are when the query names no Chinese place or no title names one."""
    places = chinese_places(query)
    english = {romanised(w) for w in places_named(query) - places}
    if not places and not english:
        return list(hits)

    def named_in(title: str) -> list[str]:  # "Suzhou" of the query names 苏州 of a title
        return [p for p in places if p in title] + [
            p for p in chinese_places(title) if p not in places and romanised(p) in english]
    if not any(named_in(h.chunk.title) for h in hits):
        return list(hits)
    out = []
    for h in hits:
        named = named_in(h.chunk.title)
        own = set(search_terms(f"{h.chunk.section}\n{h.chunk.text}")) if named else set()
        # at tf 1 and a length normalisation of k1, (k1 + 1) / (1 + k1) = 1: the idf itself
        boost = sum(idf(p) for p in named if p not in own)
        if boost > 0 and h.score > 0:
            grown = h.score + boost
            h = replace(h, score=grown, relevance=min(h.relevance * grown / h.score, 0.999))
        out.append(h)
    return sorted(out, key=lambda h: (-h.score, h.chunk.chunk_id))
