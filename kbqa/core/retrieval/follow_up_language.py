"""A follow-up fragment asked in the other language than the question it follows, said in
that question's language so its focus can replace the earlier one.

"How many days of annual leave do full-time employees get?" then "那病假呢？": the offline
rewrite replaces the topic's focus with the follow-up's noun only within one language,
so it searched "病假 (days)" and the reader, holding "days" to the Chinese blocks, declined.
A bare noun of the fragment that CC-CEDICT translates (``kbqa.core.text.bilingual``: its
first gloss, or the most frequent Chinese word glossed with the English phrase) into a
sibling of the topic's thing (the same head: "sick leave" beside "annual leave") is asked
in the topic's language instead: "and what about sick leave?", ``那病假呢？``. Any other
noun (上海 after a leave question), and a group of people (管理员 is first "manager"; the
rewrite drops the topic's group words for a new group instead), leave the fragment as it
was.
"""

from __future__ import annotations

import re

from kbqa.core.retrieval.ellipsis import QUESTION_WORDS, core, strip_connector
from kbqa.core.retrieval.focus_en import is_person_en
from kbqa.core.retrieval.focus_zh import TRAILING_PARTICLE_ZH_RE
from kbqa.core.retrieval.tags_zh import PERSON_HEADS_ZH
from kbqa.core.text.bilingual import chinese_words, english_glosses
from kbqa.core.text.normalise import detect_language
from kbqa.core.text.terms import is_stop_en

_ZH_NOUN_RE = re.compile(r"[\u4e00-\u9fff]{2,6}")
_EN_WORD_RE = re.compile(r"[a-z]+")
# What is left of "and what about sick leave?", "how about contractors?", "and for interns?"
# once the connector is gone: a noun of one to three words.
_EN_FRAGMENT_RE = re.compile(
    r"^(?:(?:what|how)\s+about\s+|for\s+)?(?:the\s+)?([a-z]+(?:[ -][a-z]+){0,2})$",
    re.IGNORECASE)


def fragment_in(language: str, fragment: str, topic: str = "") -> str | None:
    """``fragment`` (a follow-up, its connector allowed) said in ``language`` ("en" or
    "zh") when it is a bare noun CC-CEDICT translates into a sibling of ``topic``'s thing:
    its head (last word; in Chinese its last character) is one ``topic`` has ("sick leave"
    beside "annual leave", 病假 beside 年假), so it replaces that thing; None otherwise (上海
    is no kind of leave, and its gloss "Shanghai municipality" is no place to put one)."""
    rest = strip_connector(fragment)[0]
    if language == "en" and detect_language(rest) == "zh":
        noun = TRAILING_PARTICLE_ZH_RE.sub("", core(rest))
        if not core(rest).endswith("呢") or not _ZH_NOUN_RE.fullmatch(noun):
            return None
        if noun[-1] in PERSON_HEADS_ZH:  # a group: 管理员 is "manager" first, not admins
            return None
        glosses = english_glosses(noun)
        if not glosses or glosses[0][-1] not in _EN_WORD_RE.findall(topic.lower()):
            return None
        return f"and what about {' '.join(glosses[0])}?"
    if language == "zh" and detect_language(rest) == "en":
        found = _EN_FRAGMENT_RE.match(core(rest))
        phrase = found.group(1).lower() if found else ""
        if not phrase or any(w in QUESTION_WORDS or is_stop_en(w, False)
                             for w in phrase.replace("-", " ").split()):
            return None  # "how long?", "and if it is late?": no noun to translate
        if is_person_en(phrase):
            return None  # a group: the topic's group words are dropped instead
        words = [w for w in chinese_words(phrase) if w[-1] in topic]
        return f"那{words[0]}呢？" if words else None
    return None
