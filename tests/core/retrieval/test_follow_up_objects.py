"""Follow-ups whose verb lost its object ask it of the earlier topic, in English, Chinese and
across the two; a follow-up naming a thing no passage covers is refused, not answered with
the earlier answer (tester's report, issue 12 item 4).

Through the pipeline with history, over a small knowledge base (BM25 in memory, the offline
extractive reader), as a user meets it.
"""

from __future__ import annotations

import pytest

from kbqa.core.records import TraceRecorder
from kbqa.core.retrieval.bare_verb import objectless_verb
from kbqa.core.retrieval.standalone import standalone_query
from kbqa.core.types import Chunk, Turn
from tests.core.retrieval.offline_ask import ask_offline
from tests.fakes.provider import FakeProvider


def _chunk(n: int, title: str, section: str, text: str) -> Chunk:
    return Chunk(chunk_id=f"doc-{n:03d}#c01", doc_id=f"doc-{n:03d}", title=title,
                 section=section, updated="2025-04-03", text=text)


KB = [
    _chunk(1, "Recycle bin", "Recycle bin", (
        "Deleted files stay in the recycle bin for 30 days. Editors and owners can restore "
        "files from the recycle bin.")),
    _chunk(2, "回收站", "回收站",
           "删除的文件在回收站中保留 30 天。编辑者和所有者可以从回收站恢复文件。"),
    _chunk(3, "两步验证", "恢复码", (
        "开启两步验证后请妥善保存恢复码：每个恢复码只能使用一次，在第二验证方式丢失时可以用它登录。")),
    _chunk(4, "Allowances", "Home office", (
        "The home office allowance is EUR 300 per employee. To apply for the home office "
        "allowance, submit the request in the HR portal under Allowances.")),
    _chunk(5, "年假常见问题", "申请",
           "年假最小申请单位为半天。病假不需要提前申请，但必须在当天告知经理。"),
    _chunk(6, "Open API: rate limits and webhooks", "Rate limits", (
        "The default rate limit of the open API is 600 requests per minute for each API "
        "client. Calls above the limit are answered with HTTP 429.")),
    _chunk(7, "Open API: rate limits and webhooks", "Webhooks", (
        "Register a webhook in the admin console; NimbusDrive then sends a POST to your "
        "endpoint whenever a subscribed event happens.")),
]
async def _ask(questions: list[str]) -> tuple[str, str, str]:
    """The shown text, status and standalone query of the last of ``questions``."""
    return await ask_offline(KB, questions)


@pytest.mark.parametrize(
    ("question", "verb"),
    [("如何申请？", "申请"), ("管理员能恢复吗？", "恢复"), ("how do I apply?", "apply"),
     ("can admins restore?", "restore"), ("怎么请假？", ""), ("how do I restore a file?", ""),
     ("那病假呢？", ""), ("谁有权限把旧版本恢复回来？", "")],
)
def test_a_verb_without_its_object_is_found_in_both_languages(question: str, verb: str) -> None:
    assert objectless_verb(question) == verb


@pytest.mark.parametrize(
    "questions",
    [["回收站里的文件能保留多久？", "管理员能恢复吗？"],
     ["How long do deleted files stay in the recycle bin?", "can admins restore?"],
     ["How long do deleted files stay in the recycle bin?", "管理员能恢复吗？"]],
)
async def test_restoring_after_a_recycle_bin_question_is_about_the_recycle_bin(
    questions: list[str]
) -> None:
    shown, _, query = await _ask(questions)
    assert "回收站" in query or "recycle bin" in query
    assert "恢复码" not in shown


@pytest.mark.parametrize("follow_up", ["how do I apply?", "如何申请？"])
async def test_applying_after_an_allowance_question_is_about_the_allowance(
    follow_up: str
) -> None:
    shown, _, query = await _ask(["How much is the home office allowance?", follow_up])
    assert "home office" in query
    assert "年假" not in shown and "病假" not in shown


async def test_a_new_thing_no_passage_covers_is_refused_not_answered_with_the_old_answer(
) -> None:
    shown, status, _ = await _ask(["What is the rate limit of the open API?", "那 webhook 呢？"])
    assert "600" not in shown
    assert status.startswith("refused")


async def test_the_model_is_asked_to_rewrite_a_verb_without_its_object() -> None:
    provider = FakeProvider(["如何申请居家办公补贴？"], supports_rewrite=True)
    trace = TraceRecorder(trace_id="t", question="如何申请？")
    query = await standalone_query(
        question="如何申请？", history=(Turn("user", "How much is the home office allowance?"),),
        provider=provider, trace=trace)
    assert query == "如何申请居家办公补贴？"
    assert "without its object" in provider.prompts[0].system


async def test_it_stands_for_the_thing_not_a_phrasal_verb_and_the_office_is_carried() -> None:
    # "pick up" is the act of the earlier question; "access badge" its thing; the office it
    # was about still is
    trace = TraceRecorder(trace_id="t", question="and if I lose it, what does a new one cost?")
    query = await standalone_query(
        question="and if I lose it, what does a new one cost?",
        history=(Turn("user", "Where do I pick up my key card on my first day in the Lisbon "
                              "office?"),),
        provider=FakeProvider([]), trace=trace)
    assert query == "If I lose the key card, what does a new one cost (Lisbon office)?"
