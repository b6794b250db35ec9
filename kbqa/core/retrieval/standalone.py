"""The standalone query: a follow-up rewritten so retrieval understands it on its own.

``standalone_query`` asks the provider's fast model (``build_rewrite_prompt``) when the
provider can rewrite and there is history; otherwise, or when that fails or returns nothing,
``rewrite_deterministic`` combines a follow-up ("and for admins?", "那管理员呢？") with the
previous USER question. Assistant answers never enter the query: they are not evidence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kbqa.core.errors import ProviderError
from kbqa.core.generation.calls import FAST_DEADLINES, Deadlines, call_model
from kbqa.core.generation.prompt import build_rewrite_prompt
from kbqa.core.providers.base import Provider
from kbqa.core.records import TraceRecorder
from kbqa.core.retrieval.bare_verb import objectless_verb
from kbqa.core.retrieval.ellipsis import (
    NOUN_TAG_PREFIXES,
    PREPOSITIONS,
    PRONOUNS_ZH,
    QUESTION_WORDS,
    anaphor_en,
    asks_measure_only_en,
    content_words,
    core,
    is_follow_up,
    noun_phrase_en,
    of_the_rest_en,
    strip_connector,
    topic_words,
    with_topic,
)
from kbqa.core.retrieval.focus_en import (
    content_runs,
    focus_phrase_en,
    is_person_en,
    parallel_en,
)
from kbqa.core.retrieval.focus_zh import (
    TRAILING_PARTICLE_ZH_RE,
    combine_zh,
    group_span_zh,
    is_verb_object_zh,
    parallel_zh,
    subject_zh,
    thing_focus_zh,
)
from kbqa.core.retrieval.follow_up_forms import as_asked_about
from kbqa.core.retrieval.follow_up_language import fragment_in
from kbqa.core.retrieval.places_zh import new_time_zh
from kbqa.core.retrieval.slots_en import (
    asked_of_en,
    asks_with_anaphor,
    names_thing_alone,
    replace_kind_en,
    replace_name_en,
    replace_qualifier_en,
)
from kbqa.core.retrieval.tags_zh import PERSON_HEADS_ZH
from kbqa.core.retrieval.tail_zh import asks_of_elided_subject_zh
from kbqa.core.text.normalise import detect_language
from kbqa.core.text.places import offices, places_named
from kbqa.core.text.terms import terms
from kbqa.core.types import Turn

_EN_WORD_RE = re.compile(r"[A-Za-z]+")


def _replace_focus_en(body: str, topic: str) -> str | None:
    """The topic with the part ``body`` names replaced (``_replace_in``), in its ask (the
    last sentence; before it, the asker's story: ``_STORY_RE``) when that holds such a part:
    "what about meals?" after "…, 3 nights. … per night on the hotel?" replaces the hotel."""
    story = _STORY_RE.match(topic)
    asked = _replace_in(body, topic[story.end():]) if story else None
    return topic[:story.end()] + asked if story and asked else _replace_in(body, topic)


_STORY_RE = re.compile(r".*[.!?]\s+(?=\S)", re.DOTALL)


def _replace_in(body: str, topic: str) -> str | None:
    """The topic with the part ``body`` names replaced (``focus_en``); a bare noun and
    "about X" name a new focus as "for X" does when X is of a kind the topic holds (a group,
    a year), else as a new thing."""
    about = re.match(r"about\s+", body, flags=re.IGNORECASE)
    bare = body.split()[0].lower() not in PREPOSITIONS if body.split() else False
    # "what about interns?", "and part-timers?", "and 2022?": a bare group or year is
    # the fragment "for interns", "in 2022"
    words = body.split()
    if bare and words[0].lower() in QUESTION_WORDS and not about:
        return None  # "can they be owners": a question of its own, no noun to put in place
    # "and on Enterprise?": a name after a preposition replaces the topic's name as a bare
    # one does, when it stands in the same role (``replace_name_en``'s ``preposition``)
    led_name = (replace_name_en(words[1], topic, words[0].lower())
                if not bare and len(words) == 2 else None)
    return (led_name
            or (replace_kind_en(body, topic) if bare else replace_qualifier_en(body, topic))
            or (replace_name_en(body, topic) if bare else None)
            or parallel_en(body, topic)
            or (parallel_en(body[about.end():], topic) if about else None))


# "what if …", "if …": a condition and nothing else ("what happens if…" asks a relation)
_NAMED_CONDITION_RE = re.compile(r"^(?:what\s+)?if\s+(.+)$", re.IGNORECASE)


def _is_name_en(word: str) -> bool:
    """A name: a word with a capital, not all capitals and not "I" (``focus_en``'s test)."""
    return len(word) > 1 and word[0].isupper() and not word.isupper()


def _combine_en(rest: str, topic: str) -> str:
    body = core(rest)
    if asks_measure_only_en(body) or of_the_rest_en(body):  # of the topic's thing, carried
        return _focus_carried(body, topic)
    parallel = _replace_focus_en(body, topic)
    if parallel:
        return parallel
    first = (_EN_WORD_RE.findall(body) or [""])[0].lower()
    replaced = _replace_pronoun_en(body, topic)
    if replaced:
        return replaced
    named = _NAMED_CONDITION_RE.match(body)
    if named and any(_is_name_en(w) for w in _EN_WORD_RE.findall(named.group(1))):
        # "what if I'm in Zurich?": the earlier question asked under a condition naming a
        # place or product, as "and in Zurich?" asks it; no relation of its own to ask
        return f"{core(topic)}, if {named.group(1)}?"
    if first in QUESTION_WORDS or first == "if":
        # "what happens if we go over?": the condition is on the topic's noun phrase
        return _focus_carried(body, topic)
    if first in PREPOSITIONS:
        return f"{core(topic)} {body}?"
    if noun_phrase_en(body):  # "and the meal allowance per day?": its own question
        return asked_of_en(body, topic) or f"{body[:1].upper()}{body[1:]}?"
    return f"{core(topic)}, for {body}?"


def _focus_carried(body: str, topic: str) -> str:
    """``body`` with the topic's noun phrase (else its words ``body`` lacks) carried in
    parentheses: "What's the maximum (items per page)?"."""
    focus = focus_phrase_en(topic)
    extra = [focus] if focus else topic_words(topic, body)
    return with_topic(body[:1].upper() + body[1:] if extra else body, extra, zh=False)


def _replace_pronoun_en(body: str, topic: str) -> str | None:
    """"how often do they get swapped out?" after "What laptop will I get…?" -> "How often
    do the laptop get swapped out?": the pronoun stands for the topic's noun phrase, not for
    its whole question (the follow-up asks its own); "its"/"their" become "the …'s"."""
    focus = focus_phrase_en(topic)
    found = anaphor_en(body)
    if not focus or found is None:
        return None
    if found.group() == body.strip():  # "what about that?": the earlier question again
        return f"{core(topic)}?"
    owner = found.group().lower() in ("its", "their")
    phrase = f"the {focus}'s" if owner else f"the {focus}"
    after = body[found.end():]
    if not owner and re.match(r"['’]s\b", after):  # "if it's a big one": "it is"
        after = " is" + after[2:]
    text = body[:found.start()] + phrase + after
    # the office the earlier question was about still is ("…in the Suzhou office?", then
    # "and if I lose it, what does a replacement cost?"), unless this one names a place
    named = [written for place, written in offices(topic) if place.isascii()]
    extra = named[:1] if not places_named(body) else []
    return with_topic(f"{text[:1].upper()}{text[1:]}", extra, zh=False)


def _combine_across(rest: str, topic: str) -> str:
    """A follow-up in another language than its topic ("那管理员呢？" after an English
    question): a bare noun CC-CEDICT translates is asked in the topic's language
    (``follow_up_language``: "那病假呢？" -> "and what about sick leave?", then the topic's
    focus is replaced as in one language); otherwise the topic's content words follow in
    their own language; the index holds both languages, and the answer language follows
    the question."""
    translated = fragment_in(detect_language(topic), rest, topic)
    if translated:
        return _rewrite_one(translated, topic)
    body = core(rest)
    extra = topic_words(topic, body)
    if _names_another_thing(body):
        # "那病假呢？" after "How many days of annual leave…?": the new noun replaces the
        # topic's focus, which cannot be found across languages; keep only the frame
        # (content words outside the topic's noun phrases) so the old focus is not asked.
        extra = [w for w in extra if w not in _noun_phrase_words(topic)]
    elif _names_group(body):
        # "那实习生呢？" after "How many days of sick leave do employees get?": the new group
        # replaces the topic's group, so the old group's words are not searched.
        extra = [w for w in extra if w not in _group_words(topic)]
    if detect_language(body) == "zh":
        body = TRAILING_PARTICLE_ZH_RE.sub("", body)
    return with_topic(body[:1].upper() + body[1:], extra, zh=False)


def _names_another_thing(body: str) -> bool:
    """"那病假呢？", "what about sick leave?": a bare noun that is not a group of people."""
    if detect_language(body) == "zh":
        noun = TRAILING_PARTICLE_ZH_RE.sub("", body)
        return (body.endswith("呢") and bool(noun) and noun[-1] not in PERSON_HEADS_ZH
                and not is_verb_object_zh(noun))
    words = _EN_WORD_RE.findall(body)
    return bool(words) and words[0].lower() not in PREPOSITIONS | QUESTION_WORDS


def _names_group(body: str) -> bool:
    """"那实习生呢？", "and for interns?": a group of people (``PERSON_HEADS_ZH``,
    ``is_person_en``)."""
    if detect_language(body) == "zh":
        noun = TRAILING_PARTICLE_ZH_RE.sub("", body)
        return bool(noun) and noun[-1] in PERSON_HEADS_ZH
    words = body.split()
    return len(words) > 1 and words[0].lower() in PREPOSITIONS and is_person_en(body)


def _group_words(topic: str) -> set[str]:
    """Words of the topic's group of people ("full-time employees", 全职员工)."""
    if detect_language(topic) == "en":
        runs = [topic[a:b] for a, b in content_runs(topic)]
        return {w for r in runs if is_person_en(r) for w in _EN_WORD_RE.findall(r)}
    group = group_span_zh(topic)
    return set(content_words(topic[group[0]:group[1]])) if group else set()


def _noun_phrase_words(topic: str) -> set[str]:
    """Words of the topic's noun phrases: English runs of two or more content words,
    Chinese words jieba tags as nouns."""
    if detect_language(topic) == "en":
        runs = [topic[a:b] for a, b in content_runs(topic)]
        return {w for r in runs if " " in r for w in _EN_WORD_RE.findall(r)}
    import jieba.posseg

    return {p.word for p in jieba.posseg.cut(topic) if p.flag.startswith(NOUN_TAG_PREFIXES)}


def rewrite_deterministic(question: str, history: Sequence[Turn]) -> str:
    """One standalone question for ``question`` given earlier turns (offline, no model).

    The earlier user questions are folded in order: each follow-up is rewritten against
    the standalone form of the turns before it, so a chain of three turns ("How many days
    of annual leave?", "and sick leave?", "and for part-timers?") keeps the latest focus.
    Any other question is returned with a leading connector removed. Assistant turns are
    never used.
    """
    question = as_asked_about(question)
    topic, refused = "", False
    for typed, uncovered in _typed_questions(history):
        earlier = as_asked_about(typed)
        if not topic or not _leans_back(earlier, topic):
            topic, refused = _rewrite_one(earlier, ""), uncovered
        elif not uncovered:
            refused = False
            # Only a new focus moves the topic on; "and for admins?" then "what about
            # guests?" asks the first question of guests, not of admins and guests. A
            # follow-up the documents did not cover leaves it too: after "and monitors?"
            # was refused, "and in 2022?" asks of the laptops the user last had answered.
            topic = _replace_focus(earlier, topic) or _new_topic(earlier, topic) or topic
    if refused and _leans_back(question, topic) and not _replace_focus(question, topic):
        # The topic was refused for want of evidence and the follow-up names nothing new
        # ("what if I don't use them all?" after "how many vacation days…?"): its words are
        # carried in parentheses, where the reader holds them to the blocks (a word no block
        # has is the topic the documents lack), not worked into the question.
        return _carried(question, topic)
    return _rewrite_one(question, topic)


def _carried(question: str, topic: str) -> str:
    """``question`` with ``topic``'s words it lacks in closing parentheses."""
    body = core(strip_connector(question)[0])
    zh = detect_language(body) == "zh"
    return with_topic(body if zh else body[:1].upper() + body[1:], topic_words(topic, body), zh)


def _new_topic(earlier: str, topic: str) -> str:
    """``earlier`` rewritten against ``topic`` when it is a new topic, else "": a question
    pointing back ("and how much storage does each user get with that?"), a thing named
    alone that fits no slot ("what about the home office allowance?"), or an ask of the
    elided subject the rewrite puts in front (笔记本电脑坏了怎么办？, not in parentheses)."""
    own = asks_with_anaphor(earlier) or names_thing_alone(earlier)
    new = _rewrite_one(earlier, topic) if own or asks_of_elided_subject_zh(earlier) else ""
    return new if own or "（" not in new else ""


def _leans_back(question: str, previous: str = "") -> bool:
    """Whether ``question`` leans on the earlier one: a follow-up by form (``is_follow_up``)
    or a verb without its object ("如何申请？", "can admins restore?": ``bare_verb``)."""
    return is_follow_up(question, previous) or bool(objectless_verb(strip_connector(question)[0]))


def _typed_questions(history: Sequence[Turn]) -> list[tuple[str, bool]]:
    """The earlier user questions as typed, not in the standalone form a chat stores (``Turn.
    typed``): a cross-language rewrite ("管理员 (recycle bin deleted files)?") would read as
    a full question and keep its focus and both languages for every later turn. The first
    one keeps its standalone form when typed as a follow-up: its own topic fell out of the
    history window. Each comes with ``Turn.uncovered``."""
    users = [t for t in history if t.role == "user" and t.text.strip()]
    return [(t.text if i == 0 and t.typed and _leans_back(t.typed) else t.typed or t.text,
             t.uncovered) for i, t in enumerate(users)]


def _replace_focus(question: str, topic: str) -> str | None:
    """The topic with its focus replaced by the follow-up's noun, or None when the
    follow-up names no other thing than the topic's focus (a pronoun, an elided subject,
    a group of people, another language)."""
    rest, _ = strip_connector(question)
    if detect_language(rest) != detect_language(topic):
        return None
    body = core(rest)
    if detect_language(rest) == "en":
        return _replace_focus_en(body, topic)
    noun = TRAILING_PARTICLE_ZH_RE.sub("", body)
    parallel = parallel_zh(noun, topic)
    if parallel or not body.endswith("呢") or any(p in body for p in PRONOUNS_ZH):
        return parallel
    if is_verb_object_zh(noun):
        return None  # "走审批呢？" keeps the topic's focus: it names no other thing
    focus = thing_focus_zh(topic)
    if focus and noun[-1] not in PERSON_HEADS_ZH and not new_time_zh(noun, topic):
        return f"{core(topic.replace(focus, noun, 1))}？"
    return None


def _rewrite_one(question: str, topic: str) -> str:
    """``question`` made standalone against the standalone ``topic`` ("" for none)."""
    rest, _ = strip_connector(question)
    if not topic or not _leans_back(question, topic):
        return (rest[:1].upper() + rest[1:]) if rest else question.strip()
    if detect_language(rest) != detect_language(topic):
        return _combine_across(rest, topic)
    verb = "" if is_follow_up(question, topic) else objectless_verb(rest)
    subject = subject_zh(topic) if verb and detect_language(rest) == "zh" else ""
    if subject:  # "管理员能恢复吗？" -> "管理员能恢复回收站里的文件吗？"
        return f"{core(rest).replace(verb, verb + subject, 1)}？"
    if detect_language(question) == "zh":
        return combine_zh(rest, topic)
    return _combine_en(rest, topic)


# A rewrite longer than this many times the question plus its topic is an answer or a
# preamble, not a question (a standalone question only adds the earlier subject).
MAX_REWRITE_FACTOR = 2
MAX_REWRITE_CHARS = 500


def usable_rewrite(output: str, question: str, history: Sequence[Turn]) -> str | None:
    """The model's rewrite: its first non-empty line, unquoted; None when there is none, when
    it is longer than ``MAX_REWRITE_CHARS`` or ``MAX_REWRITE_FACTOR`` times the question plus
    the earlier user questions (a model that answers or explains instead of rewriting), or
    when it shares no term with them ("I have no idea. [1]" for "and for admins?")."""
    lines = [ln for ln in (" ".join(ln.split()) for ln in output.splitlines()) if ln]
    if not lines:
        return None
    first = lines[0].strip('"“”')
    said = [question, *(t.text for t in history if t.role == "user")]
    limit = min(MAX_REWRITE_CHARS, MAX_REWRITE_FACTOR * sum(len(t) for t in said))
    if not first or len(first) > limit:
        return None
    return first if set(terms(first)) & set().union(*(terms(t) for t in said)) else None


async def standalone_query(
    *,
    question: str,
    history: Sequence[Turn],
    provider: Provider,
    trace: TraceRecorder,
    deadlines: Deadlines = FAST_DEADLINES,
) -> str:
    """The standalone query for ``question``.

    Uses the provider's fast model when ``provider.supports_rewrite``, there is history and
    the question does not already stand alone (``is_follow_up`` false: "And what is the
    upload limit?"), as one recorded call on ``trace`` (purpose "rewrite", short
    ``deadlines``, no retries). The model's output counts only through ``usable_rewrite``
    (first line, length check); any ``ProviderError`` or an unusable output falls back to
    ``rewrite_deterministic``.
    """
    if not history:
        return question.strip()
    previous = next((t.text for t in reversed(history) if t.role == "user"), "")
    if not provider.supports_rewrite or not _leans_back(question, previous):
        return rewrite_deterministic(question, history)
    prompt = build_rewrite_prompt(question=question, history=history)
    try:
        output = await call_model(
            provider, prompt, trace, purpose="rewrite", deadlines=deadlines
        ).text()
    except ProviderError as exc:
        trace.errors.append(f"rewrite: {exc}; used the deterministic rewrite")
        return rewrite_deterministic(question, history)
    rewritten = usable_rewrite(output, question, history)
    if rewritten is None:
        what = ("empty output" if not output.strip()
                else "unusable output (answered, too long, or off the conversation)")
        trace.errors.append(f"rewrite: {what}; used the deterministic rewrite")
        return rewrite_deterministic(question, history)
    return rewritten
