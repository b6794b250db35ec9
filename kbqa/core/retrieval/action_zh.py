"""Chinese follow-ups that name another action: "那吃饭呢？" after "出差住酒店一晚能报多少？".

A verb-object phrase replaces the earlier question's action (the verb and the nouns it
takes), by jieba's part-of-speech tags (ICTCLAS tag set), never its object alone.
``focus_zh.combine_zh`` calls it for a "…呢" follow-up. One that says the earlier action
again in another situation ("平时上班打车呢？" after "加班晚了打车回家能报吗？") replaces the
whole situation (``restated_zh``).
"""

from __future__ import annotations

import re

from kbqa.core.retrieval.ellipsis import (
    NOUN_TAG_PREFIXES,
    PREDICATE_START_ZH,
    QUESTION_WORDS_ZH,
    core,
)
from kbqa.core.text.terms import pos_tags


def replace_action_zh(noun: str, topic: str) -> str | None:
    """The topic with its action replaced by ``noun`` when ``noun`` is an action (a verb
    word alone, 吃饭/v; a one-character verb and its object, 坐/v 高铁/n; or a fixed
    phrase opening with one: 坐地铁/i, 吃晚饭/l; not 审计/v 日志/n, a thing) and
    the topic's action is a verb with its object, or ``noun`` is one: "那吃饭呢？" after
    "出差住酒店一晚能报多少？" asks "出差吃饭能报多少？" (never "出差住吃饭…": the object
    alone replaced; the period right after it, 一晚 or 每晚, is the hotel's rate, and "吃饭
    每晚" quoted the hotel rule), "那坐地铁呢？" after "出差打车能报销吗？" asks
    "出差坐地铁能报销吗？".
    The topic's action is its last verb before the predicate (a modal, also inside a word
    jieba joins: 能报/n; a copula, adverb or question word) with the nouns after it; what
    comes before it (出差) stays. None otherwise: a bare verb after a topic whose action
    takes no object ("那加班呢？" after "出差打车…") may replace the situation instead."""
    own = [p for p in pos_tags(noun) if p[0].strip()]
    phrase = bool(own) and own[0][1] in ("i", "l") and pos_tags(own[0][0][0])[0][1] == "v"
    # a verb of two characters before a noun modifies it (审计/v 日志/n: a thing, not an act)
    verb = bool(own) and own[0][1] == "v" and (len(own[0][0]) == 1 or len(own) == 1)
    if not own or not (verb or phrase) or own[0][0] in PREDICATE_START_ZH:
        return None
    text = core(topic)
    span, _ = _action(text)
    if span is None:
        return None
    with_object = span[1] - span[0] > len(pos_tags(text[span[0]:span[1]])[0][0])
    if not (with_object or len(own) > 1 or phrase):
        return None
    for k in range(len(own) - 1, 0, -1):  # "请客户喝咖啡" after "请客户吃饭…": 请客户 once
        lead = "".join(w for w, _ in own[:k])
        if text[:span[0]].endswith(lead):
            span = (span[0] - len(lead), span[1])
            break
    after = _OWN_RATE_RE.sub("", text[span[1]:], count=1)
    return f"{core(text[:span[0]] + noun + after)}？"


# A period right after the earlier action is that action's rate: 住酒店一晚, 打车每次.
_OWN_RATE_RE = re.compile("^[，,]?(?:每|一)个?(?:晚|天|日|次|周|星期|月|年)")


def restated_zh(noun: str, topic: str) -> str | None:
    """``noun`` with the topic's predicate when ``noun`` says the topic's action again in
    another situation: "平时上班打车呢？" after "加班晚了打车回家能报吗？" asks "平时上班打车能报
    吗？" (the earlier situation, 加班晚了, is not the new one's: merged, it repeated the
    overtime rule where the policy says commuting is not reimbursed); the topic's subject
    stays ("那上下班打车呢？" after "员工出差打车能报销吗？": 员工上下班打车…). None otherwise."""
    text = core(topic)
    span, predicate = _action(text)
    if span is None or predicate is None:
        return None
    verb = pos_tags(text[span[0]:span[1]])[0][0]
    words = [w for w, _ in pos_tags(noun) if w.strip()]
    if len(verb) < 2 or verb not in words or len(words) < 2:
        return None
    # the topic's subject before its situation stays (员工 of 员工出差打车…)
    subject = ""
    for word, flag in pos_tags(text[:span[0]]):
        if not flag.startswith(("n", "r")) or word in noun:
            break
        subject += word
    return f"{subject}{noun}{text[predicate:]}？"


def _action(text: str) -> tuple[tuple[int, int] | None, int | None]:
    """The span of ``text``'s action (its last verb before the predicate, with the nouns
    after it) and where the predicate starts (a modal, also inside a word jieba joins:
    能报/n; a copula, adverb or question word); None for what it lacks."""
    span: tuple[int, int] | None = None
    at, open_ = 0, False
    for word, flag in pos_tags(text):
        if (word.startswith(_PREDICATE_STARTS) or flag.startswith("d")
                or any(q in word for q in QUESTION_WORDS_ZH)):
            return span, at
        if flag == "v":
            span, open_ = (at, at + len(word)), True
        elif open_ and span and flag.startswith(NOUN_TAG_PREFIXES):
            span, open_ = (span[0], at + len(word)), True
        else:
            open_ = False
        at += len(word)
    return span, None


# ``PREDICATE_START_ZH`` opens a predicate also inside a word jieba joins (能报/n).
_PREDICATE_STARTS = tuple(sorted(PREDICATE_START_ZH))
