"""Does a question lean on an earlier one? Elision detected by structure, in EN and ZH.

A follow-up leaves out what the earlier question said: it starts with a connector ("and",
"那"), points back with a pronoun ("it", "they", 它, 这个), is a fragment without a verb of
its own ("and for the Chengdu folks?"), ends in 呢 ("那病假呢？"), or, in Chinese, has no
subject at all ("超过了会怎样？": a predicate whose subject was elided, the usual Chinese
zero anaphora). A question with its own subject and content words ("丢失的工牌要多久内报告？")
stands alone. ``standalone`` rewrites the follow-ups found here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kbqa.core.retrieval.tags_zh import before_verbal_measure, counted_act
from kbqa.core.text import thesaurus
from kbqa.core.text.normalise import detect_language
from kbqa.core.text.terms import (
    STOP_EN,
    acronym_starts,
    is_stop_en,
    pos_tags,
    stem,
    terms,
    without_parts,
)

MAX_FOLLOW_UP_TERMS = 2  # "and for admins?" has 1; a new question usually has 3 or more
# A pronoun or a missing subject already says "earlier topic"; such a question may still
# add a few words of its own ("how often do they get swapped out?" has 3).
MAX_ANAPHORIC_TERMS = 3
CONNECTORS_EN = ("what about", "how about", "and what about", "and", "also", "but", "or")
CONNECTORS_ZH = ("那么", "那如果", "那", "还有", "另外", "如果是")
PREPOSITIONS = frozenset("for with in on at about when if after before during from to by outside "
                         "within until".split())
QUESTION_WORDS = frozenset(
    "how what when where why who which whom whose can could is are do does did will would "
    "should may must".split()
)
# A Chinese question word makes "那试用期多长？" a full question of its own, unlike the
# elliptical "那管理员呢？", which only names a new subject for the previous question.
QUESTION_WORDS_ZH = ("多长", "多久", "多少", "多大", "什么", "怎么", "怎样", "如何", "几", "哪",
                     "是否", "能否", "可以", "吗")
# Words that open a turn in conversation without adding to it (discourse markers: Schiffrin,
# "Discourse Markers", 1987): "ok and when does the money land?", "嗯，那病假呢？".
DISCOURSE_MARKERS = ("ok", "okay", "alright", "all right", "oh", "hmm",
                     "嗯", "哦", "噢", "好的", "好吧")
_MARKERS_RE = "|".join(re.escape(m) for m in sorted(DISCOURSE_MARKERS, key=len, reverse=True))
_DISCOURSE_RE = re.compile(
    rf"^(?:(?:{_MARKERS_RE})(?:[\s,，.。!！…~]+|(?=[\u4e00-\u9fff])))+", re.IGNORECASE
)
BE_FORMS = frozenset("is are was were be been s".split())  # "there's": the regex splits at '
PRONOUNS_EN = frozenset("it its they them their this that these those there".split())
# Pronouns that always point outside the question; "this"/"that" are often determiners
# ("this year") and count only when nothing follows them ("what about that?").
ANAPHORA_EN = frozenset("it its they them their".split())
DEMONSTRATIVES_EN = frozenset("this that these those".split())
# "is it possible to…", "is it true that…": "it" is a dummy subject there, not a pointer.
EXPLETIVE_AFTER_IT = frozenset(
    "possible ok okay allowed true necessary required normal safe better worth".split()
)
# "怎么请假？", "如何登录？": how to do something; the elided subject is the asker, the
# action its own topic. After a connector ("那怎么申请？") it leans on the earlier question.
MANNER_ZH = ("怎么", "如何", "怎样")
PRONOUNS_ZH = ("它", "它们", "这个", "那个", "这些", "那些", "这样", "此")
# quantifying determiners ("every few months", "each time") count nothing either
GENERIC = frozenset(
    "long many much get need want keep every each few several 多久 多少 需要 怎么 怎样".split())
# jieba part-of-speech tags that name a thing (nouns, names, English words, abbreviations,
# verbal nouns); jieba's tag set is ICTCLAS's (jieba README, "词性标注").
NOUN_TAG_PREFIXES = ("n", "vn", "eng", "j")
_EN_WORD_RE = re.compile(r"[A-Za-z]+")
_TRAILING_RE = re.compile(r"[\s?？。.!！,，]+$")


def content_words(text: str) -> list[str]:
    """Distinct content terms; Chinese sub-words dropped when a longer term contains them."""
    return without_parts(list(dict.fromkeys(t for t in terms(text) if t not in GENERIC)))


# A measure asked of whatever the conversation is about: "what's the maximum?", "and the
# minimum?", "what's the limit?", or how often by its units alone ("how many times a year?").
_MEASURES_EN = frozenset(stem(w) for w in "maximum max minimum min limit most least default cap "
                         "time often per year month week day hour minute".split())


# What is left of something named before: "what happens to the rest?"
REMAINDER_RE = re.compile(r"\bthe (?:rest|remainder|others|remaining ones)\b", re.IGNORECASE)


def of_the_rest_en(text: str) -> bool:
    """Whether English ``text`` asks about what is left of the earlier question's thing
    ("what happens to the rest?" after unused leave days that can be carried over)."""
    return REMAINDER_RE.search(text) is not None


def asks_measure_only_en(text: str) -> bool:
    """Whether English ``text`` names nothing but a measure ("what's the maximum?"): the
    thing measured is the earlier question's."""
    words = content_words(text)
    return bool(words) and detect_language(text) == "en" and all(
        w in _MEASURES_EN for w in words)


