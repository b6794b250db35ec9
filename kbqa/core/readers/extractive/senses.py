"""A question word that a sentence holds only inside another compound is not matched there.

"How much can I spend on a client dinner?" shares "client" with "The desktop sync client
keeps a folder…" and "Registration returns a client ID and a client secret", and
``请客户吃饭`` shares ``客户`` with ``桌面同步客户端``: the same letters, another thing. A
word of one of the question's noun phrases (``question.phrases``: "client dinner", "head
office") counts in a sentence only where the sentence uses it in the question's sense:

- the phrase's other word next to it in the question (its *partner*: "dinner" for
  "client") is in the sentence, its heading or title: the phrase is there, or at least
  its topic; or
- some occurrence of the word stands outside any compound the question does not have. In
  English the word is in a compound when it qualifies a thing-naming word right after it
  that is no verb ("client ID", "client secret"; not "An access token stays…"), or, when it
  qualifies in the question ("client" of "client dinner"), when such a word up to
  ``REACH`` words before it qualifies it ("desktop sync client", "API clients") or it heads
  an "of" phrase ("the head of your department" is not the "head office"). A word that
  heads its question phrase ("token" of "bearer token") with another qualifier before it
  ("access token") is another kind of the same thing, left to the sibling checks. A word
  names a thing when it is a name (an acronym, a capitalised word WordNet does not know:
  "API", "NimbusDrive") or a WordNet noun. In Chinese the word is only the start of longer
  jieba words (``客户端``, ``文件夹``): jieba's dictionary knows the compound as another word.

The verb of a phrasal verb WordNet lists ("passed away", ``question_verbs.phrasal_pairs``)
counts in a sentence only with its particle after it: "Employees who have passed probation…"
is another act (a tester's bilingual company: a bereavement question got the remote-work
rule).

``other_senses`` finds such words for one text; a sentence whose shared words are all such
words is never quoted (``only_other_senses``). An extra sentence from another document
answers the lead's ask or is left out (``same_ask``, the tester's padding extras): it
states the asked number or time, or, for an untyped ask, it does not hold a word of a
phrase the lead states whole without the rest of the phrase (``splits_phrase``).

Scores are left alone: removing the words from every sentence's terms was measured and
dropped (demo 93.8 -> 89.6%: it moved the rarity weights of all the other sentences), and
so was looking the words up in the thesaurus as if the blocks lacked them (natural: "client
site" met "businesses").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from kbqa.core.readers.extractive.focus import AskKind, ask_kind, is_yes_no, new_answer
from kbqa.core.readers.extractive.question import GENERIC_TERMS, VERBS, phrases, tagged
from kbqa.core.readers.extractive.question_verbs import (
    phrasal_pairs,
    verbs_after,
    without_particle,
)
from kbqa.core.readers.extractive.text import Candidate, folded_terms
from kbqa.core.text import thesaurus
from kbqa.core.text.terms import acronym_starts, fold, is_question_word, is_stop_en, stem, terms
from kbqa.core.types import Block

_WORD_RE = re.compile(r"[A-Za-z]+|[^\sA-Za-z]")
_CJK_RE = re.compile(r"[\u3400-\u9fff]")
REACH = 2  # words of a run on either side that may make a compound with the word
# Determiners and possessives between "of" and the noun of "the head of your department".
_OF_FILLERS = frozenset("the a an your our their his her its my this that these those".split())


@lru_cache(maxsize=512)
def partners(question: str) -> dict[str, frozenset[str]]:
    """Each noun of a run of two or more nouns in ``question`` (folded), with its
    neighbouring nouns in that run: ``{"client": {"din"}, "din": {"client"}}`` of "client
    dinner reimbursed?". English words are nouns when WordNet lists them as nouns (or they
    are names it does not know) and they are no generic, stop-list or grammar verb ("get",
    "much", "run"), nor a verb the question uses after a modal. In Chinese every noun of
    ``question.phrases`` (two characters or more) partners every other one, as 的 joins
    the nouns of one phrase (``招待客户的晚饭``)."""
    if _CJK_RE.search(question):
        nouns = [w for p in phrases(question) for w in p if len(w) > 1 and not w.isascii()]
        return {w: frozenset(nouns) - {w} for w in nouns if len(set(nouns)) > 1}
    verbs = verbs_after(question)
    runs: list[list[str]] = []
    run: list[str] = []
    for word, content, named, _ in [*_tokens(question, surface=True), ("", False, False, "")]:
        if content:
            run.append(fold(stem(word)) if _noun_en(word, named, verbs) else "")
        elif run:
            runs.append(run)
            run = []
    out: dict[str, set[str]] = {}
    for nouns in runs:
        for i, word in enumerate(nouns):
            near = {nouns[j] for j in (i - 1, i + 1) if 0 <= j < len(nouns)} - {word, ""}
            if word and near:
                out.setdefault(word, set()).update(near)
    return {w: frozenset(n) for w, n in out.items()}


@lru_cache(maxsize=512)
def modifiers(question: str) -> frozenset[str]:
    """The words of ``partners`` that qualify a noun after them in the question ("client"
    of "client dinner", "head" of "head office"); the others are their phrase's head."""
    near = partners(question)
    return frozenset(w for phrase in phrases(question) for i, w in enumerate(phrase[:-1])
                     if w in near and phrase[i + 1] in near[w])


