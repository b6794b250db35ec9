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
from kbqa.core.text.normalise import detect_language, has_cjk
from kbqa.core.text.terms import STOP_EN, terms, without_parts
from kbqa.core.types import Turn

MAX_FOLLOW_UP_TERMS = 2  # "and for admins?" has 1; a new question usually has 3 or more
CONNECTORS_EN = ("what about", "how about", "and what about", "and", "also", "but", "or")
CONNECTORS_ZH = ("那么", "那如果", "那", "还有", "另外", "如果是")
PREPOSITIONS = frozenset("for with in on at about when if after before during from to by".split())
QUESTION_WORDS = frozenset(
    "how what when where why who which whom whose can could is are do does did will would "
    "should may must".split()
)
# A Chinese question word makes "那试用期多长？" a full question of its own, unlike the
# elliptical "那管理员呢？", which only names a new subject for the previous question.
QUESTION_WORDS_ZH = ("多长", "多久", "多少", "多大", "什么", "怎么", "怎样", "如何", "几", "哪",
                     "是否", "能否", "可以", "吗")
PRONOUNS_EN = frozenset("it its they them their this that these those there".split())
PRONOUNS_ZH = ("它", "它们", "这个", "那个", "这些", "那些", "这样", "此")
GENERIC = frozenset("long many much get need want keep 多久 多少 需要 怎么 怎样".split())
_EN_WORD_RE = re.compile(r"[A-Za-z]+")
_TRAILING_RE = re.compile(r"[\s?？。.!！,，]+$")
_ZH_TRAILING_PARTICLE_RE = re.compile(r"(呢|吗|啊|呀)$")


def _content_words(text: str) -> list[str]:
    """Distinct content terms; Chinese sub-words dropped when a longer term contains them."""
    return without_parts(list(dict.fromkeys(t for t in terms(text) if t not in GENERIC)))


def _strip_connector(text: str) -> tuple[str, bool]:
    """``text`` without a leading connector ("and", "那"...), and whether there was one."""
    stripped = text.strip()
    lower = stripped.lower()
    for c in CONNECTORS_EN:
        if lower.startswith(c + " ") or lower.startswith(c + ","):
            return stripped[len(c) :].lstrip(" ,"), True
    for c in CONNECTORS_ZH:
        if stripped.startswith(c) and len(stripped) > len(c):
            return stripped[len(c) :].lstrip("，, "), True
    return stripped, False


def _has_pronoun(text: str) -> bool:
    if detect_language(text) == "zh":
        return any(p in text for p in PRONOUNS_ZH)
    return any(w.lower() in PRONOUNS_EN for w in _EN_WORD_RE.findall(text))


def is_follow_up(question: str) -> bool:
    """True when ``question`` leans on an earlier one: it starts with a connector or uses a
    pronoun (or is very short), and has at most ``MAX_FOLLOW_UP_TERMS`` content terms."""
    rest, connector = _strip_connector(question)
    if detect_language(rest) == "zh" and any(p in rest for p in PRONOUNS_ZH[:2]):
        return True  # 它/它们 always points back: "那它每个人能有多少空间？"
    if len(_content_words(rest)) > MAX_FOLLOW_UP_TERMS:
        return False
    first = (_EN_WORD_RE.findall(rest) or [""])[0].lower()
    if connector and first in QUESTION_WORDS and not _has_pronoun(rest):
        return False  # "And what is the upload limit?" is a question of its own
    if _is_full_zh_question(rest):
        return False  # "那试用期多长？", "团建的预算是多少？": a subject and a question word
    if detect_language(rest) == "zh":
        # Word counts say nothing about Chinese; only a connector, a pronoun or "…呢" lean back.
        return connector or _has_pronoun(rest) or _core(rest).endswith("呢")
    short = len(_EN_WORD_RE.findall(rest)) <= 3 and len(rest) <= 24
    return connector or _has_pronoun(rest) or short


def _is_full_zh_question(text: str) -> bool:
    core = _core(text)
    return (
        detect_language(core) == "zh"
        and not core.endswith("呢")
        and not _has_pronoun(core)
        and any(w in core for w in QUESTION_WORDS_ZH)
        and bool(_content_words(core))
    )


def _core(text: str) -> str:
    return _TRAILING_RE.sub("", text.strip())


_RUN_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'-]*")


