"""A question asked on a customer's behalf is read without the frame of asking: who asked
and "what do I tell them?" are no part of what is asked (a tester's natural sets: 15 of 27
such questions were refused or answered with something else)."""

from __future__ import annotations

import pytest

from chat.questions import question_text
from kbqa.core.text.reported import reported_question
from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block


@pytest.mark.parametrize(
    ("question", "read"),
    [
        ("A customer is asking whether paying for the whole year up front saves them anything.",
         "paying for the whole year up front saves them anything."),
        ("A customer is asking whether their files could end up in a data centre in the US. "
         "What do I tell them?", "their files could end up in a data centre in the US?"),
        ("a prospect's security team wants to know which countries our data centres are in, "
         "what do I tell them?", "which countries our data centres are in?"),
        ("customer on the phone asking what's the biggest single file they can upload. what "
         "number do I give them?", "what's the biggest single file they can upload?"),
        ("I want to know if the supplier opened the folder I sent them. any way to check?",
         "the supplier opened the folder I sent them. any way to check?"),
        # a subject with content of its own stays, as context
        ("Prospect with 12 people on Business wants to know how much storage they'd have",
         "Prospect with 12 people on Business: how much storage they'd have"),
        ("customer has 40 seats on Business and asks whether the 1TB is per head",
         "customer has 40 seats on Business. the 1TB is per head"),
        ("what's the per-file size cap in the browser? customer is asking",
         "what's the per-file size cap in the browser?"),
        ("有个国内客户问我们的数据到底存在哪个机房，能不能放在国内？",
         "我们的数据到底存在哪个机房，能不能放在国内？"),
        ("客户问 NimbusDrive 单个文件上传上限是多少，我该怎么回他？",
         "NimbusDrive 单个文件上传上限是多少？"),
        ("一个文件最大能多大？客户在问，我该怎么回？", "一个文件最大能多大？"),
    ],
)
def test_the_frame_of_asking_goes_and_the_question_stays(question: str, read: str) -> None:
    assert reported_question(question) == read


@pytest.mark.parametrize(
    "question",
    [
        "How do I answer a customer who asks about refunds?",  # the question is the frame
        "The system asks whether I want to save, what does that mean?",  # no one asks
        "客户问题怎么提交？",  # 问题, a noun
        "What should I tell my manager?",
        "What do I tell them?",
        "got a weird email asking for my password, what should I do",
        "年假有多少天？",
    ],
)
def test_other_questions_are_left_as_they_are(question: str) -> None:
    assert reported_question(question) == question


def test_the_chat_reads_the_question_without_the_frame() -> None:
    assert question_text("请问有个客户问我们的数据中心在哪几个城市？我该怎么回？谢谢") == (
        "我们的数据中心在哪几个城市？")


# the demo knowledge base's blocks for the question below
SECURITY = make_block(
    1, "Delete the link or remove the members from the **Share** dialog straight away. Access "
       "ends immediately. If you think sensitive data was exposed, report it to the security "
       "desk through the IT helpdesk portal, and do not try to investigate on your own.",
    title="Support FAQ: Sharing files and folders",
    section="I shared a folder by mistake. What should I do?", doc_id="doc-015")
EQUIPMENT = make_block(
    2, "Company equipment stays the property of Nimbus Works. Keep laptops locked with a "
       "password, never leave them unattended in a car, and install software only from the "
       "company software centre. Lost or stolen equipment must be reported to the IT helpdesk "
       "within 24 hours, so that IT can lock the device and remove company data remotely.",
    title="Equipment policy", section="Looking after equipment", doc_id="doc-070")
DATA_CENTRES = make_block(
    3, "客户数据存放在法兰克福和新加坡两个区域的数据中心。组织创建时选定数据区域，"
       "之后文件不会被复制到其他区域。",
    title="NimbusDrive 安全与加密说明", section="数据中心", doc_id="doc-021", language="zh")


async def test_what_to_tell_a_customer_is_not_read_as_what_to_do() -> None:
    # "What do I tell them?" made the question one of what to do: the security desk's
    # instructions were quoted for where a customer's files are stored
    question = ("A customer is asking whether their files could end up in a data centre in "
                "the US. What do I tell them?")
    answer = await extractive_answer(question_text(question),
                                     (SECURITY, EQUIPMENT, DATA_CENTRES))
    assert "security desk" not in answer
