"""An English question about a fact only a Chinese passage states, beside English passages
on the same topic (a tester's Chinese parental-leave FAQ uploaded next to the demo's English
leave policy): the Chinese passage answers, in its own words; the English ones, which share
"days" and "leave" with the question, do not."""

from __future__ import annotations

from kbqa.core.readers.extractive.crossing import inside_longer_words
from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block

BLOCKS = (
    make_block(1, "Full-time employees receive 20 days of paid annual leave per calendar year. "
                  "Employees receive 10 days of fully paid sick leave per calendar year.",
               title="Leave policy", section="Leave"),
    make_block(2, "女员工生育可享受产假 158 天，其中包括国家规定的 98 天。", title="育儿假常见问题",
               section="产假有多少天？", language="zh"),
    make_block(3, "男员工在配偶生育时可享受陪产假 15 天，须在孩子出生后 6 个月内休完。",
               title="育儿假常见问题", section="陪产假有多少天？", language="zh"),
)


async def test_a_phrase_only_the_other_language_says_is_answered_there() -> None:
    answer = await extractive_answer("How many days of paternity leave?", BLOCKS)
    assert "陪产假 15 天" in answer
    assert "annual leave" not in answer and "sick leave" not in answer
    assert "158" not in answer  # the mothers' leave is another leave


async def test_a_translation_inside_a_longer_word_is_that_other_word() -> None:
    # 产假 ("maternity leave") inside 陪产假 ("paternity leave") is the fathers' leave
    answer = await extractive_answer("How many days of maternity leave?", BLOCKS)
    assert "产假 158 天" in answer and "陪产假" not in answer


def test_the_sentences_holding_the_word_only_inside_another_are_found() -> None:
    everything = frozenset({"产假", "陪", "天"})
    assert inside_longer_words("How many days of maternity leave?", BLOCKS, everything) == {
        "男员工在配偶生育时可享受陪产假 15 天，须在孩子出生后 6 个月内休完。"}


EN_LEAVE = (
    make_block(1, "Permanent staff receive 28 days of paid annual leave per calendar year.",
               title="Leave rules", section="Annual leave"),
    make_block(2, "Staff receive 12 days of paid sick leave per year.",
               title="Leave rules", section="Sick leave"),
)


async def test_a_chinese_word_jieba_cuts_into_characters_is_translated_whole() -> None:
    # before: declined; jieba cuts 年假 ("annual leave") into 年/假, and one character is
    # translated only by its first sense (假 "fake")
    answer = await extractive_answer("年假有多少天？", EN_LEAVE)
    assert "28 days of paid annual leave" in answer
    assert "sick leave" not in answer



async def test_an_answer_leaving_a_word_uncovered_yields_to_the_other_languages() -> None:
    # the Chinese FAQ shares 加班 and 经理 but not 加班费 (overtime pay), which only the
    # English handbook states for the asked group
    faq = "费用报销常见问题"
    blocks = (
        make_block(1, "出差期间的出租车费用可以报销，须提供发票。晚上 21:00 以后加班回家的"
                      "出租车费用也可以报销，但须有经审批的加班记录。日常上下班的交通费用不予报销。",
                   title=faq, section="问：打车费能报销吗？", language="zh"),
        make_block(2, "发票遗失的，须填写《发票遗失说明》，由直属经理签字确认。", title=faq,
                   section="问：发票丢了怎么办？", language="zh"),
        make_block(3, "人民币 5,000 元以下的报销由直属经理审批。", title=faq,
                   section="问：报销由谁审批？", language="zh"),
        make_block(4, "Overtime must be approved in advance by your direct manager in the HR "
                      "system before it is worked. Managers (grade M2 and above) are not "
                      "eligible for overtime pay.", title="Employee handbook",
                   section="Overtime", language="en"))
    draft = await extractive_answer("经理有加班费吗？", blocks)
    assert draft.startswith("Managers (grade M2 and above) are not eligible for overtime pay.")


ONBOARDING_ZH = make_block(3, "前 30 天内：完成反贿赂与合规培训，并在 PeopleDesk 中填写"
                              "紧急联系人信息。", title="新员工入职清单", section="第一个月",
                           language="zh")


