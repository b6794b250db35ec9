"""English numbers written in words, read as digits: "twelve hundred euros" -> "1200 euros".

People type amounts the way they say them ("if I spend twelve hundred euros", "one hundred
and eighty euros a night"); the documents and every stage after retrieval compare digits
(the asker's own amount against a threshold, the conflict gate's values, BM25's number
terms). ``in_digits`` rewrites a query's English number words with text2num's
``alpha2digit`` (Allo-Media, MIT, https://github.com/allo-media/text2num: a maintained
parser of spelled numbers for several languages, compound ones included), which leaves a
lone "one" or "two" as a word ("one of the documents", "no one"; its ``threshold``), as it
leaves ordinals ("the second day"). Chinese numerals are read where quantities are
(``kbqa.core.text.quantities``), so Chinese text is left as it is. ``money_in_words`` tells
the reader a source sentence states an amount of money in words ("thirty yuan each",
每月五百元), which its digit patterns miss.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from functools import lru_cache

from text_to_num import alpha2digit

from kbqa.core.text.quantities import CN_NUMERALS, Quantity, extract_quantities, is_currency

# Any English number word: the cheap test before the parser runs.
_NUMBER_WORD_RE = re.compile(
    r"\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen"
    r"|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty"
    r"|sixty|seventy|eighty|ninety|hundred|thousand|million)\b", re.IGNORECASE)
_CJK_RE = re.compile(r"[\u3400-\u9fff]")
_WORD_RE = re.compile(r"\S+")


def in_digits(text: str) -> tuple[str, dict[str, str]]:
    """``text`` with its English numbers in words written in digits, and what changed
    (words as typed -> digits; {} when nothing did). Text holding Chinese is returned as
    it is. Never raises."""
    if not _NUMBER_WORD_RE.search(text) or _CJK_RE.search(text):
        return text, {}
    try:
        read = alpha2digit(text, "en")
    except Exception:  # the parser is a compiled extension: a failure changes nothing
        return text, {}
    if read == text:
        return text, {}
    return read, _changes(text, read)


def _changes(before: str, after: str) -> dict[str, str]:
    """The runs of words of ``before`` that became other words in ``after`` (as typed ->
    as read), aligned word by word (``difflib``)."""
    old, new = _WORD_RE.findall(before), _WORD_RE.findall(after)
    matcher = SequenceMatcher(a=old, b=new, autojunk=False)
    return {" ".join(old[i1:i2]): " ".join(new[j1:j2])
            for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"}


@lru_cache(maxsize=8192)  # asked of each candidate sentence a typed check misses (``states``)
def money_in_words(text: str) -> bool:
    """Whether ``text`` states an amount of money with its number in words: English ("thirty
    yuan each", "five hundred euros": ``in_digits``) or Chinese numerals (每月五百元), read
    by ``quantities.extract_quantities``. A new user's "How much are overtime meals
    reimbursed?" over "reimbursed at thirty yuan each" got EUR 80 from another document
    (2026-12-07). Counts of other things in words ("four roles", 一周) are no amount here:
    read as one they answered "how many" asks wrongly (measured on the demo sets)."""
    digits, changed = in_digits(text)
    if not changed and not any(ch in CN_NUMERALS for ch in text):
        return False
    said = _money(text)
    return any(not any(ch.isdigit() for ch in q.text) for q in said) or (
        bool(changed) and len(_money(digits)) > len(said))


def _money(text: str) -> list[Quantity]:
    """The amounts of money ``extract_quantities`` reads in ``text``."""
    return [q for q in extract_quantities(text) if is_currency(q.unit.split("/")[0])]
