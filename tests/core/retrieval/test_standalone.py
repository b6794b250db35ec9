from __future__ import annotations

import pytest

from kbqa.core.errors import ProviderError
from kbqa.core.readers.extractive.reader import ExtractiveProvider
from kbqa.core.records import TraceRecorder
from kbqa.core.retrieval.standalone import is_follow_up, rewrite_deterministic, standalone_query
from kbqa.core.types import Turn
from tests.fakes.provider import FakeProvider

EN = (
    Turn("user", "How long does the recycle bin keep items?"),
    Turn("assistant", "Deleted items stay for 30 days [1]. Admin restores are logged."),
)
ZH = (Turn("user", "回收站保留多久？"), Turn("assistant", "保留30天[1]。"))


@pytest.mark.parametrize(
    ("question", "history", "expected"),
    [
        ("and for admins?", EN, "How long does the recycle bin keep items for admins?"),
        ("What about the desktop app?", EN, "How long does the desktop app keep items?"),
        ("Can I restore it?", EN, "Can I restore the recycle bin?"),
        ("And what is the upload limit?", EN, "What is the upload limit?"),
        ("What is the maximum upload size for PDF files?", EN,
         "What is the maximum upload size for PDF files?"),
        ("and for admins?", (), "For admins?"),
        ("那管理员呢？", ZH, "对于管理员，回收站保留多久？"),
        ("那它能恢复吗？", ZH, "回收站能恢复吗？"),  # the pronoun stands for the subject
        ("另外，上传文件的大小上限是多少？", ZH, "上传文件的大小上限是多少？"),
        ("那试用期多长？", ZH, "试用期多长？"),  # a new subject with its own question word
        # a sibling of the topic's noun asks the same question of it
        ("and annual leave?", (Turn("user", "How many days of sick leave do employees get?"),),
         "How many days of annual leave do employees get?"),
        ("那年假呢？", (Turn("user", "员工每年有多少天病假？"),), "员工每年有多少天年假？"),
        ("那成都呢？", (Turn("user", "去上海出差住酒店每晚最多能报多少钱？"),),
         "去成都出差住酒店每晚最多能报多少钱？"),
        # a verb of motion before the new place is the topic's own, never said twice
        ("那去绵阳呢？", (Turn("user", "出差去上海，酒店一晚最多能报多少？"),),
         "出差去绵阳，酒店一晚最多能报多少？"),
        # in another language the new noun is translated (CC-CEDICT) and replaces the focus
        ("那年假呢？", (Turn("user", "How many days of sick leave do you get?"),),
         "How many days of annual leave do you get?"),
        ("还有，试用期多久？", ZH, "试用期多久？"),
        ("上传文件的大小上限是多少？", ZH, "上传文件的大小上限是多少？"),
        # existential "there" points nowhere: a question with a topic of its own stands alone
        ("Is there a gym subsidy?", (Turn("user", "Who approves team outings?"),),
         "Is there a gym subsidy?"),
        ("Is there a limit?", (Turn("user", "How many API calls can a client make?"),),
         "Is there a limit (API calls)?"),
        # a measure alone is of the earlier question's thing (before: "What's the maximum?",
        # answered with the upload sizes' conflict card)
        ("what's the maximum?",
         (Turn("user", "How many rows per sheet does the export tool write by default?"),),
         "What's the maximum (rows per sheet)?"),
        ("and the minimum?",
         (Turn("user", "How many rows per sheet does the export tool write by default?"),),
         "The minimum (rows per sheet)?"),
        # the word after "can I" is the act, never the thing replaced (before: "How much can I
        # meals for a hotel per night?"), and a plural takes no "a"
        ("and meals?", (Turn("user", "How much can I claim for a hotel per night?"),),
         "How much can I claim for meals?"),
        # a question of its own with a pronoun is no noun to put in the group's place
        # (before: "Can can they be owners reshare my files?")
        ("and can they be owners?", (Turn("user", "Can guests reshare my files?"),),
         "Can the guests be owners?"),
        # ...as is how often, by its units alone (before: read as a question of its own)
        ("how many times per year?", (Turn("user", "Who signs off a travel request?"),),
         "How many times per year (travel request)?"),
    ],
)
def test_rewrite_deterministic(question: str, history: tuple[Turn, ...], expected: str) -> None:
    assert rewrite_deterministic(question, history) == expected


