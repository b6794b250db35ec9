from __future__ import annotations

import pytest

from kbqa.core.grounding.refusals import (
    authority_notice,
    authority_notices,
    closest_documents,
    document_refs,
    partial_notice,
    refuse_conflict,
    refuse_low_score,
    refuse_no_support,
)
from kbqa.core.types import Chunk, Conflict, ConflictSide, DocumentRef, Language, ScoredChunk
from tests.fakes import make_block

FAQ = ConflictSide(1, "faq#c01", "faq", "Upload FAQ", "2025-03-01", "faq", "200 MB")
POLICY = ConflictSide(2, "pol#c01", "pol", "Upload policy", "2024-01-10", "policy", "100 MB")
TIE = Conflict(unit="MB", sides=(FAQ, POLICY), context=("maximum", "upload"), preferred=None)
RANKED = Conflict(unit="MB", sides=(FAQ, POLICY), context=("maximum", "upload"), preferred=1)
DOCS = [
    DocumentRef("bin", "Recycle bin guide", "2025-01-02"),
    DocumentRef("faq", "Storage FAQ"),
    DocumentRef("bin", "Recycle bin guide", "2025-01-02"),
]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_three_refusals_differ(lang: Language) -> None:
    messages = {
        refuse_low_score(lang).message,
        refuse_conflict(lang, TIE).message,
        refuse_no_support(lang, DOCS).message,
    }
    assert len(messages) == 3


def test_low_score_says_the_words_did_not_match_not_that_nothing_exists() -> None:
    assert refuse_low_score("en").message == (
        "No passage in the knowledge base matched the words of this question closely "
        "enough. Try asking again in one short sentence with the documents' own terms (such "
        "as the policy, product or process name, without the story around it)."
    )
    assert refuse_low_score("zh").message == (
        "知识库里没有哪段资料与这个问题的用词足够接近。请用一句简短的话、换用文档里的说法"
        "再问一次（例如制度、产品或流程的名称，不必讲述具体经过）。"
    )
    assert refuse_low_score("en").reason == "low_score"


@pytest.mark.parametrize(("question", "lang"), [
    ("Who runs the company?", "en"), ("公司的创始人是谁？", "zh")])
def test_a_short_question_is_not_told_to_ask_in_one_short_sentence(
    question: str, lang: Language
) -> None:
    # a tester was told to re-ask "Who is the CEO?" "in one short sentence"
    message = refuse_low_score(lang, DOCS, question).message
    assert "one short sentence" not in message and "一句简短的话" not in message
    assert ("the documents may also not cover this" in message
            or "也可能文档里没有写到这一点" in message)
    assert message.endswith(("“Storage FAQ”.", "《Storage FAQ》。"))
    long_story = ("I took three people from a customer out to dinner after the demo last "
                  "night and the bill came to 290 euros, will finance pay it?")
    assert "one short sentence" in refuse_low_score("en", DOCS, long_story).message


def test_low_score_names_the_closest_documents_once() -> None:
    refusal = refuse_low_score("en", DOCS)
    assert refusal.message.endswith(
        "; the closest documents are “Recycle bin guide”, “Storage FAQ”.")
    assert [d.doc_id for d in refusal.documents] == ["bin", "faq"]
    assert refuse_low_score("zh", DOCS).message.endswith(
        "最接近的文档是《Recycle bin guide》、《Storage FAQ》。")


def test_conflict_lists_both_values_with_titles_and_dates() -> None:
    refusal = refuse_conflict("en", TIE)
    assert refusal.message == (
        "I won't pick one value: “Upload FAQ” (updated 2025-03-01) says "
        "200 MB, while “Upload policy” (updated 2024-01-10) says 100 MB. Check the more "
        "recently updated “Upload FAQ” first, and confirm with the document owner which value "
        "is current; the knowledge-base admins can correct the outdated one. If the two "
        "apply to different offices or regions, ask again naming yours."
    )
    assert (refusal.reason, refusal.conflict) == ("conflict", TIE)
    assert refuse_conflict("zh", TIE).message == (
        "无法给出可靠的答案：《Upload FAQ》（更新于 2025-03-01）写的是 200 MB，"
        "而《Upload policy》（更新于 2024-01-10）写的是 100 MB。请先查看更新较晚的《Upload FAQ》，"
        "并向文档负责人确认哪个数值是现行的；也可以请知识库管理员更正过时的文档。"
        "如果两份文档适用于不同的办公室或地区，请在问题中写明是哪一个再问。"
    )


def test_conflict_without_dates_asks_to_check_both() -> None:
    undated = Conflict(
        unit="MB",
        sides=(
            ConflictSide(1, "a#c1", "a", "A", "", "faq", "200 MB"),
            ConflictSide(2, "b#c1", "b", "B", "", "faq", "100 MB"),
        ),
        context=("upload", "size"),
    )
    assert refuse_conflict("en", undated).message.startswith(
        "I won't pick one value: “A” says 200 MB, while “B” says 100 MB. "
        "Check both documents, "
    )


