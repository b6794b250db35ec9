"""Calendar dates in English and Chinese text, as values the conflict check compares.

Two documents that give one event different dates disagree as two that give an upload limit
different sizes do ("released on September 7, 2018" against "September 7, 2008"). A date is
a ``Quantity`` whose unit says its precision, so only dates of one precision are compared:

- ``date``: a day, valued as its proleptic Gregorian ordinal (``datetime.date.toordinal``):
  "September 7, 2018", "Sep. 7th, 2018", "7 September 2018", "2018-09-07", "2018年9月7日",
  "2018年9月7号";
- ``year-month``: a month of a year, valued ``year * 12 + month - 1``: "June 2010",
  "2018年6月" (when no day follows);
- ``month-day``: a day of a month with no year, valued ``month * 100 + day``: "11月9日",
  "November 9" (news gives release days so: "定档于11月9日").

A year alone ("in 2018", "2018年") is no date here: texts name years in passing far more often
than they date an event by one. Offsets are in ``quantities.fold(text)``, as a quantity's are.
"""

from __future__ import annotations

import re
from datetime import date

from kbqa.core.text.quantities import Quantity, fold

_MONTHS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
    "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}
_MONTH = (r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
          r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
_YEAR = r"((?:1[5-9]|20)\d\d)(?!\d)"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
# (pattern, group order): the order names which groups hold year, month and day
_DAY_PATTERNS = (
    (re.compile(rf"\b{_MONTH}\s+{_DAY},?\s+{_YEAR}", re.IGNORECASE), "mdy"),
    (re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}", re.IGNORECASE), "dmy"),
    (re.compile(rf"(?<!\d){_YEAR}-(\d\d)-(\d\d)(?!\d)"), "ymd"),
    (re.compile(rf"(?<!\d){_YEAR}\s*年\s*(\d{{1,2}})\s*月\s*(\d{{1,2}})\s*[日号]"), "ymd"),
)
_MONTH_PATTERNS = (
    (re.compile(rf"\b{_MONTH},?\s+{_YEAR}", re.IGNORECASE), "my"),
    (re.compile(rf"(?<!\d){_YEAR}\s*年\s*(\d{{1,2}})\s*月(?!\s*\d)"), "ym"),
)
# a day of a month with no year ("11月9日", "November 9"): only the year-less kind
_MONTH_DAY_PATTERNS = (
    (re.compile(rf"\b{_MONTH}\s+{_DAY}\b(?!,?\s*\d)", re.IGNORECASE), "md"),
    (re.compile(r"(?<![年\d])(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]"), "md"),
)


def extract_dates(text: str) -> list[Quantity]:
    """The dates of ``fold(text)`` (module doc), in reading order. Never raises."""
    folded = fold(text)
    found: list[Quantity] = []
    taken: list[tuple[int, int]] = []
    for patterns, unit in ((_DAY_PATTERNS, "date"), (_MONTH_PATTERNS, "year-month"),
                           (_MONTH_DAY_PATTERNS, "month-day")):
        for pattern, order in patterns:
            for match in pattern.finditer(folded):
                if any(s < match.end() and match.start() < e for s, e in taken):
                    continue
                value = _value(dict(zip(order, match.groups(), strict=True)))
                if value is None:
                    continue
                taken.append((match.start(), match.end()))
                found.append(Quantity(value, unit, match.group(), match.start(), match.end()))
    return sorted(found, key=lambda q: q.start)


def _value(parts: dict[str, str]) -> float | None:
    """The ordinal of a day, ``year * 12 + month - 1`` without a day, ``month * 100 + day``
    without a year; None if impossible."""
    month_text = parts["m"]
    month = int(month_text) if month_text.isdigit() else _MONTHS[month_text[:3].lower()]
    if not 1 <= month <= 12:
        return None
    if "y" not in parts:
        day = int(parts["d"])
        return float(month * 100 + day) if 1 <= day <= 31 else None
    year = int(parts["y"])
    if "d" not in parts:
        return float(year * 12 + month - 1)
    try:
        return float(date(year, month, int(parts["d"])).toordinal())
    except ValueError:
        return None
