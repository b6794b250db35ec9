"""Values bound to their subjects within one source sentence (``bindings``' check).

What "bound" means here (``value_groups``): a source sentence is cut into clauses at ``, ;
: ，；：`` and at " or " / "或"; a clause holding values of the unit owns them (two values in
one clause split it at the midpoint between them); a clause without a value before the
first valued clause is the topic, shared by every value ("hotels:"); one after a valued
clause continues it (the list "paris, zurich, new york and tokyo" after "…in london"),
unless it is a Chinese condition ending in 的, which is the next value's ("满 20 年的，年假
15 天"). A
value is *bound* to the terms of its group that no other value's group has (its
*qualifiers*: london, paris… for 240; none for 170). This is the scope rule of NegEx
(Chapman et al. 2001) applied to values: a cue governs the words of its own clause up to
the next cue or clause boundary. Then (``binding_issue``) a sentence's value must be the
one whose qualifiers it names most; when it names none, the value with the fewest
qualifiers (the general rule, 170): a value stated only for named subjects is not stated
for others. Of several such, it is the one whose group's words the sentence states most
nearly (shared minus unshared): tiers ("满 10 年不满 20 年的，年假 10 天；满 20 年的，年假
15 天") share their words, so none has a qualifier of its own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kbqa.core.text.quantities import Quantity
from kbqa.core.text.terms import term_set

_GROUP_CUT_RE = re.compile(r"[;，；：]|(?<!\d)[,:]|[,:](?!\d)| or |或")


def value_groups(text: str, quantities: Sequence[Quantity], unit: str
                 ) -> list[tuple[Quantity, frozenset[str]]]:
    """Each quantity of ``unit`` in normalised ``text`` (offsets as ``extract_quantities``
    gives them) with the terms bound to it (module doc); [] when ``text`` states fewer than
    two distinct values of ``unit``, since one value is bound to the whole sentence."""
    same = [q for q in quantities if q.unit == unit]
    if len({q.value for q in same}) < 2:
        return []
    spans: list[tuple[int, int]] = []
    start = 0
    for cut in _GROUP_CUT_RE.finditer(text):
        spans.append((start, cut.start()))
        start = cut.end()
    spans.append((start, len(text)))
    owner = [_owner(a, b, same) for a, b in spans]
    bound: list[set[str]] = [set() for _ in same]
    current = -1
    ahead: set[str] = set()  # a condition ending in 的 ("满 20 年的，") is the next value's
    for (a, b), owned in zip(spans, owner, strict=True):
        for i, lo, hi in owned:
            bound[i] |= term_set(text[lo:hi]) | ahead
            ahead = set()
        current = owned[-1][0] if owned else current
        if not owned and text[a:b].rstrip().endswith("的"):
            ahead |= term_set(text[a:b])
        elif not owned and current >= 0:
            bound[current] |= term_set(text[a:b])
    numbers = set().union(*(term_set(q.text) for q in same))
    return [(q, frozenset(bound[i] - numbers)) for i, q in enumerate(same)]


def _owner(a: int, b: int, same: Sequence[Quantity]) -> list[tuple[int, int, int]]:
    """The values in span [a, b) with the part of the span each owns (midpoints between)."""
    inside = [i for i, q in enumerate(same) if a <= q.start < b]
    out = []
    for k, i in enumerate(inside):
        lo = a if k == 0 else (same[inside[k - 1]].end + same[i].start) // 2
        hi = b if k == len(inside) - 1 else (same[i].end + same[inside[k + 1]].start) // 2
        out.append((i, lo, hi))
    return out


def binding_issue(quantity: Quantity, named: frozenset[str],
                  groups: Sequence[tuple[Quantity, frozenset[str]]]) -> str:
    """"" when ``quantity`` (a sentence's) is the value of ``groups`` (one source sentence's
    ``value_groups``) that the sentence's terms ``named`` bind it to; else whom the source
    states that value for: its qualifiers, quoted, or "the general case" when it has none.
    "" when ``groups`` is empty."""
    if not groups:
        return ""
    qualifiers = [(q, b - frozenset().union(*(o for p, o in groups if p is not q)))
                  for q, b in groups]
    scores = [len(named & own) for _, own in qualifiers]
    if max(scores):
        chosen = [q for (q, _), s in zip(qualifiers, scores, strict=True) if s == max(scores)]
    else:
        fewest = min(len(own) for _, own in qualifiers)
        general = [(q, b) for (q, own), (_, b) in zip(qualifiers, groups, strict=True)
                   if len(own) == fewest]
        # ...the one whose words the sentence states most nearly: tiers share their words
        # ("满 10 年不满 20 年的，年假 10 天；满 20 年的，年假 15 天"), none qualifies alone
        fit = [len(named & b) - len(b - named) for _, b in general]
        chosen = [q for (q, _), f in zip(general, fit, strict=True) if f == max(fit)]
    if any(q.same_value(quantity) for q in chosen):
        return ""
    mine = next((own for q, own in qualifiers if q.same_value(quantity)), frozenset())
    return f"“{', '.join(sorted(mine))}”" if mine else "the general case"
