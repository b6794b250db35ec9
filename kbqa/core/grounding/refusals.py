"""Refusals and notices, in the question's language (``detect_language``: ``en``/``zh``).

Each of the three refusals says something different and tells the user what to do next:

- ``low_score``: no passage matched the question's words closely -> rephrase with the
  documents' terms; the closest documents, if any;
- ``conflict``: the sources disagree -> both values with titles and update dates, which to
  check first, and whom to ask;
- ``no_support``: related documents exist but do not support an answer -> their names, so the
  user can look, and a suggestion to ask the document owner;
- ``model_declined``: the model itself declined (API ``stop_reason: refusal``) -> say so
  plainly, not "not covered", and suggest rephrasing or asking a person.
"""

from __future__ import annotations

from collections.abc import Sequence

from kbqa.core.types import Conflict, ConflictSide, DocumentRef, Language, Refusal

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


def refuse_low_score(lang: Language, documents: Sequence[DocumentRef] = ()) -> Refusal:
    """No passage matched the question's words closely enough (relevance below the
    threshold). Says exactly that, never that the knowledge base lacks the topic (the words
    may differ from the documents'), suggests rephrasing with the documents' terms and
    names up to ``MAX_DOCUMENTS_NAMED`` closest documents when retrieval found any."""
    unique = list({d.doc_id: d for d in documents}.values())[:MAX_DOCUMENTS_NAMED]
    if lang == "zh":
        names = "、".join(f"《{d.title}》" for d in unique)
        message = (
            "知识库里没有哪段资料与这个问题的用词足够接近。请换用文档里的说法再问一次"
            "（例如制度、产品或流程的名称）"
            + (f"；最接近的文档是{names}。" if names else "。")
        )
    else:
        names = ", ".join(f"“{d.title}”" for d in unique)
        message = (
            "No passage in the knowledge base matched the words of this question closely "
            "enough. Try asking again with the documents' own terms (such as the policy, "
            "product or process name)"
            + (f"; the closest documents are {names}." if names else ".")
        )
    return Refusal(reason="low_score", message=message, documents=tuple(unique))


def refuse_conflict(lang: Language, conflict: Conflict) -> Refusal:
    """The sources give different values and no authority signal decides between them.

    Names both values with document titles and update dates, points to the more recently
    updated document first (when the dates differ) and says whom to ask.
    """
    a, b = conflict.sides
    newer = _newer(a, b)
    if lang == "zh":
        message = (
            f"资料之间存在矛盾，无法给出可靠的答案：{_side_zh(a)}，而{_side_zh(b)}。"
            + (f"请先查看更新较晚的《{newer.title}》，" if newer else "请查看这两份文档，")
            + "并向文档负责人确认哪个数值是现行的；也可以请知识库管理员更正过时的文档。"
        )
    else:
        message = (
            f"The sources disagree, so I won't pick one: {_side_en(a)}, while {_side_en(b)}. "
            + (f"Check the more recently updated “{newer.title}” first, " if newer
               else "Check both documents, ")
            + "and confirm with the document owner which value is current; the "
            "knowledge-base admins can correct the outdated one."
        )
    return Refusal(reason="conflict", message=message, conflict=conflict)


def refuse_no_support(lang: Language, documents: Sequence[DocumentRef]) -> Refusal:
    """Related documents were found but no sentence drawn from them survived verification.

    Names up to ``MAX_DOCUMENTS_NAMED`` distinct documents so the user can look for themselves.
    """
    unique = list({d.doc_id: d for d in documents}.values())[:MAX_DOCUMENTS_NAMED]
    if lang == "zh":
        names = "、".join(f"《{d.title}》" + (f"（更新于 {d.updated}）" if d.updated else "")
                         for d in unique)
        found = f"找到了相关文档{names}，" if names else "找到了相关文档，"
        message = (
            f"{found}但我无法从中核实出这个问题的答案。请打开这些文档自行查看，"
            "或联系文档负责人补充这部分信息。"
        )
    else:
        names = ", ".join(f"“{d.title}”" + (f" (updated {d.updated})" if d.updated else "")
                          for d in unique)
        found = f"I found related documents: {names}." if names else (
            "I found related documents."
        )
        message = (
            f"{found} I could not verify an answer to this question in them. Open them to "
            "look for yourself, or ask the document owner to add this information."
        )
    return Refusal(reason="no_support", message=message, documents=tuple(unique))


def authority_notice(lang: Language, conflict: Conflict) -> str:
    """Notice shown above an answer given from the stronger of two conflicting sources.

    Raises ``ValueError`` when ``conflict.preferred`` is None (nothing justified a choice;
    the pipeline refuses with ``refuse_conflict`` instead).
    """
    if conflict.preferred is None:
        raise ValueError("authority_notice needs a conflict with a preferred side")
    strong = conflict.sides[conflict.preferred]
    weak = conflict.sides[1 - conflict.preferred]
    if lang == "zh":
        return (
            f"本回答依据{_AUTHORITY_ZH.get(strong.authority, '文档')}《{strong.title}》"
            f"{_date_zh(strong)}。另有{_side_zh(weak)}，其权威性较低；如有疑问请联系文档负责人。"
        )
    return (
        f"Answered from the {_authority_en(strong.authority)} “{strong.title}”"
        f"{_date_en(strong)}. “{weak.title}”{_date_en(weak)}, a less authoritative source, "
        f"says {weak.value_text}. Ask the document owner if in doubt."
    )


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


def _authority_en(authority: str) -> str:
    return _AUTHORITY_EN.get(authority, authority)
