"""A question asked on someone else's behalf, as support and sales staff ask it.

"A customer is asking whether paying for the whole year up front saves them anything.",
"有个客户问我们的服务器在哪，数据会不会被复制到别的地方？", "…which countries our data
centres are in, what do I tell them?": the frame says who asked and that the answer is to
be passed on, and its words ("customer", "asking", 问, "tell") were read as the question's
content: 客户问 met the blocks' 问题 and outweighed the sentence that answers, "what do I
tell them?" made a yes/no question one of what to do (a tester's natural sets: 15 of 27
such questions wrong or refused). ``reported_question`` reads the frame away and keeps
what was asked:

- a reporting clause before the question: a short subject (at most ``MAX_ASKER_WORDS``
  English words, no number; a Chinese person noun with up to four characters before it) and
  a verb of asking ("is asking whether", "wants to know which", "asks if", 问, 想知道); a
  longer subject ("Prospect with 12 people on Business wants to know…") stays, as context,
  before the question; "I want to know if…" is the asker's own frame and goes too;
- a request for the words to pass on after it ("what do I tell them?", "what number do I
  give them?", 我该怎么回？) and a closing "customer is asking", 客户在问.

A question that is nothing but the frame is returned as it was.
"""

from __future__ import annotations

import re

from kbqa.core.text.lexnames import GROUP, PERSON, noun_files

MAX_ASKER_WORDS = 5  # "a prospect's procurement team", "security questionnaire from a bank"
ASKER_SENSES = 4  # a noun's most frequent senses read for a person ("prospect": the 3rd)
# who asks without a person's sense in WordNet: indefinite pronouns (noun.Tops), forms
# that ask, departments
_ASKERS_EN = frozenset({"someone", "somebody", "anyone", "anybody", "people", "questionnaire",
                        "survey", "form", "support", "sales", "legal", "finance", "procurement"})
_NOT_ASKER_WORDS = frozenset({"how", "what", "which", "when", "where", "who", "whom", "whose",
                              "why", "do", "does", "did", "can", "could", "should", "would",
                              "will", "shall", "may", "must", "i", "you"})

_ASKING_EN = (r"(?:(?:is|are|was|were|keeps?|kept)\s+)?(?:asking|asks|asked|wondering|wonders"
              r"|(?:wants?|wanted|would like|needs?)\s+to\s+know)(?:\s+(?:me|us))?")
# what follows a verb of asking: a wh-word (after a preposition: "in which countries"),
# whether/if (dropped), or "about" and its topic
_ASKED_EN = (r"(?P<lead>whether\s+|if\s+|about\s+)?(?P<rest>(?(lead)|(?:(?:in|at|on|for|from|"
             r"to|by|with)\s+)?(?:what|which|when|where|who|whom|whose|why|how)\b).*)")
_LEADING_EN_RE = re.compile(
    rf"^\s*(?P<who>[\w'’-]+(?:\s+[\w'’-]+){{0,9}}?)\s*,?\s+{_ASKING_EN}\s+{_ASKED_EN}$",
    re.IGNORECASE | re.DOTALL)
_FIRST_PERSON_RE = re.compile(r"^(?:i|we)(?:'d|’d)?$|^(?:i|we)\s", re.IGNORECASE)
_AND_RE = re.compile(r"\s+and$", re.IGNORECASE)
_DETERMINER_RE = re.compile(r"^(?:a|an|the|one|some|this|our|my)\s+", re.IGNORECASE)
_PASS_ON_EN_RE = re.compile(
    r"(?:^|(?<=[.?!,;:])|\s+[-—–]+)\s*(?:so\s+)?(?:what|how)\s+(?:\w+\s+)?(?:do|should|can|shall)"
    r"\s+(?:i|we)\s+(?:tell|say|answer|reply|respond|give|put|quote)"
    r"(?:\s+(?:to\s+)?(?:them|him|her|the\s+(?:customer|client|prospect)))?(?:\s+in)?"
    r"\s*[?.!]*\s*$", re.IGNORECASE)
