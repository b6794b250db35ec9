"""A yes/no question is answered by a sentence that states its predicate (issue 12 item 3).

"Can unused annual leave be carried over?" was answered with "Full-time employees receive
20 days of paid annual leave per calendar year.": true, about the subject, but it decides
nothing. What decides a yes/no question is its predicate (carry over, be reimbursed,
``报销``), said or denied ("can be carried over", "is never reimbursed", ``不予报销``). So:

- ``predicate_terms``: the verbs of a yes/no ask clause (without a trailing condition:
  "…when I leave?"): in English the words WordNet lists as verbs that are verbs here (only
  a verb, a word right after a modal or "to", or an inflected -ed/-en form), grammar and generic
  verbs aside ("get", "take", "have", ``question.VERBS``); in Chinese jieba's ``v``/``vn``
  words of two or more characters, modal and light verbs aside (能, 可以, 需要, 有, 是),
  and a verb before 的, which qualifies a noun (``打车的发票``).
- ``states_predicate``: a sentence states one of them: in English a word whose WordNet
  verb base is the predicate's or one of its one-word relatives (same synset, derivation:
  "reimbursement" for "reimbursed", "claim" for "claimed"); in Chinese the word itself, and
  in a block of the other language the words of its one- or two-word CC-CEDICT glosses
  (带薪: "paid"), so 实习生有带薪年假吗？ is decided by "Interns are not entitled to paid
  annual leave".
- ``predicate_first``: the best ranked sentence that states a predicate goes first, so
  the sentence that decides the question leads; ``undecided``: no quoted sentence states
  one, and the reader declines. A question holding its own amount ("一晚 560，是不是超标
  了？") is decided by the source's amount instead and has no predicate here.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TypeVar

from kbqa.core.readers.extractive.focus import ask_clause, ask_kind, is_yes_no
from kbqa.core.readers.extractive.question import GENERIC_TERMS, VERBS, tagged
from kbqa.core.readers.extractive.question_verbs import verbs_after
from kbqa.core.readers.extractive.text import Candidate, folded_terms
from kbqa.core.text import bilingual, thesaurus, word_forms
from kbqa.core.text.terms import a_not_a_pieces, fold, is_question_word, stem

T = TypeVar("T")

_WORD_RE = re.compile(r"[A-Za-z]+")
_CJK_RE = re.compile(r"[\u3400-\u9fff]")
# A condition after the ask says when, not what is asked: "…when I leave the company?".
_CONDITION_EN_RE = re.compile(r"\s(?:when|if|while|after|before|once|because)\s.*$", re.I)
# Chinese verbs that carry the question's mood, not its predicate.
_MODAL_ZH = frozenset("能够 可以 可否 能否 需要 需不需要 要不要 是否 应该 必须 允许 还能 还会 "
                      "会不会 可不可以 能不能 有没有 是不是 得到".split())
_VERB_TAGS_ZH = frozenset(("v", "vn", "vd", "vi"))
# A second ask joined to a yes/no one: ", and to what?", "and how many days?".
_AND_ASK_EN_RE = re.compile(
    r",?\s+and\s+(?:(?:to|by|from|for|in|until)\s+)?(?:what|how|which|when|where|who)\b[^?]*\?*\s*$",
    re.IGNORECASE)
# Control verbs, which take another verb as their object (Li & Thompson 1981, ch. 17:
# 申请调高 "apply to raise"): the other verb is what the question asks about.
_CONTROL_ZH = frozenset("申请 要求 请求 开始 继续 尝试 打算 准备 希望 想要 帮忙 帮助 负责".split())
# Directional and resultative complements after a Chinese verb (Li & Thompson 1981, ch. 3).
_COMPLEMENT_ZH_RE = re.compile(
    r"(?:下来|下去|上来|上去|出来|出去|进来|进去|回来|回去|过来|过去|起来|下|上|出|掉|完|到|走|回|住|好)$")


@lru_cache(maxsize=512)
def predicate_terms(question: str) -> frozenset[str]:
    """The predicate's words of ``question``'s ask clause when it asks yes or no (module
    docstring): English lower-case words ("carried", "reimbursed"), Chinese jieba words
    (``报销``); empty for any other question or a yes/no one with no such verb ("Is there
    a budget for chairs?")."""
    # With the asker's own amount ("一晚 560，是不是超标了？", "still on iOS 15, will it
    # install?") a sentence stating the source's amount decides: the reader compares.
    ask = unicodedata.normalize("NFKC", ask_clause(question))
    # "Can we raise the limit, and to what?": the yes/no ask before the added one still
    # asks about its predicate, whatever the added one asks for.
    head = _AND_ASK_EN_RE.sub("", ask)
    if not is_yes_no(question) or (ask_kind(question) != "other" and head == ask):
        return frozenset()
    ask = head
    if _CJK_RE.search(ask):
        words = tagged(ask)

        form = a_not_a_pieces(ask)  # 不能 of 能不能: the question's mood, no predicate

        def verb(i: int) -> bool:
            w, tag = words[i]
            return (tag in _VERB_TAGS_ZH and len(w) > 1 and w not in _MODAL_ZH
                    and not is_question_word(w) and w not in form)

        # A verb before 的 qualifies a noun (打车的发票: the taxi receipt), it asks nothing;
        # a control verb before another verb governs it (申请调高: the asked change is 调高,
        # and "还可以申请耳机" decides nothing about it); 停车免费 keeps both.
        return frozenset(w for i, (w, _tag) in enumerate(words)
                         if verb(i) and (i + 1 >= len(words) or (
                             words[i + 1][0] != "的"
                             and not (w in _CONTROL_ZH and verb(i + 1)))))
    ask = _CONDITION_EN_RE.sub("", ask)
    after = verbs_after(ask)
    return frozenset(w for w in (m.group().lower() for m in _WORD_RE.finditer(ask))
                     if _verb_here(w, after))


def _verb_here(word: str, after: frozenset[str]) -> bool:
    """Whether English ``word`` of an ask clause is its predicate's verb."""
    folded = fold(stem(word))
    if folded in GENERIC_TERMS or folded in VERBS or is_question_word(word):
        return False
    if word in ("be", "been", "being", "is", "are", "was", "were") or not thesaurus.morphy(
            word, "verb"):
        return False
    noun = bool(thesaurus.morphy(word, "noun") or thesaurus.morphy(word, "adj"))
    # an inflected form ending like a participle ("reimbursed", "taken"; not "screen")
    participle = word.endswith(("ed", "en")) and word not in thesaurus.morphy(word, "verb")
    return not noun or folded in after or participle


@lru_cache(maxsize=512)
def _predicate_forms(question: str) -> frozenset[str]:
    """The verb bases of ``predicate_terms``, their one-word WordNet relatives and word
    family ("expire": expiry)."""
    forms: set[str] = set()
    for word in predicate_terms(question):
        if _CJK_RE.search(word):
            forms.add(word)
            # A verb with a directional or resultative complement (买下来, 报销掉, 带回去)
            # is stated by its verb alone (购买 states 买下来).
            core = _COMPLEMENT_ZH_RE.sub("", word)
            if core and core != word:
                forms.add(core)
            forms.update(_english_forms(word))
            continue
        for base in thesaurus.verb_bases(word):
            forms.add(base)
            forms.update(r for r in (*thesaurus.related(base), *word_forms.word_family(base))
                         if " " not in r)
    return frozenset(forms)


def _english_forms(word: str) -> set[str]:
    """The English words that say Chinese predicate ``word`` in a block of the other
    language: the words of its CC-CEDICT glosses of one or two words (带薪 "paid"), with
    their verb bases, grammar and generic verbs aside."""
    out: set[str] = set()
    for gloss in bilingual.english_glosses(word):
        if len(gloss) > 2:
            continue
        for w in gloss:
            if fold(stem(w)) not in GENERIC_TERMS and fold(stem(w)) not in VERBS \
                    and not is_question_word(w):
                out.add(w)
                out.update(thesaurus.verb_bases(w))
    return out


# A question asking leave ("Is it ok to play games…?", "am I allowed to fly…?", 允许…吗) is
# decided by a sentence granting or refusing it, whatever verb the question uses: "Personal
# software, games and unlicensed tools are not allowed on company laptops."
_ASKS_LEAVE_RE = re.compile(
    r"\b(?:is\s+it|it'?s|is\s+that)\s+(?:ok|okay|alright|all\s+right|fine|allowed|permitted"
    r"|acceptable)\b|\b(?:am\s+i|are\s+we|are\s+(?:staff|employees))\s+(?:allowed|permitted)"
    r"|\bmay\s+i\b|允许|准许", re.IGNORECASE)
_GRANTS_RE = re.compile(
    r"\b(?:allowed|permitted|prohibited|forbidden|banned|may(?:\s+not)?|must\s+not)\b"
    r"|允许|准许|禁止|不得|不准", re.IGNORECASE)


# "Can I fly business class?", 可以坐公务舱吗: asking whether one may, decided by the rule on
# the asked thing that grants, refuses or pays for it ("Business class is never reimbursed.",
# 公务舱一律不予报销, "premium economy is allowed for longer flights"), when that sentence
# names something of the ask besides its verb.
_ASKS_MAY_RE = re.compile(
    r"\b(?:can|could)\s+(?:i|we|you|employees|staff)\b|可以|可不可以|能不能|能否", re.IGNORECASE)
_RULES_RE = re.compile(
    r"\b(?:reimbursed|refunded|covered|paid\s+for|approval|approved|not\s+allowed|never)\b"
    r"|报销|批准|不予|一律|不允许|不可以", re.IGNORECASE)


def rules_on_asked(question: str, text: str) -> bool:
    """Whether ``text`` is a rule on what "may I…?" ``question`` asks about (``_ASKS_MAY_RE``,
    ``_RULES_RE``; or a grant or refusal, ``_GRANTS_RE``, when the ask is not itself about
    paying: "Taxis are allowed at night" does not say whether a taxi is reimbursed), sharing
    a word of the ask clause that is not its predicate."""
    own = _asked_things(question)
    rule = _RULES_RE.search(text) or (
        _GRANTS_RE.search(text) and not _RULES_RE.search(ask_clause(question)))
    return bool(own) and bool(rule) and bool(own & folded_terms(text))


@lru_cache(maxsize=512)
def _asked_things(question: str) -> frozenset[str]:
    """The folded words of a may-I ask clause besides its predicate (empty for any other
    question): read once per question, not per sentence ranked."""
    ask = ask_clause(question)
    if not _ASKS_MAY_RE.search(ask):
        return frozenset()
    return folded_terms(ask) - _predicate_forms(question) - {
        fold(stem(w)) for w in predicate_terms(question)}


@lru_cache(maxsize=512)
def _asks_leave(question: str) -> bool:
    """Whether the ask clause of ``question`` asks leave (``_ASKS_LEAVE_RE``): read once per
    question, not per sentence ranked."""
    return _ASKS_LEAVE_RE.search(ask_clause(question)) is not None


def states_predicate(question: str, text: str) -> bool:
    """Whether ``text`` states (or denies) a predicate of yes/no ``question``, or grants or
    refuses the leave it asks (``_asks_leave``); True when the question has none."""
    forms = _predicate_forms(question)
    if not forms:
        return True
    if (_asks_leave(question) and _GRANTS_RE.search(text)) or rules_on_asked(question, text):
        return True
    if any(_CJK_RE.search(f) and f in text for f in forms):
        return True
    words = {m.group().lower() for m in _WORD_RE.finditer(text)}
    bases = _predicate_bases(question)
    after = verbs_after(text)
    return any((thesaurus.verb_bases(w) & forms or w in forms)
               and not (w in bases and _noun_too(w) and fold(stem(w)) not in after)
               for w in words)


@lru_cache(maxsize=512)
def _predicate_bases(question: str) -> frozenset[str]:
    """The English verb bases of ``predicate_terms`` themselves (not their relatives)."""
    return frozenset(b for w in predicate_terms(question) if not _CJK_RE.search(w)
                     for b in thesaurus.verb_bases(w))


def _noun_too(word: str) -> bool:
    """Whether English ``word``, written as the predicate's bare base, is a noun as well
    ("expense", "claim"): then a sentence states the predicate with it only as a verb
    (after a modal or "to"). "…need no expense claim" names the noun, it does not say
    whether "Can I expense it?": that sentence led the answer."""
    return bool(thesaurus.morphy(word, "noun"))


def predicate_first(question: str, scored: Sequence[tuple[float, T]],
                    text_of: dict[int, str],
                    skip: Callable[[str], bool] = lambda _text: False) -> list[tuple[float, T]]:
    """``scored`` (best first) with the best item whose sentence (``text_of`` by position
    in ``scored``) states a predicate of ``question`` moved to the front, the others in
    their order; a sentence ``skip`` rejects (a rule for another group) is passed over;
    unchanged when the question has no predicate or no sentence states it."""
    if not _predicate_forms(question):
        return list(scored)
    first = next((i for i in range(len(scored)) if states_predicate(question, text_of[i])
                  and not skip(text_of[i])), None)
    if first is None:
        return list(scored)
    return [scored[first], *scored[:first], *scored[first + 1:]]


def undecided(question: str, chosen: Sequence[Candidate]) -> bool:
    """Whether ``question`` asks yes or no about a predicate that none of the ``chosen``
    sentences states, nor the section heading of one that shares three of the question's
    terms ("Can I share a file with someone outside the company?" under "Sharing with
    people outside the company"): they speak of its subject only."""
    asked = folded_terms(question)
    return bool(_predicate_forms(question)) and not any(
        states_predicate(question, c.text) or (
            len(folded_terms(c.topic) & asked) >= 3 and states_predicate(question, c.topic))
        for c in chosen)
