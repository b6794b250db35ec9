"""Whether the quoted sentences answer the question, or only share its topic (``answers``).

A sentence may hold a span of the asked type (a date, a number, a name) and the question's
words, and still not answer: the span belongs to something else. RGB's negative passages
(Chen et al. 2023) are made of such sentences: a dateline's date before a sentence about the
event ("Sep 5, 2016 ... 港口音乐节首次吸引了上万名观众"), the winners of another year in a
list, an amount in a clause about another company. So the span must be
*bound* to the question (``bound_answer``): it counts only in a clause (split at commas,
semicolons, ellipses and dashes, ``clauses``) that holds one of the question's *anchor*
terms (``anchors``: its content words other than answer-type words, units and Chinese
light words) itself or, for a quantity or a time, in the clause just before it ("商业版和
企业版可以按 1 TB 为单位购买额外空间，每 1 TB 每月 10 欧元": the amount's clause continues
the one naming the plans); and a clause naming another year than the one asked
("港口音乐节2022年的观众人数为12万人" for 2021) does not answer.

Since 2026-12-01 the clause must also share an anchor other than the asked year, speak of
the asked edition, state a fact rather than a forecast and give a date, not a bare year,
for "when" and a year for "which year" (``event.py``); untyped asks are typed further,
terms, asked roles and rates checked (``asks.py``); every noun of the ask another passage
names is named by the answer's passage (``nouns.py``); the clause speaks in the asked
frame (year in force, quarter, version, a settled result) and typed asks get what they need
(a month, a class, the attribute, a count of the asked thing: ``frames.py``).

Measured 2026-11-30 on RGB (whole files, offline reader, against main ``8e7af70``) and on
the demo and natural sets; the figures are in README "Evaluation".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from kbqa.core.readers.extractive.anaphora import clause_before, names_own
from kbqa.core.readers.extractive.asks import (
    asked_roles,
    capital_unnamed,
    hours_unstated,
    other_purpose,
    refined_kind,
    states_roles,
    states_term,
    term_ask,
    where_unstated,
    wrong_unit,
)
from kbqa.core.readers.extractive.conditions import states_condition
from kbqa.core.readers.extractive.contacts import (
    asks_contact,
    contact_topic,
    reach_unstated,
    states_contact,
)
from kbqa.core.readers.extractive.event import (
    forecast,
    other_edition,
    other_work,
    strip_years,
    year_only,
)
from kbqa.core.readers.extractive.expand import is_question
from kbqa.core.readers.extractive.focus import (
    CLAUSE_END_RE,
    AskKind,
    ask_clause,
    ask_kind,
    is_yes_no,
    new_answer,
)
from kbqa.core.readers.extractive.frames import (
    another_frame,
    classes,
    genre_ask,
    planned,
    uncounted,
    undated,
    undated_day,
    unnamed_attribute,
    year_in_force,
)
from kbqa.core.readers.extractive.identifiers import (
    covers_salient,
    current_years,
    names_identifier,
    salient_terms,
    shares_more_than_names,
)
from kbqa.core.readers.extractive.kinds import names_a_sibling, unnamed_kinds
from kbqa.core.readers.extractive.nouns import unnamed
from kbqa.core.readers.extractive.own_names import another_row
from kbqa.core.readers.extractive.question import (
    ANSWER_TYPE_TERMS,
    CLOCK_RE,
    answer_kind,
    light_parts,
    light_terms,
    unit_terms,
)
from kbqa.core.readers.extractive.question_verbs import verbs_after
from kbqa.core.readers.extractive.roles import (
    another_role,
    another_title,
    antecedent,
    beyond_role,
)
from kbqa.core.readers.extractive.scope import other_scope
from kbqa.core.readers.extractive.text import Candidate, folded_terms, question_numbers
from kbqa.core.readers.extractive.thresholds import asker_amounts, decides_cap, meets_threshold
from kbqa.core.readers.extractive.units import other_rate
from kbqa.core.text.terms import fold, stem
from kbqa.core.types import Block

# Clause ends inside a sentence: commas and semicolons (both scripts), ellipses, a dash or
# bar between spaces. Not colons ("Hotels: up to EUR 170", "9:00"), enumeration commas (北京、
# 上海) or brackets, which keep a label or aside with what it qualifies (measured each).
_CLAUSE_RE = re.compile(r"\s*(?:[,，;；]|\.\.\.|…+|\s[-–—·|]\s)\s*")
_YEAR_RE = re.compile(r"(?<![0-9.])(?:19|20)\d\d(?![0-9.])")
_STATED_YEAR_RE = re.compile(r"(?<![0-9.])(?:19|20)\d\d(?![0-9]|\.\d)")  # "in 2020."
# Kinds whose span may lean on the clause before it for its subject ("…额外空间，每 1 TB 每月
# 10 欧元"). A name may not: in RGB the clause before a name is mostly another event's
# (letting names lean, whole files: zh_refine +2 right but +10 unsupported answers).
_LEANING_KINDS = frozenset(("quantity", "money", "number", "time", "version"))


def clock_only(question: str) -> bool:
    """Whether every value the question states is a time of day (``CLOCK_RE``)."""
    return bool(CLOCK_RE.search(question)) and not question_numbers(CLOCK_RE.sub(" ", question))


# The words of ANSWER_TYPE_TERMS that ask for a version: an answer-type word only when a
# version is what the question asks for; asked how long or how much, they name the thing
# asked about ("旧版本能放几天？": the versions kept, not a version number).
_VERSION_TERMS = frozenset(fold(t) for t in ("version", "versions", "版本"))


def answer_type_terms(question: str) -> frozenset[str]:
    """``ANSWER_TYPE_TERMS`` as ``question`` uses them: without the version words unless
    the question asks for a version (``answer_kind``)."""
    if answer_kind(question) == "version":
        return ANSWER_TYPE_TERMS
    return ANSWER_TYPE_TERMS - _VERSION_TERMS


def bound_terms(question: str, qterms: Sequence[str], kept: Sequence[str]) -> frozenset[str]:
    """The question's terms an answer is bound to (``answers``' ``qterms``): ``qterms``
    without the terms no block has that stand only in the asker's story, outside every
    clause ending with a question mark and outside ``ask_clause`` (``kept``: the terms some
    block has and the ask clause's own, as the reader expanded them): the errand of
    "下午想请个假去办点事，年假最小能按多少请？" binds nothing (半天 answers); a term of an
    earlier question ("有婚假吗？几天？") still binds."""
    text = unicodedata.normalize("NFKC", question)
    asking = [p for p in CLAUSE_END_RE.split(text) if p.rstrip().endswith("?")]
    said = folded_terms(" ".join([*asking, ask_clause(question)])) | frozenset(kept)
    return frozenset(t for t in qterms if t in said)


# The period of a rate asked ("how many days a week"): part of the unit, not what is asked of.
_PERIOD_RE = re.compile(
    r"\bhow (?:many|much) [a-z]+(?: [a-z]+)? (?:a|an|per|each|every) "
    r"(minute|hour|day|night|week|month|quarter|year)s?\b", re.IGNORECASE)


@lru_cache(maxsize=512)
def anchors(question: str, qterms: frozenset[str]) -> frozenset[str]:
    """The terms of ``qterms`` (the question's folded terms) a bound span's clause must share:
    all but answer-type words ("limit", 时间), the unit of "how many days" and Chinese light
    words (pronouns such as 谁 and 哪, measure words, times, single characters). English
    stop-list words stay anchors ("free" in "try NimbusDrive for free")."""
    units = unit_terms(question)
    light = light_parts(sorted(qterms), light_terms(question) | units)
    skip = frozenset(t for t in light if not t.isascii()) | units | answer_type_terms(question)
    kept = frozenset(t for t in qterms if t not in skip)
    # the period of an asked rate binds only when no word but the asker's numbers is left
    period = frozenset(fold(stem(p)) for p in _PERIOD_RE.findall(question))
    return kept - period if any(not t.isdigit() for t in kept - period) else kept


def clauses(text: str) -> list[str]:
    """``text`` (NFKC) split at clause ends (``_CLAUSE_RE``), empty pieces dropped."""
    return [c for c in _CLAUSE_RE.split(unicodedata.normalize("NFKC", text)) if c.strip()]


def _states_span(kind: AskKind, part: str, first: bool, question: str) -> bool:
    """Whether clause ``part`` states what ``kind`` asks for: a term for a term ask
    (``asks.states_term``), else ``new_answer`` on it, without its years when a date is
    asked (``event.year_only``)."""
    if kind == "time" and undated_day(question, part):
        return False  # "当地时间26日" names no month
    if kind == "time" and year_only(question):
        part = strip_years(part)
    elif kind == "time" and not _STATED_YEAR_RE.search(part):
        return False  # "哪一年", "which year": a date without its year does not say
    if kind == "other":
        return states_term(part, question)
    # "… " keeps a name that opens a later clause a name; the sentence's first word is
    # skipped as ``states`` skips it ("The United States"; measured on RGB en_fact:
    # counting it answers 1 more right and 3 more unsupported).
    return new_answer(kind, part if first else f"… {part}", question)


def _about_another(kind: AskKind, question: str, part: str, window: str, upto: str) -> bool:
    """Whether a clause (``part``, with the clause it leans on: ``window``; ``upto``: its
    sentence up to the clause's end) speaks of another year, edition or measure than the
    question's, or only forecasts (``frames``: the year in force, another quarter or
    version, an outcome still to come, a title from other editions)."""
    asked = set(_YEAR_RE.findall(unicodedata.normalize("NFKC", question)))
    years = set(_YEAR_RE.findall(part))
    if asked and years and not years & asked:
        return True
    if kind != "time" and year_in_force(question, upto):
        return True
    if kind not in ("time", "place") and planned(question, window):
        return True
    if kind == "quantity" and uncounted(question, part):
        return True
    if kind in ("quantity", "number", "money") and other_scope(question, upto):
        return True  # "年均1300万人", "全省…136.8万人" for the country's figure of a year
    if another_frame(question, window) or other_work(question, window):
        return True
    # ...but the versions asked for are numbered names ("Which Windows versions…?": 10, 11)
    if (kind != "version" and other_edition(question, window)) or forecast(question, window):
        return True
    if kind in ("person", "name") and another_role(question, part):
        return True  # "video director Bruce Gowers" for the film's director
    if another_title(question, part):
        return True  # the "Hawaii State Teacher of the Year" for the National one
    return kind in ("quantity", "money") and wrong_unit(question, part)


# "When are taxis reimbursed?" asks under which conditions: "Taxis … are reimbursed when no
# reasonable public transport exists" answers it with a clause, not a time.
# A clause that goes on with the subject of the one before it ("…可以从回收站还原项目，
# 也可以恢复历史版本", "Owners can remove members, and can also transfer the folder"):
# what it says is said of that subject.
_SAME_SUBJECT_RE = re.compile(
    r"^(?:也|还(?=可以|能|会|要|需|须|应)|并且?|而且|同时|"
    r"and (?:also |then )?(?:can|may|must|will|should|need|have)\b|or (?:can|may)\b)",
    re.IGNORECASE)


def _same_subject(parts: list[str], i: int) -> int:
    """How many clauses after clause ``i`` of ``parts`` go on with its subject
    (``_SAME_SUBJECT_RE``)."""
    n = 0
    while i + n + 1 < len(parts) and _SAME_SUBJECT_RE.match(parts[i + n + 1]):
        n += 1
    return n


# A sentence opening with the case it is for: "如有入职相关问题，请联系…王丽", "For questions
# about expenses, write to…", "If your laptop is stolen, call…".
_CASE_OPENING_RE = re.compile(
    r"^\s*(?:如有|如果|若|如需|如遇|遇到|对于|关于|if\b|for\b|in case of\b)", re.IGNORECASE)


def _case_binds(kind: AskKind, parts: Sequence[str], question: str,
                anchor: frozenset[str]) -> bool:
    """Whether the sentence (``parts``, its clauses) opens with the case it is for, sharing
    at least two of the question's ``anchor`` terms but the asker's own verbs (all, when it
    has fewer), and a later clause states the asked span: the case binds the span to the
    question. "入职有问题找谁？" was declined beside "如有入职相关问题，请联系人力资源专员王丽",
    whose name shares no word with the question in its own clause."""
    if len(parts) < 2 or not _CASE_OPENING_RE.match(parts[0]):
        return False
    things = anchor - verbs_after(question)  # "contact" of "Who should I contact…?" asks
    if len(folded_terms(parts[0]) & things) < min(2, len(things)) or not things:
        return False
    return any(_states_span(kind, part, False, question) for part in parts[1:])


def bound_answer(kind: AskKind, text: str, question: str, anchor: frozenset[str]) -> bool:
    """Whether sentence ``text`` states what ``kind`` asks for (``_states_span``) in a
    clause that shares an ``anchor`` term other than the asked year (or, for
    ``_LEANING_KINDS``, whose clause before does) and speaks of no other year, edition or
    measure (``_about_another``). Any sentence answers "other" but a term ask
    (``asks.term_ask``); with no anchor only the span is needed."""
    term = kind == "other" and term_ask(ask_clause(question))
    if (kind == "other" and not term) or not anchor:
        return new_answer(kind, text, question)
    if other_work(question, text):
        return False  # "《三体秘密》一书当中，作者解读…" for who wrote 《三体》
    if kind == "time" and states_condition(question, text, anchor):
        return True
    parts = clauses(undated(text))  # a dateline says when the page was written
    if _case_binds(kind, parts, question, anchor) or (  # a contact point, in one sentence
            kind == "person" and asks_contact(question) and states_contact(text)
            and bool(folded_terms(text) & contact_topic(question))):
        return True
    back = 1 if kind in _LEANING_KINDS else 0
    # The asked year says when, not what: a clause sharing only "2022" is not about it
    # (RGB whole files: zh_refine −3 unsupported answers for −1 right, en_fact −1,
    # zh_fact −2).
    about = anchor - frozenset(t for t in anchor if _YEAR_RE.fullmatch(t))
    about = beyond_role(question, about)  # "video director" shares only the role
    for i, part in enumerate(parts):
        # A span opening the sentence ("合同终止后 45 天内，该组织的全部文件…会被永久删除")
        # is an adverbial whose subject is the clause after it.
        ahead = 1 if back and i == 0 and kind != "time" else 0
        ahead = max(ahead, _same_subject(parts, i))
        window = " ".join(parts[max(0, i - back):i + 1 + ahead])
        before = antecedent(parts, i, window)
        # a Chinese word jieba cut otherwise in the clause (餐补 of 餐补为…) is still there
        if (_states_span(kind, part, i == 0, question)
                and not _about_another(kind, question, part, window, " ".join(parts[:i + 1]))
                and (folded_terms(before) & about or any(
                    len(t) > 1 and not t.isascii() and t in before for t in about))):
            return True
    return False


def answers(question: str, chosen: Sequence[Candidate], qterms: frozenset[str],
            blocks: Sequence[Block], absent: frozenset[str] = frozenset(),
            by_meaning: bool = False) -> bool:
    """Whether the quoted sentences answer rather than share the topic: one of them states
    what the question asks for with a span the question does not hold, bound to the
    question (``bound_answer``: "How long" needs a number, "who" a name, "where" a place, in
    a clause about what is asked), and the lead sentence with its passage (block) or title
    states the ask's identifiers ("2021", "Q1": measured on RGB, the sentence alone loses
    more right answers than wrong ones) and it shares more than a name with the question (a
    sentence that shares only a company or product name is not an answer); it never speaks
    of a sibling of the asked thing (``names_a_sibling``: "annual leave" for "paternity
    leave"). ``by_meaning``: the lead was chosen because its sentence similarity stands out
    (``meaning``), so it needs a span of the asked type but not one bound to the question's
    words, and sharing no word at all is no decline; sharing only a name still is."""
    kind = refined_kind(ask_clause(question), ask_kind(question))
    anchor = anchors(question, qterms)
    if by_meaning:
        found = any(new_answer(kind, c.text, question) for c in chosen)
    else:
        found = any(bound_answer(kind, c.text, question, anchor) for c in chosen)
        # ...or a clause after a semicolon stating an amount, naming no one of its own, the
        # clause it leans on sharing an anchor ("…《发票遗失说明》…；每人每年最多可以使用 2 次。")
        if not found and kind in ("quantity", "number", "money"):
            passages = {b.n: b.chunk.text for b in blocks}
            found = any(new_answer(kind, c.text, question) and not names_own(c.text) and bool(
                anchor & folded_terms(clause_before(c.text, passages.get(c.n, ""))))
                for c in chosen)
    # An FAQ's answer is bound to its question line when that holds the anchor ("问：食堂什么
    # 时候开放？" over "早餐 6:30–8:00，午餐 11:00–13:00…", which never names the canteen).
    found = found or not by_meaning and bool(anchor) and any(
        is_question(c.topic) and anchor <= folded_terms(c.topic)
        and new_answer(kind, c.text, question) for c in chosen)
    # The rule above a threshold the asker's own amount exceeds is bound to the question
    # by that amount ("单笔金额超过 5000 元的…" for "我有张 6000 块的报销单").
    amounts = asker_amounts(question)
    found = found or any(meets_threshold(amounts, c.text) for c in chosen)
    # A cap in the unit of the asker's own number decides a yes/no ask either way ("Can I
    # work remotely 3 days a week?": "up to 3 days per week").
    found = found or (is_yes_no(question) and any(
        decides_cap(amounts, c.text) for c in chosen))
    # The asker's time of day ("a taxi home at 11pm") is checked against the source's
    # times ("journeys between 22:00 and 06:00"), wherever in the sentence they stand.
    found = found or (clock_only(question) and any(CLOCK_RE.search(c.text) for c in chosen))
    lead = chosen[0]
    if genre_ask(ask_clause(question)) and not any(classes(c.text) for c in chosen):
        return False  # "这种类型的电视剧很多" for what type of series 《狂飙》 is
    if kind == "other" and unnamed_attribute(ask_clause(question), [c.text for c in chosen]):
        return False
    # "within 24 hours" for opening hours, those for a number to call, fines for where it is
    if any(unstated(ask_clause(question), [c.text for c in chosen])
           for unstated in (hours_unstated, reach_unstated, where_unstated)):
        return False
    # Any sentence may answer an untyped ask, but not one about another edition of it.
    if not found or (kind == "other" and other_edition(question, lead.text)):
        return False
    # The asked role or relation (冠军, "director", "won") is stated by the quoted sentences.
    said = " ".join(c.text for c in chosen)
    if not states_roles(asked_roles(ask_clause(question)), said):
        return False
    if all(capital_unnamed(ask_clause(question), c.text) for c in chosen):
        return False
    block = next((b for b in blocks if b.n == lead.n), None)
    passage = block.chunk.text if block else lead.text
    if (other_rate(question, said, kind) or other_purpose(question, lead.text)
            or another_row(question, lead.text, passage)):
        return False  # 600 requests/minute for a mileage rate, a chair for coffees, London
    # ...nor the heading it sits under ("What is the API rate limit?" for a mileage rate)
    if names_a_sibling(question, absent | unnamed_kinds(question, lead, blocks), lead.text,
                       said, lead.topic):
        return False
    seen = lead.terms | lead.context | lead.heading
    # Every noun of the ask that a block names is named by the answer or its passage.
    quoted_terms = [c.terms | c.context for c in chosen] + [folded_terms(passage)]
    if not by_meaning and unnamed(question, anchor, qterms, absent, quoted_terms,
                                  f"{passage}\n{said}"):
        return False
    # The title as written: a two-letter acronym ("IT 服务台") is no folded term.
    titled = unicodedata.normalize(
        "NFKC", f"{block.chunk.title} {block.chunk.section}" if block else "").lower()
    salient = salient_terms(question) - current_years(block.chunk.updated if block else "")
    quoted = unicodedata.normalize("NFKC", " ".join(c.text for c in chosen)).lower()
    # Item 3 of issue 12: the ask's identifiers ("2021", "Q1", "SSO") are stated by the
    # quoted sentences or the lead's heading or title, not only somewhere in its passage.
    stated = all(names_identifier(t, quoted) or t in lead.context or names_identifier(t, titled)
                 for t in salient)
    shared = shares_more_than_names(question, qterms, seen) or (
        by_meaning and not qterms & seen)
    return stated and covers_salient(salient, f"{passage}\n{titled}", lead.context) and shared
