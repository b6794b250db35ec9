"""Something of one's own left behind somewhere is lost, as people say it.

"I left my laptop on the train!! what now", "left my work laptop in a taxi", 把公司笔记本
落车上了: the documents say "a lost or stolen laptop" (笔记本电脑丢失), and the reader met
"left" as "leave" ("When you leave the company, you may buy your laptop…", "Return your
laptop… on your last working day": three knowledge bases, eight questions of the testers'
sets). ``as_lost`` reads the verb in that sense: "left" (leave, leaving) with the asker's
own thing (after "my", "our", "work", "company") and a place it was left on or in, other than
where one keeps it ("at home", "in the office": not with me, not lost), becomes "lost"
(lose, losing); 落/忘 in or on a vehicle or a public place becomes 丢. "Someone left a USB
stick on my desk" is no loss of the asker's and stays.
"""

from __future__ import annotations

import re

# where one keeps one's things: a thing left there is not with the asker, not lost
_KEPT_AT = r"home|office|desk|work|house|flat|apartment|room|locker|place|bag"
_LEFT_EN_RE = re.compile(
    r"\b(?P<verb>left|leave|leaving)(?P<thing>\s+(?:my|our|the\s+company(?:'s|’s)?|company|work)"
    r"\b[\w\s'’-]{0,40}?)(?P<where>\s+(?:behind\s+)?(?:on|in|at|inside)\s+(?:the\s+|a\s+|an\s+"
    rf"|my\s+|some\s+)?+(?!(?:{_KEPT_AT})\b)[a-z])", re.IGNORECASE)
_LOST_EN = {"left": "lost", "leave": "lose", "leaving": "losing"}
_PLACES_ZH = (r"出租车|的士|网约车|车|火车|高铁|动车|地铁|公交车?|大巴|飞机|机场|车站"
              r"|餐厅|饭店|酒店|咖啡馆")
_LEFT_ZH_RE = re.compile(rf"(?:落|忘)(?:在|到)?(?=(?:{_PLACES_ZH})(?:上|里))")


def as_lost(question: str) -> str:
    """``question`` with a thing of one's own left behind somewhere said as lost (module
    docstring); other questions as they are."""
    def lost(found: re.Match[str]) -> str:
        word = _LOST_EN[found.group("verb").lower()]
        word = word.capitalize() if found.group("verb")[0].isupper() else word
        return f"{word}{found.group('thing')}{found.group('where')}"

    return _LEFT_ZH_RE.sub("丢在", _LEFT_EN_RE.sub(lost, question))
