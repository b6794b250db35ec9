"""Courtesy around a question, which says nothing of what is asked.

"and monitors? please", "please, and monitors?", "and for admins? thanks": the offline
rewrite read "please" and "thanks" as part of the follow-up and built "How often is the
monitors? please replaced?" (a tester padded follow-ups with "please please": three answers
about something else). ``without_courtesy`` takes a leading "please" (请问, 麻烦问一下) or
thanks for the last answer ("ok thx.", 好的谢谢，) and closing thanks or please (谢谢) off
before a follow-up is read; the question's own words and
its question mark stay. Issue 12's first item names politeness among the words that are
never content.
"""

from __future__ import annotations

import re

# The words of thanks and of assent, in both languages (an opening's, a small talk's).
_THANKS_EN = r"thanks|thank you|thx|ty|cheers|many thanks"
_ASSENT_EN = r"ok|okay|alright|great|cool|perfect|got it"
_THANKS_ZH = r"谢谢|多谢|谢啦"
_ASSENT_ZH = r"好的|好|嗯|哦"
# ...and thanks for the last answer before the next question ("ok thx. who do I ask…?",
# "thanks! and for part-timers?", 好的谢谢，那病假呢？): only with a break after it, so
# "thanks for the help" stays as written
_OPENING_RE = re.compile(
    r"^\s*(?:(?:please|pls|plz|kindly|excuse me|sorry)\b[\s,，.!！:：]*"
    r"|(?:请问|麻烦问一下|麻烦问下|麻烦|打扰一下|不好意思)[\s,，:：]*"
    rf"|(?:(?:{_ASSENT_EN})[\s,.!]+)?(?:{_THANKS_EN})\s*[,.!;:]+\s*"
    rf"|(?:{_ASSENT_ZH})?[，,]?(?:{_THANKS_ZH})[，,。.!！~～]+\s*)+", re.IGNORECASE)
_CLOSING_RE = re.compile(
    rf"(?:(?<![\w-])(?:please|pls|plz|thanks a lot|{_THANKS_EN})"
    rf"|谢谢啦|{_THANKS_ZH})[\s,，.。!！~]*$", re.IGNORECASE)
_END_MARKS_RE = re.compile(r"[\s,，.。!！~?？]+$")


def without_courtesy(question: str) -> str:
    """``question`` without a leading "please" and closing thanks or please (module
    docstring); a question that is nothing else is returned as it was."""
    text = _OPENING_RE.sub("", question)
    mark = ""
    while True:  # "and monitors? please please", "and monitors please?"
        ends = _END_MARKS_RE.search(text)
        mark = mark or ("？" if ends and "？" in ends.group() else
                        "?" if ends and "?" in ends.group() else "")
        shorter = _CLOSING_RE.sub("", _END_MARKS_RE.sub("", text))
        if shorter == _END_MARKS_RE.sub("", text):
            break
        text = shorter
    text = _END_MARKS_RE.sub("", text) + mark if mark else text.strip()
    return text if re.search(r"\w", text) else question


# A message of nothing but greeting, thanks, assent or a call for help: no question to
# search for ("thanks!", "ok bye", "help", 谢谢, 好的).
_SMALL_TALK_RE = re.compile(
    rf"^(?:(?:hi|hello|hey|{_THANKS_EN}|{_ASSENT_EN}|nice|awesome|bye|goodbye|see you|help"
    rf"|yes|no|你好|您好|{_THANKS_ZH}|{_ASSENT_ZH}|再见|拜拜|帮助|收到|明白了|知道了)"
    r"[\s,，.。!！~～?？]*)+$", re.IGNORECASE)


def is_small_talk(message: str) -> bool:
    """Whether ``message`` is only greeting, thanks, assent or "help" (``_SMALL_TALK_RE``):
    there is nothing to look up, and a refusal naming documents would be noise."""
    return bool(_SMALL_TALK_RE.match(message.strip()))
