"""The conflict card a user sees when two documents disagree on the asked value, however
the question is phrased and wherever retrieval ranked the second document."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from kbqa.core.pipeline import PipelineConfig
from kbqa.core.types import Chunk, Event, ScoredChunk
from tests.core.test_pipeline import RECYCLE, SSO, TRIAL, UPLOAD_A, UPLOAD_B, hits, names, run
from tests.fakes.provider import FakeProvider

WEAK = PipelineConfig(min_relevance=0.13, reader_relevance=0.05)
UPLOAD_ZH_A = Chunk(
    chunk_id="doc-012#c03", doc_id="doc-012", title="产品手册：上传文件", updated="2025-03-12",
    authority="manual", language="zh",
    text="单个文件上传的最大大小为 200 MB。超过这个大小的文件会在传输开始前被拒绝。",
)
UPLOAD_ZH_B = Chunk(
    chunk_id="doc-013#c03", doc_id="doc-013", title="网页上传工具使用指南", updated="2024-11-05",
    authority="manual", language="zh",
    text="单个上传文件的最大大小为 100 MB。如果选择了超过此大小的文件，上传工具会跳过它。",
)
WEB_INTRO_ZH = Chunk(
    chunk_id="doc-013#c01", doc_id="doc-013", title="网页上传工具使用指南", updated="2024-11-05",
    authority="manual", language="zh",
    text="网页上传工具是通过浏览器添加文件时，在网页版右下角弹出的上传面板。",
)


class ProbedRetriever:
    """``first`` for the question's own search, ``probe`` for any other (the conflict gate's
    search for the other side); records the queries."""

    def __init__(self, first: Sequence[ScoredChunk], probe: Sequence[ScoredChunk]) -> None:
        self.first, self.probe = list(first), list(probe)
        self.queries: list[str] = []

    async def search(self, query: str, k: int) -> list[ScoredChunk]:
        self.queries.append(query)
        return (self.first if len(self.queries) == 1 else self.probe)[:k]


def card(events: Sequence[Event]) -> dict[str, object]:
    """What the conflict card shows: each value with its source's title, date and block."""
    meta, refusal = events[0].to_dict(), events[1].to_dict()
    blocks = {b["n"]: b["chunk_id"] for b in meta["blocks"]}
    return {
        "reason": refusal["reason"],
        "sides": sorted((s["value_text"], s["title"], s["updated"], blocks.get(s["n"]))
                        for s in refusal["conflict"]["sides"]),
    }


async def test_the_second_document_outside_the_blocks_still_shows_on_the_card() -> None:
    # The web uploader guide's 100 MB ranks below pages that share the question's words.
    retriever = ProbedRetriever(hits(UPLOAD_A, SSO, TRIAL), hits(UPLOAD_A, UPLOAD_B))
    provider = FakeProvider(["The maximum size of a single uploaded file is 200 MB [1]."])
    events, _ = await run("What's the biggest single file you can upload to NimbusDrive?",
                          provider, retriever)

    assert names(events) == ["meta", "refusal", "done"]
    assert card(events) == {"reason": "conflict", "sides": [
        ("100 MB", "Web uploader guide", "2024-11-02", "doc-005#c01"),
        ("200 MB", "Manual: uploads", "2025-06-30", "doc-004#c01"),
    ]}
    assert provider.prompts == []
    assert "maximum" in retriever.queries[1] and "size" in retriever.queries[1]


async def test_a_stated_quantity_is_weighed_against_both_limits() -> None:
    retriever = ProbedRetriever(hits(UPLOAD_A, UPLOAD_B, relevance=0.2), [])
    events, _ = await run(
        "A customer wants to upload a 150 MB screen recording through the browser. "
        "Will it go through?", FakeProvider([]), retriever)

    assert [side[0] for side in card(events)["sides"]] == ["100 MB", "200 MB"]  # type: ignore[index]


async def test_weak_words_but_disagreeing_limits_is_a_conflict_not_low_score() -> None:
    # "150M" is 150 MB; the question's words barely match (网页版, 视频), below the threshold.
    retriever = ProbedRetriever(hits(WEB_INTRO_ZH, RECYCLE, relevance=0.09),
                                hits(UPLOAD_A, UPLOAD_B, UPLOAD_ZH_A, UPLOAD_ZH_B))
    events, _ = await run("录了一段 150M 的视频，用网页版能传上去吗？", FakeProvider([]),
                          retriever, config=WEAK)

    assert card(events) == {"reason": "conflict", "sides": [
        ("100 MB", "网页上传工具使用指南", "2024-11-05", "doc-013#c03"),
        ("200 MB", "产品手册：上传文件", "2025-03-12", "doc-012#c03"),
    ]}
    assert "200 MB" in events[1].to_dict()["message"]


