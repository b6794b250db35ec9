"""Which sentences of a cited passage support a claim: what the reader sees highlighted.

The verifier (``kbqa.core.grounding.citations``) judges a claim against a whole block: the
share of the claim's distinct terms found in the block's original text. To show *where* in
the passage that support is, ``support_sentences`` picks the passage sentences that together
hold the most of those same terms (``kbqa.core.text.terms``, the verifier's tokenizer):
greedy set cover, the sentence adding the most still-uncovered claim terms first, at most
``limit`` sentences, stopping when no sentence adds a term. Ties go to the earlier sentence.
Greedy cover is the standard approximation for set cover (Chvátal 1979, "A greedy
heuristic for the set-covering problem").
"""

from __future__ import annotations

from collections.abc import Sequence

from kbqa.core.text.terms import term_set


def support_sentences(
    claim: str, sentences: Sequence[str], *, limit: int = 3
) -> tuple[int, ...]:
    """Indices (ascending) into ``sentences`` of the ones that hold the claim's terms.

    Returns () when the claim has no terms or no sentence shares one. ``limit`` caps the
    count (a claim joining facts from two or three sentences stays readable).
    """
    wanted = set(term_set(claim))
    found = [term_set(s) for s in sentences]
    chosen: list[int] = []
    while wanted and len(chosen) < limit:
        gains = [len(wanted & t) if i not in chosen else 0 for i, t in enumerate(found)]
        best = max(range(len(gains)), key=lambda i: (gains[i], -i), default=-1)
        if best < 0 or gains[best] == 0:
            break
        chosen.append(best)
        wanted -= found[best]
    return tuple(sorted(chosen))