def topic_words(topic: str, body: str) -> list[str]:
    """The topic's content words (original spelling) that ``body`` lacks, in order."""
    if detect_language(topic) == "zh":
        return [w for w in content_words(topic) if w not in body]
    acronyms = acronym_starts(topic)
    return [
        m.group() for m in _EN_WORD_RE.finditer(topic)
        if not is_stop_en(m.group(), m.start() in acronyms)
        and (m.start() in acronyms or m.group().lower() not in GENERIC | QUESTION_WORDS)
        and m.group().lower() not in body.lower()
    ]


def with_topic(body: str, extra: Sequence[str], zh: bool) -> str:
    """Question ``body`` (no question mark) with the earlier topic's words ``extra`` in
    closing parentheses, Chinese (``zh``) or Latin punctuation: "超了怎么办（团建、每人、钱）？",
    "What if we go over (hotel limit)?". The offline reader reads the topic there
    (``readers.extractive.absent.carried_topic``)."""
    if zh:
        return f"{body}（{'、'.join(extra)}）？" if extra else f"{body}？"
    return f"{body} ({' '.join(extra)})?" if extra else f"{body}?"


def core(text: str) -> str:
    """``text`` without surrounding blanks and trailing punctuation."""
    return _TRAILING_RE.sub("", text.strip())


def strip_connector(text: str) -> tuple[str, bool]:
    """``text`` without a leading connector ("and", "那"...), and whether there was one.
    A discourse marker before it ("ok and when…", "嗯，那…", ``DISCOURSE_MARKERS``) goes
    too; alone it is no connector: "OK, how long is the trial?" stands on its own."""
    stripped = _DISCOURSE_RE.sub("", text.strip(), count=1) or text.strip()
    lower = stripped.lower()
    for c in CONNECTORS_EN:
        if lower.startswith(c + " ") or lower.startswith(c + ","):
            return stripped[len(c) :].lstrip(" ,"), True
    for c in CONNECTORS_ZH:
        if stripped.startswith(c) and len(stripped) > len(c):
            return stripped[len(c) :].lstrip("，, "), True
    return stripped, False


def has_pronoun(text: str) -> bool:
    """True when ``text`` holds any pronoun of ``PRONOUNS_ZH`` or ``PRONOUNS_EN``; the
    existential "there" of "Is there a gym subsidy?" / "there are" points nowhere and counts
    only in a question with at most one content word of its own ("Is there a limit?": the
    limit of what was asked before)."""
    if detect_language(text) == "zh":
        return any(p in text for p in PRONOUNS_ZH)
    acronyms = acronym_starts(text)  # "what about IT?": IT is a department, not "it"
    words = list(_EN_WORD_RE.finditer(text))
    few = len(content_words(text)) <= 1
    return any(m.group().lower() in PRONOUNS_EN and m.start() not in acronyms
               and (few or not _existential(words, i))
               for i, m in enumerate(words))