def test_a_thing_that_fits_no_slot_of_the_topic_is_the_new_topic() -> None:
    # "that" is the home office allowance, not the broken monitor of the first question
    # (a tester got "Do I need a receipt for the monitor breaks?")
    history = (Turn("user", "What if my monitor breaks?"), Turn("assistant", "…"),
               Turn("user", "what about the home office allowance?"), Turn("assistant", "…"))
    assert rewrite_deterministic("do I need a receipt for that?", history) == (
        "Do I need a receipt for the home office allowance?")


def test_a_chain_of_follow_ups_keeps_the_first_topic() -> None:
    history = (*EN, Turn("user", "and for admins?"), Turn("assistant", "Also 30 days [1]."))
    assert rewrite_deterministic("what about guests?", history) == (
        "How long does the recycle bin keep items, for guests?"
    )


@pytest.mark.parametrize(
    ("earlier", "question", "expected"),
    [
        # the focus moves on at each turn; the frame of the first question stays
        (["How many days of annual leave do full-timers get?", "and sick leave?"],
         "and for part-timers?", "How many days of sick leave do part-timers get?"),
        (["入门版每个用户每月多少钱？", "企业版呢？"], "那专业版呢？",
         "专业版每个用户每月多少钱？"),
        (["全职员工每年有多少天年假？"], "那病假呢？", "全职员工每年有多少天病假？"),
        (["入门版每个用户每月多少钱？", "企业版呢？"], "那它每个人能有多少空间？",
         "企业版每个人能有多少空间？"),
        (["How many days of annual leave do full-timers get?"], "and sick days?",
         "How many days of sick leave do full-timers get?"),
    ],
)
def test_follow_ups_replace_the_focus_never_ask_about_both(
    earlier: list[str], question: str, expected: str
) -> None:
    history = tuple(Turn("user", q) for q in earlier)
    assert rewrite_deterministic(question, history) == expected


RATE_EN = (Turn("user", "What is the rate limit of the open API?"),)
RATE_ZH = (Turn("user", "开放 API 的速率限制是多少？"),)
LEAVE_EN = (Turn("user", "How many days of paid annual leave do full-time employees get?"),)
LEAVE_ZH = (Turn("user", "全职员工每年有多少天年假？"),)
HOTEL_ZH = (Turn("user", "出差住酒店每晚能报销多少？"),)


