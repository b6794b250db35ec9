"""English follow-ups: which part of the earlier question a fragment replaces.

A follow-up fragment ("and for part-timers?", "and in 2022?", "what about version
history?") asks the earlier question again with one part exchanged, never about both. The
part is found by kind, not by phrase: a thing of the same head word or the question's first
noun phrase (``parallel_en``), a group of people for a group of people, a year for a year
(``slots_en.replace_qualifier_en``), a name for a name (``slots_en.replace_name_en``).
``standalone`` decides when to call them; ``focus_zh`` does the same for Chinese.
"""

from __future__ import annotations

import re

from kbqa.core.retrieval.ellipsis import GENERIC, NP_GLUE_EN, PREPOSITIONS, QUESTION_WORDS, core
from kbqa.core.text import thesaurus
from kbqa.core.text.phrases import phrasal_verb
from kbqa.core.text.terms import acronym_starts, is_question_word, is_stop_en

_EN_WORD_RE = re.compile(r"[A-Za-z]+")
RUN_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'-]*")
DETERMINER_RE = re.compile(r"^(?:the|a|an|my|our|your|their|all)\s+", re.IGNORECASE)
YEAR_RE = re.compile(r"\b(?:19|20)\d\d\b")

# Heads of nouns naming a group of people, the English counterpart of focus_zh's
# PERSON_HEADS_ZH: collective and common role nouns, plus the agent suffixes -ee, -ist, -ian
# (employee, specialist, librarian). "-er" is left out on purpose (folder, server, number),
# except in a hyphenated compound ("part-timer", "co-worker"), which names a person.
PERSON_NOUNS_EN = frozenset(
    """people person staff folk team member user admin administrator intern hire newcomer
    colleague worker contractor manager guest visitor customer client student temp
    freelancer consultant owner editor viewer developer engineer partner""".split()
)
_PERSON_SUFFIX_RE = re.compile(r"(?:ee|ist|ian)$")
_COMPOUND_AGENT_RE = re.compile(r"^[a-z]+-([a-z]+(?:er|or))$")


def is_compound_agent(word: str) -> bool:
    """Whether lower-case ``word`` is a hyphenated agent noun ("part-timer", "co-worker"):
    its last part ends in -er/-or and is no function word ("carried-over days" names no
    one; stopwords-iso's English, ``terms.is_question_word``)."""
    match = _COMPOUND_AGENT_RE.match(word)
    return match is not None and not is_question_word(match.group(1))


def content_runs(text: str) -> list[tuple[int, int]]:
    """(start, end) of each run of content words in ``text`` (no stop, question or frame
    word or punctuation between them): "How many days of annual leave do full-timers get?"
    -> days, annual leave, full-timers. The run right after "who" is its verb, no content:
    "Who signs off on my expense claims?" -> expense claims."""
    skip = GENERIC | QUESTION_WORDS
    acronyms = acronym_starts(text)  # "IT" of "and what about IT?" is a content word
    runs: list[tuple[int, int]] = []
    joined, previous, predicate = False, "", False
    for m in RUN_WORD_RE.finditer(text):
        word = re.sub(r"'s$", "", m.group())  # "What's" is "what"
        acronym = m.start() in acronyms and word == m.group()
        # The word after "how" is the question's ("how often", "how long", "how big"): the
        # pronoun of "Does it apply to contractors?" stood for "the often".
        after_how, previous = previous == "how", word.lower()
        if is_stop_en(word, acronym) or (not acronym and word.lower() in skip) or after_how:
            joined, predicate = False, previous == "who"
            continue
        if predicate:  # the run after "who" is its verb ("Who signs off on my claims?")
            continue
        if joined and not text[runs[-1][1]:m.start()].strip():
            runs[-1] = (runs[-1][0], m.end())
        else:
            runs.append((m.start(), m.end()))
        joined = True
    return runs


def head(phrase: str) -> str:
    """The head of an English phrase: its last word, or the last part of a hyphenated one
    ("timers" of "full-timers", "leave" of "sick leave")."""
    return re.split(r"[\s-]+", phrase.strip().lower())[-1]


def singular(word: str) -> str:
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def same_kind_en(word: str, relative: str) -> bool:
    """Whether a thesaurus ``relative`` of English ``word`` may stand for it: a word naming
    people only by another naming people ("contractor" is not "contract", though WordNet
    relates them by derivation; "freelancer" may be "self-employed person")."""
    return not is_person_en(word) or is_person_en(relative)


