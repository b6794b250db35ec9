"""The conflict gate's own search: other documents' statements of the value a question asks.

Retrieval ranks chunks by the question's words, so when two documents disagree on the asked
value, the second one's statement can miss the blocks: "What's the biggest single file you
can upload to NimbusDrive?" brings the manual's "The maximum size of a single uploaded file
is 200 MB" and pages that share "upload" and "NimbusDrive", while the web uploader guide's
"The maximum size for a single uploaded file is 100 MB" ranks sixth; "录了一段 150M 的视频，
用网页版能传上去吗？" brings neither size paragraph. When the question asks for a value
(``conflicts.probe_terms``), one more search, the question with the words of the leading
values and of the unit it states, brings up to ``max_blocks`` chunks; those the blocks do
not hold are the *probed* blocks the conflict check reads beside them
(``conflicts.find_conflicts``). A probed block joins the blocks only when it is a side of
a conflict (``with_probed``). A second search looks in the other language
(``conflict_bridge.probe_query``: the question's and the values' words through CC-CEDICT), so
a Chinese manual's 100 MB reaches an English question about the 200 MB upload limit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from kbqa.core.context.assembly import leading_blocks, measure
from kbqa.core.grounding.conflict_asked import Asked, asked_of
from kbqa.core.grounding.conflict_bridge import probe_query
from kbqa.core.grounding.conflict_focus import ASKED_BOUND_TERMS, unit_terms
from kbqa.core.grounding.mentions import Mention, mentions_of
from kbqa.core.retriever import Retriever
from kbqa.core.text.normalise import detect_language
from kbqa.core.types import Block, Conflict, ConflictSide


def probe_terms(blocks: Sequence[Block], question: str) -> tuple[str, ...]:
    """Words to search with, beside ``question``, for other documents' statements of the
    value it asks; () when it asks for none.

    A question asks for a value when it states a quantity ("Will a 150 MB recording go
    through?"), names a unit ("多少天") or asks for a bound ("the biggest file"). The words
    are those of each leading clause holding such a value of the asked thing (its focus, and
    the unit named or a bound asked), and the words naming each unit the question states
    ("size", "大小" for MB). Retrieval ranks by the question's own words, so a second
    document's "maximum size for a single uploaded file is 100 MB" can rank below pages
    that share "upload" and "NimbusDrive" and never reach the blocks: only a search with
    the words of the first value finds it (natural-phrasing set, 2026-12-01).
    """
    return _words(*_asked(blocks, question))


def _asked(blocks: Sequence[Block], question: str) -> tuple[Asked, list[Mention]]:
    """What ``question`` asks over ``blocks``, and the values of their leading clauses."""
    leading = sorted(leading_blocks(blocks), key=lambda b: b.n)
    mentions = [m for b in leading for m in mentions_of(b)]
    return asked_of(blocks, leading, mentions, question), mentions


def _words(asked: Asked, mentions: Sequence[Mention]) -> tuple[str, ...]:
    """``probe_terms`` for what is asked and the leading values."""
    if not _asks_value(asked, mentions):
        return ()
    words: dict[str, None] = {}
    for m in mentions:
        if asked.about(m) and asked.of_type(m):
            words.update(dict.fromkeys(sorted(m.clause)))
    for unit in sorted(asked.units):
        words.update(dict.fromkeys(sorted(unit_terms(unit))))
    return tuple(t for t in words if t not in asked.terms and not t[0].isdigit())


def _asks_amount(asked: Asked, mentions: Sequence[Mention]) -> bool:
    """Whether the question asks for an amount with no unit ("How much annual leave…?",
    年假有多少？) that a leading clause about its focus states: the other language's version
    of the document may state another value (a tester's report: an updated English
    policy's 25 days against the Chinese 20 天 went unnoticed in English)."""
    return asked.amount and any(asked.about(m) for m in mentions)


def _asks_value(asked: Asked, mentions: Sequence[Mention]) -> bool:
    return bool(asked.units or asked.terms & ASKED_BOUND_TERMS or any(
        asked.names(m.quantity.unit) for m in mentions))


async def probed_blocks(
    retriever: Retriever, blocks: Sequence[Block], question: str, k: int
) -> tuple[Block, ...]:
    """The blocks the probe search (``probe_terms``) finds: those of ``blocks`` it finds
    (their own numbers; the question may have ranked them below the leading ones: the
    Chinese uploader guide's 100 MB for "我有个 120MB 的压缩包，网页上传会不会被拒？"), then its
    first ``k`` chunks that ``blocks`` do not hold, by chunk or by identical text, numbered
    after them, then up to ``k`` more from the search in the other language; () when the
    question asks for no value (no search is made then). Raises what ``retriever.search`` raises."""
    asked, mentions = _asked(blocks, question)  # once: the conflict gate is on every turn
    words = _words(asked, mentions)
    own = detect_language(question)
    searches = [(f"{question} {' '.join(words)}", k)] if words else []
    valued = bool(words) or _asks_value(asked, mentions)
    # An amount asked with no unit is probed for the other language's version only (new
    # blocks in that language): in one language, news snippets' many figures for one "多少"
    # were taken for conflicts once the probe led them (RGB zh_refine -4 right).
    amount = not valued and _asks_amount(asked, mentions)
    if (valued or amount) and (
            other := probe_query(question, words, own)):
        searches.append((other, k))  # the other language's statement (conflict_bridge)
    if not searches:
        return ()
    held = {measure(b.chunk.text)[0]: b for b in blocks}
    again: list[Block] = []  # blocks the question ranked low but the search found
    found: list[Block] = []
    for query, limit in searches:
        hits = await retriever.search(query, limit + len(blocks))
        new = 0
        for hit in hits:
            fp, tokens = measure(hit.chunk.text)
            if fp in held:
                if held[fp].n <= len(blocks) and not amount:
                    again.append(held[fp])
                continue
            if new >= limit or (amount and hit.chunk.language == own):
                continue  # (an amount's probe is for the other language's version)
            held[fp] = Block(n=len(blocks) + len(found) + 1, chunk=hit.chunk, score=hit.score,
                             tokens=tokens, text=hit.chunk.text)
            found.append(held[fp])
            new += 1
    return (*dict.fromkeys(again), *found)


def with_probed(
    blocks: Sequence[Block], probed: Sequence[Block], conflicts: Sequence[Conflict]
) -> tuple[tuple[Block, ...], list[Conflict]]:
    """``blocks`` and, after them, the probed blocks that are a side of one of
    ``conflicts`` (renumbered on from ``len(blocks) + 1``; scored as the weakest block, so
    they lead nothing else), with ``conflicts`` renumbered alike."""
    sides = {side.n for c in conflicts for side in c.sides}
    used = [b for b in probed if b.n in sides and b.n > len(blocks)]
    if not used:
        return tuple(blocks), list(conflicts)
    floor = min((b.score for b in blocks), default=0.0)
    number = {b.n: len(blocks) + i for i, b in enumerate(used, 1)}
    joined = (*blocks, *(replace(b, n=number[b.n], score=min(b.score, floor)) for b in used))

    def side(s: ConflictSide) -> ConflictSide:
        return replace(s, n=number.get(s.n, s.n))

    return joined, [replace(c, sides=(side(c.sides[0]), side(c.sides[1]))) for c in conflicts]
