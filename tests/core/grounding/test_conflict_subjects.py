"""A conflict is about the asked subject: values another document states for another subject
than the question's are no disagreement about it (tester's report, issue 12).

Through the pipeline (``kbqa.core.pipeline.answer``) over a small knowledge base: a leave
policy naming annual and sick leave, and an upload that gives annual leave another value.
"""

from __future__ import annotations

import pytest

from kbqa.core.grounding.conflict_asked import asked_of
from kbqa.core.grounding.mentions import mentions_of
from kbqa.core.text.places import place_in
from kbqa.core.types import Block, Chunk, Turn
from tests.core.test_pipeline import StaticRetriever, hits, names, run
from tests.fakes.provider import FakeProvider

ANNUAL = Chunk(
    chunk_id="leave#c01", doc_id="leave", title="Annual leave and sick leave policy",
    section="Annual leave", updated="2025-01-02", authority="policy",
    text="Full-time employees receive 20 days of paid annual leave per calendar year. "
         "Part-time employees receive a share in proportion to their contracted hours.",
)
SICK = Chunk(
    chunk_id="leave#c02", doc_id="leave", title="Annual leave and sick leave policy",
    section="Sick leave", updated="2025-01-02", authority="policy",
    text="Employees receive 10 days of fully paid sick leave per calendar year. After these, "
         "sick pay follows the local statutory rules.",
)
UPLOAD = Chunk(
    chunk_id="outing#c01", doc_id="outing", title="Team outing budget 2026", updated="2026-01-05",
    authority="policy",
    text="The team outing budget is EUR 60 per person. Full-time employees receive 25 days of "
         "paid annual leave.",
)
SICK_ANSWER = "Employees receive 10 days of fully paid sick leave per calendar year [3]."


@pytest.mark.parametrize("question", ["How many days of sick leave do employees get?",
                                      "How many days of fully paid sick leave per calendar year?"])
async def test_another_subjects_disagreement_does_not_refuse_the_question(question: str) -> None:
    events, _ = await run(question, FakeProvider([SICK_ANSWER]),
                          StaticRetriever(hits(ANNUAL, SICK, UPLOAD)))
    assert names(events) == ["meta", "sentence", "done"]
    assert "10 days" in events[1].to_dict()["text"]


async def test_the_asked_subjects_disagreement_still_refuses() -> None:
    events, _ = await run("How many days of annual leave do full-time employees get?",
                          FakeProvider([]), StaticRetriever(hits(ANNUAL, SICK, UPLOAD)))
    assert names(events) == ["meta", "refusal", "done"]
    values = sorted(s["value_text"] for s in events[1].to_dict()["conflict"]["sides"])
    assert values == ["20 days", "25 days"]


async def test_a_follow_up_to_the_other_subject_is_not_refused_with_its_conflict() -> None:
    history = (Turn("user", "How many days of annual leave do full-time employees get?"),)
    events, trace = await run("and what about sick leave?", FakeProvider([SICK_ANSWER]),
                              StaticRetriever(hits(ANNUAL, SICK, UPLOAD)), history=history)
    assert "sick" in trace.standalone_query
    assert names(events) == ["meta", "sentence", "done"]


ANNUAL_ZH = Chunk(
    chunk_id="leave-zh#c01", doc_id="leave-zh", title="年假与病假制度", section="年假",
    updated="2025-01-02", authority="policy",
    text="全职员工每个自然年享有 20 天带薪年假。兼职员工按合同约定的工作时间折算。",
)
SICK_ZH = Chunk(
    chunk_id="leave-zh#c02", doc_id="leave-zh", title="年假与病假制度", section="病假",
    updated="2025-01-02", authority="policy", text="员工每个自然年享有 10 天全薪病假。",
)
UPLOAD_ZH = Chunk(
    chunk_id="outing-zh#c01", doc_id="outing-zh", title="团建预算", updated="2026-01-05",
    authority="policy", text="团建预算为每人 400 元。全职员工享有 25 天带薪年假。",
)


async def test_a_sibling_noun_in_chinese_is_another_subject() -> None:
    events, _ = await run("员工每年有多少天带薪病假？",
                          FakeProvider(["员工每个自然年享有 10 天全薪病假。[3]"]),
                          StaticRetriever(hits(ANNUAL_ZH, SICK_ZH, UPLOAD_ZH)))
    assert "conflict" not in [ev.to_dict().get("reason") for ev in events]
    events, _ = await run("全职员工有多少天年假？", FakeProvider([]),
                          StaticRetriever(hits(ANNUAL_ZH, SICK_ZH, UPLOAD_ZH)))
    assert names(events) == ["meta", "refusal", "done"]
    assert events[1].to_dict()["reason"] == "conflict"