def _existential(words: list[re.Match[str]], i: int) -> bool:
    """Whether ``words[i]`` is the "there" of "is there…" / "there are…" (English grammar's
    existential construction: "there" beside a form of "be")."""
    if words[i].group().lower() != "there":
        return False
    near = [words[j].group().lower() for j in (i - 1, i + 1) if 0 <= j < len(words)]
    return any(w in BE_FORMS for w in near)


def anaphor_en(text: str) -> re.Match[str] | None:
    """The first English word that points outside the question: "it", "they", "them",
    "its", "their" (not the dummy "it" of "is it possible to…"), or a demonstrative standing
    alone: at the end ("what about that?"), before a function word ("is that all?") or right
    after an auxiliary or question word ("does that apply to contractors?"); None without."""
    words = list(_EN_WORD_RE.finditer(text))
    acronyms = acronym_starts(text)
    for i, m in enumerate(words):
        word = m.group().lower()
        if m.start() in acronyms:
            continue  # "IT", "THEM" in capitals: an acronym points nowhere
        after = words[i + 1].group().lower() if i + 1 < len(words) else ""
        before = words[i - 1].group().lower() if i else ""
        if word in ANAPHORA_EN and not (word == "it" and after in EXPLETIVE_AFTER_IT):
            return m
        if word in DEMONSTRATIVES_EN and (not after or after in STOP_EN
                                          or before in QUESTION_WORDS):
            return m
    return None


def has_anaphora_en(text: str) -> bool:
    """True when ``anaphor_en`` finds a word pointing outside the question."""
    return anaphor_en(text) is not None


# Determiners that introduce a thing into the discourse: possessives and indefinites
# ("my password", "a colleague"); "the"/"this" point back to one already named (English
# grammar's definite/indefinite contrast: Quirk et al. 1985, §5.26-5.40).
INTRODUCING_EN = frozenset("my your our his her a an some another".split())


def introduces_referent_en(text: str) -> bool:
    """True when ``text`` names a new thing of its own: a content word right after a
    possessive or indefinite determiner ("What if I lose my laptop?", "what if a colleague
    leaves?"). "What if we exceed the limit?" (definite) and "what happens if we go over?"
    (no object) name none: they lean on the earlier question."""
    words = list(_EN_WORD_RE.finditer(text))
    acronyms = acronym_starts(text)
    return any(
        m.group().lower() in INTRODUCING_EN and i + 1 < len(words)
        and not is_stop_en(words[i + 1].group(), words[i + 1].start() in acronyms)
        for i, m in enumerate(words)
    )


# Words inside an English noun phrase between its content words ("days of annual leave",
# "rate limit on the open API", "hotel limit per night").
NP_GLUE_EN = frozenset("of on for per in the a an".split())


def is_fragment_en(text: str) -> bool:
    """"for the Chengdu folks going to Shanghai?": a prepositional phrase, no question of
    its own; it only narrows the earlier question, however long it is."""
    words = [w.lower() for w in _EN_WORD_RE.findall(text)]
    return bool(words) and words[0] in PREPOSITIONS and not QUESTION_WORDS & set(words)


def noun_phrase_en(text: str) -> bool:
    """"old versions of a doc": two or more words, nouns and adjectives WordNet lists (or
    names) joined by ``NP_GLUE_EN`` and determiners, the last a noun; no question word,
    auxiliary, pronoun or verb; not a name alone ("New York" narrows the earlier question).
    A connector before one asks the earlier question of it."""
    words = _EN_WORD_RE.findall(text)
    content = [w for w in words if w.lower() not in NP_GLUE_EN | INTRODUCING_EN | {"this"}]
    return (len(words) > 1 and any(w.islower() for w in content) and all(
        w[0].isupper() or (not is_stop_en(w.lower(), False) and (
            thesaurus.morphy(w.lower(), "noun") or thesaurus.morphy(w.lower(), "adj")))
        for w in content) and bool(content[-1][0].isupper()
                                   or thesaurus.morphy(content[-1].lower(), "noun")))


