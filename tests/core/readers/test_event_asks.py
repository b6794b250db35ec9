from __future__ import annotations

import pytest

from kbqa.core.readers.extractive.asks import (
    asked_roles,
    refined_kind,
    states_roles,
    states_term,
    term_ask,
    wrong_unit,
)
from kbqa.core.readers.extractive.binding import anchors, answers, bound_answer
from kbqa.core.readers.extractive.event import forecast, numbered, other_edition
from kbqa.core.readers.extractive.focus import ask_clause, ask_kind
from kbqa.core.readers.extractive.question import question_terms
from kbqa.core.readers.extractive.selection import select
from tests.fakes import make_block


def _bound(sentence: str, question: str) -> bool:
    kind = refined_kind(ask_clause(question), ask_kind(question))
    anchor = anchors(question, frozenset(question_terms(question)))
    return bound_answer(kind, sentence, question, anchor)


@pytest.mark.parametrize(
    ("text", "pairs"),
    [
        ("When does season 3 of the show premiere?", {("season", 3)}),
        ("When will the first season premiere?", {("season", 1)}),
        ("Laptops are swapped every 3 years.", set()),  # an amount, not an edition
        ("小米MIX2的处理器是什么", {("mix", 2)}),
        ("港口音乐节第十三届五次会议", {("届", 13), ("次", 5)}),
        ("2020年全国粮食产量两千万吨以上省份，第1", {("第", 1)}),  # no measure after it
    ],
)
def test_numbered_entities(text: str, pairs: set[tuple[str, int]]) -> None:
    assert numbered(text) >= pairs
    assert all(n != 3 for w, n in numbered(text) if w == "every")


@pytest.mark.parametrize(
    ("question", "clause", "other"),
    [
        ("When does season 3 of the show premiere?", "The season 10 premiere is on 26 May", True),
        ("When does season 3 of the show premiere?", "Season 3 premieres on 17 May", False),
        ("港口音乐节第十三届五次会议闭幕时间", "第十三届一次会议3月15日闭幕", True),
        ("港口音乐节第十三届五次会议闭幕时间", "第十三届五次会议3月10日闭幕", False),
        ("Someone said laptops get swapped every 3 years. Is that still how it works?",
         "Company laptops are replaced every 4 years.", False),
        # a count of times (次 with no noun after it) is the asker's own case, no edition
        ("这个月已经是第二次忘带门禁卡了，还能找前台借临时卡吗",
         "忘带门禁卡时可以在前台借用临时卡，每月最多借用三次。", False),
    ],
)
def test_a_clause_about_another_edition(question: str, clause: str, other: bool) -> None:
    assert other_edition(question, clause) is other