def _doc(doc_id: str, title: str, updated: str, *text: str, authority: str = "policy",
         **fields: str) -> Chunk:
    """A one-chunk document (``<doc_id>#c01``) whose text is ``text`` joined."""
    return Chunk(chunk_id=f"{doc_id}#c01", doc_id=doc_id, title=title, updated=updated,
                 authority=authority, text="".join(text), **fields)


PHONES = _doc("devices", "Device policy", "2024-09-01",
              "Company phones are replaced every 3 years. The helpdesk contacts you when yours "
              "is due.", section="Phones")
KITCHEN = _doc("kitchen", "Kitchen", "2026-02-01",
               "The water filters in the kitchen are replaced every 6 months.")


@pytest.mark.parametrize(("question", "answer", "value"), [
    ("How often are the kitchen water filters replaced?",
     "The water filters in the kitchen are replaced every 6 months [1].", "6 months"),
    ("How often are company phones replaced?",
     "Company phones are replaced every 3 years [2].", "3 years"),
])
async def test_an_upload_about_another_thing_does_not_contest_an_answer(
        question: str, answer: str, value: str) -> None:
    # both say "replaced every …", of things the other document never mentions
    events, _ = await run(question, FakeProvider([answer]),
                          StaticRetriever(hits(KITCHEN, PHONES)))
    assert names(events) == ["meta", "sentence", "done"]
    assert value in events[1].to_dict()["text"]


LOCKERS = _doc("lockers", "储物柜制度", "2025-03-01",
               "储物柜密码每 90 天必须更换一次。")
GIFT_EN = _doc("gift-en", "Welcome gift", "2026-01-10",
               "Each employee can get a one-time welcome gift worth EUR 50.")
GIFT_ZH = _doc("gift-zh", "入职礼品", "2026-01-12",
               "每位员工可一次性领取价值 40 欧元的入职礼品。")


@pytest.mark.parametrize(("question", "answer", "value"), [
    ("储物柜密码多久要换一次？", "储物柜密码每 90 天必须更换一次[1]。", "90 天"),
    ("How often must I get a new locker code?", "储物柜密码每 90 天必须更换一次[1]。", "90 天"),
])
async def test_a_count_or_a_light_verb_shared_with_the_question_draws_in_no_conflict(
        question: str, answer: str, value: str) -> None:
    # 一次 ("once") of the question met 一次性 ("one-time") of the gifts, and "get" met "get":
    # the gifts' EUR 50 against 40 欧元 is no disagreement about the locker code
    events, _ = await run(question, FakeProvider([answer]),
                          StaticRetriever(hits(LOCKERS, GIFT_EN, GIFT_ZH)))
    assert names(events) == ["meta", "sentence", "done"]
    assert value in events[1].to_dict()["text"]


FAQ_45 = _doc("exp-faq", "Expense FAQ", "2026-04-01",
              "You have 45 days after the trip to submit your travel expenses in the portal.",
              authority="faq")
POLICY_20 = _doc("exp-pol", "Expense policy", "2026-01-15",
                 "Travel expenses must be submitted in the portal within 20 days after the "
                 "trip ends.")


async def test_a_value_whose_clause_names_its_subject_after_it_is_weighed_too() -> None:
    # "You have 45 days … to submit your travel expenses": the words before the number say
    # nothing, the ones after it do; the policy's 20 days wins, and the notice says so
    events, _ = await run("How long do I have to submit my travel expenses?",
                          FakeProvider(["Travel expenses must be submitted in the portal "
                                        "within 20 days after the trip ends [1]."]),
                          StaticRetriever(hits(FAQ_45, POLICY_20)))
    assert names(events) == ["meta", "notice", "sentence", "done"]
    notices = events[1].to_dict()["notices"]
    assert len(notices) == 1 and "45 days" in notices[0] and "Expense policy" in notices[0]
    assert "20 days" in events[2].to_dict()["text"]


@pytest.mark.parametrize(("question", "kept", "left"), [
    ("密码多久要换一次？", {"密码"}, {"一次"}),  # 一次 ("once") met a one-time allowance's 一次性
    ("How much do I get per km if I drive my own car?", {"km", "car"}, {"get"}),
])
def test_a_count_or_a_bound_word_says_nothing_a_conflict_is_about(
        question: str, kept: set[str], left: set[str]) -> None:
    # a tester's password and mileage questions were refused with a card about a home
    # office allowance whose sources shared only such words with them
    substance = asked_of([], [], [], question).substance
    assert kept <= substance and not left & substance


BIKE_EN = _doc("bike-en", "Cycling policy", "2026-02-01",
               "Employees get a one-time commuting bike grant of EUR 300 for a bike or a helmet.",
               language="en")