async def test_weak_unrelated_question_stays_a_low_score_refusal() -> None:
    retriever = ProbedRetriever(hits(UPLOAD_A, UPLOAD_B, relevance=0.09), [])
    events, _ = await run("Who approves the team offsite agenda?", FakeProvider([]), retriever,
                          config=WEAK)

    assert events[1].to_dict()["reason"] == "low_score"


async def test_question_asking_no_value_makes_no_second_search() -> None:
    retriever = ProbedRetriever(hits(SSO, UPLOAD_A), hits(UPLOAD_B))
    provider = FakeProvider(["Administrators can enforce single sign-on [1]."])
    events, _ = await run("Can administrators enforce single sign-on?", provider, retriever)

    assert names(events) == ["meta", "sentence", "done"]
    assert len(retriever.queries) == 1


# An out-of-date FAQ disagrees with the leave policy on annual leave; questions about other
# rates that only share "days" or "per" with that statement are answered, not refused.
LEAVE_POLICY = Chunk(
    chunk_id="hr-1#c01", doc_id="hr-1", title="Holiday rules", authority="other",
    text="Annual leave: permanent staff get 27 days of paid annual leave per calendar year.\n"
         "Leftover days lapse on 30 April.")
LEAVE_FAQ = Chunk(
    chunk_id="faq-1#c02", doc_id="faq-1", title="Starter FAQ", authority="other",
    text="Permanent staff get 24 days of paid annual leave per year.")
TRIPS = Chunk(
    chunk_id="trips#c01", doc_id="trips", title="Trips", authority="other",
    text="Food: food costs are repaid up to GBP 38 per day on a trip.")
HOME = Chunk(
    chunk_id="home#c01", doc_id="home", title="Home office", authority="other",
    text="Staff may work from home for up to 2 days per week.")


@pytest.mark.parametrize(("question", "first", "said"), [
    ("What are food costs per day on a trip?", TRIPS, "GBP 38 per day"),
    ("How many days per week can staff work from home?", HOME, "2 days per week"),
])
async def test_another_rate_sharing_days_with_a_disagreement_is_answered(
    question: str, first: Chunk, said: str
) -> None:
    retriever = ProbedRetriever(hits(first, LEAVE_POLICY, LEAVE_FAQ),
                                hits(LEAVE_POLICY, LEAVE_FAQ))
    provider = FakeProvider([f"{first.text.split(': ')[-1]} [1]"])
    events, _ = await run(question, provider, retriever)
    assert "refusal" not in names(events)
    assert said in "".join(e.to_dict().get("text", "") for e in events)


async def test_the_disagreement_itself_per_year_is_still_a_conflict() -> None:
    retriever = ProbedRetriever(hits(LEAVE_POLICY, LEAVE_FAQ, TRIPS), hits(LEAVE_POLICY, LEAVE_FAQ))
    events, _ = await run("How many days of paid annual leave per year do permanent staff get?",
                          FakeProvider(["Permanent staff get 27 days [1]."]), retriever)
    assert card(events)["reason"] == "conflict"


async def test_two_bounds_sharing_only_in_advance_are_of_two_things() -> None:
    # A visitor rule and a leave rule both say "at least … in advance"; the question names
    # the visitors, which only one of them is about.
    visitors = Chunk(chunk_id="rules-zh#c02", doc_id="rules-zh", title="前台规定", language="zh",
                     text="访客须至少提前两天在前台登记，并由接待同事陪同。")
    adoption = Chunk(chunk_id="leave#c04", doc_id="leave", title="Leave rules",
                     text="Adoption leave requests must reach HR at least 6 weeks in advance.")
    retriever = ProbedRetriever(hits(visitors, adoption), hits(visitors, adoption))
    events, _ = await run("访客要提前几天登记？",
                          FakeProvider(["访客须至少提前两天在前台登记 [1]。"]), retriever)
    assert "refusal" not in names(events)
