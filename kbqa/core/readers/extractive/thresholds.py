"""The asker's own amount against a sentence's threshold: "My claim is €1,400. Is my
manager's OK enough?" and "Claims above EUR 1,000 also need approval from the head of your
department"; ``6800 块的报销单…还要谁批？`` and ``单笔金额超过 5000 元的，还需部门负责人审批``.

A rule that applies above an amount (``above``, ``over``, ``more than``, ``exceeding``,
``超过``, ``超出``, ``高于``, ``…以上``) is the rule for an asker whose amount is above it;
the sentence naming the asker's case is the answer, however few of the question's other
words it shares (the asker says "my boss", the policy "line manager"). Amounts are compared
only in the same unit (``kbqa.core.text.quantities``: currencies never converted), or
against a bare amount of the asker's (``八千多``, ``6000 块``: Chinese speech leaves the
currency out or says 块) when the threshold is money.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from kbqa.core.readers.extractive.text import Candidate, with_following
from kbqa.core.text.bounds import bound_of
from kbqa.core.text.quantities import chinese_number, extract_quantities, is_currency

# Words that make the amount after them (before them: 以上) a lower bound of the rule.
_ABOVE_BEFORE_RE = re.compile(
    r"(?:\babove|\bover|\bmore than|\b(?:older|longer) than|\bexceed(?:s|ing)?|\bin excess of"
    r"|超过|超出|高于|大于)\s*$",
    re.IGNORECASE)
# ...unless negated: "not more than", "no more than", 不超过, 未超过 cap the amount instead.
_NEGATED_RE = re.compile(r"(?:\bno|\bnot|\bnever|不|未|没有?)\s*$", re.IGNORECASE)
_ABOVE_AFTER_RE = re.compile(r"^\s*(?:以上|or more\b)", re.IGNORECASE)
# The asker's bare amount: digits or Chinese numerals, maybe with 块/元/多 after them.
_BARE_RE = re.compile(
    r"(?<![A-Za-z\d.,])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{3,}(?:\.\d+)?|\d+(?:\.\d+)?(?=\s*万))"
    r"(?=\s*(?:块|元|多|万|$|\W))|([一二两三四五六七八九十百千]{2,})(?=多|块|元)")
_SCALE_RE = re.compile(r"\s*万")
_RATE_AFTER_RE = re.compile(r"\s*(?:a|an|per|each|every|/)\s*(?:day|week|month|year)\b",
                            re.IGNORECASE)
_RATE_BEFORE_RE = re.compile(r"每\s*(?:个)?(?:天|日|周|星期|月|年)[^，。,.\d]{0,4}$")
_JUST_ABOVE = 1e-6


@lru_cache(maxsize=1024)
def asker_amounts(question: str) -> tuple[tuple[float, str], ...]:
    """The amounts ``question`` states, as (value, unit): a quantity with its unit, or a
    bare amount (unit "") the asker leaves without one (``八千多``, ``6000 块``); one stated
    as a lower bound ("over 1000 euros", 超过 5000 元) just above its value; none for a
    rate ("3 days a week", 每周工作 3 天), which says how often, not how much."""
    text = unicodedata.normalize("NFKC", question)
    # An amount the asker states as a bound ("claims over 1000 euros") is just above it: the
    # rule "Claims above EUR 1,000…" is the rule for that case.
    bounds = set(_lower_bounds(text))
    found = [(q.value + (_JUST_ABOVE if (q.value, q.unit) in bounds else 0.0), q.unit)
             for q in extract_quantities(text) if not _RATE_AFTER_RE.match(text, q.end)
             and not _RATE_BEFORE_RE.search(text, 0, q.start)]
    for match in _BARE_RE.finditer(text):
        digits, chinese = match.groups()
        value = float(digits.replace(",", "")) if digits else chinese_number(chinese or "")
        if value is None:
            continue
        if _SCALE_RE.match(text, match.end()):
            value *= 10_000
        if not any(abs(v - value) < 1e-9 for v, _ in found):
            found.append((value, ""))
    return tuple(found)


def meets_threshold(amounts: tuple[tuple[float, str], ...], sentence: str) -> bool:
    """Whether ``sentence`` states a rule for amounts above a threshold that one of the
    asker's ``amounts`` (``asker_amounts``) exceeds, in the same unit (a bare amount
    against money)."""
    if not amounts:
        return False
    return any(_over(value, unit, bound, bound_unit)
               for bound, bound_unit in _lower_bounds(sentence) for value, unit in amounts)


# Calendar months have no fixed length (``quantities`` never converts them to days); to
# tell whether a time is over a limit, a month counts its fewest days, a limit in months
# its most: "过了两个月" (at least 56 days) is over "30 天", "45 days" is not over "3 months".
# A limit under a month in days measures something else than a time counted in months
# (a flight of "6 小时以上" for "三个多月前").
_MONTH_DAYS = (28, 31)


def _over(value: float, unit: str, bound: float, bound_unit: str) -> bool:
    """Whether the asker's ``value`` in ``unit`` is above ``bound`` in ``bound_unit``: in
    the same unit, a bare amount against money, or months against days (``_MONTH_DAYS``)."""
    if unit == bound_unit or (not unit and is_currency(bound_unit)):
        return value > bound
    if unit == "month" and bound_unit == "day" and bound >= _MONTH_DAYS[0]:
        return value * _MONTH_DAYS[0] > bound  # not "6 小时以上" (a flight's length)
    if unit == "day" and bound_unit == "month":
        return value > bound * _MONTH_DAYS[1]
    return False


@lru_cache(maxsize=4096)
def decides_cap(amounts: tuple[tuple[float, str], ...], sentence: str) -> bool:
    """Whether ``sentence`` states a cap (``bounds.bound_of``: "up to 3 days per week",
    不超过 500 元) in the unit of one of the asker's ``amounts``: it says yes or no to "Can
    I work remotely 3 days a week?", whichever side of the cap the amount falls on."""
    if not amounts:
        return False
    text = unicodedata.normalize("NFKC", sentence)
    units = {unit for _, unit in amounts}
    return any((q.unit in units or ("" in units and is_currency(q.unit)))
               and bound_of(text[max(0, q.start - 40):q.start], text[q.end:q.end + 40]) == "max"
               for q in extract_quantities(text))