BIKE_ZH = _doc("bike-zh", "骑行补贴", "2026-02-03",
               "每位员工可一次性领取 250 欧元的通勤自行车补贴，用于购买自行车或头盔。",
               language="zh")


@pytest.mark.parametrize("question", ["通勤自行车补贴是多少？",
                                      "How much is the commuting bike grant?"])
async def test_a_value_before_the_noun_it_qualifies_is_compared_in_either_language(
        question: str) -> None:
    # "250 欧元的通勤自行车补贴": the subject follows the value; the Chinese question got the
    # Chinese 250 alone while the English one got the card (second tester's report)
    events, _ = await run(question, FakeProvider([]),
                          StaticRetriever(hits(BIKE_EN, BIKE_ZH)))
    assert names(events) == ["meta", "refusal", "done"]
    sides = sorted(s["value_text"] for s in events[1].to_dict()["conflict"]["sides"])
    assert sides == ["250 欧元", "EUR 300"]


# Two offices' guides, one in each language, with their own booking limits
ROTTERDAM = Chunk(
    chunk_id="rotterdam#c03", doc_id="rotterdam", title="Rotterdam Office Guide",
    section="Desks and meeting rooms", updated="2025-05-12", authority="manual",
    text="Meeting rooms are booked in Google Calendar. The large room Maas seats 12 people "
         "and the rooms Rotte and Schie seat 6 each.\nA meeting room booking may last at most "
         "3 hours; longer bookings need approval from the office manager.",
)
SUZHOU = Chunk(
    chunk_id="suzhou#c03", doc_id="suzhou", title="苏州办公室指南", section="会议室",
    updated="2025-10-10", authority="manual",
    text="办公室共有 4 间会议室：西湖（12 人）、太湖（8 人）和阳澄湖（4 人）。\n"
         "会议室通过飞书日历预订，单次预订不超过 2 小时。",
)


@pytest.mark.parametrize(("question", "about"), [
    ("出差餐补一天多少？", False),  # a rate per day (一天多少), not a booking's length
    ("How many meeting rooms does the Suzhou office have?", False),  # a count of rooms
    ("会议室最多能订多久？", True),
    ("订了会议室，已经过了 40 天还能改吗？", False),  # the asker's days, not a booking's hours
])
def test_two_offices_booking_limits_are_of_what_is_asked_only_when_it_asks_a_length(
        question: str, about: bool) -> None:
    blocks = [Block(n=i, chunk=c, score=1.0, tokens=10, text=c.text)
              for i, c in enumerate((ROTTERDAM, SUZHOU), start=1)]
    limits = [m for b in blocks for m in mentions_of(b)]
    asked = asked_of(blocks, blocks, limits, question)
    assert asked.pair_about(limits[0], limits[1]) is about


@pytest.mark.parametrize(("place", "title", "named"), [
    ("Suzhou", "苏州办公室指南", True),
    ("苏州", "Suzhou office guide", True),
    ("Chongqing", "重庆办公室指南", True),
    ("Suzhou", "深圳办公室指南", False),
    ("Rotterdam", "Rotterdam Office Guide", True),
])
def test_a_place_is_named_in_either_language(place: str, title: str, named: bool) -> None:
    assert place_in(place, title) is named


# A leave policy in English and an attendance rule in Chinese: two kinds of leave, each
# with its own yearly cap
FAMILY_CARE = Chunk(
    chunk_id="leave#c05", doc_id="leave", title="Corvane Leave Policy",
    section="Family care leave",
    updated="2025-01-06", authority="policy",
    text="Employees may take up to 3 days of paid family care leave per year to care for a "
         "hospitalised\nimmediate family member (spouse, child or parent). A hospital "
         "admission letter is required.\nBeyond 3 days, employees may use annual leave or "
         "apply for unpaid leave.",
)
PERSONAL = Chunk(
    chunk_id="attendance#c07", doc_id="attendance", title="深圳办公室考勤与加班制度",
    section="六、事假", updated="2024-11-01", authority="policy", language="zh",
    text="事假为无薪假，每年累计不超过 10 天，须至少提前 1 个工作日在企业微信申请。"
         "年假、病假等其他假期见英文版 Corvane Leave Policy。",
)


async def test_two_languages_bounds_on_a_thing_the_question_never_names_are_no_conflict() -> None:
    # a tester's "my dad is in hospital…" got a card pitting family care leave's 3 days
    # against the Shenzhen cap on unpaid personal leave: both bound some "leave", which the
    # question does not name
    events, _ = await run("my dad is in hospital, can i take some days off to look after him?",
                          FakeProvider([]), StaticRetriever(hits(FAMILY_CARE, PERSONAL)))
    assert "refusal" not in names(events)