@pytest.mark.parametrize(
    ("sentence", "question", "expected"),
    [
        # a bare year does not say when; a date does; "which year" takes a year
        ("The harbour festival app was released in 2020.",
         "When was the harbour festival app released?", False),
        ("The harbour festival app was released on 12 March 2020.",
         "When was the harbour festival app released?", True),
        ("The harbour festival app was released in June 2020.",
         "When was the harbour festival app released?", True),
        ("The harbour festival app was released in 2020.",
         "Which year was the harbour festival app released?", True),
        # when something came to exist, its year is the answer, unless the question has one
        ("The company was founded in 2016 in Rotterdam.", "When was Harbour Works founded?",
         True),
        ("公司于 2016 年在鹿特丹成立。", "港口公司什么时候成立的？", True),
        ("The 2016 company was founded in Rotterdam.", "When in 2016 was it founded?", False),
        # "who" is answered by a role as well as a name, capitalised or not
        ("Editors and Owners can restore from the recycle bin.",
         "Who can restore from the recycle bin?", True),
        ("Items stay in the recycle bin for 30 days.", "Who can restore from the recycle bin?",
         False),
        # a forecast is no fact, unless a forecast is asked
        ("港口音乐节观众人数预计为12万人。", "港口音乐节的观众人数是多少？", False),
        ("港口音乐节观众人数预计为12万人。", "港口音乐节预计有多少观众？", True),
        # the asked year alone does not bind the span to the question
        ("2022年，大桥通车仪式上有3万名游客。", "2022年港口音乐节观众人数是多少？", False),
        # "where is it held" asks for a named place
        ("港口音乐节的门票已经售罄。", "港口音乐节在哪里举行？", False),
        ("港口音乐节将在上海举行。", "港口音乐节在哪里举行？", True),
        # an untyped ask ending in a measure asks for a quantity
        ("港口音乐节的销量创下新高。", "2021年港口音乐节门票销量", False),
        ("港口音乐节的门票销量为12万张。", "2021年港口音乐节门票销量", True),
        # a price in dollars is not one in yuan; 多长 asks for a length
        ("港口大桥总投资39亿元人民币。", "港口大桥总投资多少美元？", False),
        ("港口大桥主桥造价39亿元。", "港口大桥主桥多长？", False),
        ("港口音乐节免费试用期为 90 天。", "港口音乐节免费试用期有多长？", True),
        ("港口大桥的主桥为504米上承式拱桥。", "港口大桥主桥多长？", True),
        # "which year" is not answered by a day without its year
        ("今天(12月11日)是港口大桥通车20周年。", "港口大桥哪一年通车的？", False),
        ("港口大桥于2001年12月11日通车。", "港口大桥哪一年通车的？", True),
        # a sequel or another work is another edition
        ("续集《港湾2》于2021年10月1日在美国上映。", "《港湾》中国上映日期", False),
        ("《港湾》于2018年11月9日在中国上映。", "《港湾》中国上映日期", True),
        ("《灯塔》一书作者林海解读了这部小说。", "《港湾》的作者是谁", False),
        # a rate is answered by a percentage, not a count
        ("港口市总人口在2019年突破14万。", "港口市2019年人口出生率", False),
        ("港口市2019年人口出生率为10.5‰。", "港口市2019年人口出生率", True),
    ],
)
def test_the_span_speaks_of_the_asked_fact(sentence: str, question: str,
                                           expected: bool) -> None:
    assert _bound(sentence, question) is expected


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("What was the harbour company's revenue in Q2 2020?", "quantity"),
        ("What is the release date of the harbour festival app?", "time"),
        ("2023年港口音乐节在哪举办", "place"),
        ("中国2018年人口出生率", "quantity"),
        ("手机相册自动上传会不会偷偷用我的流量？", "other"),  # a yes/no question
        ("Where can I find the expense form?", "other"),  # where alone: a procedure answers
        ("J-20战斗机研发国家", "place"),
        ("巴西的首都在哪", "place"),
    ],
)
def test_untyped_asks_are_typed(question: str, kind: str) -> None:
    assert refined_kind(ask_clause(question), ask_kind(question)) == kind


def test_a_term_ask_needs_a_quoted_phrase_or_a_name() -> None:
    assert term_ask("2022年港口音乐节的主题是什么？")
    assert states_term("2022年港口音乐节主题为“只有一个港口”。", "2022年港口音乐节的主题是什么？")
    assert not states_term("转眼间，2022年也要接近尾声了。", "2022年港口音乐节的主题是什么？")


@pytest.mark.parametrize(
    ("question", "text", "stated"),
    [
        ("Who won the harbour regatta in 2021?", "The 2021 regatta runs April 8-11 at Pier Nine.",
         False),
        ("Who won the harbour regatta in 2021?", "Maria Lopez won the 2021 regatta.", True),
        ("2018年港口杯冠军是谁", "2018年港口杯决赛是布雷迪参加的第八次。", False),
        ("2022年金砖国家主席国是谁？", "马朝旭主持召开会议。", True),  # 主席国 is no role
        # a tester's "who founded the company" got "Company equipment stays the property of
        # Nimbus Works": a name, not who founded it
        ("who founded the company", "Company equipment stays the property of Nimbus Works.",
         False),
        ("Who founded the bakery?", "Anna Berg founded the bakery in 1998.", True),
        ("Who is the founder of the bakery?", "The bakery was set up by Anna Berg.", True),
    ],
)
def test_the_asked_role_is_stated(question: str, text: str, stated: bool) -> None:
    assert states_roles(asked_roles(question), text) is stated


def test_forecast_only_when_not_asked() -> None:
    assert forecast("2019年经济增长了多少？", "预计2019年增长6.2%")
    assert not forecast("2019年经济预计增长多少？", "预计2019年增长6.2%")


def test_wrong_unit_only_for_named_measures() -> None:
    assert not wrong_unit("2022年6月网民规模有多少人？", "网民规模达10.51亿")


