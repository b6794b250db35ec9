"""English follow-ups: a fragment's part put in the slot of the same kind in the earlier
question, a name for a name, a qualifier for a qualifier, a group or kind for a group or
kind, the asker's own pronoun for a group (``focus_en`` finds the things; ``standalone``
decides which to call).
"""

from __future__ import annotations

import re

from kbqa.core.retrieval.ellipsis import (
    PREPOSITIONS,
    QUESTION_WORDS,
    anaphor_en,
    core,
    noun_phrase_en,
    strip_connector,
)
from kbqa.core.retrieval.focus_en import (
    DETERMINER_RE,
    RUN_WORD_RE,
    YEAR_RE,
    content_runs,
    head,
    is_compound_agent,
    is_person_en,
    singular,
)
from kbqa.core.text.normalise import detect_language

_EN_WORD_RE = re.compile(r"[A-Za-z]+")


def replace_name_en(noun: str, topic: str, preposition: str = "") -> str | None:
    """"London" after "…per night in Paris?", "Android" after "Which iOS version…?": a bare
    name (words with a capital, not all capitals: "New York" too) replaces the topic's
    name, first one after a preposition, else any name but the first word: the same
    question asked of it.
    With ``preposition`` ("on Enterprise" after "How much is the Business plan per seat?")
    only a name after that preposition or after none (a modifier: "the Business plan") is
    replaced, never one in another role ("for Rotterdam staff" is not "in London").
    None when ``noun`` is no name or the topic names nothing; an acronym (API, IT) is no
    sibling of a name."""
    noun = noun.strip()
    if not all(_is_name(w) for w in noun.split()) or not noun:
        return None
    # names of one or more words ("Paris", "New York"), each word a name; a sentence's first
    # word is capitalised as a sentence's ("…3 nights. My manager said…")
    names = [m for m in re.finditer(r"(?<=\s)[a-z]*[A-Z][A-Za-z]*(?:\s+[A-Z][A-Za-z]+)*", topic)
             if all(_is_name(w) for w in m.group().split())
             and not _SENTENCE_END_RE.search(topic[:m.start()])]
    after = [m for m in names if re.search(r"\b(?:in|at|for|to|from|on)\s+$", topic[:m.start()])]
    if preposition:
        # a place is one role whichever of these leads it: "going to Paris", "in London"
        same = _PLACE_PREPOSITIONS if preposition.lower() in _PLACE_PREPOSITIONS else {
            preposition.lower()}
        others = "|".join(sorted(set(PREPOSITIONS) - same))
        led = re.compile(rf"\b(?:{others})\s+$", re.IGNORECASE)
        names = [m for m in names if not led.search(topic[:m.start()])]
        after = [m for m in after if m in names]
    for m in after + names:
        if m.group() != noun:
            return f"{core(topic[:m.start()] + noun + topic[m.end():])}?"
    return None


_SENTENCE_END_RE = re.compile(r"[.!?]\s+$")
_PLACE_PREPOSITIONS = frozenset({"in", "at", "to"})


def _is_name(word: str) -> bool:
    return (len(word) > 1 and word.isalpha() and any(c.isupper() for c in word)
            and not word.isupper())


# A fragment's trailing place: "colleagues in Europe", "staff at New York".
_PLACED_RE = re.compile(r"(?P<rest>.+?)\s+(?P<at>in|at|from)\s+"
                        r"(?P<name>[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*)$")


def replace_qualifier_en(body: str, topic: str) -> str | None:
    """A prepositional fragment ("for part-timers", "in 2022", "about interns") as the
    topic with the part of the same kind replaced, or None when the topic has none:

    - a year replaces the topic's year, else is added ("How often are laptops replaced in
      2022?");
    - a phrase with the head of one of the topic's content phrases replaces it ("for
      part-timers" after "…do full-timers get?");
    - a hyphenated agent noun replaces the topic's modifier of the same head ("part-timers"
      after "…do full-time employees get?" -> "part-time employees", the documents' form);
    - a group of people replaces the topic's group of people ("for interns" after "…do
      employees get?"), never narrowing it to both;
    - a phrase replaces the topic's phrase after the same preposition ("in London" after
      "…per night in Paris?");
    - a phrase ending in a place ("for colleagues in Europe") moves the topic to that place
      (its name replaced) and keeps the rest as a qualifier (", for colleagues").
    """
    words = body.split()
    if len(words) < 2 or words[0].lower() not in PREPOSITIONS:
        return None
    noun = DETERMINER_RE.sub("", " ".join(words[1:]))
    placed = _PLACED_RE.match(noun)
    if placed:  # "for colleagues in Europe" after "…per person in Chengdu?": the place moves
        moved = replace_name_en(placed["name"], topic, placed["at"].lower())
        if moved:
            return f"{core(moved)}, {words[0].lower()} {placed['rest']}?"
    for a, b in content_runs(topic):
        if head(topic[a:b]) == head(noun) and topic[a:b].lower() != noun.lower():
            if not YEAR_RE.fullmatch(noun.strip()):
                return f"{core(topic[:a] + noun + topic[b:])}?"
    return replace_kind_en(noun, topic) or _replace_after(words[0], noun, topic)


def _replace_after(preposition: str, noun: str, topic: str) -> str | None:
    """"in London" after "…per night in Paris?": the phrase the topic introduces with the
    same preposition is replaced."""
    m = re.search(rf"\b{re.escape(preposition)}\s+(?:(?:the|a|an)\s+)?", topic, re.IGNORECASE)
    if not m:
        return None
    run = next(((a, b) for a, b in content_runs(topic) if a == m.end()), None)
    if run is None or topic[run[0]:run[1]].lower() == noun.lower():
        return None
    return f"{core(topic[:run[0]] + noun + topic[run[1]:])}?"


