"""Who to ask: a contact point answers "who do I ask…?" as a person's name does.

"Who do I ask about laptops?" is answered by "Questions about laptops, accounts or
software: the IT helpdesk portal." — a desk, a team, a portal, an address or a number is
where the asker goes, and no person's name is expected (a conversation tester's chain was
refused for want of one). Only a question asking whom to turn to ("who do I ask / contact /
talk to / call", 找谁, 问谁, 联系谁) is read so: "Who is the CEO?" still needs a person.

A question asking for a number to call or an address to write to ("what number do I call?",
"the helpdesk e-mail?", 打哪个电话, 邮箱是多少) is answered only by a sentence that gives one
(``reach_unstated``): a sentence about the same desk without its number does not answer it.
"""

from __future__ import annotations

import re

from kbqa.core.readers.extractive.text import folded_terms
from kbqa.core.text import thesaurus
from kbqa.core.text.terms import fold, is_stop_en, stem

# A phone number: eight or more digits with their separators, an extension ("分机 8119",
# "ext. 4410", "x4410": a company's own numbers are often only those) or a short number
# after a dialling verb ("call 112", 拨打 119).
_PHONE = (r"\+?\d[\d ()-]{6,}\d|(?:分机|内线|短号)号?\s*[:：]?\s*\d{3,}"
          r"|\b(?:ext\.?|extension)\s*\d{3,}\b|\bx\d{3,}\b|(?:\b(?:call|dial|ring)\s+|拨打\s*|致电\s*)\d{3,}")
_PHONE_RE = re.compile(_PHONE, re.IGNORECASE)
_EMAIL = r"[\w.+-]+@[\w-]+\.[\w.]+"
_CONTACT_ASK_RE = re.compile(
    r"\bwho (?:do|should|can|must|would) (?:i|we|you) (?:ask|contact|talk to|speak to|call|"
    r"e-?mail|write to|tell|go to|report (?:it |this )?to)\b|找谁|问谁|联系谁|跟谁说|向谁|找哪个",
    re.IGNORECASE)
_CONTACT_RE = re.compile(
    r"\b(?:help ?desk|service desk|portal|team|department|hotline|HR|IT support)\b"
    rf"|{_EMAIL}|{_PHONE}|服务台|部门|门户|热线|邮箱|专员|人事|行政",
    re.IGNORECASE)


def asks_contact(question: str) -> bool:
    """Whether ``question`` asks whom to turn to (module docstring)."""
    return bool(_CONTACT_ASK_RE.search(question))


def states_contact(text: str) -> bool:
    """Whether ``text`` names a contact point: a desk, team, department, portal or hotline,
    an e-mail address or a phone number (English or Chinese)."""
    return bool(_CONTACT_RE.search(text))


_WORD_RE = re.compile(r"[A-Za-z]+")


def contact_topic(question: str) -> frozenset[str]:
    """The folded nouns of ``question`` after its asking words, what the contact is for
    ("laptops" of "who do I ask about laptops?"; not "think" of "…if I think there's a
    mistake…"): English words WordNet reads rather as nouns, a Chinese question's terms."""
    found = _CONTACT_ASK_RE.search(question)
    rest = question[found.end():] if found else ""
    if not rest.isascii():
        return folded_terms(rest)
    return frozenset(fold(stem(w.lower())) for w in _WORD_RE.findall(rest) if len(w) > 2
                     and not is_stop_en(w, False) and thesaurus.rather_noun(w.lower()))


_PHONE_ASK_RE = re.compile(
    r"\b(?:phone|telephone|hotline|emergency) (?:number|line)\b|\bnumbers? to (?:call|dial)\b"
    r"|\bnumber (?:do|should|can) (?:i|we) (?:call|ring|dial)\b"
    r"|打(?:哪个|什么)电话|电话(?:号码)?(?:是)?(?:多少|几号)|电话号码是(?:什么|哪个)|打哪个|热线(?:是)?(?:多少|什么)",
    re.IGNORECASE)
_EMAIL_ASK_RE = re.compile(
    r"\be-?mail address|\b(?:the|their|its|\w+'s)\s+(?:[\w-]+\s+){0,2}e-?mail(?: again)?\s*[?？]"
    r"|\b(?:address|where) (?:do|should|can) (?:i|we) "
    r"(?:e-?mail|write)\b|邮箱(?:地址)?(?:是)?(?:多少|什么|哪个)|(?:哪个|什么)邮箱|发到哪",
    re.IGNORECASE)
_EMAIL_RE = re.compile(_EMAIL)


def reach_unstated(ask: str, texts: list[str]) -> bool:
    """Whether ``ask`` (the ask clause) asks for a phone number or an e-mail address and
    none of ``texts`` (the quoted sentences) gives one (module docstring)."""
    said = " ".join(texts)
    if _PHONE_ASK_RE.search(ask) and not _PHONE_RE.search(said):
        return True
    return bool(_EMAIL_ASK_RE.search(ask) and not _EMAIL_RE.search(said)
                and not _PHONE_ASK_RE.search(ask))


# The verbs of asking for a number or an address ("what number do I call", 打哪个电话, 发到哪):
# the ask's form, not a word the blocks must have (the number answers it).
_REACH_VERBS = frozenset("call ring dial phone e-mail email write 打 拨 拨打 发".split())


def reach_verbs(question: str) -> frozenset[str]:
    """``_REACH_VERBS`` when ``question`` asks for a phone number or an e-mail address
    (the caller skips those of its words among them); empty for any other question."""
    if not (_PHONE_ASK_RE.search(question) or _EMAIL_ASK_RE.search(question)):
        return frozenset()
    return _REACH_VERBS