_CLOSING_ASKER_EN_RE = re.compile(
    rf"(?<=[.?!,;:])\s*(?:(?:a|the|my|our)\s+)?[\w'’-]+(?:\s+[\w'’-]+)?\s+{_ASKING_EN}"
    r"\s*[.?!]*\s*$", re.IGNORECASE)

# 客户/同事/领导… 问: a person noun (with up to four characters before it: 国内客户) and the
# verb; 问 not the start of 问题, 问卷, 问候, 问责
_PERSON_ZH = r"(?:客户|客人|同事|领导|经理|老板|用户|朋友|新人|供应商|合作方|对方|候选人|有人)"
_LEADING_ZH_RE = re.compile(
    rf"^\s*(?:有(?:个|位|一个|一位|些)?)?[\u4e00-\u9fff]{{0,4}}?{_PERSON_ZH}"
    r"(?:在|又|一直|刚才|刚刚|刚)?(?:问(?![题卷候责号])|想知道|想问)[，,：:\s]*"
    r"(?P<rest>\S.*)$", re.DOTALL)
_PASS_ON_ZH_RE = re.compile(
    rf"[，,。；;]?\s*(?:{_PERSON_ZH}(?:在|一直)?问[，,]?\s*)?(?:我|我们)?(?:该|应该|要)?怎么"
    r"(?:回|回复|答复|回答|说)(?:他|她|他们|对方|客户)?(?:呢|啊)?\s*[？?。]?\s*$")
_CLOSING_ASKER_ZH_RE = re.compile(
    rf"[，,。]\s*{_PERSON_ZH}(?:在|一直)?(?:问|想知道)\s*[？?。]?\s*$")


def reported_question(question: str) -> str:
    """``question`` without a frame of asking on someone's behalf (module docstring);
    other questions as they are."""
    text = _without_pass_on(question)
    found = _LEADING_ZH_RE.match(text)
    if found:
        text = found.group("rest")
    else:
        found = _LEADING_EN_RE.match(text)
        if found:
            who = found.group("who")
            asker = _DETERMINER_RE.sub("", who)
            rest, named = found.group("rest"), names_asker(asker)
            if _FIRST_PERSON_RE.match(who) or (
                    named and len(asker.split()) <= MAX_ASKER_WORDS
                    and not re.search(r"\d", asker)):
                text = rest
            elif _AND_RE.search(who):  # "customer has 40 seats … and asks whether"
                text = f"{_AND_RE.sub('', who)}. {rest}"
            elif named:
                text = f"{who}: {rest}"
    return text if re.search(r"\w", text) else question


def names_asker(words: str) -> bool:
    """Whether ``words`` (an English subject) name someone who asks: a word with a sense
    among WordNet's people (``lexnames.PERSON`` in its first ``ASKER_SENSES`` senses) or
    groups (``lexnames.GROUP``, its first sense), or one of ``_ASKERS_EN``; never a subject
    with a wh-word or an auxiliary ("how do I answer a customer who asks…")."""
    found = [w.lower() for w in re.findall(r"[A-Za-z]+", words)]
    if not found or any(w in _NOT_ASKER_WORDS for w in found):
        return False
    return any(w in _ASKERS_EN or _person_or_group(w) for w in found)


def _person_or_group(word: str) -> bool:
    files = noun_files(word)
    return PERSON in files[:ASKER_SENSES] or files[:1] == (GROUP,)


def _without_pass_on(question: str) -> str:
    """``question`` without a closing request for the words to pass on or a closing
    "customer is asking", its question mark kept."""
    text = question
    for pattern in (_PASS_ON_EN_RE, _CLOSING_ASKER_EN_RE, _PASS_ON_ZH_RE, _CLOSING_ASKER_ZH_RE):
        shorter = pattern.sub("", text).rstrip(" ,，;；:：-—–")
        if shorter and shorter != text and re.search(r"\w", shorter):
            text = shorter
    if text != question and not re.search(r"[?？]\s*$", text):
        mark = "？" if re.search(r"[\u4e00-\u9fff]", text) else "?"
        text = re.sub(r"[.。!！]+\s*$", "", text) + mark
    return text