@pytest.mark.parametrize(
    ("question", "history", "expected"),
    [
        # an elided subject takes the earlier question's topic, found by structure: a
        # predicate without a noun (超过了), a pronoun (it, they), "what if…"
        ("超过了会怎样？", RATE_ZH, "开放 API 的速率限制超过了会怎样？"),
        ("那它能恢复吗？", (Turn("user", "回收站里的文件能保留多久？"),), "回收站能恢复吗？"),
        ("过期了怎么办？", (Turn("user", "回收站里的文件能保留多久？"),),
         "回收站里的文件过期了怎么办？"),
        ("能延期吗？", (Turn("user", "报销单要在多久内提交？"),),
         "能延期吗（报销、单要、内、提交）？"),
        ("and if we go over it?", RATE_EN, "If we go over the rate limit of the open API?"),
        ("what happens if we exceed it?", RATE_EN,
         "What happens if we exceed the rate limit of the open API?"),
        ("what happens if we go over?", RATE_EN,
         "What happens if we go over (rate limit of the open API)?"),
        # an act with its time ("wait before filing") is no thing: the claim is carried
        ("and what if I'm late?",
         (Turn("user", "how long can I wait before filing my expense claim?"),),
         "What if I'm late (expense claim)?"),
        ("Does that apply to part-timers too?", LEAVE_EN,
         "Does the days of paid annual leave apply to part-timers too?"),
        ("what about that?", RATE_EN, "What is the rate limit of the open API?"),
        ("how often do they get swapped out?", (Turn("user", "What laptop will I get?"),),
         "How often do the laptop get swapped out?"),
        # the pronoun stands for the things asked about, never for the question's own words
        # ("how often") or for what is done to them ("replaced", "kept")
        ("Does it apply to contractors?", (Turn("user", "How often are laptops replaced?"),),
         "Does the laptops apply to contractors?"),
        ("What if it breaks?", (Turn("user", "How often are laptops replaced?"),),
         "What if the laptops breaks?"),
        ("Can they be restored?", (Turn("user", "How long are closed accounts kept?"),),
         "Can the closed accounts be restored?"),
        ("Is it free?", (Turn("user", "How big is the storage quota?"),),
         "Is the storage quota free?"),
        # the verb after "who" is no thing ("signs off"); "it's" reads "it is"
        ("and if it's a big one, like 1,500 euros?",
         (Turn("user", "Who signs off on my expense claims?"),),
         "If the expense claims is a big one, like 1,500 euros?"),
        # across languages the topic's words stay in their own language (both are indexed)
        ("超过了会怎样？", RATE_EN, "超过了会怎样 (rate limit open API)?"),
        ("那管理员呢？", EN, "管理员 (recycle bin items)?"),
        ("and for admins?", ZH, "For admins (回收站 保留)?"),
        # a new thing replaces the focus, in the same language or across
        ("and sick leave?", LEAVE_EN, "How many days of sick leave do full-time employees get?"),
        ("那病假呢？", LEAVE_ZH, "全职员工每年有多少天病假？"),
        ("那病假呢？", LEAVE_EN, "How many days of sick leave do full-time employees get?"),
        ("and what about sick leave?", LEAVE_ZH, "全职员工每年有多少天病假？"),
        # ...only into a sibling of the topic's thing: 上海 is no kind of leave
        ("那上海呢？", LEAVE_EN, "上海 (days)?"),
        # a place after a question naming none is where it is asked, not a new thing: the
        # hotel stays ("出差住成都每晚能报销多少？" before)
        ("那成都呢？", HOTEL_ZH, "在成都，出差住酒店每晚能报销多少？"),
        ("那去成都呢？", HOTEL_ZH, "去成都，出差住酒店每晚能报销多少？"),
        ("那历史版本呢？", (Turn("user", "回收站里的文件能保留多久？"),),
         "历史版本能保留多久？"),
        # ...not in the earlier thing's place, and a thing jieba tags as a place (旧版本) is
        # still a thing
        ("那旧版本呢？", (Turn("user", "删掉的邮件在垃圾箱里能放几天？"),), "旧版本能放几天？"),
        ("And for the Chengdu folks going to Shanghai?",
         (Turn("user", "What's the hotel limit per night on business trips?"),),
         "What's the hotel limit per night on business trips for the Chengdu folks going to "
         "Shanghai?"),
        # a complete question of its own (subject and content words) is never merged
        ("丢失的工牌要多久内报告？", RATE_ZH, "丢失的工牌要多久内报告？"),
        ("How do I reset my password?", RATE_EN, "How do I reset my password?"),
        ("Is it possible to restore a deleted folder?", RATE_EN,
         "Is it possible to restore a deleted folder?"),
        # a condition naming a thing of its own (possessive, indefinite) is a new question;
        # one on a thing already named ("the limit") or on nothing leans back
        ("What if I forget my password?", (Turn("user", "How often are laptops replaced?"),),
         "What if I forget my password?"),
        ("what if a colleague leaves?", RATE_EN, "What if a colleague leaves?"),
        ("What if we exceed the limit?", RATE_EN,
         "What if we exceed the limit (rate limit of the open API)?"),
        # a connector and a pronoun point back however long the rest is
        ("and if nobody picks a plan when it runs out?",
         (Turn("user", "How long is the NimbusDrive free trial?"),),
         "If nobody picks a plan when the NimbusDrive free trial runs out?"),
        # with no phrase of two words the thing after a determiner is the focus
        ("what about meals?", (Turn("user", "How much can I spend on a hotel?"),),
         "How much can I spend on meals?"),
        ("and a train ticket?", (Turn("user", "Can I expense a taxi?"),),
         "Can I expense a train ticket?"),
        ("and my PIN?", (Turn("user", "How do I reset my password?"),),
         "How do I reset my PIN?"),
    ],
)
def test_elided_follow_ups_take_the_earlier_topic(
    question: str, history: tuple[Turn, ...], expected: str
) -> None:
    assert rewrite_deterministic(question, history) == expected