def _content_runs(text: str) -> list[tuple[int, int]]:
    """(start, end) of each run of content words in ``text`` (no stop, question or frame
    word or punctuation between them): "How many days of annual leave do full-timers get?"
    -> days, annual leave, full-timers."""
    skip = STOP_EN | GENERIC | QUESTION_WORDS
    runs: list[tuple[int, int]] = []
    joined = False
    for m in _RUN_WORD_RE.finditer(text):
        if m.group().lower() in skip:
            joined = False
            continue
        if joined and not text[runs[-1][1]:m.start()].strip():
            runs[-1] = (runs[-1][0], m.end())
        else:
            runs.append((m.start(), m.end()))
        joined = True
    return runs


def _parallel_en(core: str, topic: str) -> str | None:
    """"annual leave" after "How many days of sick leave…?" -> the topic with its focus
    replaced: a follow-up naming another thing asks the same question of it, never of both.
    The focus is the topic's content phrase with the same head word, else its longest
    phrase of two or more words."""
    words = _EN_WORD_RE.findall(core)
    if not 1 < len(words) <= 3 or words[0].lower() in PREPOSITIONS | QUESTION_WORDS:
        return None
    runs = [(a, b) for a, b in _content_runs(topic)
            if " " in topic[a:b] and topic[a:b].lower() != core.lower()]
    head = words[-1].lower()
    same = [r for r in runs if topic[r[0]:r[1]].split()[-1].lower() == head]
    longer = sorted(runs, key=lambda r: r[0] - r[1])
    if not (same or longer):
        return None
    start, end = (same or longer)[0]
    noun = re.sub(r"^(?:the|a|an|my|our|your|their)\s+", "", core, flags=re.IGNORECASE)
    return f"{_core(topic[:start] + noun + topic[end:])}?"


def _combine_en(rest: str, topic: str) -> str:
    core = _core(rest)
    parallel = _parallel_en(core, topic)
    if parallel:
        return parallel
    first = (_EN_WORD_RE.findall(core) or [""])[0].lower()
    if first in QUESTION_WORDS:
        extra = [
            w for w in _EN_WORD_RE.findall(topic)
            if w.lower() not in STOP_EN | GENERIC | QUESTION_WORDS and w.lower() not in core.lower()
        ]
        return f"{core[:1].upper()}{core[1:]} ({' '.join(extra)})?" if extra else f"{core}?"
    if first in PREPOSITIONS:
        return f"{_core(topic)} {core}?"
    return f"{_core(topic)}, for {core}?"


def _parallel_zh(noun: str, topic: str) -> str | None:
    """"年假" after "员工每年有多少天病假？" -> the topic with 病假 replaced by 年假: a span of
    the topic as long as the new noun with the same head (last) character, the usual shape
    of sibling nouns in Chinese (病假/年假, 入门版/企业版), searched from the end; likewise
    a place, person or organisation name replaces the topic's name of the same kind."""
    if len(noun) < 2:
        return None
    size = len(noun)
    for end in range(len(topic), size - 1, -1):
        span = topic[end - size:end]
        if span != noun and span[-1] == noun[-1] and has_cjk(span) and span.isalnum():
            return f"{_core(topic[:end - size] + noun + topic[end:])}？"
    # A sibling of another length: a word of the topic with the same head (陪产假/病假).
    for term in terms(topic):
        if len(term) >= 2 and term != noun and term[-1] == noun[-1] and term in topic:
            return f"{_core(topic.replace(term, noun, 1))}？"
    return _parallel_name_zh(noun, topic)


# jieba tags of proper names: places, people, organisations ("那成都呢？" after a Shanghai
# question asks the same of Chengdu).
_NAME_TAGS = ("ns", "nr", "nt")


def _parallel_name_zh(noun: str, topic: str) -> str | None:
    import jieba.posseg

    tagged = [(w.word, w.flag) for w in jieba.posseg.cut(noun)]
    if len(tagged) != 1 or tagged[0][1] not in _NAME_TAGS:
        return None
    for word, flag in jieba.posseg.cut(topic):
        if flag == tagged[0][1] and word != noun:
            return f"{_core(topic.replace(word, noun, 1))}？"
    return None


