"""Refusals and notices, in the question's language (``detect_language``: ``en``/``zh``).

Each of the three refusals says something different and tells the user what to do next:

- ``low_score``: no passage matched the question's words closely -> rephrase with the
  documents' terms; the closest documents, if any;
- ``conflict``: the sources disagree -> both values with titles and update dates, which to
  check first, and whom to ask;
- ``no_support``: documents were found but none supports an answer -> the closest ones'
  names (never called "related": they may not be), so the user can look, and a suggestion
  to ask the document owner;
- ``model_declined``: the model itself declined (API ``stop_reason: refusal``) -> say so
  plainly, not "not covered", and suggest rephrasing or asking a person.

A low-score or no-support refusal of a question in a language kbqa does not read says so
instead, in English and Chinese (``text.languages``), still naming the closest documents.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from kbqa.core.context.assembly import LEADING_SCORE_SHARE, leading_blocks
from kbqa.core.grounding.authority import authority_rank
from kbqa.core.grounding.document_names import document_names
from kbqa.core.text.bilingual import bridged_terms
from kbqa.core.text.languages import NAMES, other_language
from kbqa.core.text.terms import is_question_word, search_terms
from kbqa.core.types import (
    Block,
    Chunk,
    Conflict,
    ConflictSide,
    DocumentRef,
    Language,
    Refusal,
    ScoredChunk,
)

MAX_DOCUMENTS_NAMED = 5

_AUTHORITY_ZH = {
    "policy": "制度",
    "manual": "手册",
    "faq": "常见问题",
    "meeting-note": "会议纪要",
    "archived": "已归档",
    "other": "文档",
}
_AUTHORITY_EN = {"meeting-note": "meeting note", "faq": "FAQ", "other": "document"}


# A question this short tells no story to cut: asking "in one short sentence" would be no
# advice (a tester was told so for "Who is the CEO?"). Words (English) or characters (CJK).
SHORT_QUESTION_WORDS = 12
SHORT_QUESTION_CHARS = 20


def refuse_low_score(
    lang: Language, documents: Sequence[DocumentRef] = (), question: str = ""
) -> Refusal:
    """No passage matched the question's words closely enough (relevance below the
    threshold). Says exactly that, never that the knowledge base lacks the topic (the words
    may differ from the documents'), suggests asking again in one short sentence with the
    documents' terms (long questions about one's own situation score low: the tester's
    "I spent 95 euros on dinner for one…" was told to use a policy's name), or, for a
    ``question`` already short (``SHORT_QUESTION_WORDS``/``SHORT_QUESTION_CHARS``), other
    words and that the documents may not cover it, and names up to ``MAX_DOCUMENTS_NAMED``
    closest documents when retrieval found any."""
    unique = list({d.doc_id: d for d in documents}.values())[:MAX_DOCUMENTS_NAMED]
    if code := other_language(question):
        return Refusal(reason="low_score", message=_unread(code), documents=tuple(unique))
    cjk = sum(1 for ch in question if "\u4e00" <= ch <= "\u9fff")
    short = bool(question) and (
        cjk <= SHORT_QUESTION_CHARS if cjk else len(question.split()) <= SHORT_QUESTION_WORDS)
    if lang == "zh":
        names = document_names(unique, lang)
        advice = (
            "可以换用文档里的说法再问一次（例如制度、产品或流程的名称）；也可能文档里没有写到这一点"
            if short else
            "请用一句简短的话、换用文档里的说法再问一次（例如制度、产品或流程的名称，不必讲述具体经过）"
        )
        message = ("知识库里没有哪段资料与这个问题的用词足够接近。" + advice
                   + (f"；最接近的文档是{names}。" if names else "。"))
    else:
        names = document_names(unique, lang)
        advice = (
            "Try other words, such as the documents' own terms (the policy, product or process "
            "name); the documents may also not cover this"
            if short else
            "Try asking again in one short sentence with the documents' own terms (such as "
            "the policy, product or process name, without the story around it)"
        )
        message = ("No passage in the knowledge base matched the words of this question "
                   "closely enough. " + advice
                   + (f"; the closest documents are {names}." if names else "."))
    return Refusal(reason="low_score", message=message, documents=tuple(unique))


def refuse_small_talk(lang: Language) -> Refusal:
    """A message with no question in it ("thanks!", "help", 谢谢; ``courtesy.is_small_talk``):
    what the assistant answers and how to ask, no documents (a tester's "thanks!" was told
    no answer could be verified and pointed to the desktop sync client). A low-score
    refusal: no passage can match a message without words of substance."""
    message = ("我回答的是知识库文档里的问题。请用一句话提问，例如某项制度、产品或流程的具体规定。"
               if lang == "zh" else
               "I answer questions about the documents in the knowledge base. Ask one in a "
               "sentence, for example about a rule in a policy, a product or a process.")
    return Refusal(reason="low_score", message=message)


def _unread(code: str) -> str:
    """What to do with a question in another language, in English and in Chinese."""
    english, chinese = NAMES[code]
    return (f"This question looks like {english}: I read questions in English and Chinese "
            f"only. Please ask again in English or Chinese. 这个问题看起来是{chinese}，我只能读懂"
            "英文和中文的问题，请用英文或中文再问一次。")


def refuse_conflict(lang: Language, conflict: Conflict) -> Refusal:
    """The sources give different values and no authority signal decides between them.

    Names both values with document titles and update dates, points to the more recently
    updated document first (when the dates differ) and says whom to ask. The card's heading
    already says the sources disagree, so the message does not open with it again.
    """
    a, b = conflict.sides
    newer = _newer(a, b)
    if lang == "zh":
        message = (
            f"无法给出可靠的答案：{_side_zh(a)}，而{_side_zh(b)}。"
            + (f"请先查看更新较晚的《{newer.title}》，" if newer else "请查看这两份文档，")
            + "并向文档负责人确认哪个数值是现行的；也可以请知识库管理员更正过时的文档。"
            + "如果两份文档适用于不同的办公室或地区，请在问题中写明是哪一个再问。"
        )
    else:
        message = (
            f"I won't pick one value: {_side_en(a)}, while {_side_en(b)}. "
            + (f"Check the more recently updated “{newer.title}” first, " if newer
               else "Check both documents, ")
            + "and confirm with the document owner which value is current; the "
            "knowledge-base admins can correct the outdated one. If the two apply to "
            "different offices or regions, ask again naming yours."
        )
    return Refusal(reason="conflict", message=message, conflict=conflict)


def refuse_no_support(lang: Language, documents: Sequence[DocumentRef],
                      question: str = "") -> Refusal:
    """Documents were retrieved but no sentence drawn from them survived verification.

    Names up to ``MAX_DOCUMENTS_NAMED`` distinct documents as the *closest* ones, so the
    user can look for themselves or ask the document owner; with none (the documents found
    share no word of substance with the question: ``document_refs``) it says so and points
    to whoever maintains the knowledge base.
    """
    unique = list({d.doc_id: d for d in documents}.values())[:MAX_DOCUMENTS_NAMED]
    if code := other_language(question):
        return Refusal(reason="no_support", message=_unread(code), documents=tuple(unique))
    if lang == "zh":
        names = document_names(unique, lang, dated=True)
        message = (f"最接近的文档是{names}，但我无法从中核实出这个问题的答案。"
                   "请打开这些文档自行查看，或用文档里的说法再问一次；如果其中确实没有，"
                   "请联系文档负责人补充。" if names else
                   "找到的文档都不涉及这个问题的主题，无法核实出答案。如果知识库应当包含这部分"
                   "内容，请联系知识库的维护人员补充。")
    else:
        names = document_names(unique, lang, dated=True)
        message = (f"The closest documents are {names}; I could not verify an answer to this "
                   "question in them. Open them to look for yourself, or ask again in their "
                   "words; if the answer is not there, ask the document owner to add it."
                   if names else
                   "None of the documents found is about this question's subject, so I could "
                   "not verify an answer. If the knowledge base should cover it, ask the people "
                   "who maintain it to add it.")
    return Refusal(reason="no_support", message=message, documents=tuple(unique))


def authority_notice(lang: Language, conflict: Conflict) -> str:
    """Notice shown above an answer given from the stronger of two conflicting sources.
    Raises ``ValueError`` when ``conflict.preferred`` is None (nothing justified a choice;
    the pipeline refuses with ``refuse_conflict`` instead)."""
    if conflict.preferred is None:
        raise ValueError("authority_notice needs a conflict with a preferred side")
    return authority_notices(lang, [conflict])[0]


def authority_notices(lang: Language, conflicts: Sequence[Conflict]) -> list[str]:
    """The notices of ``authority_notice_sources``, without their sources."""
    return [notice for notice, _ in authority_notice_sources(lang, conflicts)]


def authority_notice_sources(lang: Language, conflicts: Sequence[Conflict],
                             cited: Collection[str] | None = None
                             ) -> list[tuple[str, frozenset[str]]]:
    """One notice per group of authority-resolved conflicts that share a source, with the
    document ids of the sources the answer uses (those on no conflict's weaker side): it names
    those the answer cites (``cited`` doc ids; all if none is: "from the manual X and the
    manual Y" above an answer citing X alone named a document its source list did not hold)
    and lists every other value with its source, authority and update date. Three
    sources that disagree (manual 30 days, FAQ 60, archived 14) give one notice, not three
    pairwise ones that name a different winner each; the other values come strongest source
    first, and a weaker source that gives the answer's own value is not listed against it.
    A notice is shown with an answer that cites one of its sources (``standing_notice``).
    Conflicts without ``preferred`` are ignored."""
    resolved = [c for c in conflicts if c.preferred is not None]
    notices = [(_scope_notice(lang, c), frozenset({c.sides[c.preferred].doc_id}))
               for c in resolved if c.preferred_by != "authority" and c.preferred is not None]
    for group in _groups([c for c in resolved if c.preferred_by == "authority"]):
        weak = {c.sides[1 - c.preferred]: None for c in group if c.preferred is not None}
        weak_ids = {side.chunk_id for side in weak}
        strong = {s.chunk_id: s for c in group for s in c.sides if s.chunk_id not in weak_ids}
        used = {_value(s) for s in strong.values()}
        others = sorted((w for w in weak if _value(w) not in used), key=_by_authority)
        named = [s for s in strong.values() if s.doc_id in (cited or ())]
        if others:
            notices.append((_notice(lang, named or list(strong.values()), others),
                            frozenset(side.doc_id for side in strong.values())))
    return notices


def _value(side: ConflictSide) -> str:
    return " ".join(side.value_text.lower().split())


def _by_authority(side: ConflictSide) -> tuple[int, int]:
    """Stronger sources first (``authority.AUTHORITY_RANK``), then block order."""
    return -authority_rank(side.authority), side.n


def _groups(conflicts: Sequence[Conflict]) -> list[list[Conflict]]:
    """``conflicts`` grouped by shared sources (connected components over chunk ids), each
    group in the conflicts' order, groups in order of their first conflict."""
    groups: list[tuple[set[str], list[Conflict]]] = []
    for c in conflicts:
        ids = {s.chunk_id for s in c.sides}
        joined = [g for g in groups if g[0] & ids]
        rest = [g for g in groups if not g[0] & ids]
        members = [x for g in joined for x in g[1]] + [c]
        groups = [*rest, (ids.union(*(g[0] for g in joined)), members)]
    ordered = [sorted(g[1], key=conflicts.index) for g in groups]
    return sorted(ordered, key=lambda g: conflicts.index(g[0]))


def _scope_notice(lang: Language, conflict: Conflict) -> str:
    """The notice of a conflict resolved for the document of the year the question names,
    or of the place it names (``preferred_by`` "place": the other document is no less
    current, only about somewhere else)."""
    if conflict.preferred is None:
        raise ValueError("a year notice needs a conflict with a preferred side")
    strong = conflict.sides[conflict.preferred]
    weak = conflict.sides[1 - conflict.preferred]
    place = conflict.preferred_for if conflict.preferred_by == "place" else ""
    if lang == "zh":
        which = f"问题所说的“{place}”" if place else "问题所问年份"
        return (f"本回答依据{which}的文档《{strong.title}》{_date_zh(strong)}。"
                f"另有{_side_zh(weak)}。")
    which = f"the document for {place}, which" if place else "the document of the year"
    return (
        f"Answered from “{strong.title}”{_date_en(strong)}, {which} you asked about. "
        f"“{weak.title}”{_date_en(weak)} says {weak.value_text}."
    )


def _notice(lang: Language, strong: Sequence[ConflictSide], weak: Sequence[ConflictSide]) -> str:
    if lang == "zh":
        used = "、".join(
            f"{_AUTHORITY_ZH.get(s.authority, '文档')}《{s.title}》{_date_zh(s)}" for s in strong
        )
        others = _side_zh(weak[0]) if len(weak) == 1 else "；".join(
            f"{_AUTHORITY_ZH.get(w.authority, '文档')}{_side_zh(w)}" for w in weak
        )
        return f"本回答依据{used}。另有{others}，其权威性较低；如有疑问请联系文档负责人。"
    used = " and the ".join(
        f"{_AUTHORITY_EN.get(s.authority, s.authority)} “{s.title}”{_date_en(s)}" for s in strong
    )
    if len(weak) == 1:
        w = weak[0]
        others = f"“{w.title}”{_date_en(w)}, a less authoritative source, says {w.value_text}."
    else:
        others = "Less authoritative sources say otherwise: " + "; ".join(
            f"the {_AUTHORITY_EN.get(w.authority, w.authority)} “{w.title}”{_date_en(w)}"
            f" says {w.value_text}"
            for w in weak
        ) + "."
    return f"Answered from the {used}. {others} Ask the document owner if in doubt."


def refuse_declined(lang: Language) -> Refusal:
    """The model declined to answer (its API reported ``stop_reason: refusal``)."""
    if lang == "zh":
        message = (
            "模型拒绝回答这个问题，因此没有生成答案。这并不表示知识库中没有相关内容。"
            "请换个说法提问，或直接联系相关文档的负责人。"
        )
    else:
        message = (
            "The model declined to answer this question, so no answer was written. This does "
            "not mean the knowledge base lacks the information: try asking in other words, or "
            "ask the owner of the relevant documents."
        )
    return Refusal(reason="model_declined", message=message)


def partial_notice(lang: Language) -> str:
    """The generic gap sentence: the last sentence of a partial answer when the answer's own
    statement of what the sources do not cover failed verification (it named something the
    sources do mention, or something the question did not ask). It claims nothing specific."""
    if lang == "zh":
        return "找到的资料可能没有涵盖这个问题的所有方面。"
    return "The sources found may not cover every part of this question."


def _newer(a: ConflictSide, b: ConflictSide) -> ConflictSide | None:
    if not a.updated or not b.updated or a.updated == b.updated:
        return None
    return a if a.updated > b.updated else b  # ISO dates compare as strings


def _side_en(side: ConflictSide) -> str:
    return f"“{side.title}”{_date_en(side)} says {side.value_text}"


def _side_zh(side: ConflictSide) -> str:
    return f"《{side.title}》{_date_zh(side)}写的是 {side.value_text}"


def _date_en(side: ConflictSide) -> str:
    return f" (updated {side.updated})" if side.updated else ""


def _date_zh(side: ConflictSide) -> str:
    return f"（更新于 {side.updated}）" if side.updated else ""


def document_refs(blocks: Sequence[Block], question: str = "") -> tuple[DocumentRef, ...]:
    """The documents a no-support refusal names: those of the leading blocks, best first,
    that share a word of substance with ``question`` (``_about``; all when it is "")."""
    asked = _asked(question)
    return _current_first([b.chunk for b in leading_blocks(blocks)
                           if _about(b.chunk, asked, across=True)])


MAX_CLOSEST = 3  # documents a low-score refusal names


def closest_documents(hits: Sequence[ScoredChunk],
                      question: str = "") -> tuple[DocumentRef, ...]:
    """The documents of the best hits, best first, for a low-score refusal to name: at most
    ``MAX_CLOSEST``, each once, and only hits scoring at least ``LEADING_SCORE_SHARE`` of
    the best, as the no-support refusal's leading blocks (a tester was pointed from a
    vacation question to "Open API: rate limits", far behind the leave policy), that share
    a word of substance with ``question`` (``_about``)."""
    top = max((h.score for h in hits), default=0.0)
    asked = _asked(question)
    leading = [h.chunk for h in sorted(hits, key=lambda h: -h.score)
               if h.score >= LEADING_SCORE_SHARE * top and _about(h.chunk, asked)]
    return _current_first(leading)[:MAX_CLOSEST]


def _current_first(chunks: Sequence[Chunk]) -> tuple[DocumentRef, ...]:
    """Each document of ``chunks`` once, in order, archived ones last: a superseded policy
    is a worse lead than a current one (a tester was pointed to "Equipment policy (2022
    version, archived)" first)."""
    seen: dict[str, tuple[bool, DocumentRef]] = {}
    for c in chunks:
        ref = DocumentRef(c.doc_id, c.title, c.updated, c.source_url, c.chunk_id)
        seen.setdefault(c.doc_id, (c.authority == "archived", ref))
    return tuple(ref for _, ref in sorted(seen.values(), key=lambda pair: pair[0]))



def _asked(question: str) -> frozenset[str] | None:
    """The search terms of ``question`` that are no question or stop word
    (``terms.is_question_word``, stopwords-iso: "name", "tell", 是多); None when
    ``question`` is "" (no filter)."""
    if not question:
        return None
    return frozenset(t for t in search_terms(question) if not is_question_word(t))


def _about(chunk: Chunk, asked: frozenset[str] | None, across: bool = False) -> bool:
    """Whether ``chunk`` (title, section, text) shares one of the ``asked`` terms
    (``_asked``), or with ``across`` one of their words in the chunk's language
    (``bilingual.bridged_terms``: 病假 meets "sick leave", "Shenzhen" 深圳): a document
    matching only question words ("the file name" for "What is the CEO's name?", a rule
    for telling your manager for "Tell me a joke") is no lead for the asker to follow, but
    one in the other language about the same thing is (a tester was told no document was
    about 请病假需要医生证明吗？ beside the English leave policy). Only for the blocks an
    answer was sought in: among a low score's weak hits, the dictionary's everyday words
    (上班 "go to work") met documents about anything. True without a filter (None)."""
    if asked is None:
        return True
    if not asked:
        return False
    found = frozenset(search_terms(f"{chunk.title}\n{chunk.section}\n{chunk.text}"))
    return not asked.isdisjoint(found) or (
        across and not found.isdisjoint(bridged_terms(asked, chunk.language)))