@pytest.mark.parametrize(
    ("earlier", "question", "expected"),
    [
        # the second turn moves the focus; the third asks about the new focus only
        (["How many days of paid annual leave do full-time employees get?", "and sick leave?"],
         "and what about paternity leave?",
         "How many days of paternity leave do full-time employees get?"),
        (["全职员工每年有多少天年假？", "那病假呢？"], "那陪产假呢？",
         "全职员工每年有多少天陪产假？"),
        # an elided second turn leaves the topic where it was
        (["开放 API 的速率限制是多少？", "超过了会怎样？"], "那要等多久？",
         "开放 API 的速率限制要等多久？"),
        # a complete second question starts a new topic for the third
        (["开放 API 的速率限制是多少？", "回收站里的文件能保留多久？"], "那历史版本呢？",
         "历史版本能保留多久？"),
        # a condition with its own thing ("my laptop") asks neither turn's focus
        (["How often are laptops replaced?", "and monitors?"], "What if I lose my laptop?",
         "What if I lose my laptop?"),
    ],
)
def test_chains_of_three_turns(earlier: list[str], question: str, expected: str) -> None:
    history = tuple(Turn("user", q) for q in earlier)
    assert rewrite_deterministic(question, history) == expected


SICK_EN = (Turn("user", "How many days of sick leave do employees get per year?"),)
SICK_ZH = (Turn("user", "员工每年有多少天病假？"),)
RECYCLE_EN = (Turn("user", "How long does the recycle bin keep deleted files?"),)


@pytest.mark.parametrize(
    ("question", "history", "expected"),
    [
        # a group of people replaces the topic's group, in both languages, never both
        ("and for interns?", SICK_EN, "How many days of sick leave do interns get per year?"),
        ("那实习生呢？", SICK_ZH, "实习生每年有多少天病假？"),
        ("那管理员呢？", LEAVE_ZH, "管理员每年有多少天年假？"),  # 全职 goes with 员工
        ("and for contractors?", (Turn("user", "Do full-time employees get a laptop?"),),
         "Do contractors get a laptop?"),
        ("and for guests?", (Turn("user", "Can contractors use the VPN?"),),
         "Can guests use the VPN?"),
        ("那对于实习生呢？", SICK_ZH, "实习生每年有多少天病假？"),
        # a hyphenated agent noun takes the documents' form of the topic's modifier
        ("and for part-timers?", LEAVE_EN,
         "How many days of paid annual leave do part-time employees get?"),
        # a topic without a group is narrowed, as before
        ("and for admins?", RECYCLE_EN,
         "How long does the recycle bin keep deleted files for admins?"),
        # a year replaces the topic's year or is added to it
        ("and in 2022?", (Turn("user", "How often are laptops replaced?"),),
         "How often are laptops replaced in 2022?"),
        ("and in 2023?", (Turn("user", "How often were laptops replaced in 2022?"),),
         "How often were laptops replaced in 2023?"),
        ("那2022年呢？", (Turn("user", "笔记本电脑多久更换一次？"),),
         "2022年笔记本电脑多久更换一次？"),
        # another thing replaces the first noun phrase, the thing asked about
        ("and version history?", RECYCLE_EN,
         "How long does the version history keep deleted files?"),
        ("and about sick leave?", LEAVE_EN,
         "How many days of sick leave do full-time employees get?"),
        # a bare group or year is the fragment "for X" / "in X"
        ("what about interns?", SICK_EN,
         "How many days of sick leave do interns get per year?"),
        ("and part-timers?", LEAVE_EN,
         "How many days of paid annual leave do part-time employees get?"),
        ("and what about 2022?", (Turn("user", "How often are laptops replaced?"),),
         "How often are laptops replaced in 2022?"),
        ("那2022年的呢？", (Turn("user", "笔记本电脑多久更换一次？"),),
         "2022年笔记本电脑多久更换一次？"),
        # the phrase after the same preposition is replaced
        ("and in London?", (Turn("user", "What is the hotel limit per night in Paris?"),),
         "What is the hotel limit per night in London?"),
        ("and on Android?", (Turn("user", "How do I sync files on iOS?"),),
         "How do I sync files on Android?"),
        # across languages a new group drops the old group's words
        ("那实习生呢？", SICK_EN, "实习生 (days sick leave per year)?"),
        ("and for part-timers?", LEAVE_ZH, "For part-timers (每年 天年 假)?"),
    ],
)
def test_a_fragment_replaces_the_part_of_its_kind(
    question: str, history: tuple[Turn, ...], expected: str
) -> None:
    assert rewrite_deterministic(question, history) == expected


