"""Where a Chinese subject really ends: the words jieba leaves after its last noun.

A question's subject is cut at its first copula, modal or question word
(``focus_zh._subject_zh``), but jieba glues a modal to the verb after it (最多/能调) and
an adverb of degree stands before the modal (最多): "一个客户端一分钟最多能调多少次？" gives
the subject "一个客户端一分钟最多能调". A follow-up whose own subject is elided ("超了会怎样？")
takes the earlier subject, so these words must go first, or the standalone question reads
"…一分钟最多能调超了会怎样？", which nothing answers.
"""

from __future__ import annotations

import re

from kbqa.core.retrieval.ellipsis import (
    NOUN_TAG_PREFIXES,
    QUESTION_WORDS_ZH,
    core,
    lacks_subject_zh,
    strip_connector,
)
from kbqa.core.retrieval.tags_zh import PERSON_HEADS_ZH
from kbqa.core.text.normalise import detect_language
from kbqa.core.text.terms import pos_tags

# jieba (ICTCLAS) tags of adverbs, numerals, measure words and time words: how much or when
_HOW_MUCH_TAGS = re.compile(r"^(?:d|dg|m|mq|q|t|tg)$")
_VERB_TAGS = re.compile(r"^v[dgi]?$")  # verbs, not verbal nouns (vn: 审批 of 需要审批)


def without_tail(subject: str) -> str:
    """``subject`` without the adverbs, numerals, measure and time words and verbs that end
    it ("一个客户端一分钟最多能调" -> "一个客户端"); a verb right after a noun is the head of
    a compound and stays ("开放 API 的速率限制": 限制/v). "" when nothing is left."""
    words = list(pos_tags(subject))
    while words and (_HOW_MUCH_TAGS.match(words[-1][1]) or (
            _VERB_TAGS.match(words[-1][1]) and not (
                len(words) > 1 and words[-2][1].startswith(NOUN_TAG_PREFIXES)))):
        words.pop()
    return "".join(w for w, _ in words).strip()


def asks_of_elided_subject_zh(question: str) -> bool:
    """Whether Chinese ``question`` asks something of its own about an elided subject
    ("坏了怎么办？" after "笔记本电脑多久更换一次？"): no subject, a question word or 吗 after
    its connector. Rewritten with the earlier subject, it is the topic a later "丢了呢？"
    replaces a part of ("笔记本电脑丢了怎么办？", not "丢了多久更换一次？")."""
    rest = core(strip_connector(question)[0])
    return (detect_language(rest) == "zh" and lacks_subject_zh(rest)
            and any(word in rest for word in QUESTION_WORDS_ZH))


# The thing a question counts, after its question word and unit, to its end: 病假 of
# 全职员工每年有几天病假, 年假 of …有多少天年假
_COUNTED_THING_ZH_RE = re.compile(r"(?:几|多少)(?:个|天|次|周|小时|年|月)?([\u4e00-\u9fff]{2,6})$")


def with_counted_thing(subject: str, topic: str) -> str:
    """The elided subject of a follow-up ("用完了怎么办？") after ``topic``: ``subject``, or,
    when that names people and ``topic`` counts a thing of theirs ("全职员工每年有几天病假？"),
    the thing as theirs ("全职员工每年的病假"): what is used up is the sick leave, not the
    employees (a conversation tester's chain lost 病假)."""
    counted = _COUNTED_THING_ZH_RE.search(core(topic))
    if not subject or counted is None or not any(c in subject for c in PERSON_HEADS_ZH):
        return subject
    return f"{subject}的{counted.group(1)}"
