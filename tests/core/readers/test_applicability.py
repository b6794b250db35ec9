"""A document that sends an office or region to another document does not answer for them
(issue 12: answers that answer)."""

from __future__ import annotations

import pytest

from kbqa.core.readers.extractive.applicability import redirects
from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block

TRAVEL_EN = make_block(
    1, "This policy applies to all staff of Harbour Labs in Europe. Staff of the Lyon studio "
       "follow the French travel rules instead.\n\nTrains: first class is allowed for journeys "
       "over 3 hours.", title="Travel policy", doc_id="doc-701")
TRAVEL_ZH = make_block(
    2, "本规定适用于海港实验室中国区员工。火车：一律乘坐二等座。"
       "日本的同事请遵守日文版《出張規程》。",
    title="差旅规定（中国区）", doc_id="doc-702", language="zh")


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Staff of the Lyon studio follow the French travel rules instead.", {"lyon"}),
        ("日本的同事请遵守日文版《出張規程》。", {"日本"}),
        # who a policy applies to is no redirect
        ("This policy applies to all staff of Harbour Labs in Europe.", set()),
        ("Trains: first class is allowed for journeys over 3 hours.", set()),
    ],
)
def test_a_scope_sentence_names_whom_it_sends_elsewhere(text: str, names: set[str]) -> None:
    assert redirects(text) == names


async def test_a_rule_is_not_quoted_to_the_office_its_document_sends_elsewhere() -> None:
    answer = await extractive_answer(
        "I work at the Lyon studio and the train ride is 4 hours. Can I go first class?",
        (TRAVEL_EN,))
    assert "first class is allowed" not in answer
    # anyone else is answered by it
    answer = await extractive_answer(
        "I work in the Berlin office and the train ride is 4 hours. Can I go first class?",
        (TRAVEL_EN,))
    assert "first class is allowed" in answer


async def test_a_chinese_policy_sending_a_region_elsewhere_is_not_quoted_to_it() -> None:
    answer = await extractive_answer("日本的同事坐火车可以坐一等座吗？", (TRAVEL_ZH, TRAVEL_EN))
    assert "二等座" not in answer


async def test_a_rule_for_another_group_does_not_answer_the_askers_own_case() -> None:
    # "Interns are not entitled to paid annual leave but receive 1 day off…" answered "my
    # mom passed away, how many days can I take off?" (it shares "day off"); a question
    # naming no group asks of the asker, and a rule whose subject is another group is not
    # theirs
    from tests.core.readers.reading import extractive_answer
    from tests.fakes import make_block

    blocks = (
        make_block(1, "Full-time employees receive 25 days of paid annual leave per calendar "
                      "year. Trainees are not entitled to paid annual leave but receive 1 day "
                      "off per month of training.", title="Leave policy", section="Other leave",
                   doc_id="leave"),
        make_block(2, "The canteen opens at 08:00.", title="Office", section="Canteen",
                   doc_id="office"),
    )
    answer = await extractive_answer(
        "my sister is getting married, how many days off do I get?", blocks)
    assert "Trainees" not in answer
    # asked of that group, the rule answers
    asked = await extractive_answer("Do trainees get paid annual leave?", blocks)
    assert "Trainees are not entitled" in asked


async def test_a_sentence_opening_with_a_group_that_states_the_rule_for_everyone_answers() -> None:
    # A conversation tester: "is 2fa mandatory for us?" was refused; the answer opens with
    # "Administrators can make…" and goes on "…mandatory for all employees".
    from tests.core.readers.reading import extractive_answer
    from tests.fakes import make_block

    blocks = (make_block(1, "Administrators can make the hardware key required for everyone in "
                            "the organisation; at Acme it is required for all employees.",
                         title="Sign-in", section="Hardware keys"),)
    answer = await extractive_answer("is the hardware key required for us?", blocks)
    assert "required for all employees" in answer


