"""Predicates: what a clause says of its subject, read beyond its negation words.

Three kinds of wrong sentence use only words of their cited block and no negation word, so
the polarity check of ``kbqa.core.grounding.clauses`` (which counts negation words) and
gate two pass them:

- *a reversed predicate*: "Minibar and pay-TV are reimbursed." against "Minibar, laundry …
  and pay-TV are personal costs."; "…is allowed" against "…is forbidden". ``polar_form``
  rewrites a small closed list of predicates that state the opposite category of a
  polarity-bearing verb into that verb negated ("are personal costs" -> "are not
  reimbursed", "is forbidden" -> "is not allowed", "由个人承担" -> "不予报销"), on both sides,
  before polarity is compared; the negation check then sees the reversal. The list holds
  only phrases whose meaning is fixed (an expense policy's "personal cost" is never paid
  back); a looser one would drop paraphrases. It was read off the demo's policies and the
  tester's report, and is no general antonym lexicon: "kept" for "not deleted" still passes.
- *an added restriction*: "Laptops are replaced every 4 years only for managers." against
  "Company laptops are replaced every 4 years." (``restriction_scope``): a restriction word
  (only, exclusively, solely, 仅, 只, 只有, 仅限…) in the sentence whose source clause has
  none restricts the claim to the word after it; that word must be in the source sentence
  stating the claim (``clauses`` checks it), as a negation's focus must (NegEx's scope,
  Chapman et al. 2001).
- *a fragment* (``is_fragment``): a list item such as "- item two [2]" names a thing and
  claims nothing of it; its chip would say a source supports a claim that is not there.
  A sentence with fewer than ``MIN_CLAIM_TERMS`` content terms (numbers without a unit and
  number words aside) and no quantity is dropped, never shown bare: a shown sentence
  without a chip would break the rule that every shown sentence was checked.
"""

from __future__ import annotations

import re

from kbqa.core.text.quantities import extract_quantities
from kbqa.core.text.terms import terms, without_parts

#: Content terms a sentence needs to make a claim (module doc): a subject and what is
#: said of it. A quantity with its unit is a claim by itself ("20 天 [1]" answers "多少天").
MIN_CLAIM_TERMS = 2
#: Number words that name no quantity on their own ("item two").
NUMBER_WORDS = frozenset(
    "zero one two three four five six seven eight nine ten first second third "
    "一 二 两 三 四 五 六 七 八 九 十 第一 第二 第三".split()
)

# (normalised phrase, its polar form): opposite categories of reimbursed and allowed.
_POLAR: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), form) for pattern, form in (
        (r"\b(?:are|is|count as|counts as|be|remain|remains) (?:an? )?personal "
         r"(?:costs?|expenses?)\b", "are not reimbursed"),
        (r"\b(?:paid|borne) (?:by you|by the employee|personally)\b|\bat (?:your|their|the "
         r"employee's) own (?:cost|expense)\b", "not reimbursed"),
        (r"\b(?:forbidden|prohibited|banned|not permitted)\b", "not allowed"),
        (r"\bpermitted\b", "allowed"),
        (r"属于个人费用|由个人承担|个人承担|个人自付|自行承担|自费", "不予报销"),
    )
)
_RESTRICTION_RE = re.compile(
    r"\b(?:only|exclusively|solely)\b|仅限于?|只限于?|只有|唯有|仅|只(?!要)")
_NOT_RESTRICTION_RE = re.compile(r"\bnot only\b|\bif only\b|不仅|不只")


def polar_form(text: str) -> str:
    """Normalised ``text`` with each predicate of the closed list in its polar form (module
    doc): "minibar … are personal costs" -> "minibar … are not reimbursed"."""
    for pattern, form in _POLAR:
        text = pattern.sub(form, text)
    return text


def restriction_scope(text: str) -> tuple[str, str] | None:
    """The first restriction of normalised ``text``: (the words from it to the clause end,
    the first term after it), or None when it restricts nothing named after it ("30 days
    only") or is a bound such as "not only"."""
    text = _NOT_RESTRICTION_RE.sub(" ", text)
    for match in _RESTRICTION_RE.finditer(text):
        rest = text[match.end():]
        scope = next((t for t in terms(rest) if not t[0].isdigit()), None)
        if scope:
            return f"{match.group()}{rest}".strip(), scope
    return None


def is_fragment(text: str) -> bool:
    """Whether claim prose ``text`` (markers and bullet removed) claims nothing: fewer than
    ``MIN_CLAIM_TERMS`` content terms and no quantity (module doc)."""
    if extract_quantities(text):
        return False
    found = [t for t in dict.fromkeys(terms(text))
             if t not in NUMBER_WORDS and not t[0].isdigit()]
    return len(without_parts(found)) < MIN_CLAIM_TERMS
