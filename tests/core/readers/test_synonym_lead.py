"""A sentence naming the asked thing through a synonym the blocks use leads over one sharing
only the asker's other words (issue 12: answers that answer)."""

from __future__ import annotations

import pytest

from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block


@pytest.mark.asyncio
async def test_the_asked_action_met_by_the_policy_s_word_leads() -> None:
    blocks = (
        make_block(1, "差旅补贴：出差期间每天的伙食补贴最多报销 120 元。", title="差旅制度"),
        make_block(2, "市内交通以地铁和公交为主。遇到暴雨或深夜时，可以报销出租车费用。",
                   title="差旅制度"),
    )
    answer = await extractive_answer("出差打车能报销吗？", blocks)
    assert "出租车" in answer
    assert "伙食补贴" not in answer


async def test_a_count_word_glued_to_the_asked_noun_is_read_apart() -> None:
    # jieba cuts 多少天年假 as 多少/天年/假: the asker's 年假 was read as 天年 and 假, and
    # 一年 met the carry-over rule's 下一年
    blocks = (
        make_block(1, "未休完的年假最多可以结转 3 天到下一年。", title="休假制度"),
        make_block(2, "正式员工每个自然年享有 15 天带薪年假。", title="休假制度"),
    )
    answer = await extractive_answer("我们一年有多少天年假？", blocks)
    assert "15 天" in answer
    assert "结转" not in answer


async def test_a_unit_after_last_or_next_says_when_not_what() -> None:
    # "last week" made "week" a word of substance, so a course "within 14 days" under a
    # heading about the first weeks outranked the doctor's-note rule
    blocks = (
        make_block(1, "Employees receive 12 days of paid sick leave per calendar year. "
                   "If an illness lasts more than 3 days, a medical certificate from a "
                   "doctor is needed. Sick days during a holiday count as holiday again "
                   "when a doctor confirms them.", title="Leave policy", section="Sick leave"),
        make_block(2, "Finish the privacy course within 14 days of your start date.",
                   title="Onboarding", section="Your first weeks"),
        make_block(3, "Your manager books a welcome lunch in your first week.",
                   title="Onboarding", section="Your first weeks"),
    )
    answer = await extractive_answer(
        "I was sick for five days last week after my son caught a cold. Do I need to bring "
        "anything from the doctor?", blocks)
    assert "medical certificate" in answer
    assert "privacy course" not in answer


async def test_a_word_written_with_a_hyphen_is_the_asked_word() -> None:
    # "Wi-Fi" was read as "wi" and "fi", both dropped as too short: the question then
    # asked about a client, the office and next week
    blocks = (
        make_block(1, "Visitors join the network Acme-Guest with a code from reception.",
                   title="IT FAQ", section="How do guests get on the Wi-Fi?"),
        make_block(2, "Office files opened in the browser keep one copy for every client.",
                   title="Sync client"),
    )
    answer = await extractive_answer(
        "A client is visiting our office next week. How does she get on the Wi-Fi?", blocks)
    assert "Acme-Guest" in answer


async def test_a_predicate_sentence_about_another_thing_does_not_lead() -> None:
    # "give it an expiry date" states the asker's verb, but of a link's password; and
    # "Wi-Fi" read as the qualifier "fi" made the right sentence look narrowed
    blocks = (
        make_block(1, "Staff must not share their own Wi-Fi password with visitors.",
                   title="IT FAQ", section="Guest Wi-Fi"),
        make_block(2, "You can protect a link with a password and give it an expiry date.",
                   title="Sharing links"),
    )
    answer = await extractive_answer("Can I just give her my Wi-Fi password?", blocks)
    assert "must not share their own Wi-Fi password" in answer
    assert "expiry date" not in answer


async def test_an_faq_question_line_heads_its_answer() -> None:
    # a text file's FAQ: the question line is no heading, so its answer shared no word
    # with the asker's question and a sentence about another device's printing was quoted
    blocks = (
        make_block(1, "IT 常见问题\n\n打印机卡纸怎么办？\n"
                   "打开前面板，取出卡住的纸张，再关上面板。\n\n会议室投影仪连不上怎么办？\n"
                   "先检查 HDMI 线，再重启投影仪。", title="IT 常见问题"),
        make_block(2, "彩色打印默认关闭，如有需要请提交工单申请。", title="办公室常见问题"),
    )
    answer = await extractive_answer("打印机卡纸怎么办？", blocks)
    assert "取出卡住的纸张" in answer
    assert "彩色打印" not in answer



async def test_the_verb_of_a_phrasal_verb_brings_no_synonym_of_its_own() -> None:
    # "passed away" is no "travel" (a WordNet sense of "pass")
    blocks = (make_block(1, "The daily meal allowance is paid for each travel day and covers "
                            "lunch, dinner and snacks. Berlin: Hotel per night EUR 180; Meal "
                            "allowance per day EUR 55.", title="Travel policy",
                         section="Daily allowances"),
              make_block(2, "Employees receive 1 day of paid leave for their own wedding.",
                         title="Leave policy", section="Other leave"),
              make_block(3, "Mailboxes are kept for 90 days and then deleted.",
                         title="IT policy", section="Leavers"))
    draft = await extractive_answer("my grandmother passed away last night. how many days off "
                                    "can I take?", blocks)
    assert "allowance" not in draft
