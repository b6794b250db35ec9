"""Questions that name no thing: a verb whose object is left out ("如何申请？", "管理员能恢复吗？",
"how do I apply?", "can admins restore?"). Restore what, apply for what: the object is the
earlier question's topic, whatever the question's own subject (people are no object).

Chinese: jieba's tags (ICTCLAS set) give the words; the question holds no noun but people
(``PERSON_HEADS_ZH``), no other content word, and one verb of two or more characters that is
not a verb-object compound (动宾式: 请假, 付款, 报名 hold their object, the second character a
noun, measure word or numeral by jieba's tags: "怎么请假？" asks about leave itself).
English: every content word names people (``is_person_en``) or is a verb WordNet lists with
no noun sense ("apply", "restore", "submit"), and one of them is such a verb; without the
WordNet data (``thesaurus.available``) no English question is read so.
"""

from __future__ import annotations

import re

from kbqa.core.retrieval.ellipsis import MANNER_ZH, QUESTION_WORDS_ZH, core
from kbqa.core.retrieval.focus_en import is_person_en
from kbqa.core.retrieval.tags_zh import PERSON_HEADS_ZH
from kbqa.core.text import thesaurus
from kbqa.core.text.normalise import detect_language
from kbqa.core.text.terms import acronym_starts, is_stop_en

# Modal and copular verbs: they frame the verb, they are not it (能恢复, 可以申请).
MODALS_ZH = frozenset("是 有 能 要 会 可以 可 需要 应该 必须 得 该 想".split())
# jieba tags of words that frame a question without naming anything: pronouns, adverbs,
# prepositions, particles, conjunctions, punctuation ("我", "还", "吗", "可以"/c).
_FRAME_TAGS = ("r", "d", "p", "u", "y", "c", "x", "e", "o")
# A second character with one of these tags is the verb's own object (请/假 n, 付/款 m).
_OBJECT_TAGS = ("n", "q", "m")
_EN_WORD_RE = re.compile(r"[A-Za-z]+")


def objectless_verb(text: str) -> str:
    """The verb of ``text`` when it is a question naming no thing (module doc); ""."""
    if detect_language(text) == "zh":
        return objectless_verb_zh(text)
    return objectless_verb_en(text)


def objectless_verb_zh(text: str) -> str:
    """"申请" of "如何申请？", "恢复" of "管理员能恢复吗？"; "" for "怎么请假？" (module doc)."""
    import jieba.posseg

    verbs: list[str] = []
    for pair in jieba.posseg.cut(core(text)):
        word, flag = pair.word.strip(), pair.flag
        if not word or word in MODALS_ZH or any(q in word for q in QUESTION_WORDS_ZH + MANNER_ZH):
            continue
        if flag.startswith("n") and word[-1] in PERSON_HEADS_ZH:
            continue  # "管理员": who acts, not what is acted on
        if flag == "v" and len(word) >= 2:
            verbs.append(word)
        elif not flag.startswith(_FRAME_TAGS) or word == "的":
            return ""
    if len(verbs) != 1 or _holds_object_zh(verbs[0]):
        return ""
    return verbs[0]


def _holds_object_zh(verb: str) -> bool:
    import jieba.posseg

    pairs = list(jieba.posseg.cut(verb[-1]))
    return len(verb) == 2 and bool(pairs) and pairs[0].flag.startswith(_OBJECT_TAGS)


def objectless_verb_en(text: str) -> str:
    """"apply" of "how do I apply?", "restore" of "can admins restore?"; "" for "how do I
    restore a file?" (module doc)."""
    if not thesaurus.available():
        return ""
    acronyms = acronym_starts(text)
    verbs: list[str] = []
    for m in _EN_WORD_RE.finditer(text):
        word = m.group().lower()
        if is_stop_en(m.group(), m.start() in acronyms) or is_person_en(word):
            continue
        if thesaurus.morphy(word, "verb") and not thesaurus.morphy(word, "noun"):
            verbs.append(word)
        else:
            return ""
    return verbs[0] if len(verbs) == 1 else ""
