"""Questions the blocks leave unanswered, which the offline reader must decline rather than
quote an on-topic sentence for (issue 12, item 3): a thing named by a verb inside a noun
phrase, and a Chinese message asking two things in one sentence."""

from __future__ import annotations

from kbqa.core.readers.extractive.focus import ask_clause
from kbqa.core.readers.extractive.question import nominal_verbs
from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block

ZH_EXPENSES = (
    make_block(1, "交通违章罚款、个人娱乐消费、送给同事的礼品，以及非公司员工的同行人员产生的费用，"
                  "均不予报销。能够通过公司差旅平台预订的机票和酒店，请尽量在平台上预订，"
                  "由公司直接结算，无需个人垫付和报销。",
               title="费用报销制度", section="不予报销的费用", language="zh"),
    make_block(2, "可以报销的费用必须同时满足三个条件：因工作需要而发生、金额合理、"
                  "有合规的发票或收据。",
               title="费用报销制度", section="总则", language="zh"),
)


def test_a_verb_after_de_before_a_noun_names_a_thing() -> None:
    assert nominal_verbs("公司每年的体检费用可以报销吗？") == {"体检"}
    # a verb and its object is no noun phrase
    assert nominal_verbs("出差的费用可以报销吗？") == frozenset()


async def test_a_thing_no_block_names_is_not_answered_by_its_category_rules() -> None:
    # 健身 (working out) is a verb to jieba, but here it names what the fee is for
    answer = await extractive_answer("员工每月的健身费用可以报销吗？", ZH_EXPENSES)
    assert "不予报销" not in answer


ZH_OFFICES = (
    make_block(1, "杭州办公室和柏林办公室都设有前台，可以当面领取访客证。"
                  "移动端研发由杭州办公室负责。",
               title="关于我们", section="办公室", language="zh"),
)


def test_two_chinese_asks_in_one_sentence_are_one_ask() -> None:
    assert "地址" in ask_clause("杭州办公室具体地址在哪，哪栋楼几层？")


async def test_where_an_office_is_not_answered_by_what_it_does() -> None:
    answer = await extractive_answer("杭州办公室具体地址在哪，哪栋楼几层？", ZH_OFFICES)
    assert "研发" not in answer and "前台" not in answer


async def test_a_light_noun_is_no_missing_thing() -> None:
    # 东西 ("stuff") names nothing, as "stuff" does in English
    blocks = (
        make_block(1, "采购合同及其附件在合同到期后保存 8 年，以备审计。",
                   title="档案管理规定", section="保存期限", language="zh"),
    )
    assert "8 年" in await extractive_answer("采购合同和附件这些东西要存几年？", blocks)


BADGES = (
    make_block(1, "Visitor badges are printed at reception. A visitor badge works only on the "
                  "ground floor and must be returned at the end of the day.",
               title="Visitor guide", section="Badges"),
    make_block(2, "Staff accounts need a password of at least 14 characters. After five wrong "
                  "passwords the account is locked for ten minutes.",
               title="Account security", section="Passwords"),
)


async def test_a_qualifier_the_blocks_never_use_on_their_noun_is_missing() -> None:
    # the blocks' password is an account's, never qualified by a noun: "the wifi password"
    # asks for another thing, not answered by the visitor or account sentences
    answer = await extractive_answer("What's the wifi password for visitors?", BADGES)
    assert "reception" not in answer and "14 characters" not in answer



async def test_a_mood_particle_changes_nothing_and_a_day_of_the_month_is_a_date() -> None:
    blocks = (
        make_block(1, "财务部审核报销单。报销款随下一个月的工资一并发放。",
                   title="报销制度", section="付款", language="zh"),
        make_block(2, "人事档案在员工离职后保存 5 年，以满足审计要求。访问记录写入审计日志。",
                   title="档案制度", section="保存", language="zh"),
    )
    # 几号 asks a day of the month: "with next month's salary" names none
    assert "工资一并发放" not in await extractive_answer("工资几号发呀", blocks)
    # 嘛 is the asker's mood: the question reads as without it (5 年 is the files', not the
    # audit log's)
    assert await extractive_answer("审计日志保存多久嘛", blocks) == await extractive_answer(
        "审计日志保存多久", blocks)


FAQ_ZH = (
    make_block(1, "出差期间的出租车费用可以报销，须提供发票。日常上下班的交通费用不予报销。",
               title="报销常见问题", section="问：打车费能报销吗？", language="zh"),
    make_block(2, "团队聚餐每人每季度不超过 200 元，须事先批准后报销。酒水费用不予报销。",
               title="报销常见问题", section="问：团队聚餐能报销多少？", language="zh"),
)


async def test_sentences_tied_on_one_shared_word_do_not_answer() -> None:
    # a tester's "过了两个月还能报吗？" got three of an FAQ's answers that share only 报销
    answer = await extractive_answer("过了两个月还能报吗？", FAQ_ZH)
    assert "出租车" not in answer and "聚餐" not in answer and "酒水" not in answer
    assert "出差期间的出租车费用可以报销" in await extractive_answer(
        "出差打出租车的费用可以报销吗？", FAQ_ZH)