@pytest.mark.parametrize("question", [
    "How many meeting rooms does the Hangzhou office have?",
    "杭州办公室有几间会议室？",
])
async def test_another_offices_guide_does_not_answer_for_the_office_asked(question: str) -> None:
    guide = make_block(1, "The office has 3 meeting rooms: Maas, Rotte and Schie.",
                       title="Rotterdam Office Guide", section="Meeting rooms")
    guide_zh = make_block(2, "办公室共有 3 间会议室：西湖、太湖和阳澄湖。", title="苏州办公室指南",
                          section="会议室", language="zh")
    # the asked city is named elsewhere in passing, so it is no missing word
    scope = make_block(3, "This policy applies to Orchard Ltd in Rotterdam and Orchard "
                          "(Hangzhou) Co., Ltd. 本制度适用于鹿特丹和杭州的全体员工。",
                       title="Leave policy", section="Scope")
    draft = await extractive_answer(question, (guide, guide_zh, scope))
    assert "3 meeting rooms" not in draft and "3 间会议室" not in draft


async def test_the_office_asked_is_answered_from_its_own_guide() -> None:
    guide = make_block(1, "The office has 3 meeting rooms: Maas, Rotte and Schie.",
                       title="Rotterdam Office Guide", section="Meeting rooms")
    guide_zh = make_block(2, "办公室共有 4 间会议室：西湖、太湖、金鸡湖和阳澄湖。",
                          title="苏州办公室指南", section="会议室", language="zh")
    assert "4 间会议室" in await extractive_answer("苏州办公室有几间会议室？", (guide, guide_zh))
    # a question naming no office keeps every guide
    assert "3 meeting rooms" in await extractive_answer(
        "How many meeting rooms does the office have?", (guide,))


async def test_a_hyphenated_word_ending_in_a_preposition_names_no_group() -> None:
    # "Carried-over days must be used by 31 March…" was read as a rule for the group
    # "carried-over" (a hyphenated -er word, like "part-timer"), so "what happens to carried
    # over days…?" was declined although the sentence answers it
    blocks = (
        make_block(1, "Full-time employees receive 18 working days of paid annual leave per "
                      "calendar year.\n\nUp to 5 unused days may be carried over into the next "
                      "year. Carried-over days must be used by 31 March; any days not used by "
                      "then are forfeited.", title="Leave Policy", section="Annual leave",
                   doc_id="leave"),
        make_block(2, "Reception keeps petty cash for small office purchases of up to SGD 100.",
                   title="Finance FAQ", section="Petty cash", doc_id="faq"),
    )
    answer = await extractive_answer(
        "what happens to carried over days if I dont use them by march", blocks)
    assert "forfeited" in answer


@pytest.mark.parametrize(("title", "places"), [
    ("Halvard Biotech Employee FAQ (Munich)", ("Munich",)),
    ("Benefits Summary (Singapore)", ("Singapore",)),
    ("Leave Policy (Orchard Metrics)", ()),  # a company, not a place
    ("Expense FAQ (2023)", ()),
    ("Equipment Policy (Draft)", ()),  # WordNet's draft is no location
    ("苏州工厂员工手册", ("苏州",)),
    ("Amsterdam Office Guide", ("Amsterdam",)),
])
def test_a_title_is_scoped_to_the_place_it_names(title: str, places: tuple[str, ...]) -> None:
    from kbqa.core.text.places import title_places

    assert title_places(title) == places


async def test_a_site_the_question_names_is_not_answered_from_another_sites_document() -> None:
    # "How much does a staff parking permit cost at the Suzhou plant?" was answered with
    # the Munich FAQ's "EUR 25 per month" (its title names Munich in brackets): no document
    # at hand is the Suzhou plant's
    blocks = (
        make_block(1, "Car park P1 is for staff with a parking permit (EUR 25 per month, "
                      "deducted from salary). Bicycle parking is free in the courtyard.",
                   title="Halvard Biotech Employee FAQ (Munich)", section="Canteen and parking",
                   doc_id="faq"),
        make_block(2, "Policy LOG-007, version 4. Applies to all shipments from Munich and "
                      "Suzhou.", title="Cold-Chain Shipping Policy",
                   section="Cold-Chain Shipping Policy", doc_id="cold-chain"),
    )
    answer = await extractive_answer(
        "How much does a staff parking permit cost at the Suzhou plant?", blocks)
    assert "EUR 25" not in answer
    # asked of Munich, the FAQ answers
    munich = await extractive_answer(
        "How much does a staff parking permit cost in Munich?", blocks)
    assert "EUR 25" in munich