def _lower_bounds(sentence: str) -> tuple[tuple[float, str], ...]:
    """The (value, unit) lower bounds ``sentence`` states ("above EUR 1,000", 超过 5000 元,
    1 万元以上), negated ones (不超过, "not more than": caps) left out; kept per sentence,
    as the scorer asks of each candidate several times."""
    text = unicodedata.normalize("NFKC", sentence)
    bounds: list[tuple[float, str]] = []
    for q in extract_quantities(text):
        before = text[max(0, q.start - 24):q.start]
        bound = _ABOVE_BEFORE_RE.search(before)
        if bound and _NEGATED_RE.search(before[:bound.start()]):
            continue  # 每晚不超过 500 元: a cap, not a threshold
        if bound or _ABOVE_AFTER_RE.match(text[q.end:]):
            bounds.append((q.value, q.unit))
    return tuple(bounds)


def threshold_first(scored: Sequence[tuple[float, Candidate]],
                    amounts: tuple[tuple[float, str], ...]) -> list[tuple[float, Candidate]]:
    """``scored`` (best first) with the best sentence stating the rule for the asker's
    amount (``meets_threshold``) moved first: that rule decides the asker's case ("还要谁批？"
    after "一共6800块": the rule above 5000 元, not the line manager's approval every claim
    needs). Unchanged when none does."""
    for i, (score, c) in enumerate(scored):
        if score > 0 and meets_threshold(amounts, c.text):
            return [scored[i], *scored[:i], *scored[i + 1:]]
    return list(scored)


# Words that make the amount after them (before them: 内, 以内) a cap of the rule.
_CAP_BEFORE_RE = re.compile(
    r"(?:\bwithin|\bup to|\bat most|\bno more than|\bnot more than|\bmaximum(?: of)?|\bmax\.?"
    r"|不超过|最多|至多)\s*(?:[A-Z]{3}\s*)?$", re.IGNORECASE)
_CAP_AFTER_RE = re.compile(r"^\s*(?:内|以内|之内)")
# A sentence about the case beyond a cap: "Claims filed later…", 逾期提交的…, 超过部分….
_BEYOND_RE = re.compile(
    r"\b(?:later|late|above|beyond|exceed\w*|more than|otherwise|after that)\b"
    r"|逾期|超过|超出|超标|以外|否则", re.IGNORECASE)


def beyond_cap(amounts: tuple[tuple[float, str], ...], sentence: str) -> bool:
    """Whether one of the asker's ``amounts`` is over a cap ``sentence`` states ("within 60
    days" for "it's been about 80 days", 每人不超过 300 元 for 一个人 350), in the same unit."""
    if not amounts:
        return False
    text = unicodedata.normalize("NFKC", sentence)
    for q in extract_quantities(text):
        before = text[max(0, q.start - 24):q.start]
        if _CAP_BEFORE_RE.search(before) or _CAP_AFTER_RE.match(text[q.end:]):
            if any(_over(value, unit, q.value, q.unit) for value, unit in amounts):
                return True
    return False


def with_beyond(chosen: Sequence[Candidate], pool: Sequence[Candidate],
                amounts: tuple[tuple[float, str], ...]) -> list[Candidate]:
    """``chosen`` with, after a sentence whose cap the asker's amount is over
    (``beyond_cap``), the sentence right after it in its block when that one is about the
    case beyond it (``_BEYOND_RE``: "Claims filed later are only reimbursed with written
    approval…"): the asker is in that case, and the cap alone does not say what follows."""
    return with_following(chosen, pool, lambda c, nxt: bool(
        _BEYOND_RE.search(nxt.text)) and beyond_cap(amounts, c.text))