def test_each_follow_up_takes_the_frame_of_the_last_full_question() -> None:
    history = (*RECYCLE_EN, Turn("user", "那管理员呢？"))
    assert rewrite_deterministic("and version history?", history) == (
        "How long does the version history keep deleted files?"
    )


def test_a_chat_history_is_folded_from_what_the_user_typed() -> None:
    # a chat gives earlier user turns in their standalone form; the fold reads what was typed
    stored = Turn("user", "管理员 (recycle bin deleted files)?", typed="那管理员呢？")
    history = (*RECYCLE_EN, stored)
    assert rewrite_deterministic("and version history?", history) == (
        "How long does the version history keep deleted files?"
    )
    # the oldest turn in the window keeps its standalone form: its topic is gone
    window = (Turn("user", "How long does the recycle bin keep deleted files for admins?",
                   typed="and for admins?"),)
    assert rewrite_deterministic("and version history?", window) == (
        "How long does the version history keep deleted files for admins?"
    )


def test_assistant_answers_never_enter_the_query() -> None:
    rewritten = rewrite_deterministic("and for admins?", EN)
    assert "30" not in rewritten and "logged" not in rewritten


@pytest.mark.parametrize(
    ("question", "expected"),
    [("and for admins?", True), ("那管理员呢？", True), ("Can I restore it?", True),
     ("How long are old versions kept on the business plan?", False),
     ("上传文件的大小上限是多少？", False), ("那试用期多长？", False), ("那它能恢复吗？", True),
     ("团建的预算是多少？", False), ("管理员呢？", True), ("超过了会怎样？", True),
     ("丢失的工牌要多久内报告？", False), ("怎么请假？", False), ("那怎么申请？", True),
     ("迟到了怎么办？", True), ("一年有几天年假？", False), ("过期了怎么办？", True),
     ("what if we exceed it?", True), ("what happens if we go over?", True),
     ("what happens if I'm late?", True),
     ("What if we exceed the limit?", True), ("What if I forget my password?", False),
     ("What if I lose my laptop?", False),
     ("Is it true that contractors get a laptop?", False), ("what about that?", True)],
)
def test_is_follow_up(question: str, expected: bool) -> None:
    assert is_follow_up(question) is expected


def _trace() -> TraceRecorder:
    return TraceRecorder(trace_id="t", question="q")


async def test_the_fast_model_rewrites_when_the_provider_can() -> None:
    provider = FakeProvider(['"How long do admins keep recycle bin items?"\n'],
                            supports_rewrite=True)
    trace = _trace()
    query = await standalone_query(question="and for admins?", history=EN, provider=provider,
                                   trace=trace)
    assert query == "How long do admins keep recycle bin items?"
    assert [(c.purpose, c.model_requested, c.error) for c in trace.calls] == [
        ("rewrite", "fake-fast", None)]
    assert [p.task for p in provider.prompts] == ["rewrite"]


@pytest.mark.parametrize("output", [ProviderError("overloaded", retryable=True), "  \n"])
async def test_provider_failure_or_empty_output_falls_back(output: object) -> None:
    provider = FakeProvider([output], supports_rewrite=True)  # type: ignore[list-item]
    trace = _trace()
    query = await standalone_query(question="那管理员呢？", history=ZH, provider=provider,
                                   trace=trace)
    assert query == "对于管理员，回收站保留多久？"
    [call] = trace.calls
    assert call.purpose == "rewrite"
    assert trace.errors[0] in ("rewrite: overloaded; used the deterministic rewrite",
                               "rewrite: empty output; used the deterministic rewrite")