def lacks_subject_zh(text: str) -> bool:
    """True for a Chinese question with no noun and no "X的Y" phrase (jieba tags): only a
    predicate, whose subject is the earlier question's ("超过了会怎样？", "能延期吗？")."""
    import jieba.posseg

    pairs = [(p.word, p.flag) for p in jieba.posseg.cut(core(text)) if p.word.strip()]
    if len(content_words(text)) > MAX_ANAPHORIC_TERMS:
        return False
    for i, (word, flag) in enumerate(pairs):
        if (flag.startswith(NOUN_TAG_PREFIXES) and word not in QUESTION_WORDS_ZH
                and not before_verbal_measure(pairs, i)):
            return False
        if word == "的" and 0 < i < len(pairs) - 1:  # 团建的预算: a modified noun
            return False
        if i and _single_content(pairs[i - 1]) and _single_content(pairs[i]):
            return False  # 年/m 假/a: jieba cut an unknown word into characters
        if counted_act(pairs, i):
            return False  # 两步/m 验证/v: "two-step verification", a thing
    return bool(pairs)


# Tags of words that never name a thing: verbs, prepositions, particles, pronouns,
# conjunctions, adverbs, punctuation (ICTCLAS tags as jieba prints them).
_FUNCTION_TAGS = ("v", "p", "u", "y", "r", "c", "d", "x", "e", "o")


def _single_content(pair: tuple[str, str]) -> bool:
    word, flag = pair
    return (len(word) == 1 and not flag.startswith(_FUNCTION_TAGS)
            and not any(q in word for q in QUESTION_WORDS_ZH))


def is_follow_up(question: str, previous: str = "") -> bool:
    """True when ``question`` leans on an earlier one (see the module docstring): a
    connector or pronoun with at most ``MAX_FOLLOW_UP_TERMS`` content terms, an anaphoric
    pronoun or a missing Chinese subject (not "how to…", ``MANNER_ZH``) with at most
    ``MAX_ANAPHORIC_TERMS``, a fragment
    after a connector, a bare "…呢", or a very short English question. A Chinese question
    with a subject of its own (``own_subject_zh``) sharing no word with ``previous`` (the
    earlier question; "" when unknown) stands alone without a connector or pronoun."""
    rest, connector = strip_connector(question)
    zh = detect_language(rest) == "zh"
    if zh and any(p in rest for p in PRONOUNS_ZH[:2]):
        return True  # 它/它们 always points back: "那它每个人能有多少空间？"
    subject = own_subject_zh(rest) if zh and not connector and not has_pronoun(rest) else ""
    if subject and not _shares_words_zh(subject, previous):
        return False  # "团建预算是多少？" after a laptop question: a new topic
    if zh and lacks_subject_zh(rest) and (connector or not rest.startswith(MANNER_ZH)):
        return True
    if not zh and connector and (is_fragment_en(rest) or noun_phrase_en(core(rest))):
        return True
    if len(_EN_WORD_RE.findall(rest)) and has_anaphora_en(rest) and not zh:
        # a connector and a pronoun both point back, however many words follow ("and if
        # nobody picks a plan when it runs out?")
        return connector or len(content_words(rest)) <= MAX_ANAPHORIC_TERMS
    if zh and noun_phrase_ne_zh(rest):
        return True  # "那外包人员呢？", "那命名过的版本呢？": "what about …?", however long
    if zh and topic_clause_ne_zh(rest):
        return True  # "吃饭呢，一天能报多少？": "as for meals, …", with or without 那
    if not zh and (asks_measure_only_en(rest) or of_the_rest_en(rest)):
        return True  # "what's the maximum?", "what about the rest?": of the earlier thing
    if len(content_words(rest)) > MAX_FOLLOW_UP_TERMS:
        return False
    if not zh and "if" in {w.lower() for w in _EN_WORD_RE.findall(rest)}:
        # "what happens if we go over?": a condition on the earlier subject, unless the
        # condition brings a thing of its own ("what if I forget my password?")
        return not introduces_referent_en(rest)
    first = (_EN_WORD_RE.findall(rest) or [""])[0].lower()
    if connector and first in QUESTION_WORDS and not has_pronoun(rest):
        return False  # "And what is the upload limit?" is a question of its own
    if is_full_zh_question(rest):
        return False  # "那试用期多长？", "团建的预算是多少？": a subject and a question word
    if zh:
        # Word counts say nothing about Chinese; only a connector, a pronoun or "…呢" lean back.
        return connector or has_pronoun(rest) or core(rest).endswith("呢")
    short = len(_EN_WORD_RE.findall(rest)) <= 3 and len(rest) <= 24
    return connector or has_pronoun(rest) or short