def _noun_en(word: str, named: bool, verbs: frozenset[str]) -> bool:
    """Whether the lower-case English question ``word`` names a thing (``partners``)."""
    folded = fold(stem(word))
    if named:
        return True
    if folded in GENERIC_TERMS or folded in VERBS or folded in verbs or is_question_word(word):
        return False
    return bool(thesaurus.morphy(word, "noun"))


def other_senses(question: str, text: str, context: frozenset[str] = frozenset()
                 ) -> frozenset[str]:
    """The folded words of ``question``'s noun phrases that ``text`` holds only inside a
    compound the question does not have, while neither ``text`` nor ``context`` (folded
    terms of its heading and title) holds their phrase partner (module docstring)."""
    near = partners(question)
    if not near:
        return frozenset()
    present = folded_terms(text)
    candidates = [w for w, p in near.items() if w in present and not p & (present | context)]
    if not candidates:
        return frozenset()
    # ...every word the question has: "Open API" of a title is the question's "open API"
    own = frozenset(fold(stem(w)) for p in phrases(question) for w in p) | frozenset(
        fold(w) for w, _ in tagged(question)) | frozenset(fold(t) for t in terms(question))
    if _CJK_RE.search(text):
        return frozenset(w for w in candidates
                         if not w.isascii() and _inside_longer_zh(w, text, own))
    qualifying = modifiers(question)
    return frozenset(w for w in candidates
                     if w.isascii() and _in_compounds_en(w, text, own, w in qualifying))


def _in_compounds_en(word: str, text: str, own: frozenset[str], modifier: bool) -> bool:
    """Whether every occurrence of folded ``word`` in English ``text`` is in a compound
    with a thing-naming word the question does not have (``own``). A word that heads its
    question phrase (``modifier`` False: "token" of "bearer token") is in another sense
    only where it qualifies another noun ("token scope"); with another qualifier before it
    ("access token") it is another kind of the same thing, the sibling checks' business."""
    tokens = _tokens(text)
    spots = [i for i, (w, content, _, _) in enumerate(tokens) if content and w == word]
    return bool(spots) and all(_compound_at(i, tokens, own, modifier) for i in spots)


def _compound_at(i: int, tokens: list[tuple[str, bool, bool, str]], own: frozenset[str],
                 modifier: bool) -> bool:
    """Whether the word at ``i`` qualifies another noun right after it ("client ID"), or,
    for a word that qualifies in the question (``modifier``), is qualified by a noun up to
    ``REACH`` words before it ("desktop sync client", "API clients") or heads an "of" phrase
    ("the head of your department")."""
    if i + 1 < len(tokens) and tokens[i + 1][1] and _names_thing(tokens[i + 1], own, True):
        return True
    if not modifier:
        return False
    for k in range(1, REACH + 1):
        j = i - k
        if j < 0 or not tokens[j][1]:
            break
        if _names_thing(tokens[j], own, False):
            return True
    j = i + 1
    if j < len(tokens) and tokens[j][0] == "of":
        j += 1
        while j < len(tokens) and tokens[j][0] in _OF_FILLERS:
            j += 1
        return j < len(tokens) and tokens[j][1] and _names_thing(tokens[j], own, False)
    return False


def _names_thing(token: tuple[str, bool, bool, str], own: frozenset[str], head: bool) -> bool:
    """Whether a content token can name a thing and is not the question's (``own``): a
    name ("ID", "API", "NimbusDrive"), or a word WordNet lists as a noun; as a ``head``
    after the word, never one it also lists as a verb ("An access token stays…": the
    verb after a subject is no compound)."""
    word, _, named, low = token
    if word in own:
        return False
    if named:
        return True
    if is_question_word(low) or word in GENERIC_TERMS or not thesaurus.available():
        return False
    if head and thesaurus.morphy(low, "verb"):
        return False
    return bool(thesaurus.morphy(low, "noun"))