async def test_no_model_call_without_history_or_rewrite_support() -> None:
    provider = FakeProvider([], supports_rewrite=True)
    trace = _trace()
    assert await standalone_query(question=" Q? ", history=(), provider=provider,
                                  trace=trace) == "Q?"
    assert await standalone_query(question="and for admins?", history=EN,
                                  provider=ExtractiveProvider(), trace=trace) == (
        "How long does the recycle bin keep items for admins?")
    assert (provider.prompts, trace.calls) == ([], [])


async def test_only_the_first_line_of_the_rewrite_is_the_query() -> None:
    provider = FakeProvider(["How long do admins keep recycle bin items?\nI rewrote it so."],
                            supports_rewrite=True)
    query = await standalone_query(question="and for admins?", history=EN, provider=provider,
                                   trace=_trace())
    assert query == "How long do admins keep recycle bin items?"


async def test_a_rewrite_that_answers_instead_falls_back() -> None:
    provider = FakeProvider(["Deleted items stay in the recycle bin for 30 days, and admins "
                             "can restore them from the admin console at any time, which "
                             "is logged in the audit log and kept for a full year."],
                            supports_rewrite=True)
    trace = _trace()
    query = await standalone_query(question="and for admins?", history=EN, provider=provider,
                                   trace=trace)
    assert query == "How long does the recycle bin keep items for admins?"
    assert trace.errors == [
        "rewrite: unusable output (answered, too long, or off the conversation); used the "
        "deterministic rewrite"]


async def test_a_rewrite_sharing_no_word_with_the_conversation_falls_back() -> None:
    # a tester's model rewrote "and for admins?" as "I have no idea. [1]", which was searched
    provider = FakeProvider(["I have no idea. [1]"], supports_rewrite=True)
    trace = _trace()
    query = await standalone_query(question="and for admins?", history=EN, provider=provider,
                                   trace=trace)
    assert query == "How long does the recycle bin keep items for admins?"


async def test_no_model_call_when_the_question_stands_alone() -> None:
    provider = FakeProvider([], supports_rewrite=True)
    trace = _trace()
    query = await standalone_query(question="And what is the upload limit?", history=EN,
                                   provider=provider, trace=trace)
    assert (query, provider.prompts, trace.calls) == ("What is the upload limit?", [], [])


def test_what_is_left_of_the_earlier_thing_leans_back() -> None:
    # before: "What happens to the rest?" stood alone and got "…goals for the rest of the year"
    topic = "Can I carry over unused overtime hours?"
    assert rewrite_deterministic("what happens to the rest?", (Turn("user", topic),)) == (
        "What happens to the rest (unused overtime hours)?")


STORY_EN = (Turn("user", "Im going to Paris next month for a customer workshop, 3 nights. My "
                         "manager said the hotel is expensive there. how much can i spend per "
                         "night on the hotel?"),)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # a sentence's capital is no name ("My"); "to Paris" and "in London" are one role
        ("and in London?", "Im going to London next month for a customer workshop, 3 nights. "
                           "My manager said the hotel is expensive there. how much can i spend "
                           "per night on the hotel?"),
        # the ask's thing is replaced, not a word of the story ("3 nights" -> "3 meals")
        ("what about meals?", "Im going to Paris next month for a customer workshop, 3 nights. "
                              "My manager said the hotel is expensive there. how much can i "
                              "spend per night on the meals?"),
    ],
)
def test_a_follow_up_to_a_story_replaces_the_part_the_ask_means(
    question: str, expected: str
) -> None:
    assert rewrite_deterministic(question, STORY_EN) == expected


def test_a_name_led_by_another_role_is_kept() -> None:
    history = (Turn("user", "What is the hotel limit per night in Paris?"),)
    assert rewrite_deterministic("and for Rotterdam staff?", history) == (
        "What is the hotel limit per night in Paris for Rotterdam staff?")
