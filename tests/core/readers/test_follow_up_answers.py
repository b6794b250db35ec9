"""A follow-up is answered about what it adds, never with the earlier answer (issue 12 item 4,
tester's report: "what about meals?" after a hotel question repeated the hotel rule)."""

from __future__ import annotations

from kbqa.core.readers.extractive.follow_ups import about_new_words, new_words
from kbqa.core.readers.extractive.text import Selection, candidates
from kbqa.core.types import Chunk, Turn
from tests.core.retrieval.offline_ask import ask_offline
from tests.fakes import make_block


def _chunk(n: int, title: str, section: str, text: str) -> Chunk:
    return Chunk(chunk_id=f"doc-{n:03d}#c01", doc_id=f"doc-{n:03d}", title=title,
                 section=section, updated="2025-04-03", text=text)


KB = [
    _chunk(1, "Partner API: limits and callbacks", "Request limits",
           "The partner API accepts 300 requests per minute for each key. Requests above the "
           "limit are answered with HTTP 429 and a Retry-After header."),
    _chunk(2, "Partner API: limits and callbacks", "Callbacks",
           "A callback that fails is sent again up to 5 times over 12 hours."),
    _chunk(3, "Conference travel", "Hotels",
           "Hotels: up to EUR 150 per night, or EUR 210 per night in Vienna."),
]


async def test_a_follow_up_naming_a_new_thing_is_not_answered_with_the_earlier_rule() -> None:
    shown, status, _ = await ask_offline(KB, [
        "what's the request limit of the partner API?",
        "what if we go over it?",
        "and for callbacks?",
    ])
    assert "HTTP 429" not in shown
    assert status != "answered" or "callback" in shown.lower()


async def test_a_follow_up_the_answer_states_is_answered() -> None:
    shown, status, _ = await ask_offline(KB, [
        "what's the request limit of the partner API?", "what if we go over it?"])
    assert status == "answered"
    assert "HTTP 429" in shown


def test_what_a_turn_adds_is_its_content_words_no_earlier_turn_had() -> None:
    history = [Turn("user", "What's the hotel limit per night in Vienna?")]
    assert new_words("What's the meal limit per night in Vienna?", history) == {"meal"}
    # a name narrows (the rule for other cities never names it), a number is the asker's
    assert new_words("What's the hotel limit per night in Graz?", history) == frozenset()
    meal = new_words("那餐费呢，一天最多报多少？", [Turn("user", "住酒店一晚最多报多少？")])
    assert meal == {"餐费"}
    # a verb ("how do I apply?": the topic's procedure answers it) and a group of people
    assert new_words("How do I apply for the meal allowance in Vienna?", history) == {
        "meal", "allowanc"}
    leave = [Turn("user", "How many days of leave do full-time employees get?")]
    assert new_words("How many days of leave do part-time employees get?", leave) == frozenset()
    assert new_words("What's the hotel limit?", []) == frozenset()


ZH_KB = [
    _chunk(11, "差旅制度（华东区）", "出差费用",
           "住宿：杭州、苏州每晚不超过 600 元，其他城市每晚不超过 400 元。出差住酒店时，"
           "迷你吧等属于个人消费。出差期间个人餐费每天最多报销 120 元。"),
    _chunk(12, "差旅制度（华东区）", "交通", "出差乘坐火车二等座。"),
]


async def test_a_place_the_rule_for_other_cities_covers_is_answered_without_a_gap() -> None:
    # before: refused at the low-score gate (南京 is named by no block)
    shown, status, standalone = await ask_offline(
        ZH_KB, ["去杭州出差住酒店一晚能报多少钱", "那南京呢？"])
    assert "南京" in standalone
    assert status == "answered"
    assert "其他城市每晚不超过 400 元" in shown
    assert "没有出现" not in shown  # no "not covered" line naming 南京


async def test_the_rest_of_the_earlier_thing_is_answered_without_naming_rest() -> None:
    kb = [_chunk(21, "Overtime policy", "Carrying over",
                 "Up to 10 unused overtime hours can be carried over into the next quarter. "
                 "Hours above that are forfeited."),
          _chunk(22, "Onboarding", "Goals",
                 "After three months we agree on your goals for the rest of the year.")]
    shown, status, _ = await ask_offline(kb, ["Can I carry over unused overtime hours?",
                                              "what happens to the rest?"])
    assert status == "answered"
    assert "overtime" in shown
    assert "goals" not in shown  # before: "…your goals for the rest of the year"
    assert "Not covered" not in shown


def test_the_sentence_stating_what_the_turn_adds_leads() -> None:
    block = make_block(1, "住宿：杭州每晚不超过 600 元。出差期间个人餐费每天最多报销 120 元。",
                       title="差旅制度", language="zh")
    hotel, meal = candidates([block])
    history = [Turn("user", "去杭州出差住酒店一晚能报多少钱？")]
    shown = about_new_words("出差餐费一天能报多少钱？", history, [block],
                            Selection((hotel, meal), (), False), lambda q, b: _declined())
    assert shown.chosen == (meal, hotel)  # before: the hotel rule led


def _declined() -> Selection:
    return Selection((), (), True)


async def test_a_new_question_after_an_unrelated_one_is_answered_as_if_asked_alone() -> None:
    # a tester's "Can I carry over unused annual leave?" after "What if I lose my laptop?"
    # was refused, though answered when asked alone: it was held to state "leave"
    kb = [
        _chunk(4, "Holiday policy", "Annual leave",
               "Staff get 25 days of annual leave each year."),
        _chunk(5, "Holiday policy", "Carry-over",
               "Up to 8 unused days can be carried over into the next year and must be used "
               "by 30 April."),
        _chunk(6, "Equipment", "Phones", "A broken phone is swapped at the service desk."),
    ]
    question = "Can I carry unused annual leave over to next year?"
    alone, status_alone, _ = await ask_offline(kb, [question])
    after, status_after, _ = await ask_offline(kb, ["What if my phone breaks?", question])
    assert status_alone == "answered" and "8 unused days" in alone
    assert (status_after, after) == (status_alone, alone)