def _tokens(text: str, surface: bool = False) -> list[tuple[str, bool, bool, str]]:
    """(word, is content, is a name, lower-case word) per token: folded Latin words, a name
    being an acronym or a capitalised word WordNet does not know; stop words and other
    tokens are not content and keep their lower-case form ("of", "the"); ``surface``:
    content words lower-cased but not folded."""
    norm = unicodedata.normalize("NFKC", text)
    acronyms = acronym_starts(norm)
    out: list[tuple[str, bool, bool, str]] = []
    for m in _WORD_RE.finditer(norm):
        tok, acronym = m.group(), m.start() in acronyms
        if tok.isalpha() and tok.isascii() and not is_stop_en(tok, acronym):
            named = acronym or (tok[0].isupper() and thesaurus.available() and not any(
                thesaurus.morphy(tok.lower(), pos) for pos in ("noun", "verb", "adj", "adv")))
            low = tok.lower()
            out.append((low if surface else fold(stem(low)), True, named, low))
        else:
            out.append((tok.lower(), False, False, tok.lower()))
    return out


def _inside_longer_zh(word: str, text: str, own: frozenset[str]) -> bool:
    """Whether Chinese ``word`` appears in ``text`` only as the start of longer jieba words
    the question does not have (``客户`` in ``客户端``)."""
    words = [w.lower() for w in _cut_zh(text)]
    if word in words:
        return False
    longer = [w for w in words if word in w]
    return bool(longer) and all(w.startswith(word) and w not in own for w in longer)


@lru_cache(maxsize=4096)
def _cut_zh(text: str) -> tuple[str, ...]:
    import jieba

    return tuple(jieba.cut(unicodedata.normalize("NFKC", text)))


def only_other_senses(question: str, c: Candidate, blocks: Sequence[Block],
                      covered: frozenset[str], light: frozenset[str]) -> bool:
    """Whether every question term sentence ``c`` covers (``covered``: with its heading and
    title) that is not ``light`` is one it holds only in another sense (``other_senses``
    of the sentence, or of its block's section heading and title): "Registration returns
    a client ID and a client secret" for a client dinner. Such a sentence is about
    something else and is never quoted; scores are left as they are, so the other
    sentences rank as before."""
    specific = covered - light
    if not specific:
        return False
    # a phrasal verb's verb without its particle ("passed probation" for "passed away")
    acts = {v for v, p in phrasal_pairs(question) if without_particle(v, p, c.text)}
    if not partners(question):
        return bool(acts) and specific <= acts
    block = next((b for b in blocks if b.n == c.n), None)
    # the heading and the title apart: "Pagination" and "Open API: …" make no compound
    labels = (block.chunk.section, block.chunk.title) if block else ()
    # a label's other sense counts only for a word the sentence itself does not hold: "Extra
    # storage can be bought…" is about extra storage under "How storage quotas work"
    gone = other_senses(question, c.text, c.context).union(
        *(other_senses(question, label) - c.terms for label in labels))
    # ...and a word its section heading says in the asked sense ("Dental" over "Dental
    # treatment is reimbursed…" for "dental coverage") is the sentence's topic
    if labels and labels[0]:
        gone -= folded_terms(labels[0]) - other_senses(question, labels[0])
    return specific <= gone | acts


# Asked types an extra from another document must state: numbers and times, which a
# pattern finds reliably (a name in English has no tagger here).
_TYPED_EXTRAS = frozenset(("quantity", "money", "number", "time"))
_DIGITS_RE = re.compile(r"\d+")


def same_ask(kind: AskKind, question: str, best: Candidate, cand: Candidate,
             same_doc: bool) -> bool:
    """Whether extra ``cand`` answers what the lead ``best`` answers (the tester's padding
    extras; ``kind``: the question's ``focus.ask_kind``). A sentence of the lead's own
    document (``same_doc``) continues it. One from another document states the asked
    type when the question asks a number or a time (``focus.new_answer``; not for a
    yes/no question, nor a kind only the asker's own number gives: "…Season 17?"; names
    are left alone: "Spain" answers "who won", measured on RGB en_fact); when it asks
    nothing typed, the extra never holds a word of a question phrase the lead states
    whole without that word's partner (``splits_phrase``). Checking the phrase for typed
    asks too was measured and dropped (RGB en_fact, first 100: 53 -> 44% right:
    "Singles" alone is the asked "singles" title)."""
    if same_doc:
        return True
    if kind != "other":
        typed = kind in _TYPED_EXTRAS and not is_yes_no(question) and (
            ask_kind(_DIGITS_RE.sub("", question)) == kind)
        return not typed or new_answer(kind, cand.text, question)
    return not splits_phrase(question, best.terms, cand.terms, cand.context)


def splits_phrase(question: str, lead: frozenset[str], extra: frozenset[str],
                  extra_context: frozenset[str] = frozenset()) -> bool:
    """Whether an extra sentence (``extra``: its folded terms) holds a word of a question
    phrase that the lead sentence (``lead``: its folded terms) states whole, while neither
    it nor its heading and title (``extra_context``) holds the word's partner: "Desks in the
    office are equipped…" after "…where the head office still is" speaks of another office
    than the one asked about."""
    return any(w in extra and w in lead and p & lead and not p & (extra | extra_context)
               for w, p in partners(question).items())
