"""The notices shown before an answer's sentences: an archived source says so, once; not
when the question asked for that document's year, whose own notice says why it is used."""

from __future__ import annotations

from kbqa.core.grounding.standing_notice import NoticeBoard
from kbqa.core.types import Block, Conflict, ConflictSide, Sentence
from tests.fakes import make_block

OLD = make_block(1, "Laptops are replaced every 3 years.", title="Equipment policy (2022)",
                 doc_id="eq-2022", authority="archived", updated="2022-01-10")
NEW = make_block(2, "Laptops are replaced every 4 years.", title="Equipment policy",
                 doc_id="eq", authority="policy", updated="2024-09-01")
OLD_SAYS = Sentence(index=0, text="Laptops are replaced every 3 years.", citations=(1,))
YEAR_NOTICE = "Answered from “Equipment policy (2022)”, the document of the year you asked about."


def _side(block: Block, value: str) -> ConflictSide:
    c = block.chunk
    return ConflictSide(block.n, c.chunk_id, c.doc_id, c.title, c.updated, c.authority, value)


def test_an_archived_source_brings_its_notice_once() -> None:
    board = NoticeBoard((), (OLD, NEW), "en")
    first = board.before(OLD_SAYS)
    assert first is not None and len(first.notices) == 1
    assert "an archived document" in first.notices[0]
    assert board.before(Sentence(index=0, text="Again.", citations=(1,))) is None


def test_the_document_of_the_year_asked_about_brings_only_its_year_notice() -> None:
    # "and in 2022?": the year notice says which document answers and what the current one
    # says; a second notice calling it superseded stacked two notices about one choice
    by_year = Conflict(unit="month", sides=(_side(OLD, "3 years"), _side(NEW, "4 years")),
                       context=("laptop",), preferred=0, preferred_by="year")
    board = NoticeBoard(((YEAR_NOTICE, frozenset({"eq-2022"})),), (OLD, NEW), "en", (by_year,))
    shown = board.before(OLD_SAYS)
    assert shown is not None and shown.notices == (YEAR_NOTICE,)


def test_an_authority_notice_comes_only_with_a_sentence_citing_its_document() -> None:
    # A deployment tester's meal allowance came with the leave policy's notice ("Answered
    # from the policy Leave Policy…"), citing only the travel policy.
    travel = make_block(3, "Meals are repaid up to EUR 45 per day.", title="Travel", doc_id="tr")
    notice = "Answered from the policy “Equipment policy” (updated 2024-09-01)."
    board = NoticeBoard(((notice, frozenset({"eq"})),), (OLD, NEW, travel), "en")
    assert board.before(Sentence(index=0, text="Meals are repaid up to EUR 45 per day.",
                                 citations=(3,))) is None
    shown = board.before(Sentence(index=1, text="Laptops are replaced every 4 years.",
                                  citations=(2,)))
    assert shown is not None and shown.notices == (notice,)


MANUAL_X = make_block(1, "Deleted files stay in the recycle bin for 30 days.", title="Manual X",
                      doc_id="mx", authority="manual", updated="2025-03-01")
MANUAL_Y = make_block(2, "回收站中的文件保留 30 天。", title="产品手册：回收站与历史版本",
                      doc_id="my", authority="manual", updated="2025-03-02")
FAQ_Z = make_block(3, "Deleted files stay in the recycle bin for 60 days.", title="FAQ Z",
                   doc_id="fz", authority="faq", updated="2024-01-01")
TWO_MANUALS = tuple(
    Conflict(unit="day", sides=(_side(manual, "30 days"), _side(FAQ_Z, "60 days")),
             context=("recycle",), preferred=0)
    for manual in (MANUAL_X, MANUAL_Y)
)


def test_an_authority_notice_names_only_the_sources_the_answer_cites_so_far() -> None:
    # A tester read "Answered from the manual X and the manual 《产品手册：回收站与历史版本》"
    # above an answer whose source list held Manual X alone.
    from kbqa.core.grounding.refusals import authority_notice_sources

    notices = authority_notice_sources("en", TWO_MANUALS)
    board = NoticeBoard(notices, (MANUAL_X, MANUAL_Y), "en", TWO_MANUALS)
    first = board.before(Sentence(index=0, text="They stay 30 days.", citations=(1,)))
    assert first is not None and first.notices == (
        "Answered from the manual “Manual X” (updated 2025-03-01). “FAQ Z” (updated "
        "2024-01-01), a less authoritative source, says 60 days. Ask the document owner if "
        "in doubt.",)
    # a later sentence citing the other manual names it too, in the one notice
    second = board.before(Sentence(index=1, text="回收站中的文件保留 30 天。", citations=(2,)))
    assert second is not None and len(second.notices) == 1
    assert "“Manual X” (updated 2025-03-01) and the manual “产品手册" in second.notices[0]
    assert board.before(Sentence(index=2, text="Again.", citations=(1, 2))) is None
