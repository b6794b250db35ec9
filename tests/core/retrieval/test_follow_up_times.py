"""Follow-ups that ask the earlier question again at another time, or of its subject with
a predicate only (issue 12 item 4, by kind, from a code-blind tester's chains):

- a time ("what about weekends?", "and outside office hours?", 周末呢？) is when the earlier
  question is asked again, never the thing it asks about;
- a Chinese predicate with a count of the act (多久换一次？) has the earlier subject, though
  jieba tags its one-character verb a noun;
- how often ("every few months") is no new thing the answer must name.
"""

from __future__ import annotations

import pytest

from kbqa.core.types import Chunk
from tests.core.retrieval.offline_ask import ask_offline, rewrite


@pytest.mark.parametrize(
    ("topic", "follow_up", "kept", "added"),
    [
        # before: "What weekends does the canteen open?"
        ("What time does the canteen open?", "what about weekends?", "canteen open", "weekends"),
        ("When does the front desk close?", "and the weekend?", "front desk close", "weekend"),
        # before: "What's the outside office hours of facilities?"
        ("What's the phone number of facilities?", "and outside office hours?",
         "phone number of facilities", "outside office hours"),
        # before: "周末几点关门？" (whose doors: the building's question lost its subject)
        ("图书馆几点关门？", "周末呢？", "图书馆", "周末"),
        ("前台几点下班？", "那晚上呢？", "前台", "晚上"),
        # before: "多久换一次？" (jieba: 多久/m 换/nz 一次/m, read as naming a thing)
        ("会议室的门禁卡是什么颜色？", "多久换一次？", "门禁卡", "换一次"),
    ],
)
def test_a_time_or_a_bare_predicate_keeps_the_earlier_subject(
    topic: str, follow_up: str, kept: str, added: str
) -> None:
    standalone = rewrite(topic, follow_up)
    assert kept in standalone and added in standalone


@pytest.mark.parametrize(
    ("topic", "follow_up", "expected"),
    [
        # a thing whose head is a time word is still a thing: it replaces the focus
        ("How many days of paid vacation do full-time employees get?", "and sick days?",
         "How many sick days do full-time employees get?"),
        ("全职员工每年有多少天带薪年假？", "那病假呢？", "全职员工每年有多少天病假？"),
    ],
)
def test_a_thing_named_after_a_time_word_still_replaces_the_focus(
    topic: str, follow_up: str, expected: str
) -> None:
    assert rewrite(topic, follow_up) == expected


KB = [
    Chunk(chunk_id="doc-001#c01", doc_id="doc-001", title="Accounts handbook",
          section="Sign-in", updated="2025-04-03",
          text="Passphrases must be at least 16 characters long. You do not need to change "
               "your passphrase on a schedule, but change it at once if someone may have "
               "seen it."),
    Chunk(chunk_id="doc-002#c01", doc_id="doc-002", title="Workplace guide",
          section="Lockers", updated="2025-04-03",
          text="Lockers are reassigned every 6 months. Report a broken locker to facilities."),
]


async def test_how_often_is_asked_of_the_earlier_thing_and_answered() -> None:
    shown, status, standalone = await ask_offline(KB, [
        "how long does my passphrase have to be?",
        "do I have to change it every few months?",
    ])
    assert "passphrase" in standalone.lower()
    assert status == "answered"
    assert "do not need to change your passphrase" in shown


KB_ZH = [
    Chunk(chunk_id="doc-003#c01", doc_id="doc-003", title="前台须知", section="门禁",
          updated="2025-04-03",
          text="访客门禁卡由前台发放，离开时归还。访客门禁卡的密码每月一号更换，由保安室通知前台。"),
    Chunk(chunk_id="doc-004#c01", doc_id="doc-004", title="出差标准", section="餐补",
          updated="2025-04-03", text="出差期间每天的餐补为 120 元。"),
]


async def test_how_often_an_act_is_done_is_answered_by_once_per_period() -> None:
    # before: refused (每月一号更换 states no counted frequency such as 每 3 个月)
    shown, status, standalone = await ask_offline(KB_ZH, [
        "访客门禁卡的密码是谁给的？", "多久换一次？"])
    assert "密码" in standalone
    assert status == "answered"
    assert "每月一号更换" in shown


async def test_a_rate_per_day_is_no_answer_to_how_often() -> None:
    _, status, _ = await ask_offline(KB_ZH, ["出差餐补多久发一次？"])
    assert status != "answered"


def test_a_question_word_jieba_tags_a_noun_is_never_the_focus_replaced() -> None:
    # An integrator's report: 那猫呢？ after 周几可以带狗来办公室？ was read
    # "猫可以带狗来办公室？": jieba tags 周几 ("which weekday") a person's name, and it was
    # replaced as the thing asked about.
    standalone = rewrite("周几可以带狗来会议室？", "那猫呢？")
    assert standalone.startswith("周几") and "猫" in standalone


def test_a_predicate_after_a_count_of_peoples_things_is_about_the_thing() -> None:
    # A conversation tester: "用完了怎么办？" after "那病假呢？" was read
    # "全职员工每年用完了怎么办？"
    standalone = rewrite("正式员工每年有几天年假？", "那婚假呢？", "用完了怎么办？")
    assert standalone == "正式员工每年的婚假用完了怎么办？"  # before: "正式员工每年用完了怎么办？"
