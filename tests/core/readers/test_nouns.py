"""The quoted passage must name every noun the question asks about (``nouns.unnamed``); a
rule for every other place names the place the question asks about."""

from __future__ import annotations

from kbqa.core.readers.extractive.nouns import unnamed
from kbqa.core.readers.extractive.text import folded_terms
from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block

QUESTION = "在成都出差住酒店每晚能报销多少？"
ASKED = frozenset({"成都", "酒店"})


def test_a_rule_for_every_other_city_names_the_asked_city() -> None:
    seen = [folded_terms("住宿：北京、上海每晚不超过 700 元，其他城市每晚不超过 500 元。 酒店")]
    assert unnamed(QUESTION, ASKED, ASKED, frozenset(), seen) == frozenset()


def test_a_passage_listing_only_other_cities_does_not() -> None:
    seen = [folded_terms("住宿：北京、上海每晚不超过 700 元。 酒店")]
    assert unnamed(QUESTION, ASKED, ASKED, frozenset(), seen) == frozenset({"成都"})


async def test_a_noun_jieba_cuts_otherwise_in_the_answer_is_still_named() -> None:
    # 外包人员工牌 is cut 外/包人/员工/牌: no term 人员, yet the sentence says it (a code-blind
    # tester's 外包人员的工牌是什么颜色 was refused), and the colour answers 颜色
    badges = make_block(1, "员工工牌为蓝色，外包人员工牌为绿色。员工进出厂区必须刷卡。",
                        title="访客与工牌管理规定", section="员工工牌", language="zh")
    others = make_block(2, "外包人员须由接待员工陪同进入生产车间。", title="访客登记",
                        section="访客", language="zh")
    answer = await extractive_answer("外包人员的工牌是什么颜色", (badges, others))
    assert answer == "员工工牌为蓝色，外包人员工牌为绿色[1]。"


def test_a_piece_of_a_longer_word_in_the_answer_is_no_noun_it_names() -> None:
    # jieba cuts the question 张颂/文演; 张颂 inside the answer's name 张颂文 is not the
    # asked noun said (RGB zh_refine: an unsupported answer about who acted best)
    question = "狂飙中的张颂文演的谁？"
    text = "《狂飙》导演徐纪周被问到觉得剧中谁演得最好，他回答“张颂文”。"
    asked = frozenset({"狂飙", "张颂"})
    found = unnamed(question, asked, asked, frozenset(), [folded_terms(text)], text)
    assert "张颂" in found
