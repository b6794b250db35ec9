"""Sentence similarity in the reader's choice of an answer (README: Semantic recall).

With semantic recall on (``kbqa.core.retrieval.semantic.sentence_similarities``,
multilingual E5 cosines), two uses, both only ever choosing among the blocks' own sentences:

- ``confident``: the sentence whose similarity to the question stands out from all the
  other candidate sentences (z-score ``CONFIDENT_Z``, or ``REPLACE_Z`` to replace an answer
  the lexical order gave) is taken to say what was asked in other words. The selection then
  skips the declines that count the question's own words ("an odd extra copy with my name
  on it. What is that?" is answered by the "conflicted copy" sentence, 纸质收据怎么快速传到
  系统里 by 扫描后上传), never the checks of what the sentence says
  (a span of the asked type, the ask's identifiers, another place or name, another kind).
- ``rerank``: when the lexical order declines and nothing stands out, its top sentences
  are reordered by lexical score plus similarity, and every decline still applies to
  whatever comes first.

With semantic recall off both return at once without encoding anything, so the lexical
reader answers exactly as without the extra.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from kbqa.core.readers.extractive.text import Candidate
from kbqa.core.retrieval.semantic import sentence_similarities

Scored = list[tuple[float, Candidate]]

# Weight of a sentence's similarity z-score (within the question's reordered sentences)
# against its lexical score divided by the best lexical score. E5 cosines are compressed
# (0.75-0.80 for unrelated text), so only their spread within one question carries meaning.
# Measured 2026-11-30 on the natural set (sources/demo/natural.jsonl): 0.3 and 0.6 answer
# the same 2 more questions right with no more unsupported answers; 1.0 answers one
# unanswerable question (unsupported 17.6% -> 23.5%).
SIMILARITY_WEIGHT = 0.3
# Sentences reordered: the lexical top ones scoring above 0 (a sentence with no question
# term is no candidate; each new sentence costs ~40 ms to encode, once). Measured on the
# natural set with every answer reordered: 6 let an unanswerable question through, 12 and
# 30 did not and answered the same.
RERANK_DEPTH = 12
# A sentence whose similarity to the question stands this many standard deviations above
# the other candidate sentences' (all sentences of the blocks) is taken to say what was
# asked in other words. Measured 2026-11-30 on the demo and natural sets (single-turn
# cases, multilingual-e5-small): the sentence most similar to a question that should be
# refused reached z 2.16 at most; answer sentences the lexical reader declined reached
# 2.2-2.8 (2.1 answers no more right). Where the lexical reader answers, its answer is
# evidence too: replacing it needs REPLACE_Z (at 2.2 a follow-up's right answer, "那它每个人
# 能有多少空间？", gave way to an example sentence at z 2.30; the wrong answers replaced
# stood at 2.43 and 2.78).
CONFIDENT_Z = 2.2
REPLACE_Z = 2.4
# Fewer candidate sentences than this give no meaningful spread (z of 2.3 needs 7 values).
MIN_CONFIDENT_POOL = 7
# The next sentence of the same block comes along when its own z-score reaches this.
FOLLOW_Z = 1.0


def rerank(question: str, scored: Scored) -> Scored:
    """``scored`` (``(lexical score, sentence)``, best first) with its top ``RERANK_DEPTH``
    sentences scoring above 0 reordered by ``score / best + SIMILARITY_WEIGHT * z``, where
    ``z`` is the sentence's similarity to the question as a z-score among them; the rest
    keep their place after them. Returns ``scored`` itself (no copy) when semantic recall
    is off (no encoder), when fewer than two sentences score above 0, or when the
    similarities do not vary."""
    head = [sc for sc in scored[:RERANK_DEPTH] if sc[0] > 0]
    if len(head) < 2:
        return scored
    sims = sentence_similarities(question, [c.text for _, c in head])
    z = _z_scores(sims) if sims is not None else None
    if z is None:
        return scored
    top = head[0][0]
    order = sorted(range(len(head)),
                   key=lambda i: (-(head[i][0] / top + SIMILARITY_WEIGHT * z[i]), i))
    return [head[i] for i in order] + scored[len(head):]


def confident(question: str, scored: Scored, threshold: float = CONFIDENT_Z) -> list[Candidate]:
    """The sentence of ``scored`` (all candidate sentences, any lexical score) whose
    similarity to the question stands out (z-score among them at least ``threshold``:
    ``CONFIDENT_Z`` or ``REPLACE_Z``),
    followed by the sentence right after it in its block when that one is close too
    (z at least ``FOLLOW_Z``: "Customers can pay monthly or yearly." then "Yearly billing
    is 15% cheaper"); [] when semantic recall is off, when there are fewer than
    ``MIN_CONFIDENT_POOL`` sentences or when none stands out. Encodes every sentence not
    yet cached (~40 ms each on a 2-core machine, then free)."""
    if len(scored) < MIN_CONFIDENT_POOL:
        return []
    sims = sentence_similarities(question, [c.text for _, c in scored])
    z = _z_scores(sims) if sims is not None else None
    if z is None:
        return []
    best = max(range(len(z)), key=lambda i: (z[i], -i))
    if z[best] < threshold:
        return []
    lead = scored[best][1]
    follow = [c for i, (_, c) in enumerate(scored) if z[i] >= FOLLOW_Z and not c.fragment
              and (c.n, c.position) == (lead.n, lead.position + 1)]
    return [lead, *follow]


def _z_scores(values: Sequence[float]) -> list[float] | None:
    """Each value's distance from the mean in standard deviations; None if they are equal."""
    spread = statistics.pstdev(values)
    if spread <= 1e-9:
        return None
    mean = statistics.fmean(values)
    return [(v - mean) / spread for v in values]