def test_no_support_names_each_document_once() -> None:
    refusal = refuse_no_support("en", DOCS)
    assert refusal.message == (
        "The closest documents are “Recycle bin guide” (updated 2025-01-02), “Storage FAQ”; "
        "I could not verify an answer to this question in them. Open them to look for "
        "yourself, or ask again in their words; if the answer is not there, ask the document "
        "owner to add it."
    )
    assert [d.doc_id for d in refusal.documents] == ["bin", "faq"]
    assert refuse_no_support("zh", DOCS).message == (
        "最接近的文档是《Recycle bin guide》（更新于 2025-01-02）、《Storage FAQ》，"
        "但我无法从中核实出这个问题的答案。请打开这些文档自行查看，或用文档里的说法再问一次；"
        "如果其中确实没有，请联系文档负责人补充。"
    )


def test_no_support_without_documents_says_none_is_about_the_question() -> None:
    assert refuse_no_support("en", []).message == (
        "None of the documents found is about this question's subject, so I could not verify "
        "an answer. If the knowledge base should cover it, ask the people who maintain it to "
        "add it."
    )
    assert refuse_no_support("zh", []).message.startswith("找到的文档都不涉及这个问题的主题")


def test_authority_notice_names_the_other_document_and_its_value() -> None:
    assert authority_notice("en", RANKED) == (
        "Answered from the policy “Upload policy” (updated 2024-01-10). “Upload FAQ” "
        "(updated 2025-03-01), a less authoritative source, says 200 MB. Ask the document "
        "owner if in doubt."
    )
    assert authority_notice("zh", RANKED) == (
        "本回答依据制度《Upload policy》（更新于 2024-01-10）。另有《Upload FAQ》"
        "（更新于 2025-03-01）写的是 200 MB，其权威性较低；如有疑问请联系文档负责人。"
    )
    with pytest.raises(ValueError):
        authority_notice("en", TIE)


def test_a_notice_for_the_year_asked_about_does_not_call_the_other_less_authoritative() -> None:
    by_year = Conflict(unit="MB", sides=(FAQ, POLICY), context=("maximum", "upload"),
                       preferred=0, preferred_by="year")
    assert authority_notice("en", by_year) == (
        "Answered from “Upload FAQ” (updated 2025-03-01), the document of the year you asked "
        "about. “Upload policy” (updated 2024-01-10) says 100 MB."
    )
    assert authority_notice("zh", by_year) == (
        "本回答依据问题所问年份的文档《Upload FAQ》（更新于 2025-03-01）。另有《Upload policy》"
        "（更新于 2024-01-10）写的是 100 MB。"
    )


def test_partial_notice_in_both_languages() -> None:
    assert partial_notice("en") != partial_notice("zh")
    assert "资料" in partial_notice("zh")


def _side(n: int, doc: str, authority: str, value: str) -> ConflictSide:
    return ConflictSide(n=n, chunk_id=f"{doc}#c01", doc_id=doc, title=doc, updated="",
                        authority=authority, value_text=value)


def test_sources_that_disagree_three_ways_give_one_notice_and_unrelated_ones_their_own() -> None:
    manual, faq, old = (_side(1, "M", "manual", "30 days"), _side(2, "F", "faq", "60 days"),
                        _side(3, "A", "archived", "14 days"))
    policy, memo = _side(4, "P", "policy", "200 MB"), _side(5, "N", "meeting-note", "100 MB")
    conflicts = [
        Conflict(unit="day", sides=(manual, faq), context=("bin",), preferred=0),
        Conflict(unit="day", sides=(manual, old), context=("bin",), preferred=0),
        Conflict(unit="MB", sides=(policy, memo), context=("upload",), preferred=0),
        Conflict(unit="day", sides=(faq, old), context=("bin",), preferred=0),
    ]
    assert authority_notices("en", conflicts) == [
        "Answered from the manual “M”. Less authoritative sources say otherwise: the FAQ “F” "
        "says 60 days; the archived “A” says 14 days. Ask the document owner if in doubt.",
        "Answered from the policy “P”. “N”, a less authoritative source, says 100 MB. Ask the "
        "document owner if in doubt.",
    ]
    assert authority_notices("zh", conflicts)[0] == (
        "本回答依据手册《M》。另有常见问题《F》写的是 60 days；已归档《A》写的是 14 days，"
        "其权威性较低；如有疑问请联系文档负责人。"
    )
    assert authority_notices("en", [TIE]) == []


