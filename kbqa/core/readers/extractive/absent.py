"""The question's words that no block has (``select``'s declines and its gap line).

- ``asked_absent``: the specific words no block mentions, each with its share of an absent
  word's weight (a noun counts fully, a verb ``VERB_SHARE``); ``too_specific``: enough of
  them that the blocks only share the question's topic.
- ``nameable``: which absent words a gap sentence may name: nouns only (jieba's tags for
  Chinese; for English no -ing/-ed forms, no common verbs such as "decide" or "fix", no
  modifiers, reflexive pronouns or the unit of the asker's own number); ``action_or_time``:
  an English verb right after its subject ("if I enter…"), a verb form ("took") or a time
  ("yesterday"), named only when declining.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache

from kbqa.core.readers.extractive.acronyms import acronyms
from kbqa.core.readers.extractive.contacts import reach_verbs
from kbqa.core.readers.extractive.focus import ask_clause, is_yes_no, names
from kbqa.core.readers.extractive.question import (
    ANSWER_TYPE_TERMS,
    NOUN_TAGS,
    TIME_WORDS,
    VERBS,
    asking_words,
    common,
    function_words,
    light_terms,
    modified_head,
    modifies,
    nominal_verbs,
    qualifiers,
    question_terms,
    tagged,
)
from kbqa.core.readers.extractive.question_verbs import (
    SUBJECT_PRONOUNS,
    english_verbs,
    phrasal_verbs,
    verbs_after,
)
from kbqa.core.readers.extractive.text import Candidate, folded_terms, question_numbers, surfaces
from kbqa.core.retrieval.focus_en import is_person_en
from kbqa.core.text.phrases import modifier_phrases
from kbqa.core.text.spelling import misspelt
from kbqa.core.text.terms import fold, is_question_word, is_stop_en, jieba_frequency, stem
from kbqa.core.text.thesaurus import (
    known_word,
    morphy,
    mostly_modifier,
    mostly_noun,
    only_modifier,
    relational,
    verb_form,
)
from kbqa.core.types import Block

VERB_SHARE = 0.5  # an absent verb ("停车") says half as much about what is asked as a noun


def significant(term: str, question: str = "") -> bool:
    """Whether an absent term says what is asked about: numbers, Chinese, 4+ Latin letters,
    and a 3-letter word that is a noun first in WordNet and no stop word ("dog", "cab",
    "gym": "Can I bring my dog to the office?" is not answered by "bring-your-own-key
    encryption"; "get", "pay", "new" stay out). Letters are counted in the word as the
    question writes it (its S-stemmed term, given ``question``): folding cuts "dinner" to
    ``din`` and "letter" to ``let``, words of 4+ letters all the same."""
    if not term.isascii() or not term.isalpha() or len(term) >= 4:
        return True
    if question and len(stem(_written(term, question))) >= 4:
        return True
    return len(term) == 3 and not is_question_word(term) and mostly_noun(term)


def nameable(term: str, question: str) -> bool:
    """Whether a gap sentence may name absent ``term``: no digits; Chinese words of 2+
    characters in jieba's dictionary that it tags as nouns (one it lacks is its HMM's guess:
    ``全报`` of 能全报吗); Latin words of 4+ letters or 3-letter nouns (``significant``;
    or an acronym such as "CEO") that are not verbs (a phrasal verb's either word), not
    -ing/-ed/-ly forms in the question, and not words WordNet knows
    only as adjectives or adverbs ("late", "every": ``only_modifier``) or mostly so ("good"
    of "good enough": ``mostly_modifier``); never the unit of the asker's own number
    ("years" of "valid for 5 years": a measure, not what the question is about), nor a piece
    of a verb said twice around 一 (``一拖`` of 拖一拖: "put it off a little")."""
    if any(ch.isdigit() for ch in term) or term in VERBS or term in verbs_after(question):
        return False
    if any(term in m.group() for m in _TRIED_VERB_RE.finditer(question)):
        return False
    if any(term in words for words in phrasal_verbs(question)):  # "hang around"
        return False
    if term in {t.split(" ", 1)[1] for t in question_numbers(question).values()}:
        return False
    if not term.isascii() and not jieba_frequency().get(term):
        return False
    if not term.isascii():
        tags = {w: t for w, t in tagged(question)} | dict.fromkeys(nominal_verbs(question), "n")
        # A term the tagger cut into pieces (``换个`` of 换/个) is a noun only if they all are.
        pieces = [t for w, t in tagged(question) if w in term] if term not in tags else []
        # ...and a piece of a longer word (``三次`` of 第三次, a numeral) takes that word's tag
        if term not in tags and not pieces:
            pieces = [t for w, t in tagged(question) if term in w]
        return len(term) >= 2 and bool(NOUN_TAGS.match(tags.get(term, "n"))) and all(
            NOUN_TAGS.match(t) for t in pieces)
    if term in acronyms(question):
        return True
    surface = [w for w in re.findall(r"[a-z]+", question.lower()) if fold(stem(w)) == term]
    # nor a verb before its object ("log me out"), nor a reflexive pronoun ("myself":
    # stopwords-iso's list is too broad to use here,
    # it holds "bill" and "system")
    if any(w.endswith(("ing", "ed", "ly")) or only_modifier(w) or _REFLEXIVE_RE.fullmatch(w)
           or _before_object(w, question) for w in surface):
        return False
    if surface and all(mostly_modifier(w) and not _before_noun(w, question) for w in surface):
        return False
    # a stop-list word WordNet does not know ("whats", "dont", "youre": a contraction typed
    # without its apostrophe) is grammar, never a thing; "bill" and "system" are nouns
    if surface and all(is_question_word(w) and not known_word(w) for w in surface):
        return False
    # nor a typo ("lenght", "theres"): the asker's slip, not a thing the documents lack
    typed = re.findall(r"[A-Za-z]+", question)  # a capital marks a name ("Okta"), kept
    if surface and all(misspelt(w) and w in typed for w in surface):
        return False
    # nor a word of a phrase WordNet lists as a modifier ("in advance", "in person")
    if surface and all(w in _phrase_words(question) for w in surface):
        return False
    return significant(term, question) and not short_head(term, question)  # 4+ letters


@lru_cache(maxsize=512)
def _word_pairs(question: str) -> tuple[tuple[str, str], ...]:
    """Each English word of ``question`` (lower case) with the word after it."""
    words = re.findall(r"[a-z]+", question.lower())
    return tuple(zip(words, words[1:], strict=False))


@lru_cache(maxsize=512)
def _phrase_words(question: str) -> frozenset[str]:
    """The words of ``question``'s phrases WordNet lists as modifiers ("in advance")."""
    return frozenset(w for p in modifier_phrases(question) for w in p.split())


def action_or_time(word: str, question: str) -> bool:
    """Whether English ``word`` follows a subject pronoun in ``question`` and WordNet knows
    it as a verb ("enter" of "if I enter the wrong password"), or is a verb form wherever
    it stands ("took", "came", "employes" typed for "employees": ``thesaurus.verb_form``) or
    a time ("yesterday", "September"): an action or a when, not a thing."""
    low = word.lower()
    return verb_form(low) or stem(low) in TIME_WORDS or any(
        a in SUBJECT_PRONOUNS and b == low and morphy(b, "verb") for a, b in _word_pairs(question))


# A rule for every other place: "other cities", "elsewhere", 其他城市, 其余地区.
# A word may stand between: "all other domestic cities", 其他国内城市.
OTHER_PLACES_RE = re.compile(
    r"\b(?:all |any )?other (?:[a-z]+ )?(?:cities|countries|locations|places|offices|regions)\b"
    r"|\belsewhere\b|其[他余][\u4e00-\u9fff]{0,2}?(?:城市|地区|国家|办公室)"
    # a value for everywhere "…, or <another> in <a list of places>": the list is the
    # exception ("up to EUR 170 per night, or up to EUR 240 per night in London, Paris, …")
    r"|,\s+or\b[^.;]{0,60}?\bin\s+(?-i:[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*(?:,\s+[A-Z][\w-]*"
    r"(?:\s+[A-Z][\w-]*)*)+,?\s+(?:and|or)\s+[A-Z])", re.IGNORECASE)
# X一X (拖一拖, 试一试, 等一等): the verb X done a little, one verb whatever jieba cuts
_TRIED_VERB_RE = re.compile(r"([\u4e00-\u9fff])一\1")
_OBJECT_PRONOUNS = frozenset({"me", "us", "him", "them"})


def short_head(term: str, question: str) -> bool:
    """Whether 3-letter ``term`` ends a compound in ``question`` ("bin" of "recycle bin",
    "app" of "web app": the word before it is a content word): the compound is the thing,
    which its first word or a translation of the whole already stands for, not the
    3-letter word alone ("my dog", "a gym" are things by themselves)."""
    if len(term) != 3 or not term.isascii():
        return False
    return any(b == term and not is_question_word(a) and len(a) > 2
               for a, b in _word_pairs(question))


def _before_object(word: str, question: str) -> bool:
    """Whether English ``word`` comes right before an object pronoun in ``question`` ("log"
    of "log me out", "kick" of "kicks us off"): a verb there, not a thing."""
    return any(a == word and b in _OBJECT_PRONOUNS for a, b in _word_pairs(question))


_REFLEXIVE_RE = re.compile(r"(?:my|your|him|her|it|our|them|one)sel(?:f|ves)"
                           # and a possessive pronoun: "mine" of "what if mine breaks?" is
                           # no mine (WordNet knows only the noun)
                           r"|mine|yours|ours|theirs|hers"
                           # nor an indefinite pronoun: "nobody" of "when nobody's at the
                           # desk" is a WordNet noun ("a person of no influence")
                           r"|(?:no|any|some|every)(?:body|one|thing|where)")


def _before_noun(word: str, question: str) -> bool:
    """Whether English ``word`` comes right before a noun in ``question`` ("mobile phone",
    "sick leave": it names a kind of thing there), not before "enough" or at an end."""
    return any(a == word and morphy(b, "noun") and not mostly_modifier(b)
               for a, b in _word_pairs(question))


def too_specific(qterms: Sequence[str], absent: dict[str, float],
                 named: frozenset[str] = frozenset()) -> bool:
    """Whether the question asks about things no block mentions, so the blocks only share
    its general topic ("my mobile phone bill" against an expense policy): at least 2 of its
    ``absent`` specific nouns (``asked_absent``), or more than a third of its specific terms,
    or one word of ``named``: a name qualifying a thing the blocks have (``named_things``,
    "the Berlin office"), or a follow-up's carried topic (``absent_topic``): no other word
    stands in for it. "How long does the trial last?" with
    only "last" absent still gets an answer."""
    specific = [t for t in qterms if significant(t) and t not in ANSWER_TYPE_TERMS]
    nouns = [t for t, share in absent.items() if share == 1.0]
    return (len(nouns) >= 2 or (bool(nouns) and 3 * len(nouns) > len(specific))
            or any(t in named for t in absent))


def named_things(question: str, qterms: Sequence[str], df: dict[str, int],
                 n_blocks: int) -> frozenset[str]:
    """The question's names (``focus.names``) that no block mentions and that qualify a
    noun phrase whose later word the blocks have ("Berlin" of "the Berlin office"); none
    when a block has another of its names ("Paris vs Hamburg" is half answered by the
    Paris rate). A name alone ("在绵阳住一晚") may fall under the blocks' "其他城市"."""
    named = names(question) & set(qterms)
    if any(df[t] for t in named):
        return frozenset()
    heads = _heads(qterms, df, n_blocks)
    return frozenset(t for t in named if modifies(t, question, heads))


# A standalone follow-up carries its earlier question's topic words in parentheses at its
# end (``retrieval.ellipsis.with_topic``: "超了怎么办（团建、每人、钱）？", "What if I go
# over (hotel limit)?"): they are what the follow-up is about.
_TOPIC_RE = re.compile(r"[（(]([^（）()]+)[）)]\s*[?？]?\s*$")


def absent_topic(question: str, asked: dict[str, float],
                 synonyms: Mapping[str, Sequence[str]]) -> frozenset[str]:
    """The words of a follow-up's carried topic (its closing parenthesis) that no block
    mentions (``asked``; any share: jieba tags a word listed alone unreliably, ``团建`` as
    an adjective) nor meets through a synonym the blocks have: the earlier
    question's thing, which the knowledge base lacks ("团建" of 团建每人多少钱, refused), so
    the follow-up ("超了怎么办？") is about nothing the blocks hold either."""
    return frozenset(t for t in carried_topic(question) if t in asked and not synonyms.get(t))


def carried_topic(question: str) -> tuple[str, ...]:
    """The terms of a standalone follow-up's carried topic (its closing parenthesis: the
    earlier question's words), () for any other question."""
    found = _TOPIC_RE.search(question.strip())
    return tuple(question_terms(found.group(1))) if found else ()


def misses_topic(question: str, lead: Candidate, weights: Mapping[str, float],
                 blocks: Sequence[Block] = ()) -> bool:
    """Whether ``lead`` (with its heading and title) and its passage (the block of
    ``blocks`` it comes from) lack the rarest word of a follow-up's carried topic
    (``carried_topic``, by ``weights``): "超了怎么办（团建、预算、每人、钱）？" is about 团建,
    which the client-meal limit (每人不超过 300 元) never names. A lead whose passage names
    it speaks of that topic ("Calls above the limit are answered with HTTP 429" after "The
    default rate limit of the open API is 600 requests…", for "what happens if we go over
    (default rate limit for the open API)?")."""
    topic = [t for t in carried_topic(question) if t in weights]
    if not topic:
        return False
    key = max(topic, key=lambda t: weights[t])
    passage = next((b.chunk.text for b in blocks if b.n == lead.n), "")
    return key not in lead.terms | lead.context | lead.heading | folded_terms(passage)


def _heads(qterms: Sequence[str], df: dict[str, int], n_blocks: int) -> frozenset[str]:
    """The question's terms the blocks have, not common to most of them."""
    return frozenset(t for t in qterms if df[t] and not common(df[t], n_blocks))


# Days named from the asker's own ("yesterday", "tonight"): when something happened or will,
# which no document states; Chinese 昨天/今天 are jieba's time words (``t``), light already.
DEICTIC_TIMES = frozenset("yesterday today tomorrow tonight".split())


def asked_absent(question: str, qterms: Sequence[str], df: dict[str, int],
                 n_blocks: int, texts: Sequence[str] = ()) -> dict[str, float]:
    """The question's specific words that no block mentions, each with its share of an
    absent word's weight: nouns, numbers, acronyms ("CEO"), a relational adjective before a
    head the blocks have ("parental leave": ``thesaurus.relational``) 1, verbs (Chinese ``停车``,
    ``改成``; English -ing/-ed forms) ``VERB_SHARE``. Never question or function words
    (Chinese ``terms.is_question_word``: ``还会``, ``人能``), answer-type words ("deadline",
    answered by a number), light verbs ("last"), function words, Latin words under 4
    letters, a sub-word of a longer absent word, or a word qualifying a noun phrase whose
    later word the blocks have and is not common to most of them (``医生`` of ``医生证明``
    when ``证明`` is there; not "paternity" of "paternity leave" in a leave policy) and,
    given the blocks' ``texts``, that they qualify with a noun of their own somewhere
    (``医院证明``): a head they only ever write bare ("a password of 12 characters") is not
    what the qualifier asks for ("the wifi password")."""
    skip = ANSWER_TYPE_TERMS | VERBS | function_words(question) | phrasal_verbs(question)[1]
    skip |= DEICTIC_TIMES  # "stolen out of my car yesterday": when, told from the asker's day
    skip |= reach_verbs(question)  # "what number do I call": the number answers "call"
    # stopwords-iso's English list holds content words too ("bill", "home"): Chinese only;
    # a word holding an interrogative asks too (打几折: "what percentage", answered by 90%)
    skip |= frozenset(t for t in qterms if not t.isascii() and (
        is_question_word(t) or "几" in t or "多少" in t))
    # and a piece of a question word (``长时间`` of ``多长时间``)
    asks = asking_words(question)
    skip |= frozenset(t for t in qterms if any(t != w and t in w for w in asks))
    verbs = qualifiers(question)
    caps = acronyms(question)
    heads = _heads(qterms, df, n_blocks)
    # A name qualifies its noun phrase too, but only it says which one: "Berlin" of "the
    # Berlin office" is what the blocks' "Rotterdam office" does not answer.
    named = names(question)
    # a place the blocks' rule for every other place covers is no word they lack ("the hotel
    # limit in Denver" under "USD 160 in all other cities")
    if named and any(OTHER_PLACES_RE.search(t) for t in texts):
        skip |= named
    absent = [t for t in qterms if df[t] == 0 and (significant(t, question) or t in caps)
              and not short_head(t, question)
              and t not in skip and " " not in t  # "40 day": may be stated otherwise
              and (t in named or _bare_head(t, question, heads, texts))]
    absent = [t for t in absent if not any(t != o and t in o for o in absent)]
    # ...a verb inside a noun phrase names a thing (``nominal_verbs``: 每年的体检费用)
    verbs = (verbs - nominal_verbs(question)) | english_verbs(question)
    # ...and a relational adjective before a head the blocks have says which kind of it is
    # asked ("parental" of "parental leave" beside "sick leave"), as a noun there does;
    # a describing one ("the real limit", "a shared album") does not
    mentioned = frozenset(t for t in qterms if df[t])
    return {t: 1.0 if t not in verbs and (nameable(t, question) or (
        modified_head(t, question, mentioned) is not None and relational(t))) else VERB_SHARE
        for t in absent}


def _bare_head(term: str, question: str, heads: frozenset[str], texts: Sequence[str]) -> bool:
    """Whether ``term`` qualifies no head the blocks have (``question.modified_head``), or,
    with ``texts``, one the texts never qualify with a noun (``qualified_head``)."""
    head = modified_head(term, question, heads)
    # an English run holds verbs too ("are backups kept"): only a noun head is qualified;
    # before a verb a thing qualifies nothing (read the word as asked: "leave" for ``leav``),
    # and people acting ("Can a guest restore…?") are a group ``narrowing`` checks
    if head is not None and head.isascii() and not mostly_noun(_written(head, question)):
        return not is_person_en(_written(term, question))
    if head is None:
        return True
    return bool(texts) and not qualified_head(head, texts)


def _written(term: str, question: str) -> str:
    """The word of ``question`` that folds to ``term`` ("leave" for ``leav``), lower case."""
    return (surfaces(question, [term]) or (term,))[0].lower()


def qualified_head(head: str, texts: Sequence[str]) -> bool:
    """Whether some text writes the folded noun ``head`` after a noun of its own: "hotel
    receipt", ``医院证明`` (jieba's noun tags; WordNet's nouns for English)."""
    if head.isascii():
        pattern = re.compile(rf"\b([a-z]+)[\s-]+{re.escape(head)}[a-z]*\b")
        return any(fold(stem(m.group(1))) != head and mostly_noun(m.group(1))
                   and not is_stop_en(m.group(1), False)
                   for text in texts for m in pattern.finditer(text.lower()))
    for text in texts:
        if head not in text:
            continue
        words = tagged(text)
        for i, (word, tag) in enumerate(words):
            if word == head and i and NOUN_TAGS.match(words[i - 1][1]):
                return True
            if word.endswith(head) and word != head and NOUN_TAGS.match(tag):
                return True
    return False


def leans_on_context(question: str, ask: set[str], df: dict[str, int]) -> bool:
    """Whether the ask clause names nothing the blocks have but light words ("Am I out of
    luck?", "What happens to them come January?", ``怎么回事？``) while the context before it
    does: the ask refers back to the context, so its absent words ("luck", ``回事``) are no
    sign that the blocks miss the question; the context's words rank the sentences and
    the checks of what a sentence says still apply."""
    if ask_clause(question) == question.strip():
        return False
    light = light_terms(question) | VERBS | function_words(question)
    content = [t for t in ask if t not in light and not is_question_word(t)]
    return not any(df.get(t, 0) for t in content) and any(
        df[t] for t in df if t not in ask and t not in light)


_POINTS_BACK_RE = re.compile(r"\b(?:them|they|it|those|these)\b", re.IGNORECASE)


def points_back(question: str, ask: set[str]) -> bool:
    """Whether the yes/no ask clause is only the asker's verbs and a pronoun for a thing of
    the context before it ("…8 of my vacation days… Will I lose them?"): what it asks about is
    the context's, so the context's absent words are the ask's."""
    clause = ask_clause(question)
    if clause == question.strip() or not _POINTS_BACK_RE.search(clause) or not is_yes_no(
            question):  # "how quickly do I need to report it?" asks of the act itself
        return False
    light = light_terms(question) | VERBS | function_words(question)
    return all(t in verbs_after(clause) for t in ask if t not in light)
