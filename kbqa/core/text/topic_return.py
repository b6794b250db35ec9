"""A question that says which earlier topic it goes back to, as people do in a long chat.

"回到打车的问题，晚上几点以后可以打车？", "back to the laptop question: can I buy it when I
leave?": the frame ("回到…的问题", "back to…") names the topic and says nothing else, and
its words ("回到", "问题", "question") were read as content: the question was refused for a
low score, the closest documents being about "questions" (a conversation tester's report).
``topic_returned`` reads the frame away and keeps its topic where the question can use it:
in place of the question's own pronoun ("it", "them", 它), else before the question ("打车，
晚上几点以后可以打车？"), so no earlier turn's topic is carried instead of it.
"""

from __future__ import annotations

import re

# 回到/说回 X 的问题: the noun (问题, 话题, 事) is needed after 回到, which is also the verb of
# "回到工作岗位后" (back at work); 说回 ("to come back to") is the frame alone.
_FRAME_ZH_RE = re.compile(
    r"^\s*(?:那|那么)?(?:(?:再)?回到(?:刚才|之前|前面)?(?:的|说的|问的)?"
    r"(?P<topic>[^，,：:。？?！!\s]{1,16}?)(?:的|这个|那个)?(?:问题|话题|事)"
    r"|(?:再)?说回(?:到)?(?:刚才|之前|前面)?(?:的|说的|问的)?"
    r"(?P<said>[^，,：:。？?！!\s]{1,16}?)(?:的|这个|那个)?(?:问题|话题|事)?)"
    r"\s*[，,：:]\s*(?P<rest>\S.*)$")
# "going back to X, …", "back to the X question: …"; a bare "back to work, …" is no frame
_FRAME_EN_RE = re.compile(
    r"^\s*(?:(?:ok|okay|so|and)[\s,]+)?(?:going back to (?:the |my |our )?"
    r"(?P<topic>[a-z][\w -]{0,40}?)(?: question| topic| thing)?"
    r"|back to (?:the |my |our )?(?P<named>[a-z][\w -]{0,40}?)"
    r" (?:question|topic|thing))\s*[,:;—-]+\s*(?P<rest>\S.*)$",
    re.IGNORECASE)
_PRONOUN_EN_RE = re.compile(r"\b(?:it|them|they)\b", re.IGNORECASE)
_PRONOUN_ZH = ("它们", "它")


def topic_returned(question: str) -> str:
    """``question`` without a frame going back to an earlier topic (module docstring), its
    topic in place of the question's first pronoun or before it; other questions as they
    are."""
    found = _FRAME_ZH_RE.match(question)
    if found:
        topic, rest = found.group("topic") or found.group("said"), found.group("rest")
        pronoun = next((p for p in _PRONOUN_ZH if p in rest), None)
        return rest.replace(pronoun, topic, 1) if pronoun else f"{topic}，{rest}"
    found = _FRAME_EN_RE.match(question)
    if found:
        topic, rest = (found.group("topic") or found.group("named")).strip(), found.group("rest")
        if _PRONOUN_EN_RE.search(rest):
            return _PRONOUN_EN_RE.sub(f"the {topic}", rest, count=1)
        return f"{topic}: {rest}"
    return question