def is_person_en(phrase: str) -> bool:
    """True when ``phrase`` names people by its last word: "full-time employees",
    "interns", "part-timers", "the Chengdu folks" (see ``PERSON_NOUNS_EN``)."""
    words = phrase.strip().lower().split()
    if not words:
        return False
    last = singular(words[-1])
    if is_compound_agent(last):
        return True
    part = singular(head(last))
    return part in PERSON_NOUNS_EN or (len(part) > 4 and bool(_PERSON_SUFFIX_RE.search(part)))


def parallel_en(body: str, topic: str) -> str | None:
    """"annual leave" after "How many days of sick leave…?" -> the topic with its focus
    replaced: a follow-up naming another thing asks the same question of it, never of both.
    The focus is the topic's content phrase with the same head word, else its first phrase
    of two or more words (the thing asked about comes first: "recycle bin" of "How long does
    the recycle bin keep deleted files?")."""
    words = _EN_WORD_RE.findall(body)
    # one word counts when it is a common plural noun ("and monitors?"), never a name
    # ("what about London?" narrows by place) nor a group of people
    single = (len(words) == 1 and words[0].islower() and singular(words[0]) != words[0]
              and not is_person_en(words[0]) and words[0] not in GENERIC
              and not is_stop_en(words[0], False) and not words[0].endswith(("ss", "is", "us")))
    if not (1 < len(words) <= 3 or single) or words[0].lower() in PREPOSITIONS | QUESTION_WORDS:
        return None
    if len(words) > 1 and all(w[:1].isupper() for w in words):
        return None  # a name of several words ("New York") narrows like one word, no thing
    every = content_runs(topic)
    runs = [(a, b) for a, b in every if " " in topic[a:b] and topic[a:b].lower() != body.lower()]
    last = words[-1].lower()
    same = [span for span in (_through_head(topic, r, last) for r in runs) if span]
    of = _of_phrase(topic, every, last)
    if of:  # "sick days" for "days of annual leave": the modifier's slot, not half of it
        return _into_of_phrase(body, topic, of)
    asked = _asked_thing(topic, every)
    determined = None if same or runs or asked else _determined_thing(topic, every)
    if determined:  # "How much can I spend on a hotel?": the thing it names
        return _into_determined(body, topic, determined)
    if not same and asked:  # "What laptop will I get…?": the thing asked about
        runs = [asked]
    things = _noun_words(topic, every) if single and not same else []
    if things and not asked:  # "and monitors?" after "How often do laptops get swapped
        runs = things[:1]  # out?": the noun, not the verb phrase "swapped out"
    if not (same or runs):
        return None
    start, end = (same or runs)[0]
    noun = DETERMINER_RE.sub('', body)
    if not same:  # another kind of thing: keep the frame's verb, agree with the new noun
        end = start + len(without_participle(topic[start:end]))
        return _agreeing(topic[:start], noun, topic[end:])
    return f"{core(topic[:start] + noun + topic[end:])}?"


# English has no tagger here: a word right after "to" or a modal or auxiliary ("need to
# fetch", "can I keep reusing", "will it go", "How much can I claim for a hotel?") is a
# verb, whatever WordNet reads first. After "do"/"does"/"did" a verb follows only a pronoun
# or "not" ("do you get"); a noun right after it is the subject ("do interns get"). On
# lower-case text; the word is group 1.
VERB_AFTER_RE = re.compile(
    r"\b(?:(?:to|can|could|will|would|should|must|may|might)"
    r"(?: (?:i|we|you|they|he|she|it|not))?"
    r"|(?:do|does|did) (?:i|we|you|they|he|she|it|not)) ([a-z]+)")