def _combine_zh(rest: str, topic: str) -> str:
    core = _core(rest)
    parallel = _parallel_zh(_ZH_TRAILING_PARTICLE_RE.sub("", core), topic)
    if parallel:
        return parallel
    focus = _first_noun_phrase_zh(topic)
    pronoun = next((p for p in PRONOUNS_ZH if p in core), None)
    if focus and pronoun:  # "那它能恢复吗？": the pronoun stands for the topic's subject
        return f"{core.replace(pronoun, focus, 1)}？"
    if core.endswith("呢"):  # "那管理员呢？": the same question, about something else
        return f"对于{_ZH_TRAILING_PARTICLE_RE.sub('', core)}，{_core(topic)}？"
    extra = [w for w in _content_words(topic) if w not in core]
    return f"{core}（{'、'.join(extra)}）？" if extra else f"{core}？"


_NOUN_TAG_PREFIXES = ("n", "vn", "eng", "j")


def _first_noun_phrase_zh(topic: str) -> str:
    """The topic's first run of nouns (jieba tags): ``回收站`` of ``回收站保留多久？``,
    ``企业版`` of ``企业版每个用户每月多少钱？``; "" without one."""
    import jieba.posseg

    run = ""
    for pair in jieba.posseg.cut(topic):
        if pair.flag.startswith(_NOUN_TAG_PREFIXES) and pair.word.strip():
            run += pair.word
        elif run:
            break
    return run


def rewrite_deterministic(question: str, history: Sequence[Turn]) -> str:
    """One standalone question for ``question`` given earlier turns (offline, no model).

    The earlier user questions are folded in order: each follow-up is rewritten against
    the standalone form of the turns before it, so a chain of three turns ("How many days
    of annual leave?", "and sick leave?", "and for part-timers?") keeps the latest focus.
    Any other question is returned with a leading connector removed. Assistant turns are
    never used.
    """
    users = [t.text for t in history if t.role == "user" and t.text.strip()]
    topic = ""
    for earlier in users:
        if not topic or not is_follow_up(earlier):
            topic = _rewrite_one(earlier, "")
        else:
            # Only a new focus moves the topic on; "and for admins?" then "what about
            # guests?" asks the first question of guests, not of admins and guests.
            topic = _replace_focus(earlier, topic) or topic
    return _rewrite_one(question, topic)


def _replace_focus(question: str, topic: str) -> str | None:
    """The topic with its focus replaced by the follow-up's noun, or None when the
    follow-up names no sibling of the topic's focus."""
    rest, _ = _strip_connector(question)
    if detect_language(rest) != detect_language(topic):
        return None
    core = _core(rest)
    if detect_language(rest) == "zh":
        return _parallel_zh(_ZH_TRAILING_PARTICLE_RE.sub("", core), topic)
    return _parallel_en(core, topic)


def _rewrite_one(question: str, topic: str) -> str:
    """``question`` made standalone against the standalone ``topic`` ("" for none)."""
    rest, _ = _strip_connector(question)
    if not topic or not is_follow_up(question):
        return (rest[:1].upper() + rest[1:]) if rest else question.strip()
    if detect_language(rest) != detect_language(topic):
        # "那年假呢？" after English turns: a mixed-language query retrieves neither well, and
        # the answer language follows the question; let the follow-up stand alone.
        return rest
    if detect_language(question) == "zh":
        return _combine_zh(rest, topic)
    return _combine_en(rest, topic)


# A rewrite longer than this many times the question plus its topic is an answer or a
# preamble, not a question (a standalone question only adds the earlier subject).
MAX_REWRITE_FACTOR = 2
MAX_REWRITE_CHARS = 500


def usable_rewrite(output: str, question: str, history: Sequence[Turn]) -> str | None:
    """The model's rewrite: its first non-empty line, unquoted; None when there is none or it
    is longer than ``MAX_REWRITE_CHARS`` or ``MAX_REWRITE_FACTOR`` times the question plus the
    earlier user questions (a model that answers or explains instead of rewriting)."""
    lines = [ln for ln in (" ".join(ln.split()) for ln in output.splitlines()) if ln]
    if not lines:
        return None
    first = lines[0].strip('"“”')
    earlier = sum(len(t.text) for t in history if t.role == "user")
    limit = min(MAX_REWRITE_CHARS, MAX_REWRITE_FACTOR * (len(question) + earlier))
    return first if first and len(first) <= limit else None


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
    if not provider.supports_rewrite or not is_follow_up(question):
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
        what = "empty output" if not output.strip() else "unusable output (answered, or too long)"
        trace.errors.append(f"rewrite: {what}; used the deterministic rewrite")
        return rewrite_deterministic(question, history)
    return rewritten