def noun_phrase_ne_zh(text: str) -> bool:
    """Whether ``text`` is a Chinese noun phrase and 呢, no question word: "外包人员呢？",
    "命名过的版本呢？" (jieba tags its last word a noun), the "what about …?" of Chinese
    whatever the phrase's length; "要是整个办公室都断网了呢？" (a clause) is not."""
    import jieba.posseg

    body = core(text)
    if not body.endswith("呢") or any(q in body for q in QUESTION_WORDS_ZH):
        return False
    pairs = [p for p in jieba.posseg.cut(body[:-1]) if p.word.strip()]
    return bool(pairs) and pairs[-1].flag.startswith(NOUN_TAG_PREFIXES)


# "吃饭呢，一天能报多少？", "那病假呢，要提前申请吗？": a first clause ending in 呢 names what the
# rest asks about ("as for meals, how much a day?"), the 呢 of "what about …?".
_TOPIC_CLAUSE_NE_RE = re.compile(r"^([^，,。？?！!]{1,16})呢\s*[，,]\s*\S")


def topic_clause_ne_zh(text: str) -> bool:
    """Whether ``text`` opens with a clause "X呢，" (``_TOPIC_CLAUSE_NE_RE``) whose X holds
    no question word: X is the new focus of a question whose frame is the earlier one's."""
    m = _TOPIC_CLAUSE_NE_RE.match(core(text))
    return m is not None and not any(q in m.group(1) for q in QUESTION_WORDS_ZH)


# Where a Chinese question's predicate begins: copula, existential, modal verbs.
PREDICATE_START_ZH = frozenset("是 有 能 要 会 可以 需要 应该 必须 得 该".split())
# jieba tags of words that can make a subject: nouns, verbs and adjectives used as nouns
# ("团建/a 预算/v 是多少": the budget of team building), names, abbreviations, English.
_SUBJECT_TAGS = ("n", "v", "a", "b", "j", "eng", "l", "i")


def own_subject_zh(text: str) -> str:
    """The subject a Chinese question names itself: its words before the first predicate
    start (``PREDICATE_START_ZH``) or question word, when the question has a question word
    and those words are all content words ("团建预算" of "团建预算是多少？", "报销" of
    "报销怎么提交？"; jieba often tags such nominal verbs v or a). "" for an elided subject:
    nothing before the predicate ("能延期吗？"), or a predicate of its own there, marked by
    an aspect particle, an adverb, a time word or a one-character verb ("超过了会怎样？",
    "过期了怎么办？", "没通过的话能补考几次？")."""
    c = core(text)
    if not any(q in c for q in QUESTION_WORDS_ZH):
        return ""
    subject: list[str] = []
    pairs = [(w.strip(), flag) for w, flag in pos_tags(c) if w.strip()]
    for i, (word, flag) in enumerate(pairs):
        if word in PREDICATE_START_ZH or any(q in word for q in QUESTION_WORDS_ZH + MANNER_ZH):
            break
        if (not (flag.startswith(_SUBJECT_TAGS) or counted_act(pairs, i)) or "了" in word
                or (len(word) == 1 and flag.startswith("v"))):
            return ""
        subject.append(word)
    else:
        return ""
    return "".join(subject) if len("".join(subject)) >= 2 else ""


def _shares_words_zh(subject: str, previous: str) -> bool:
    """True when ``subject`` and ``previous`` share a two-character word (更换 in
    "更换要审批吗？" after "笔记本电脑多久更换一次？")."""
    return any(subject[i:i + 2] in previous for i in range(len(subject) - 1))


def is_full_zh_question(text: str) -> bool:
    """A Chinese question with its own subject and question word ("那试用期多长？")."""
    c = core(text)
    return (
        detect_language(c) == "zh"
        and not c.endswith("呢")
        and not has_pronoun(c)
        and any(w in c for w in QUESTION_WORDS_ZH)
        and bool(content_words(c))
    )