def test_a_weaker_source_that_agrees_with_the_answer_is_not_listed_against_it() -> None:
    policy, manual = _side(1, "P", "policy", "30 days"), _side(2, "M", "manual", "60 days")
    faq = _side(3, "F", "faq", "30 days")
    conflicts = [Conflict(unit="day", sides=(policy, manual), context=("bin",), preferred=0),
                 Conflict(unit="day", sides=(manual, faq), context=("bin",), preferred=0)]
    assert authority_notices("en", conflicts) == [
        "Answered from the policy “P”. “M”, a less authoritative source, says 60 days. Ask the "
        "document owner if in doubt."
    ]


def _hit(doc_id: str, score: float, part: int = 1) -> ScoredChunk:
    return ScoredChunk(Chunk(f"{doc_id}#c0{part}", doc_id, doc_id.title(), "text"), score)


def test_low_score_names_only_documents_near_the_best_each_once() -> None:
    # before: the top three hits, a document twice and one far behind ("Open API" for a
    # vacation question)
    hits = [_hit("leave", 4.0), _hit("leave", 3.8, 2), _hit("equipment", 2.2), _hit("api", 1.1)]
    assert [d.doc_id for d in closest_documents(hits)] == ["leave", "equipment"]


def test_an_archived_document_is_named_after_the_current_ones() -> None:
    # a tester was pointed to "Equipment policy (2022 version, archived)" first
    old = ScoredChunk(Chunk("old#c01", "old", "Desk policy (2021, archived)", "text",
                            authority="archived"), 4.0)
    hits = [old, _hit("desks", 3.9), _hit("rooms", 3.5)]
    assert [d.doc_id for d in closest_documents(hits)] == ["desks", "rooms", "old"]


def test_a_document_in_the_other_language_about_the_question_is_named() -> None:
    # a tester was told no document was about 请病假需要医生证明吗？ beside the English
    # leave policy: the question's words are met through the dictionary
    leave = make_block(1, "From the third day of sick leave, bring a doctor's note.",
                       title="Leave Policy", doc_id="leave", section="Sick leave")
    wifi = make_block(2, "The Wi-Fi is Pinecrest.", title="Office guide", doc_id="wifi")
    named = document_refs([leave, wifi], "请病假需要医生证明吗？")
    assert [d.doc_id for d in named] == ["leave"]


def test_a_notice_for_the_place_asked_about_names_it() -> None:
    by_place = Conflict(unit="MB", sides=(FAQ, POLICY), context=("maximum", "upload"),
                        preferred=0, preferred_by="place", preferred_for="Berlin")
    assert authority_notice("en", by_place) == (
        "Answered from “Upload FAQ” (updated 2025-03-01), the document for Berlin, which you "
        "asked about. “Upload policy” (updated 2024-01-10) says 100 MB."
    )
    assert authority_notice("zh", by_place).startswith(
        "本回答依据问题所说的“Berlin”的文档《Upload FAQ》")


COMMUTING_2024 = DocumentRef("commute-2024", "Commuting allowance", "2024-03-01")
COMMUTING_2025 = DocumentRef("commute", "Commuting allowance", "2025-04-01")
COMMUTING_COPY = DocumentRef("commute-copy", "Commuting allowance", "2025-04-01")
PARKING = DocumentRef("parking", "Parking", "2025-01-02")


@pytest.mark.parametrize(
    ("lang", "documents", "names"),
    [
        ("en", [COMMUTING_2025, COMMUTING_2024, PARKING],
         "“Commuting allowance” (updated 2025-04-01), “Commuting allowance” (updated "
         "2024-03-01), “Parking”"),
        ("en", [COMMUTING_2025, COMMUTING_COPY],
         "“Commuting allowance” (updated 2025-04-01, commute), “Commuting allowance” "
         "(updated 2025-04-01, commute-copy)"),
        ("zh", [COMMUTING_2025, COMMUTING_2024],
         "《Commuting allowance》（更新于 2025-04-01）、"
         "《Commuting allowance》（更新于 2024-03-01）"),
    ],
)
def test_a_low_score_refusal_tells_apart_documents_of_one_title(
    lang: Language, documents: list[DocumentRef], names: str
) -> None:
    # "the closest documents are “Commuting allowance”, “Commuting allowance”"
    message = refuse_low_score(lang, documents, "commuting allowance").message
    assert (f"closest documents are {names}." if lang == "en" else f"最接近的文档是{names}。"
            ) in message


def test_a_no_support_refusal_tells_apart_two_documents_of_one_title_and_date() -> None:
    message = refuse_no_support("en", [COMMUTING_2025, COMMUTING_COPY]).message
    assert message.startswith(
        "The closest documents are “Commuting allowance” (updated 2025-04-01, commute), "
        "“Commuting allowance” (updated 2025-04-01, commute-copy); I could not verify")
