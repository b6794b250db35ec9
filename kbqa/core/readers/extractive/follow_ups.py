"""A follow-up is answered about what it adds, never with the earlier answer (issue 12 item 4).

"what's the hotel limit per night if I travel to Paris?" then "what about meals?" reaches
the reader as "What's the meals if I travel to Paris?", and the hotel sentence, which
holds "Paris", outranked the meal allowance; "and for webhooks?" after the API's rate limit
repeated the 429 sentence. What a turn adds to the conversation is the words of its
standalone query that no earlier user turn (as rewritten) had (``new_words``): when a block
has one of them, the answer states one (in its sentence or section heading); the reader
answers again from the blocks that have them, else declines (``about_new_words``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from kbqa.core.readers.extractive.focus import names
from kbqa.core.readers.extractive.narrowing import groups_named, names_people
from kbqa.core.readers.extractive.question import NOUN_TAGS, light_terms, question_terms, tagged
from kbqa.core.readers.extractive.text import Candidate, Selection, folded_terms, question_numbers
from kbqa.core.readers.extractive.thresholds import asker_amounts, meets_threshold
from kbqa.core.readers.extractive.units import frequency_phrases
from kbqa.core.retrieval.focus_en import is_person_en
from kbqa.core.text import thesaurus
from kbqa.core.text.bilingual import composed_english_terms, english_terms
from kbqa.core.text.terms import fold, is_question_word, stem
from kbqa.core.types import Block, Turn

_DECLINED = Selection((), (), True)
# A Chinese count or measure (一天, 两晚, 每人): a number word leads it
_MEASURE_ZH_RE = re.compile(r"^[一二两三四五六七八九十百千几每半]")
_LATIN_RE = re.compile(r"[A-Za-z]+")


def new_words(question: str, history: Sequence[Turn]) -> frozenset[str]:
    """The folded content terms of ``question`` that no earlier user turn of ``history``
    had, its nouns only; empty without an earlier user turn, and for a question sharing no
    content term with any of them (a new topic, not a follow-up: "Can I carry over unused
    annual leave?" after "What if I lose my laptop?" was held to state "leave"). Left out:
    light words, numbers and measures (``一天``, the unit of the asker's own number: "euros"
    of "1,500 euros"; "every few months"), names (``focus.names``: "and in Berlin?" is
    answered by the rule for other cities, which never names Berlin) and groups of people
    ("and for part-timers?": a rule for all employees answers them; ``narrowing`` checks
    groups)."""
    earlier = [t.text for t in history if t.role == "user"]
    if not earlier:
        return frozenset()
    said = frozenset().union(*(folded_terms(text) for text in earlier))
    if not said & frozenset(question_terms(question)):
        return frozenset()  # a question sharing no word with them stands alone: nothing added
    skip = light_terms(question) | names(question) | frozenset(
        t.split(" ", 1)[1] for t in question_numbers(question).values()) | _group_words(
        question) | frozenset(t for phrase in frequency_phrases(question)
                              for t in question_terms(phrase))
    nouns = _nouns(question)
    return frozenset(t for t in question_terms(question)
                     if t in nouns and t not in said and t not in skip
                     and not t[:1].isdigit() and not _MEASURE_ZH_RE.match(t))


# A hyphenated word naming people or before a word for people: "part-timers", "part-time
# employees"
_HYPHENATED_RE = re.compile(r"\b([A-Za-z]+(?:-[A-Za-z]+)+)(?:\s+([A-Za-z]+))?")


def _group_words(question: str) -> frozenset[str]:
    """The folded words naming the groups of people ``question`` asks about
    (``narrowing.groups_named``, and a hyphenated kind of them: "part-timers", "part-time
    employees")."""
    found = {t for group in groups_named(question) for t in question_terms(group)}
    for m in _HYPHENATED_RE.finditer(question):
        word, after = m.group(1), m.group(2) or ""
        if is_person_en(word) or (after and is_person_en(after)):
            found |= set(question_terms(word.replace("-", " ")))
    return frozenset(found)


def _nouns(question: str) -> frozenset[str]:
    """The folded nouns of ``question``: English words WordNet reads rather as nouns
    ("meals", "webhooks"; not "apply"), Chinese words jieba tags as nouns. A verb the turn
    adds ("how do I apply?") is answered by the topic's procedure in its own words."""
    tagged_words = tagged(question)
    if tagged_words:  # with the pieces search mode cuts from them (版本 of 旧版本)
        nouns = [w for w, tag in tagged_words if NOUN_TAGS.match(tag)]
        return frozenset(t for t in question_terms(question) if any(t in w for w in nouns))
    return frozenset(fold(stem(w.lower())) for w in _LATIN_RE.findall(question)
                     if thesaurus.rather_noun(w.lower()))


def about_new_words(question: str, history: Sequence[Turn], blocks: Sequence[Block],
                    selection: Selection,
                    choose: Callable[[str, Sequence[Block]], Selection]) -> Selection:
    """``selection`` when it states a word the turn adds (``new_words``) that some block
    has (its sentences stating one first), or when there is none; else ``choose`` again over
    the blocks that have one, and a decline when that answer does not state one either."""
    new = new_words(question, history)
    if selection.declined or not new or meets_threshold(asker_amounts(question),
                                                        selection.chosen[0].text):
        return selection  # the rule for the asker's own amount is the answer, as worded
    terms = {b.n: _block_terms(b) for b in blocks}
    having = [b for b in blocks if new & terms[b.n]]
    if not having:
        # a group of people no block names ("那实习生呢？", "and for interns?"): the earlier
        # answer is about others, and no block says whether it holds for them
        return _DECLINED if any(names_people(w) for w in new) else selection
    states = _stating(new, blocks, frozenset().union(*terms.values()))
    stating = [c for c in selection.chosen if states(c)]
    if stating:  # 出差餐费呢？ after two hotel questions: the meal allowance leads
        return replace(selection, chosen=(*stating,
                                          *(c for c in selection.chosen if c not in stating)))
    again = choose(question, having)
    return again if not again.declined and any(states(c) for c in again.chosen) else _DECLINED


def _block_terms(block: Block) -> frozenset[str]:
    chunk = block.chunk
    return folded_terms(f"{chunk.text}\n{chunk.section}\n{chunk.title}")


def _stating(new: frozenset[str], blocks: Sequence[Block],
             written: frozenset[str]) -> Callable[[Candidate], bool]:
    """Whether a quoted sentence or its section heading states a new word, a Chinese one
    that no block writes (``written``: the blocks' folded terms) also by a word sharing an
    English gloss with it (``吃饭`` "meal" by ``餐费``; a word the blocks write, 餐费, is
    stated as written: the hotel rule's 报销 "expense" does not state it); the document's
    title does not count ("Open API: rate limits and webhooks" over the 429 sentence)."""
    sections = {b.n: folded_terms(b.chunk.section) for b in blocks}
    wanted = {g for w in new if not w.isascii() and w not in written for g in _glosses(w)}

    def states(c: Candidate) -> bool:
        said = c.terms | c.heading | sections.get(c.n, frozenset())
        return bool(new & said) or any(wanted & _glosses(t) for t in said if not t.isascii())

    return states


def _glosses(word: str) -> frozenset[str]:
    """The content words of a Chinese word's CC-CEDICT glosses (of four letters or more)."""
    return frozenset(g for g in (english_terms(word) or composed_english_terms(word))
                     if len(g) >= 4 and not is_question_word(g))
