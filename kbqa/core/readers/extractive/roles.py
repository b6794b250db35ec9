"""A role held in another capacity: "video director" is not the film's director.

"Who is the director of …?" is not answered by a clause naming a "video director", "Who is
the president of …?" by a "Raiders president" or a "former president": the role word is
there, bound to a name, but a modifier the question does not use makes it another role or
another holder of it (``another_role``). English only: Chinese roles (导演, 总统) come as
compounds jieba keeps whole or splits unpredictably.

Modifiers that leave the role the asked one: a word of the question, a function word ("the",
"as"), a nationality ("Australian director Jane Doe": a demonym, -an/-ian/-ese/-ish/-ch/-i),
and the words that only say what kind of work the role is in (``_SAME_ROLE``).
"""

from __future__ import annotations

import re
import unicodedata

from kbqa.core.readers.extractive.asks import asked_roles
from kbqa.core.readers.extractive.question import tagged
from kbqa.core.text.terms import is_stop_en

# Role nouns a "who" ask names (``asks._EN_ROLE_GROUPS``' nouns).
_ROLE_NOUNS = ("director", "president", "ceo", "author", "actress", "actor", "winner",
               "champion", "host", "coach", "chairman")
_SAME_ROLE = frozenset(("film", "movie", "current", "new", "incumbent", "lead", "leading",
                        "named", "elected", "acting", "chief", "executive"))
_DEMONYM_RE = re.compile(r"^[A-Z][a-z]+(?:an|ian|ese|ish|ch|i)$")
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'’.-]*")


def _modifier_ok(word: str, asked: frozenset[str]) -> bool:
    bare = word.strip("'’.-").lower()
    bare = re.sub(r"['’]s$", "", bare)
    return (not bare or bare in asked or bare in _SAME_ROLE or is_stop_en(bare, False)
            or bool(_DEMONYM_RE.match(word)))


def another_role(question: str, clause: str) -> bool:
    """Whether ``clause`` names a role the English ``question`` asks about ("director",
    "president") only with a modifier the question does not use (``_modifier_ok``):
    "video director", "Raiders president", "former president"."""
    if tagged(question):
        return False
    q = unicodedata.normalize("NFKC", question).lower()
    asked_words = frozenset(re.sub(r"['’]s$", "", w) for w in _WORD_RE.findall(q))
    roles = [r for r in _ROLE_NOUNS if re.search(rf"\b{r}\b", q)]
    if not roles:
        return False
    words = _WORD_RE.findall(unicodedata.normalize("NFKC", clause))
    seen = False
    for before, word in zip(["", *words], words, strict=False):
        if word.lower().rstrip("s") in roles or word.lower() in roles:
            seen = True
            if _modifier_ok(before, asked_words):
                return False
    return seen


_CAPITAL_WORD_RE = re.compile(r"[A-Z][A-Za-z.ʻ'’-]*|[a-z][A-Za-z.'’-]*|\d+")


def _capital_pairs(text: str) -> list[tuple[str, str]]:
    """Adjacent (capitalised word, capitalised word) pairs of ``text``, dots and a
    possessive dropped, lower-cased: "National Teacher" -> ("national", "teacher")."""
    words = [re.sub(r"['’]s$", "", w).replace(".", "")
             for w in _CAPITAL_WORD_RE.findall(unicodedata.normalize("NFKC", text))]
    return [(a.lower(), b.lower()) for a, b in zip(words, words[1:], strict=False)
            if a[:1].isupper() and b[:1].isupper() and not is_stop_en(a.lower(), False)]


def another_title(question: str, clause: str) -> bool:
    """Whether ``clause`` names one of the English ``question``'s titled things with another
    name before its head: "Hawaii State Teacher of the Year" for the "National Teacher of
    the Year", "Johnny Unitas Golden Arm Award" for the "Walter Camp Award" (a capitalised
    pair of the question, "Camp Award", whose head the clause has after another capitalised
    word and never after the asked one)."""
    if tagged(question):
        return False
    asked = _capital_pairs(question)
    if not asked:
        return False
    stated = _capital_pairs(clause)
    for modifier, head in asked:
        heads = (head, f"{head}s")
        before = [a for a, b in stated if b in heads]
        if before and modifier not in before:
            return True
    return False


_POSSESSIVE_PRONOUN_RE = re.compile(r"\b(?:its|his|her|their)\b", re.IGNORECASE)


def beyond_role(question: str, about: frozenset[str]) -> frozenset[str]:
    """The anchor terms ``about`` a clause must share, without the English ``question``'s
    role words ("director", "president") when it has others: a clause sharing only the
    role ("the first Black female president of an NFL team" for the NFL's president,
    "directed by …" for who stars) names another holder. Chinese keeps them (导演郭帆 and
    《流浪地球》 often fall in two clauses of one sentence)."""
    if tagged(question):
        return about
    roles = frozenset(w for group in asked_roles(question) for w in group)
    return about - roles if about - roles else about


def antecedent(parts: list[str], i: int, window: str) -> str:
    """``window`` (clause ``i`` of ``parts`` with what it leans on), with the clause before
    when clause ``i`` refers back with a possessive pronoun ("according to its own director
    Jane Doe")."""
    if i and _POSSESSIVE_PRONOUN_RE.search(parts[i]):
        return f"{parts[i - 1]} {window}"
    return window