def test_a_season_question_is_declined_with_another_seasons_date() -> None:
    block = make_block(1, "The harbour show returns with the season 10 premiere on Sunday, "
                          "February 26.", title="Passage 1")
    question = "When will season 1 of the harbour show premiere?"
    assert select(question, (block,)).declined
    chosen = select("When will season 10 of the harbour show premiere?", (block,)).chosen
    assert chosen and answers("When will season 10 of the harbour show premiere?", chosen,
                              frozenset(question_terms(question)), (block,))


def test_a_capital_is_named_by_the_city_not_by_a_phrase_that_begins_with_capital() -> None:
    """A snippet that only uses 首都 to qualify a document (首都出生证明) names no capital,
    however many other countries it names; one stating the city answers, before or after."""
    question = "葡萄牙的首都在哪"
    spam = make_block(1, "0 results for 哪里能仿制摩尔多瓦结婚证书(加薇AB123)葡萄牙葡萄牙首都出生"
                         "证明怎么做假的(加薇AB123)买假的利比亚护照电子版(加薇AB123)xyz.",
                      title="Passage 1")
    assert select(question, (spam,)).declined
    for text in ("里斯本是葡萄牙的首都，也是该国最大的城市。", "葡萄牙首都里斯本位于特茹河河口。"):
        stated = make_block(1, text, title="Passage 1")
        assert not select(question, (stated,)).declined, text


def test_a_company_with_its_legal_form_is_not_who_founded_it() -> None:
    """"Harbour Gadgets Inc." is two capitalised words, but a company's name, not a person's:
    it does not answer who founded the company; the founder's name does."""
    question = "海港电子是谁创立的？"
    company = make_block(1, "2021财年海港电子营收达到300亿美元，... 4月1日创立，并命名为美国海港"
                            "电子公司（Harbour Gadgets Inc.），2007年1月9日更名为...",
                         title="Passage 1")
    assert select(question, (company,)).declined
    founder = make_block(1, "海港电子于1990年由 Mara Lindqvist 创立，总部设在港口城。",
                         title="Passage 1")
    assert not select(question, (founder,)).declined


@pytest.mark.parametrize(
    ("question", "unplaced", "placed"),
    [
        # a place inside a title or a quoted name is the name's
        ("2031年世界港口大会在哪举办",
         "本届世界港口大会期间，海鸥将同步举办“第十届中国港口互联网高峰论坛”等分论坛，同时发布"
         "《2031中国港口投资价值报告》《2031中国港口潜力研究报告》等多份研究报告。",
         "2031年世界港口大会7月6日将在青岛举办，本届大会的主题是“智联港口”。"),
        # a place that owns a role says whose, not where
        ("2031北方港口峰会在哪里举行",
         "2031年北方港口峰会又被称为“三港峰会”，在峰会召开之际，美国总统与加拿大总理在参加峰会之前举行"
         "了双边会谈。",
         "在墨西哥首都墨西哥城举行的2031年北方港口峰会11日落幕。"),
    ],
)
def test_a_venue_is_a_place_stated_as_where(question: str, unplaced: str, placed: str) -> None:
    assert select(question, (make_block(1, unplaced, title="Passage 1"),)).declined
    assert not select(question, (make_block(1, placed, title="Passage 1"),)).declined


def test_a_capital_named_after_its_word_is_a_place_jieba_calls_a_person() -> None:
    """首都阿布贾: jieba tags 阿布贾 ``nr``; after 首都 it is the capital all the same, so a
    sentence whose only other place owns a role (中国外交部长) still answers."""
    text = "中国外交部长杨洁篪抵达尼日利亚首都阿布贾，开始对尼日利亚进行为期一天的访问。"
    assert not select("尼日利亚的首都在哪", (make_block(1, text, title="Passage 1"),)).declined


def test_the_askers_count_of_times_is_answered_by_the_rule_that_limits_it() -> None:
    blocks = (
        make_block(1, "忘带门禁卡时可以在前台借用临时卡，每月最多借用三次。", title="办公室门禁",
                   language="zh"),
        make_block(2, "访客需要在前台登记并佩戴访客证。", title="访客接待", language="zh"),
    )
    chosen = select("这个月已经是第二次忘带门禁卡了，还能找前台借临时卡吗", blocks)
    assert not chosen.declined
    assert "最多借用三次" in chosen.chosen[0].text
