"""A message that asks two things is answered for each, and says which part it could not.

People put two questions in one message ("年假有几天？病假要不要证明？", "when's the next
one, and who's sorting out the upload limit?"). The reader's ask clause (``focus.ask_clause``)
is one clause, so one ask was answered and the other silently left: the user could not tell
the answer was half of what they asked (issue 12, "two asks in one message").

- ``asks_of``: each ask of the message with the clauses before it that ask nothing (its
  context); an earlier ask is left out, its words would make the later ask its own. An ask
  is a clause ending with a question mark that asks (an interrogative or auxiliary first, a
  Chinese question word or particle); a last clause written without a mark after an earlier
  ask ("拖着不做会怎样"); a clause before ", and <interrogative or auxiliary>…" that itself
  asks ("when's the next one, and who's…?"); and the part before "and <interrogative>…"
  ("What is X and how do I Y?"). Fewer than two asks: the message itself.
- ``each_ask``: the reader's choice for every ask (only the sentences sharing a word with the
  ask itself), merged with its choice for the whole message, each sentence once. An ask no
  choice answers, unless the whole's answer states the typed value it wants, is quoted in a
  gap sentence ("Not covered: the sources found do not answer “…”"); the verifier keeps it
  only when the ask names something no block mentions, and otherwise shows its generic "may
  not cover every part of this question" line (``grounding.refusals.partial_notice``). A
  yes/no ask hanging on an earlier typed one (``focus.later_asks``) and an ask that leans
  back on an earlier one (``leans_back``: "最多几天？") are the whole's.
- A message the reader declines as a whole stays declined. Measured: answering it ask by
  ask when one ask was answered cleanly and another named words no block has answered the
  invented "hotel limit, and an Airbnb?" but gained nothing on the natural sets, and a
  tester's "密码最少几位？多久要改一次？" (a Chinese question about an English guide) got
  the health check's "每年一次": a later ask leans on the earlier one more often than its
  words show.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from kbqa.core.readers.extractive.focus import (
    CLAUSE_END_RE,
    MIN_ASK_TERMS,
    ask_clause,
    ask_kind,
    later_asks,
    new_answer,
)
from kbqa.core.readers.extractive.question import light_terms, question_terms
from kbqa.core.readers.extractive.text import Candidate, Selection, folded_terms
from kbqa.core.text.normalise import has_cjk
from kbqa.core.types import Block

# A clause that asks: an interrogative or an inverted auxiliary first (English), or a
# Chinese question word or sentence-final question particle anywhere.
_EN_ASKS = (r"(?:is|are|was|were|do|does|did|can|could|will|would|should|may|must|has|have"
            r"|what|which|who|when|where|why|how)\b")
_ZH_ASKS = (r"怎样|怎么|如何|什么|啥|多少|多久|多长|多大|几|哪|谁|吗|呢|是否|能否|可否"
            r"|会不会|能不能|可不可以|要不要|有没有|是不是")
# "and", "also"… before an ask: it asks all the same ("and can I…?")
_CONNECTIVE = r"(?:and|or|also|plus|but|so|then)\s+"
_CONNECTIVE_RE = re.compile(rf"^\s*{_CONNECTIVE}", re.IGNORECASE)
_ASKS_RE = re.compile(rf"\s*(?:{_CONNECTIVE})?{_EN_ASKS}|.*(?:{_ZH_ASKS})", re.IGNORECASE)
# ", and what/who/can …": a second ask joined to the first inside one sentence
_AND_ASK_RE = re.compile(rf"\s*(?:and|or|also|plus)\s+(?={_EN_ASKS})", re.IGNORECASE)
# "What is X and how do I Y?": the same without the comma, for an interrogative only
_AND_WH_RE = re.compile(r"(?<=\w)\s+(?=and\s+(?:how|what|when|where|who|why|which)\s+\w)",
                        re.IGNORECASE)
_POINTS_BACK_RE = re.compile(r"\b(?:that|this|it|those|these|them)\b|[那这][个些种样]|它",
                             re.IGNORECASE)
_QUESTION_MARKS = ("?", "？")
_COMMAS = (",", "，")
_WORD_RE = re.compile(r"\w")

Select = Callable[[str, Sequence[Block]], Selection]


def asks_of(question: str) -> tuple[str, ...]:
    """The message cut after each of its asks (module doc), in order, each with the text
    before it that ask nothing; ``(question,)`` when it asks fewer than two things. Shapes:
    ``"C。A？B？"`` -> ``("C。A？", "C。B？")``; ``"X, and who…?"`` -> ``("X?", "who…?")``."""
    text = question.strip()
    clauses = _clauses(text)
    cuts: list[str] = []
    context = ""  # the clauses that ask nothing, before the ask
    for i, clause in enumerate(clauses):
        bare = clause.strip()
        following = clauses[i + 1] if i + 1 < len(clauses) else ""
        if bare.endswith(_QUESTION_MARKS) and _ASKS_RE.match(bare):
            cuts.append(f"{context}{_CONNECTIVE_RE.sub('', bare)}")
        elif bare.endswith(_COMMAS) and _AND_ASK_RE.match(following) and _ASKS_RE.match(bare):
            cuts.append(f"{context}{bare[:-1].rstrip()}?")
            clauses[i + 1] = _AND_ASK_RE.sub("", following, count=1)
        elif i == len(clauses) - 1 and cuts and _ASKS_RE.match(bare):
            mark = "？" if has_cjk(bare) else "?"
            cuts.append(f"{context}{_CONNECTIVE_RE.sub('', bare).rstrip('.。!！')}{mark}")
        else:
            context += clause
    return tuple(cuts) if len(cuts) >= 2 else (question,)


def _clauses(text: str) -> list[str]:
    """``text`` cut after each clause end, each clause with the space after it; a clause
    of marks alone ("bin?? where": the second "?") joins the one before."""
    out: list[str] = []
    at = 0
    for m in CLAUSE_END_RE.finditer(text):  # the ask clause's own cut
        piece = text[at:m.end()]
        if not piece:
            continue
        if out and not _WORD_RE.search(piece):
            out[-1] += piece
        else:
            out.append(piece)
        at = m.end()
    if at < len(text):
        out.append(text[at:])
    # "What is X and how do I Y?": a second interrogative after "and" asks on its own, as
    # after ", and"
    clauses: list[str] = []
    for c in out:
        pieces = _AND_WH_RE.split(c)
        clauses += [f"{p}, " for p in pieces[:-1]] + [pieces[-1]]
    return [c for c in clauses if c]


def each_ask(question: str, blocks: Sequence[Block], select: Select) -> Selection:
    """``select`` for each ask of ``question`` (``asks_of``), merged with the whole message's
    choice: the first ask's sentences, the whole's, the other asks' in order, each once; the
    unanswered asks quoted in a gap sentence. ``select`` on the whole message alone when it
    asks one thing or when that declines."""
    whole = select(question, blocks)
    asks = asks_of(question)
    if len(asks) < 2 or whole.declined:
        return whole
    # A yes/no ask hanging on an earlier typed one is answered with it (``focus.later_asks``:
    # "IT 服务台几点下班？我六点半还能去吗？"); every other ask gets its own choice, even
    # the whole's ask clause: the whole answer may have been chosen for another of its asks.
    hanging = _bare(later_asks(question))
    chosen: dict[tuple[int, int], Candidate] = {}
    unanswered: list[str] = []
    uncovered = list(whole.uncovered)
    for i, ask in enumerate(asks):
        if i == 1:  # the whole's answer after the first ask's, before the others'
            for c in whole.chosen:
                chosen.setdefault((c.n, c.position), c)
        own = _bare(ask_clause(ask))
        leaning = (i > 0 and leans_back(own)) or bool(hanging and own in hanging)
        pick = whole if leaning else _about_ask(select(ask, blocks), own)
        for c in pick.chosen:
            chosen.setdefault((c.n, c.position), c)
        if not pick.declined:
            uncovered += pick.uncovered
        elif not _states_asked(ask, whole.chosen):
            unanswered.append(own)
    # a word of an ask quoted as unanswered is not named again
    uncovered = [w for w in uncovered if not any(w.lower() in a.lower() for a in unanswered)]
    return Selection(tuple(chosen.values()), tuple(dict.fromkeys(uncovered)), False,
                     unanswered=tuple(dict.fromkeys(unanswered)))


def leans_back(ask: str) -> bool:
    """Whether ``ask``, after another, has too few words of its own to be read alone (fewer
    than ``focus.MIN_ASK_TERMS`` content terms, light words aside: "最多几天", "要提前多
    久"), or points back ("how many days a year is that allowed?"): it asks about what the
    message asked before, and read alone it was answered from another topic (公司能报销机场
    停车费吗？最多几天？ quoted how many leave days carry over)."""
    own = [t for t in question_terms(ask) if t not in light_terms(ask)]
    return len(own) < MIN_ASK_TERMS or bool(_POINTS_BACK_RE.search(ask))


def _about_ask(pick: Selection, ask: str) -> Selection:
    """``pick`` with only the sentences sharing a term with the ask clause ``ask`` itself,
    declined when none does: an ask read with the message's context ("我们写了个脚本调
    NimbusDrive 的接口，能不能存起来一直用？") was answered from the context's words alone
    (the API's introduction)."""
    words = frozenset(question_terms(ask))
    kept = tuple(c for c in pick.chosen if words & folded_terms(c.text))
    if kept == pick.chosen:
        return pick
    return Selection(kept, pick.uncovered, not kept)


def _states_asked(ask: str, chosen: Sequence[Candidate]) -> bool:
    """Whether one of ``chosen`` states the typed value ``ask`` wants ("90 days" for "How
    long can they play with it?"), so that the ask is answered though its own choice
    declined; never for a yes/no or procedure ask (``focus.ask_kind`` "other")."""
    kind = ask_kind(ask)
    return kind != "other" and any(new_answer(kind, c.text, ask) for c in chosen)


def _bare(ask: str) -> str:
    return ask.strip().rstrip("?？").strip()
