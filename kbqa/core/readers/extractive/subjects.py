"""The thing a question asks about, and a best sentence whose block does not name it.

"How often are monitors replaced?" (the standalone form of "and monitors?" after a laptop
question) quoted "Company laptops are replaced every 4 years": the thing asked about
(``subject_words``) is the slot a follow-up fills with a new focus, and a best sentence
whose block does not name it while another block does is about the earlier focus, so the
reader declines (``off_subject``). In "What temperature are the ultra low freezers set
to?" the word after "what" names the answer's measure (a WordNet attribute noun,
``thesaurus.attribute_noun``), and the thing is the freezers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kbqa.core.readers.extractive.question_verbs import SUBJECT_PRONOUNS
from kbqa.core.retrieval.focus_en import content_runs, is_person_en, without_participle
from kbqa.core.retrieval.focus_zh import first_noun_phrase_zh
from kbqa.core.retrieval.tags_zh import PERSON_HEADS_ZH
from kbqa.core.text import bilingual
from kbqa.core.text.normalise import detect_language
from kbqa.core.text.procedures import asks_consequence
from kbqa.core.text.terms import jieba_words, terms
from kbqa.core.text.thesaurus import attribute_noun
from kbqa.core.types import Block


def subject_words(question: str) -> frozenset[str]:
    """The folded terms of the thing ``question`` asks about: in English its first run of
    content words without a closing participle ("monitors" of "How often are monitors
    replaced?"), in Chinese its first run of nouns (jieba tags: 笔记本电脑); empty when that
    is a group of people (``groups_named``' business) or the employer acting or its premises
    ("How long does the company keep old versions?", 周末能去公司加班吗？), the question asks
    for a consequence (its first words are the asking verb: "what happens if…") or has
    none."""
    if asks_consequence(question):
        # "What if I lose my laptop?": the condition's object is the thing it is about
        phrase = _condition_object_en(question) if detect_language(question) == "en" else ""
        return frozenset() if not phrase or is_person_en(phrase) else frozenset(terms(phrase))
    if detect_language(question) == "zh":
        phrase = first_noun_phrase_zh(question, things_only=True)
        person = bool(phrase) and (phrase[-1] in PERSON_HEADS_ZH or _person_zh(phrase)
                                   or phrase in _EMPLOYER_ZH)  # 去公司加班: its premises
    else:
        phrase = _asked_run_en(question)
        # "does the company keep…": the employer acting, as a pronoun would ("do you keep")
        person = bool(phrase) and (is_person_en(phrase) or phrase.lower() in _EMPLOYER_EN)
    return frozenset() if person else frozenset(terms(phrase))


# The asker's employer named as the actor of a question, as "we" or "you" would be.
_EMPLOYER_EN = frozenset({"company", "organisation", "organization", "employer", "firm"})
_EMPLOYER_ZH = frozenset({"公司", "单位"})


# Where an English question names the thing it asks about: after "what"/"which", or after
# "how" with its adverb ("how often") or "what"/"which" and an auxiliary ("How often are
# monitors replaced?", "How long is the trash folder kept?"); "Can administrators change…"
# and "What can I spend…" name an actor, not the asked thing. After "who"/"when"/"where"
# the words name the event the answer belongs to ("Who was the runner-up of the 2018 World
# Cup?", "When was Breath of the Wild released?"), which a sentence may state in other
# words than a block's title: those asks are left to the reader's binding checks
# (measured: RGB en_fact lost 3 right answers to this check when they were included).
_ASKED_AT_RE = re.compile(
    r"^\s*(?:(?:what|which)\s+|(?:how\s+\w+|what|which)\s+(?:are|is|do|does|"
    r"did|was|were|have|has|will|can|should)\s+)(?:(?:the|a|an|my|our|your)\s+)?",
    re.IGNORECASE)


# "What temperature are…", "Which colour is…": one word between the interrogative and an
# auxiliary, which ``_asked_run_en`` skips when it names a measure or property
_MEASURE_AT_RE = re.compile(
    r"^\s*(?:what|which)\s+([a-z]+)\s+(?:are|is|do|does|did|was|were|will|can|should)\s+"
    r"(?:(?:the|a|an|my|our|your)\s+)?", re.IGNORECASE)


def _condition_object_en(question: str) -> str:
    """The first content run of an English "what (happens) if…" condition that is not its
    verb (a single word right after the subject pronoun): "laptop" of "What if I lose my
    laptop?", "rate limit" of "What happens if we go over the rate limit?"; ""."""
    at = re.search(r"\bif\b", question, re.IGNORECASE)
    if not at:
        return ""
    for start, end in content_runs(question):
        if start < at.end():
            continue
        before = question[:start].split()
        subject = bool(before) and before[-1].lower() in _CONDITION_SUBJECTS
        if " " not in question[start:end] and subject:
            continue  # "lose" of "if I lose": the condition's verb
        return without_participle(question[start:end])
    return ""



_CONDITION_SUBJECTS = SUBJECT_PRONOUNS | {"it"}  # "if it breaks"


def _asked_run_en(question: str) -> str:
    """The content run where ``_ASKED_AT_RE`` (or, after a measure noun, ``_MEASURE_AT_RE``)
    ends, without a closing participle; ""."""
    at = _ASKED_AT_RE.match(question)
    measure = _MEASURE_AT_RE.match(question)
    if measure and attribute_noun(measure.group(1)):
        at = measure  # "What temperature are the freezers…": the answer's measure, then it
    run = next(((a, b) for a, b in content_runs(question) if at and a == at.end()), None)
    return without_participle(question[run[0]:run[1]]) if run else ""


def off_subject(question: str, best: int, blocks: Sequence[Block]) -> bool:
    """Whether the block numbered ``best`` (the best sentence's) holds none of the terms of
    the asked thing (``subject_words``; text, section or title) while another block holds
    them all: the sentence answers of something else, as the earlier question's focus. A
    block holding some of them ("systems" of "operating systems", "free trial" of "free
    trial last", where the run takes the verb) is about the thing. A block in the other
    language holds a Chinese word by every term of one of its glosses (病假 "sick leave")."""
    # A single Chinese character (``单`` of jieba's ``报销/单``) is a morpheme, no subject.
    wanted = frozenset(w for w in subject_words(question) if w.isascii() or len(w) > 1)
    if not wanted:
        return False
    held = {b.n: _held(wanted, _block_terms(b)) for b in blocks}
    return not held.get(best, wanted) and any(h == wanted for h in held.values())


def _held(wanted: frozenset[str], said: frozenset[str]) -> frozenset[str]:
    """The words of ``wanted`` that ``said`` (a block's terms) has, or has a Chinese one's
    whole CC-CEDICT gloss of."""
    return frozenset(w for w in wanted if w in said or not w.isascii() and any(
        gloss and set(gloss) <= said for gloss in bilingual.english_glosses(w)))


def _person_zh(phrase: str) -> bool:
    """Whether the last word of the Chinese ``phrase`` names people by its first CC-CEDICT
    gloss (``同事`` "colleague", ``经理`` "manager"), where its last character does not
    (``PERSON_HEADS_ZH``)."""
    words = jieba_words(phrase)
    glosses = bilingual.english_glosses(words[-1]) if words else ()
    return bool(glosses) and is_person_en(" ".join(glosses[0]))


def _block_terms(block: Block) -> frozenset[str]:
    return frozenset(terms(f"{block.chunk.title} {block.chunk.section} {block.chunk.text}"))