def replace_kind_en(noun: str, topic: str) -> str | None:
    """``noun`` (a year, a hyphenated agent noun, a group of people) in place of the
    topic's part of the same kind (see ``replace_qualifier_en``); a year is added when the
    topic has none; None when ``noun`` is of none of these kinds or the topic lacks it."""
    noun = DETERMINER_RE.sub("", noun.strip())
    if YEAR_RE.fullmatch(noun):
        year = YEAR_RE.search(topic)
        if year:
            return f"{core(topic[:year.start()] + noun + topic[year.end():])}?"
        return f"{core(topic)} in {noun}?"
    return _replace_compound(noun, topic) or _replace_group(noun, topic, content_runs(topic))


def _replace_compound(noun: str, topic: str) -> str | None:
    """"part-timers" after a topic with "full-time": the compound's base ("part-time")
    replaces the topic's hyphenated word with the same last part."""
    agent = singular(noun.lower())
    if " " in noun or not is_compound_agent(agent):
        return None
    for base in (agent[:-1], agent[:-2]):  # part-time+r, co-work+er
        for word in re.finditer(r"[A-Za-z]+-[A-Za-z]+", topic):
            if head(word.group()) == head(base) and word.group().lower() != base:
                return f"{core(topic[:word.start()] + base + topic[word.end():])}?"
    return None


def _replace_group(noun: str, topic: str, runs: list[tuple[int, int]]) -> str | None:
    """The topic's group of people, with the words before it in its run ("full-time
    employees"; "contractors" of the run "contractors use"), replaced by ``noun``; without
    one, the asker's own pronoun (``_replace_asker``: "do we get" -> "do contractors get"),
    never the group added beside it ("…do we get, for contractors?")."""
    if not is_person_en(noun):
        return None
    for a, b in runs:
        for word in RUN_WORD_RE.finditer(topic, a, b):
            if is_person_en(word.group()):
                return f"{core(topic[:a] + noun + topic[word.end():])}?"
    return _replace_asker(noun, topic)


# The asker's personal pronouns (English's closed class of first and second person forms):
# as subject after an auxiliary or at the start ("do we get", "Can I borrow"), as object
# after a preposition ("for us"). "they"/"he"/"she" point at someone named before.
_ASKER_SUBJECTS_EN = frozenset("i we you".split())
_ASKER_OBJECTS_EN = frozenset("me us you".split())
# "am I" / "was I" agree with a plural group as "are" / "were".
_PLURAL_BE_EN = {"am": "are", "was": "were"}
_BEFORE_SUBJECT_EN = QUESTION_WORDS | frozenset(("am", "was", "were", "have", "has"))


def _replace_asker(noun: str, topic: str) -> str | None:
    """The topic with the asker's pronoun (module note above ``_ASKER_SUBJECTS_EN``)
    replaced by the group ``noun``: the group asks the same question of itself. None when
    the topic has no such pronoun."""
    words = list(_EN_WORD_RE.finditer(topic))
    for i, m in enumerate(words):
        word, before = m.group().lower(), words[i - 1].group().lower() if i else ""
        subject = word in _ASKER_SUBJECTS_EN and (not before or before in _BEFORE_SUBJECT_EN)
        if not (subject or (word in _ASKER_OBJECTS_EN and before in PREPOSITIONS)):
            continue
        start = m.start()
        if subject and before in _PLURAL_BE_EN:
            be = words[i - 1]
            plural = _PLURAL_BE_EN[before]
            plural = plural.capitalize() if be.group()[0].isupper() else plural
            topic, start = topic[:be.start()] + plural + topic[be.end():], start + 1
        return f"{core(topic[:start] + noun + topic[start + len(m.group()):])}?"
    return None


# The interrogative phrase opening a question for a quantity or a time ("How long", "How
# many days", "When"): what it asks for, whatever it asks it of. "Who can restore…?" is not
# among them: its verb says what is asked ("Who for old versions?" would ask nothing).
_ASKING_RE = re.compile(r"^\s*(how (?:long|much|many(?: [a-z]+)?|often|far|soon)|when)\b",
                        re.IGNORECASE)


def asked_of_en(body: str, topic: str) -> str | None:
    """"old versions of a doc" after "how long does deleted stuff hang around in the recycle
    bin?" -> "How long for old versions of a doc?": a noun phrase (``body``, the caller
    checked ``noun_phrase_en``) no slot of the earlier question takes gets its
    interrogative phrase only, not the words that name the earlier thing. None for a topic
    opening otherwise."""
    found = _ASKING_RE.match(topic)
    if not found:
        return None
    asking = found.group(1)
    return f"{asking[:1].upper()}{asking[1:]} for {body.strip()}?"


def names_thing_alone(question: str) -> bool:
    """Whether English ``question`` is a noun phrase after its connector ("what about the
    home office allowance?"), not a group of people ("and for admins?" narrows the topic)."""
    rest = core(strip_connector(question)[0])
    return detect_language(rest) == "en" and noun_phrase_en(rest) and not is_person_en(rest)


def asks_with_anaphor(question: str) -> bool:
    """Whether English ``question`` is a whole question of its own (a question word or
    auxiliary first, after any connector) with a pronoun for the earlier topic ("And how
    much storage does each user get with that?")."""
    rest, _ = strip_connector(question)
    words = _EN_WORD_RE.findall(rest)
    return (detect_language(rest) == "en" and len(words) > 3
            and words[0].lower() in QUESTION_WORDS and anaphor_en(rest) is not None)
