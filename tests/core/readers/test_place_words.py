"""A place asked for ("哪个国家", "哪个城市") is answered by a place name: jieba's place tag
(ns) where CC-CEDICT does not gloss the word as something else (jieba tags 中断 "break off"
and 加密 "encrypt" ns), and a name CC-CEDICT glosses as a named place whatever jieba tags it
(卡塔尔 ``nr``, "Qatar")."""

from __future__ import annotations

import pytest

from kbqa.core.readers.extractive.focus import new_answer
from kbqa.core.text.places import glossed_place, may_name_place
from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block


@pytest.mark.parametrize("word", ["中断", "加密", "日志", "午休"])
def test_a_word_jieba_tags_as_a_place_but_the_dictionary_glosses_otherwise_is_none(
        word: str) -> None:
    assert not may_name_place(word)


@pytest.mark.parametrize("word", ["法兰克福", "新加坡", "成都", "上海", "欧洲", "深圳湾"])
def test_place_names_stay_places(word: str) -> None:
    assert may_name_place(word)


async def test_where_the_servers_are_is_not_answered_where_an_upload_stops() -> None:
    # "每次都在同一位置中断" (jieba tags 中断 a place) was quoted for which country the
    # servers are in
    uploads = make_block(
        1, "- **每次都在同一位置中断**：可能是代理服务器或杀毒软件在检查流量，"
           "请联系 IT 服务台放行 NimbusDrive 的上传域名。",
        title="网页上传工具使用指南", section="常见问题排查", doc_id="doc-013", language="zh")
    assert not new_answer("place", "每次都在同一位置中断：可能是代理服务器或杀毒软件在检查流量。",
                          "我们的服务器放在哪个国家？")
    answer = await extractive_answer("我们的服务器放在哪个国家？", (uploads,))
    assert "中断" not in answer
    assert new_answer("place", "客户数据存放在法兰克福和新加坡两个区域的数据中心。",
                      "我们的服务器放在哪个国家？")


@pytest.mark.parametrize(("word", "place"), [
    ("卡塔尔", True), ("法兰克福", True), ("亚足联", False), ("城市", False), ("华为", False)])
def test_a_name_glossed_as_a_named_place_is_one(word: str, place: bool) -> None:
    assert glossed_place(word) is place


def test_a_place_jieba_tags_as_a_person_answers_where() -> None:
    # jieba tags 卡塔尔 nr and the Asian Football Confederation (亚足联) ns: the host country
    # is the place that answers
    question = "2023年亚洲杯举办国在哪里？"
    assert new_answer("place", "事实上，亚足联最终确定卡塔尔为2023年亚洲杯的举办国。", question)
    assert not new_answer("place", "亚足联最终确定了2023年亚洲杯的举办国。", question)