def _noun_words(topic: str, every: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The one-word content runs of ``topic`` that WordNet reads as nouns first
    (``thesaurus.mostly_noun``: "laptops", not "swapped"), in order; none in a verb's
    slot ("claim" of "can I claim")."""
    slots = {m.start(1) for m in VERB_AFTER_RE.finditer(topic.lower())}
    return [(a, b) for a, b in every
            if " " not in topic[a:b] and topic[a:b].islower() and thesaurus.mostly_noun(topic[a:b])
            and a not in slots]


def _through_head(topic: str, run: tuple[int, int], last: str) -> tuple[int, int] | None:
    """The part of ``run`` up to and including its word ``last`` (the new noun's head),
    without the verbs that open it: "Starter plan" of the run "Starter plan include per
    user" for "Business plan", "unused vacation days" of "carry unused vacation days" for
    "sick days"; None when the run has no such word."""
    start = run[0]
    for m in _EN_WORD_RE.finditer(topic, run[0], run[1]):
        word = m.group().lower()
        if word == last:
            return start, m.end()
        if start == m.start() and _verb_only(word):
            start = m.end() + 1  # "carry" of "carry unused vacation days": the act stays
    return None


def _verb_only(word: str) -> bool:
    """Whether WordNet reads ``word`` as a verb, rather not as a noun and never as an
    adjective ("carry", not "unused", "book" or "sick")."""
    return (bool(thesaurus.morphy(word, "verb")) and not thesaurus.morphy(word, "adj")
            and not thesaurus.mostly_noun(word))


# Auxiliaries that agree with their subject's number ("are laptops", "is the parking fee").
_AGREEMENT_EN = {"are": "is", "is": "are", "do": "does", "does": "do", "have": "has",
                 "has": "have"}
_PLURAL_AUX = frozenset("are do have".split())


def _agreeing(before: str, noun: str, after: str) -> str:
    """``before + noun + after`` as a question whose auxiliary agrees with ``noun`` ("How
    often are laptops replaced?" with "parking fee" -> "How often is the parking fee
    replaced?"): a singular noun (head not ending in -s) takes "is"/"does"/"has" and "the",
    a plural one "are"/"do"/"have"; an auxiliary right before the noun is changed."""
    plural = singular(head(noun)) != head(noun)
    bare = re.sub(r"\b(?:the|a|an)\s+$", "", before, flags=re.IGNORECASE)
    m = re.search(r"\b([A-Za-z]+)\s+$", bare)
    if m and m.group(1).lower() in _AGREEMENT_EN:
        aux = m.group(1)
        if (aux.lower() in _PLURAL_AUX) != plural:
            swapped = _AGREEMENT_EN[aux.lower()]
            aux = swapped.capitalize() if aux[0].isupper() else swapped
        before = bare[:m.start(1)] + aux + bare[m.end(1):]
        noun = noun if plural or noun[:1].isupper() else f"the {noun}"
    elif plural:  # "claim for a hotel" -> "claim for meals", never "a meals"
        before = re.sub(r"\b(?:a|an)\s+$", "", before, flags=re.IGNORECASE)
    return f"{core(before + noun + after)}?"


# Irregular past participles common in questions; regular ones end in "-ed".
_PARTICIPLES_EN = frozenset(
    "kept paid sent given taken done made held left set put shown seen known built".split()
)


def without_participle(phrase: str) -> str:
    """``phrase`` without the passive participle that closes a question ("laptops replaced"
    of "How often are laptops replaced?", "files kept"): the pronoun of a follow-up stands
    for the things, not for what is done to them. One-word phrases are kept."""
    words = phrase.split()
    while len(words) > 1 and (
        words[-1].lower().endswith("ed") or words[-1].lower() in _PARTICIPLES_EN
    ):
        words.pop()
    return " ".join(words) if len(words) < len(phrase.split()) else phrase


def _of_phrase(topic: str, runs: list[tuple[int, int]], last: str) -> tuple[int, int] | None:
    """The span of "X of Y" in ``topic`` whose X is the single word ``last`` ("days of
    annual leave" for "sick days"); None without one."""
    for (a, b), (c, d) in zip(runs, runs[1:], strict=False):
        if topic[a:b].lower() == last and topic[b:c].strip().lower() == "of":
            return a, d
    return None


def _into_of_phrase(body: str, topic: str, of: tuple[int, int]) -> str:
    """"sick days" in place of "days of paid vacation": a compound whose head is the unit
    of an "X of Y" phrase is a complete noun phrase of its own and replaces the whole
    phrase ("How many sick days…?"); spliced into Y ("days of sick vacation") it kept the
    old focus's head and asked of both. Only when the compound's modifier and Y's head make
    a name WordNet lists ("sick leave" after "days of annual leave") does the modifier take
    the place of Y's modifiers, the form in which the documents name each kind ("10 days of
    fully paid sick leave")."""
    a, d = of
    words = DETERMINER_RE.sub("", body).split()
    after = topic[a:d].split(" of ", 1)[1].split()
    named = "_".join([*words[:-1], after[-1]]).lower()
    if len(words) > 1 and len(after) > 1 and thesaurus.morphy(named, "noun"):
        phrase = f"{words[-1]} of {' '.join(words[:-1])} {after[-1]}"
        return f"{core(topic[:a] + phrase + topic[d:])}?"
    return f"{core(topic[:a] + ' '.join(words) + topic[d:])}?"


_ASKING_DETERMINERS = frozenset(("what", "which"))


def _asked_thing(topic: str, runs: list[tuple[int, int]]) -> tuple[int, int] | None:
    """The content run right after an opening "what"/"which" ("laptop" of "What laptop will
    I get on my first day?"): the thing the question asks about, whatever its length;
    None without one."""
    first = re.match(r"\s*([A-Za-z]+)\s+", topic)
    if not first or first.group(1).lower() not in _ASKING_DETERMINERS:
        return None
    return next(((a, b) for a, b in runs if a == first.end()), None)


def _determined_thing(topic: str, runs: list[tuple[int, int]]) -> tuple[int, int, int] | None:
    """(determiner start, run start, run end) of the first content run right after a
    determiner ("a hotel" of "How much can I spend on a hotel?"): with no phrase of two
    words, the thing the question names; None without."""
    for a, b in runs:
        found = re.search(r"\b(?:the|a|an|my|our|your)\s+$", topic[:a], re.IGNORECASE)
        if found:
            return found.start(), a, b
    return None


def _into_determined(body: str, topic: str, spans: tuple[int, int, int]) -> str:
    """The topic with its determined thing replaced by ``body``'s noun: with the noun's own
    determiner ("and a train ticket?"), none for a plural ("what about meals?": "spend on
    meals"), else the topic's ("and PIN?": "reset my PIN")."""
    det, start, end = spans
    noun = DETERMINER_RE.sub("", body)
    if noun != body or singular(head(noun)) != head(noun):
        return _agreeing(topic[:det], body if noun != body else noun, topic[end:])
    return _agreeing(topic[:start], noun, topic[end:])


def focus_phrase_en(topic: str) -> str:
    """The topic's first noun phrase: content runs joined by ``NP_GLUE_EN`` words ("rate
    limit on the open API" of "What's the rate limit on the open API?"); "" without one."""
    runs = content_runs(topic)
    if not runs:
        return ""
    # the first run naming a thing ("unused days" of "can I carry over unused days?", not
    # the verb "carry"): two words or more, or one WordNet reads rather as a noun; else the
    # first run
    things = [r for r in runs if _names_thing(without_participle(topic[r[0]:r[1]]))]
    runs = runs[runs.index(things[0]):] if things else runs
    start, end = runs[0]
    phrase = without_participle(topic[start:end])
    for a, b in runs[1:]:
        between = topic[end:a].split()
        if not between or any(w.lower() not in NP_GLUE_EN for w in between):
            break
        # "deleted files kept in the recycle bin": the participle inside goes too
        phrase, end = f"{phrase}{topic[end:a]}{topic[a:b]}", b
    return _without_verb(without_participle(phrase))


def _without_verb(phrase: str) -> str:
    """``phrase`` without a closing verb WordNet lacks but reads with "re-" off ("guests
    reshare" of "Can guests reshare my files?": the subject, not its act; "reupload",
    "resubmit"); one-word phrases are kept."""
    words = phrase.split()
    last = words[-1].lower() if words else ""
    if (len(words) > 1 and last.startswith("re") and not thesaurus.known_word(last)
            and _verb_only(last[2:])):
        return " ".join(words[:-1])
    return phrase


_PARTICLES = frozenset("up out off in on away back down over".split())


def _names_thing(run: str) -> bool:
    """Whether ``run`` names a thing: two words or more that are no phrasal verb ("pick
    up" of "Where do I pick up my access badge?" is the act; "access badge" the thing) and
    hold no preposition inside ("wait before filing"), or one WordNet reads rather as a
    noun."""
    words = _EN_WORD_RE.findall(run)
    if len(words) == 2 and words[1].lower() in _PARTICLES and phrasal_verb(*words):
        return False
    # "wait before filing" (of "how long can I wait before filing my expense claim?"): an
    # act and its time, a preposition inside, no thing
    if any(w.lower() in PREPOSITIONS for w in words[1:-1]):
        return False
    return len(words) > 1 or (bool(words) and thesaurus.rather_noun(words[0]))
