"""An answer quoting an archived document says so beside it, in the question's language; a
current document that answers is preferred (issue 12 item 3; tester's report: an archived
2022 policy quoted with no notice)."""

from __future__ import annotations

from kbqa.core.readers.extractive.reader import ExtractiveProvider
from kbqa.core.types import Chunk, Notice, Sentence
from tests.core.test_pipeline import StaticRetriever, hits, names, run

OLD_EN = Chunk(
    chunk_id="old#c01", doc_id="old", title="Phone policy (2021, archived)",
    text="Sales staff receive an iPhone; everyone else receives a Pixel.",
    section="Phones", updated="2021-02-01", authority="archived", language="en")
CURRENT_EN = Chunk(
    chunk_id="cur#c01", doc_id="cur", title="Phone policy",
    text="Sales staff receive an iPhone 15 or a Pixel 8, as they prefer.",
    section="Phones", updated="2025-02-01", authority="policy", language="en")
UNRELATED = Chunk(
    chunk_id="cur#c02", doc_id="cur", title="Phone policy",
    text="Phones are replaced every three years.",
    section="Replacement", updated="2025-02-01", authority="policy", language="en")
OLD_ZH = Chunk(
    chunk_id="oldzh#c01", doc_id="oldzh", title="手机配发规定（2021 年版，已归档）",
    text="销售人员配发 iPhone，其他员工配发 Pixel。",
    section="手机", updated="2021-02-01", authority="archived", language="zh")


async def test_an_archived_answer_carries_a_notice_before_its_sentence() -> None:
    events, trace = await run("What phone do sales staff get?", ExtractiveProvider(),
                              StaticRetriever(hits(UNRELATED, OLD_EN)))
    assert names(events)[:3] == ["meta", "notice", "sentence"]
    notice = next(ev for ev in events if isinstance(ev, Notice))
    assert notice.notices == (
        "This answer quotes “Phone policy (2021, archived)” (updated 2021-02-01), an archived "
        "document that has been superseded: what it says may no longer apply; the current "
        "document prevails.",)
    assert trace.notices == list(notice.notices)


async def test_the_notice_speaks_the_questions_language() -> None:
    events, _ = await run("销售人员配发什么手机？", ExtractiveProvider(),
                          StaticRetriever(hits(OLD_ZH)))
    notice = next(ev for ev in events if isinstance(ev, Notice))
    assert notice.notices[0].startswith(f"本回答引用了已归档的文档《{OLD_ZH.title}》")


async def test_a_current_document_that_answers_is_quoted_instead() -> None:
    events, trace = await run("What phone do sales staff get?", ExtractiveProvider(),
                              StaticRetriever(hits(OLD_EN, CURRENT_EN)))
    sentences = [ev for ev in events if isinstance(ev, Sentence)]
    assert [s.text for s in sentences] == [CURRENT_EN.text]
    assert not any(isinstance(ev, Notice) for ev in events)
    assert trace.notices == []
