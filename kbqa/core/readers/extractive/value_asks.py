"""An ask for what a value is: "What's the night shift allowance in Suzhou?".

"What is the <noun phrase>?" asks for a value when its head noun names one: an amount of
money (an allowance, a fee, a salary, a budget) is answered by an amount with its currency,
a rate (a magnitude relative to another, "the overtime rate", "the mileage rate") by a
number. Without this such an ask read as open ("other"), and any sentence naming the noun
answered it: "The daily meal allowance is paid for each travel day…" for the allowance in
Tokyo, a shuttle bus's times for the night shift allowance. Which nouns name a value comes
from WordNet's hypernyms (``thesaurus.kinds_of``), not from a list of words.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

from kbqa.core.text.thesaurus import kinds_of

# "what's the <words>", the noun phrase ending before a preposition, a clause or punctuation
_WHAT_NP_RE = re.compile(
    r"^\s*what(?:'s|s|\s+is|\s+are)?\s+(?:the|my|our|your|a|an)\s+([a-z][a-z -]*?)\s*"
    r"(?:\b(?:in|for|on|at|per|of|when|if|to|from|with|during|that|i|we|you)\b|[?.!/,;:]|$)")
# WordNet synsets (lemmas) an amount of money is a kind of, within ``_DEPTH`` levels, in one
# of its ``thesaurus.MAX_SENSES`` most frequent senses: "allowance" (a sum granted as
# reimbursement), "fee", "salary", "tuition", "budget" (a fund)
_MONEY = frozenset({"cost", "payment", "fund", "money"})
# ...and a rate, which states a number of its own: "rate" (charge per unit, or a magnitude
# relation), "mileage", "speed"
_RATE = "magnitude relation"
_DEPTH = 5


def value_ask(ask: str) -> Literal["money", "quantity"] | None:
    """What the English ask clause ``ask`` asks for when it is "What is the <noun phrase>?"
    with a head noun naming a value: "quantity" for a rate ("What is the overtime rate on
    public holidays?": 300% answers it), "money" for an amount of money ("What's the daily
    meal allowance in Tokyo?"); None for any other ask, or without WordNet."""
    return _value_phrase(ask)[0]


def value_phrase(ask: str) -> tuple[str, ...]:
    """The words before the head noun of a value ask (``value_ask``), lower case: ("parking",)
    of "What is the parking allowance per day?"; () for any other ask."""
    return _value_phrase(ask)[1]


@lru_cache(maxsize=1024)
def _value_phrase(ask: str) -> tuple[Literal["money", "quantity"] | None, tuple[str, ...]]:
    """(what a value ask asks for, the words before its head noun); (None, ()) for any other
    ask."""
    match = _WHAT_NP_RE.search(ask.lower())
    words = match.group(1).split() if match else []
    if not words:
        return None, ()
    kinds = kinds_of(words[-1], _DEPTH) | {words[-1]}
    value: Literal["money", "quantity"] | None = (
        "quantity" if _RATE in kinds else "money" if kinds & _MONEY else None)
    return value, tuple(words[:-1]) if value else ()