async def test_an_ask_word_only_the_other_languages_blocks_say_is_answered_there() -> None:
    # before: declined; the Chinese checklist's "前 30 天内" shared 天 with the question and
    # outranked the English policy, whose "annual leave" is what 年假 asks about
    answer = await extractive_answer("年假有多少天？", (*EN_LEAVE, ONBOARDING_ZH))
    assert "28 days of paid annual leave" in answer
    assert "30 天" not in answer


async def test_an_answer_read_there_must_say_the_word_it_was_read_for() -> None:
    # 网盘 ("cloud drive") is in no Chinese block and its dictionary English ("cloud",
    # "online") is in the English manual; its system-requirements sentence met the asker's
    # "10" of 安卓 10 (Windows 10) but is about the desktop client, not the app asked about
    client = "NimbusDrive desktop sync client"
    blocks = (
        make_block(1, "The client runs on Windows 10 and Windows 11 (64-bit) and on macOS 13 "
                      "Ventura or later, on both Intel and Apple silicon.", title=client,
                   section="Supported systems"),
        make_block(2, "请在 24 小时内通过门户提交“设备丢失”工单。IT 会远程锁定设备并清除公司数据，"
                      "同时安排备用电脑。", title="IT 服务台与办公室常见问题",
                   section="电脑丢失了怎么办？", language="zh"),
        make_block(3, "By default the client shows every file in your NimbusDrive but downloads a "
                      "file only when you open it. Files that exist only in the cloud have a "
                      "cloud icon; files stored on your disk have a green tick.", title=client,
                   section="Files on demand"),
    )
    answer = await extractive_answer("我这台备用机是安卓 10，能装咱们的网盘 app 吗？", blocks)
    assert "Windows 10" not in answer


# The tester's Shenzhen attendance rules end their unpaid-leave section by sending readers
# to the English policy for everything else ("年假、病假等其他假期见英文版…"): that mention of
# 病假 is no answer, and the English "Sick leave" section is about the asked leave.
SICK_EN = make_block(1, "Employees receive 14 days of fully paid outpatient sick leave per year. "
                        "A medical certificate (MC) is required for any absence of more than 1 "
                        "day.", title="Leave Policy", section="Sick leave")
UNPAID_ZH = make_block(2, "事假为无薪假，每年累计不超过 10 天，须至少提前 1 个工作日申请。"
                          "年假、病假等其他假期见英文版 Leave Policy。",
                       title="深圳办公室考勤与加班制度", section="六、事假", language="zh")


async def test_a_chinese_leave_question_is_answered_by_the_english_section_about_it() -> None:
    # before: "事假为无薪假，每年累计不超过 10 天" (another leave's cap) was the answer
    answer = await extractive_answer("病假一年几天？", (SICK_EN, UNPAID_ZH))
    assert "14 days" in answer
    assert "事假" not in answer


_LEAVE_EN = (  # a company's English leave policy, its only source on leave (tidelog's)
    make_block(1, "Employees receive 2 days of paid leave for their own wedding and 3 days of "
                  "compassionate leave when a close family member dies.\n\nInterns are not "
                  "entitled to paid annual leave but receive 1 day off per month of "
                  "internship.", title="Leave Policy", section="Other leave",
               doc_id="leave-policy", chunk_no=4),
    make_block(2, "The birth parent receives 16 weeks of paid parental leave.",
               title="Leave Policy", section="Parental leave", doc_id="leave-policy",
               chunk_no=3),
    make_block(3, "Full-time employees receive 25 days of paid annual leave per calendar "
                  "year.", title="Leave Policy", section="Annual leave",
               doc_id="leave-policy", chunk_no=1),
)


async def test_a_chinese_yes_no_question_is_decided_by_the_english_rule_for_its_group() -> None:
    # a tester's 实习生有带薪年假吗？ was refused: the predicate 带薪 ("paid") and the group
    # 实习生 ("interns") were looked for in their Chinese form in English sentences
    answer = await extractive_answer("实习生有带薪年假吗？", _LEAVE_EN)
    assert answer.startswith("Interns are not entitled to paid annual leave")
