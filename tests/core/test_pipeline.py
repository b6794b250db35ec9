"""The pipeline's event sequences, as a front end sees them (no database, no network)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from kbqa.core.errors import ProviderError
from kbqa.core.pipeline import AnswerRequest, PipelineConfig, answer
from kbqa.core.records import TraceRecorder
from kbqa.core.types import Chunk, Event, ScoredChunk, Sentence, Turn
from tests.fakes.provider import FakeOutput, FakeProvider

RECYCLE = Chunk(
    chunk_id="doc-001#c01",
    doc_id="doc-001",
    title="Recycle bin",
    updated="2025-05-01",
    text="Deleted files stay in the recycle bin for 30 days. After that they are purged.",
)
TRIAL = Chunk(
    chunk_id="doc-002#c01",
    doc_id="doc-002",
    title="Plans",
    updated="2025-04-01",
    text="Every new workspace starts with a free trial that lasts 90 days.",
)
SSO = Chunk(
    chunk_id="doc-003#c01",
    doc_id="doc-003",
    title="Sign-in",
    updated="2025-03-01",
    text="Administrators can enforce single sign-on for every member of the workspace.",
)
UPLOAD_A = Chunk(
    chunk_id="doc-004#c01",
    doc_id="doc-004",
    title="Manual: uploads",
    updated="2025-06-30",
    authority="manual",
    text="The maximum size of a single uploaded file is 200 MB.",
)
UPLOAD_B = Chunk(
    chunk_id="doc-005#c01",
    doc_id="doc-005",
    title="Web uploader guide",
    updated="2024-11-02",
    authority="manual",
    text="The maximum size for a single uploaded file is 100 MB.",
)


class StaticRetriever:
    """Returns the same hits for every query and records the queries."""

    def __init__(self, hits: Sequence[ScoredChunk]) -> None:
        self.hits = list(hits)
        self.queries: list[str] = []

    async def search(self, query: str, k: int) -> list[ScoredChunk]:
        self.queries.append(query)
        return self.hits[:k]


def hits(*chunks: Chunk, relevance: float = 0.8, scores: Sequence[float] = ()) -> list[ScoredChunk]:
    scores = scores or [10.0 - i for i in range(len(chunks))]
    return [
        ScoredChunk(c, score=s, relevance=relevance) for c, s in zip(chunks, scores, strict=True)
    ]


async def run(
    question: str, provider: FakeProvider, retriever: StaticRetriever, **request: object
) -> tuple[list[Event], TraceRecorder]:
    trace = TraceRecorder(trace_id="01TEST", question=question)
    config = request.pop("config", PipelineConfig())
    req = AnswerRequest(question=question, **request)  # type: ignore[arg-type]
    events = [
        ev
        async for ev in answer(
            req,
            retriever=retriever,
            provider=provider,
            config=config,
            trace=trace,  # type: ignore[arg-type]
        )
    ]
    return events, trace


def names(events: Sequence[Event]) -> list[str]:
    return [ev.event for ev in events]


async def test_grounded_answer_streams_verified_sentence() -> None:
    provider = FakeProvider(["Deleted files stay in the recycle bin for 30 days [1]."])
    events, trace = await run(
        "How long does the recycle bin keep files?",
        provider,
        StaticRetriever(hits(RECYCLE, TRIAL, SSO)),
    )
    assert names(events) == ["meta", "sentence", "done"]
    sentence = events[1].to_dict()
    assert sentence["text"] == "Deleted files stay in the recycle bin for 30 days."
    assert sentence["citations"] == (1,)
    assert events[-1].to_dict()["status"] == "answered"
    assert trace.status == "answered"
    assert trace.timings["first_sentence_ms"] >= 0


async def test_low_score_refuses_before_any_model_call() -> None:
    provider = FakeProvider([])
    events, trace = await run(
        "What is the team outing budget?", provider, StaticRetriever(hits(SSO, relevance=0.05))
    )
    assert names(events) == ["meta", "refusal", "done"]
    assert events[1].to_dict()["reason"] == "low_score"
    assert events[-1].to_dict()["status"] == "refused_low_score"
    assert provider.prompts == []
    assert trace.refusal_reason == "low_score"


@pytest.mark.parametrize(
    ("message", "says"),
    [("thanks!", "I answer questions about the documents"), ("ok bye", "Ask one in a sentence"),
     ("help", "Ask one in a sentence"), ("谢谢", "请用一句话提问")],
)
async def test_small_talk_is_told_how_to_ask_without_a_search(message: str, says: str) -> None:
    # a tester's "thanks!" was told no answer could be verified, with documents to open
    provider = FakeProvider([])
    retriever = StaticRetriever(hits(RECYCLE, TRIAL, SSO))
    events, trace = await run(message, provider, retriever)
    assert names(events) == ["meta", "refusal", "done"]
    refusal = events[1].to_dict()
    assert says in refusal["message"] and not refusal["documents"]
    assert retriever.queries == [] and provider.prompts == []
    assert trace.status == "refused_low_score"


WEAK = PipelineConfig(min_relevance=0.13, reader_relevance=0.05)


async def test_typed_question_below_the_threshold_is_answered_when_verified() -> None:
    provider = FakeProvider(["Deleted files stay in the recycle bin for 30 days [1]."])
    events, trace = await run(
        "How many days do deleted files stay in the bin?", provider,
        StaticRetriever(hits(RECYCLE, relevance=0.09)), config=WEAK,
    )
    assert names(events) == ["meta", "sentence", "done"]
    assert trace.status == "answered"


async def test_typed_question_below_the_threshold_nothing_verified_is_a_low_score_refusal(
) -> None:
    gap = "Not covered: the sources found do not answer this question."
    provider = FakeProvider([gap, gap])  # the first draft, then the one regeneration
    events, _ = await run(
        "How many days do deleted files stay in the bin?", provider,
        StaticRetriever(hits(RECYCLE, relevance=0.09)), config=WEAK,
    )
    assert names(events) == ["meta", "refusal", "done"]
    assert events[1].to_dict()["reason"] == "low_score"
    assert events[-1].to_dict()["status"] == "refused_low_score"


async def test_a_how_to_question_below_the_threshold_is_answered_when_verified() -> None:
    # a procedure is an answer type: only a sentence giving an action for the task answers
    provider = FakeProvider(["Restore them from the recycle bin within 30 days [1]."])
    events, trace = await run(
        "My teammate binned half our shared folder by mistake, how do I bring it back?",
        provider, StaticRetriever(hits(RECYCLE, relevance=0.09)), config=WEAK,
    )
    assert names(events) == ["meta", "sentence", "done"]
    assert trace.status == "answered"


@pytest.mark.parametrize(("question", "relevance"), [
    ("Do deleted files stay in the bin?", 0.09),  # yes/no: any on-topic sentence would do
    ("How many days do deleted files stay in the bin?", 0.04),  # under the floor
])
async def test_below_the_threshold_untyped_or_too_weak_is_refused_before_the_model(
    question: str, relevance: float
) -> None:
    provider = FakeProvider([])
    events, _ = await run(
        question, provider, StaticRetriever(hits(RECYCLE, relevance=relevance)), config=WEAK
    )
    assert events[1].to_dict()["reason"] == "low_score"
    assert provider.prompts == []


async def test_below_the_threshold_a_group_no_hit_names_is_refused_before_the_model() -> None:
    sick = Chunk(chunk_id="doc-006#c01", doc_id="doc-006", title="病假", updated="2025-01-01",
                 text="员工每个自然年享有 10 天全薪病假。")
    provider = FakeProvider([])
    events, _ = await run("实习生每年有多少天病假？", provider,
                          StaticRetriever(hits(sick, relevance=0.1)), config=WEAK)
    assert events[1].to_dict()["reason"] == "low_score"
    assert provider.prompts == []


async def test_empty_knowledge_base_is_a_low_score_refusal() -> None:
    events, _ = await run("Anything?", FakeProvider([]), StaticRetriever([]))
    assert names(events) == ["meta", "refusal", "done"]


async def test_conflict_refuses_before_any_model_call() -> None:
    provider = FakeProvider([])
    events, _ = await run(
        "What is the maximum size of a single uploaded file?",
        provider,
        StaticRetriever(hits(UPLOAD_A, UPLOAD_B, RECYCLE)),
    )
    assert names(events) == ["meta", "refusal", "done"]
    refusal = events[1].to_dict()
    assert refusal["reason"] == "conflict"
    values = sorted(side["value_text"].replace(" ", "") for side in refusal["conflict"]["sides"])
    assert values == ["100MB", "200MB"]
    assert provider.prompts == []


async def test_unrelated_conflict_does_not_block_the_question() -> None:
    provider = FakeProvider(["Deleted files stay in the recycle bin for 30 days [1]."])
    events, _ = await run(
        "How long does the recycle bin keep files?",
        provider,
        StaticRetriever(hits(RECYCLE, UPLOAD_A, UPLOAD_B, scores=(9.0, 2.5, 2.4))),
    )
    assert names(events) == ["meta", "sentence", "done"]


async def test_fabricated_stream_drops_both_fabrications() -> None:
    provider = FakeProvider(["Deleted files stay in the recycle bin for 30 days [1]."])
    events, trace = await run(
        "How long does the recycle bin keep files?",
        provider,
        StaticRetriever(hits(RECYCLE, TRIAL, SSO)),
        fabricate=True,
    )
    assert names(events) == ["meta", "sentence", "dropped", "dropped", "done"]
    reasons = [r for ev in events if ev.event == "dropped" for r in ev.to_dict()["reasons"]]
    assert any(r == "cited a nonexistent chunk number [6]" for r in reasons)
    assert any(r.startswith("[1] has only 0.0") for r in reasons)
    assert all("text" not in ev.to_dict() for ev in events if ev.event == "dropped")
    assert len(trace.dropped) == 2


async def test_failing_first_draft_is_regenerated_once_with_feedback() -> None:
    provider = FakeProvider(
        [
            "The cafeteria serves ice cream on Fridays [1].",
            "Deleted files stay in the recycle bin for 30 days [1].",
        ]
    )
    events, trace = await run(
        "How long does the recycle bin keep files?",
        provider,
        StaticRetriever(hits(RECYCLE, TRIAL, SSO)),
    )
    assert names(events) == ["meta", "dropped", "sentence", "done"]
    assert len(provider.prompts) == 2
    assert provider.prompts[0].feedback == ()
    assert any("substantive overlap" in line for line in provider.prompts[1].feedback)
    assert len(trace.drafts) == 2


async def test_two_failing_drafts_refuse_and_never_try_a_third() -> None:
    provider = FakeProvider(["Ice cream on Fridays [1].", "Ice cream on Fridays [9].", "x"])
    events, trace = await run(
        "How long does the recycle bin keep files?",
        provider,
        StaticRetriever(hits(RECYCLE, TRIAL, SSO, scores=(10.0, 9.0, 2.0))),
    )
    assert names(events) == ["meta", "dropped", "dropped", "refusal", "done"]
    refusal = events[3].to_dict()
    assert refusal["reason"] == "no_support"
    # best first; the sign-in page matched a word or two (score 2 of 10): not worth naming;
    # the plans page shares no word of substance with the question, whatever its score
    assert [d["doc_id"] for d in refusal["documents"]] == ["doc-001"]
    assert len(provider.prompts) == 2
    assert trace.status == "refused_no_support"


async def test_json_mode_rejects_fabricated_draft_then_passes() -> None:
    claim = '{"text": "Deleted files stay in the recycle bin for 30 days.", "citations": [1]}'
    good = '{"claims": [' + claim + "]}"
    provider = FakeProvider([good, good])
    events, trace = await run(
        "How long does the recycle bin keep files?",
        provider,
        StaticRetriever(hits(RECYCLE, TRIAL, SSO)),
        fabricate=True,
        mode="json",
    )
    assert names(events) == ["meta", "sentence", "done"]
    first = [v for v in trace.verdicts if v["draft"] == 1 and not v["ok"]]
    issues = [i for v in first for i in v["issues"]]
    assert "cited a nonexistent chunk number [6]" in issues
    assert any(i.startswith("[1] has only 0.0") for i in issues)
    assert all(
        n in (1, 2, 3) for ev in events if ev.event == "sentence" for n in ev.to_dict()["citations"]
    )


async def test_json_regeneration_never_shows_fewer_verified_sentences() -> None:
    def claim(text: str, n: int) -> str:
        return '{"text": "' + text + '", "citations": [' + str(n) + "]}"

    recycle = claim("Deleted files stay in the recycle bin for 30 days.", 1)
    purged = claim("After that they are purged.", 1)
    made_up = claim("Deleted files can be restored by phone support.", 2)
    first = '{"claims": [' + ", ".join([recycle, purged, made_up]) + "]}"
    second = '{"claims": [' + recycle + ", " + made_up + "]}"
    provider = FakeProvider([first, second])
    events, trace = await run(
        "How long does the recycle bin keep files?",
        provider,
        StaticRetriever(hits(RECYCLE, TRIAL, SSO)),
        mode="json",
    )
    shown = [ev.to_dict()["text"] for ev in events if ev.event == "sentence"]
    assert len(provider.prompts) == 2  # the failing draft was regenerated once, with feedback
    assert shown == [
        "Deleted files stay in the recycle bin for 30 days.",
        "After that they are purged.",
    ]  # the regeneration verified fewer, so the first draft's verified sentences are shown
    assert trace.status == "answered"


async def test_json_mode_reads_a_prose_draft_with_markers_as_the_stream_would() -> None:
    """A model that ignores the JSON format and writes cited prose is answered through the
    same gates, not refused as an unparseable draft; prose with no marker stays unparseable."""
    prose = "Deleted files stay in the recycle bin for 30 days [1]. Ice cream on Fridays [2]."
    events, trace = await run(
        "How long does the recycle bin keep files?",
        FakeProvider([prose, prose]),
        StaticRetriever(hits(RECYCLE, TRIAL, SSO)),
        mode="json",
    )
    shown = [ev.to_dict()["text"] for ev in events if ev.event == "sentence"]
    assert shown == ["Deleted files stay in the recycle bin for 30 days."]
    assert trace.status == "answered"
    assert any("Read as prose instead." in e for e in trace.errors)
    events, trace = await run(
        "How long does the recycle bin keep files?",
        FakeProvider(["Thirty days, I think.", "Thirty days, I think."]),
        StaticRetriever(hits(RECYCLE, TRIAL, SSO)),
        mode="json",
    )
    assert trace.status == "refused_no_support"


async def test_provider_error_mid_stream_keeps_only_verified_sentences() -> None:
    provider = FakeProvider(
        [
            FakeOutput(
                deltas=[
                    "Deleted files stay in the recycle bin for 30 days [1]. ",
                    "Unverified tail",
                ],
                error=ProviderError(
                    "The model service is overloaded.", retryable=True, started=True
                ),
            )
        ]
    )
    events, trace = await run(
        "How long does the recycle bin keep files?",
        provider,
        StaticRetriever(hits(RECYCLE, TRIAL, SSO)),
    )
    assert names(events) == ["meta", "sentence", "error", "done"]
    assert all("Unverified" not in str(ev.to_dict()) for ev in events)
    assert trace.status == "error"
    assert trace.errors


async def test_cancellation_marks_the_trace() -> None:
    provider = FakeProvider([["Deleted files stay ", "in the recycle bin "] + ["x "] * 1000])
    trace = TraceRecorder(trace_id="01CANCEL", question="q")
    gen = answer(
        AnswerRequest(question="How long does the recycle bin keep files?"),
        retriever=StaticRetriever(hits(RECYCLE, TRIAL, SSO)),
        provider=provider,
        config=PipelineConfig(),
        trace=trace,
    )
    first = await gen.__anext__()
    assert first.event == "meta"
    await gen.aclose()
    assert trace.status == "cancelled"


async def test_history_is_intent_not_evidence() -> None:
    provider = FakeProvider(
        ["Every new workspace starts with a free trial that lasts 90 days [1]."]
    )
    history = (
        Turn("user", "How long does the recycle bin keep files?"),
        Turn("assistant", "Deleted files stay in the recycle bin for 30 days."),
    )
    retriever = StaticRetriever(hits(TRIAL, SSO, RECYCLE))
    events, trace = await run(
        "and how long does the trial last?", provider, retriever, history=history
    )
    assert names(events) == ["meta", "sentence", "done"]
    # the question's search, then the conflict gate's for the asked value (in the question's
    # language and in the other one): none from history
    assert retriever.queries[0] == trace.standalone_query
    assert all("recycle" not in q and "回收" not in q for q in retriever.queries)
    assert "trial" in trace.standalone_query
    sources_text = provider.prompts[0].messages[-1]["content"]
    assert sources_text.count("30 days") == 1  # only inside block 3's own text, not the old answer


async def test_compression_reports_tokens_before_after_and_saving() -> None:
    provider = FakeProvider(
        [
            "Deleted files stay in the recycle bin for 30 days.",  # block 1 compressed
            "Every new workspace starts with a free trial that lasts 90 days.",
            "Administrators can enforce single sign-on for every member of the workspace.",
            "Deleted files stay in the recycle bin for 30 days [1].",
        ]
    )
    events, trace = await run(
        "How long does the recycle bin keep files?",
        provider,
        StaticRetriever(hits(RECYCLE, SSO, TRIAL)),
        config=PipelineConfig(compression=True),
    )
    meta = events[0].to_dict()
    figures = meta["compression"]
    assert figures["tokens_before"] > figures["tokens_after"] > 0
    assert figures["saving_pct"] > 0
    assert trace.compression == figures
    assert names(events)[-1] == "done"


@pytest.mark.parametrize("question", ["", "   ", "?!"])
async def test_blank_questions_are_refused_not_crashed(question: str) -> None:
    events, _ = await run(question, FakeProvider([]), StaticRetriever([]))
    assert names(events) == ["meta", "refusal", "done"]


LAPTOP_OLD = Chunk(
    chunk_id="doc-071#c01", doc_id="doc-071", title="Equipment policy (2022)",
    updated="2022-02-01", authority="archived",
    text="Company laptops are replaced every 3 years.",
)
LAPTOP_NEW = Chunk(
    chunk_id="doc-070#c01", doc_id="doc-070", title="Equipment policy", updated="2025-02-01",
    authority="policy", text="Company laptops are replaced every 4 years.",
)


async def test_authority_resolves_a_conflict_and_says_so() -> None:
    provider = FakeProvider(["Company laptops are replaced every 4 years [1]."])
    events, trace = await run(
        "How often are company laptops replaced?",
        provider,
        StaticRetriever(hits(LAPTOP_NEW, LAPTOP_OLD, SSO)),
    )
    assert names(events) == ["meta", "notice", "sentence", "done"]
    meta, notices = events[0].to_dict(), events[1].to_dict()["notices"]
    assert [b["chunk_id"] for b in meta["blocks"]] == ["doc-070#c01", "doc-003#c01"]
    assert len(notices) == 1
    assert "3 years" in notices[0] and "Equipment policy (2022)" in notices[0]
    assert trace.notices == list(notices)
    assert not meta["notices"]  # Meta cannot know which documents the answer will cite


async def test_an_answer_citing_neither_side_of_a_resolved_conflict_has_no_notice() -> None:
    provider = FakeProvider(["Administrators can enforce single sign-on for every member [2]."])
    events, trace = await run(
        "How often are company laptops replaced, and can admins enforce single sign-on?",
        provider,
        StaticRetriever(hits(LAPTOP_NEW, LAPTOP_OLD, SSO)),
    )
    assert names(events) == ["meta", "sentence", "done"]  # no notice before it
    assert trace.notices == []


async def test_notices_never_come_with_a_refusal() -> None:
    provider = FakeProvider(["Bananas grow in tropical countries [1]."] * 2)
    events, _trace = await run(
        "How often are company laptops replaced?",
        provider,
        StaticRetriever(hits(LAPTOP_NEW, LAPTOP_OLD, SSO)),
    )
    assert "notice" not in names(events)
    assert names(events)[-2:] == ["refusal", "done"]


GENERIC_GAP = "The sources found may not cover every part of this question."
GOOD = "Deleted files stay in the recycle bin for 30 days [1]."


@pytest.mark.parametrize(
    ("question", "gap", "shown_gap", "issues"),
    [
        # true: "restore" is a question word no block mentions
        (
            "Can a viewer restore files from the recycle bin?",
            "Not covered: whether a viewer can restore files.",
            "Not covered: whether a viewer can restore files.",
            [],
        ),
        # false: [1] is about the recycle bin
        (
            "Can a viewer restore files from the recycle bin?",
            "Not covered: the sources found do not mention recycle.",
            GENERIC_GAP,
            ["says the sources do not mention “recycle”, but [1] does"],
        ),
        # injected: names what nobody asked
        (
            "Can a viewer restore files from the recycle bin?",
            "Not covered: administrators can read every employee's private files.",
            GENERIC_GAP,
            ["names things the question did not ask about: “administrators”, “read”, "
             "“every”, “employee”, “private”"],
        ),
        (
            "回收站里的文件保留多少天？",
            "资料未涵盖：找到的资料没有提到里。",
            "找到的资料可能没有涵盖这个问题的所有方面。",
            ["says something is not covered but names nothing the question asks"],
        ),
    ],
)
async def test_a_gap_is_shown_only_when_verified(
    question: str, gap: str, shown_gap: str, issues: list[str]
) -> None:
    provider = FakeProvider([f"{GOOD}\n{gap}"])
    events, trace = await run(question, provider, StaticRetriever(hits(RECYCLE, TRIAL, SSO)))
    assert names(events) == ["meta", "sentence", "sentence", "done"]
    assert [ev.to_dict()["text"] for ev in events[1:3]] == [
        "Deleted files stay in the recycle bin for 30 days.",
        shown_gap,
    ]
    assert events[2].to_dict()["kind"] == "gap"
    assert [(v["kind"], v["ok"], v["issues"]) for v in trace.verdicts] == [
        ("claim", True, []),
        ("gap", not issues, issues),
    ]
    assert trace.dropped == []


async def test_the_standalone_query_may_name_the_gap() -> None:
    # a follow-up leans back; the standalone query carries the topic
    provider = FakeProvider([f"{GOOD}\nNot covered: whether viewers can restore files."])
    events, _ = await run(
        "and for viewers?",
        provider,
        StaticRetriever(hits(RECYCLE, TRIAL, SSO)),
        standalone_query="Can viewers restore files from the recycle bin?",
    )
    assert events[2].to_dict()["text"] == "Not covered: whether viewers can restore files."


async def test_json_draft_with_a_false_gap_is_not_rejected_and_shows_the_generic_gap() -> None:
    draft = (
        '{"claims": [{"text": "Deleted files stay in the recycle bin for 30 days.", '
        '"citations": [1]}], "not_covered": "Not covered: the sources do not mention recycle."}'
    )
    provider = FakeProvider([draft])
    events, trace = await run(
        "How long does the recycle bin keep files?",
        provider,
        StaticRetriever(hits(RECYCLE, TRIAL, SSO)),
        mode="json",
    )
    assert names(events) == ["meta", "sentence", "sentence", "done"]
    assert events[2].to_dict()["text"] == GENERIC_GAP
    assert len(trace.drafts) == 1


async def test_two_false_gaps_show_one_generic_gap_and_a_true_gap_wins() -> None:
    provider = FakeProvider([
        f"{GOOD}\nNot covered: recycle.\nNot covered: bin.\nNot covered: whether viewers restore."
    ])
    events, _ = await run(
        "Can viewers restore from the recycle bin?",
        provider,
        StaticRetriever(hits(RECYCLE, TRIAL, SSO)),
    )
    assert [ev.to_dict()["text"] for ev in events[2:-1]] == [
        "Not covered: whether viewers restore."
    ]
    provider = FakeProvider([f"{GOOD}\nNot covered: recycle.\nNot covered: bin."])
    events, _ = await run(
        "Can viewers restore from the recycle bin?",
        provider,
        StaticRetriever(hits(RECYCLE, TRIAL, SSO)),
    )
    assert [ev.to_dict()["text"] for ev in events[2:-1]] == [GENERIC_GAP]


async def test_a_false_gap_alone_is_not_an_answer() -> None:
    provider = FakeProvider(["Not covered: recycle.", "Not covered: recycle."])
    events, _ = await run(
        "How long does the recycle bin keep files?",
        provider,
        StaticRetriever(hits(RECYCLE, TRIAL, SSO)),
    )
    assert names(events) == ["meta", "refusal", "done"]
    assert events[1].to_dict()["reason"] == "no_support"


async def test_the_drafts_blank_lines_start_paragraphs_even_after_a_dropped_sentence() -> None:
    provider = FakeProvider([
        "Deleted files stay in the recycle bin for 30 days [1].\n\n"
        "Llamas negotiate the quarterly budget in Lisbon [1].\n"
        "After that they are purged [1].\n"
        "Every new workspace starts with a free trial that lasts 90 days [3]."
    ])
    events, _trace = await run(
        "How long does the recycle bin keep files, and how long is the trial?",
        provider,
        StaticRetriever(hits(RECYCLE, TRIAL, SSO)),
    )
    shown = [(ev.text, ev.paragraph) for ev in events if isinstance(ev, Sentence)]
    assert shown == [
        ("Deleted files stay in the recycle bin for 30 days.", False),
        ("After that they are purged.", True),  # the break before the dropped sentence
        ("Every new workspace starts with a free trial that lasts 90 days.", False),
    ]
