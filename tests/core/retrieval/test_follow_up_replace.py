"""A follow-up replaces the focus of the earlier question and keeps its frame, never asking
about both (issue 12 item 4, by kind: a tester's and the lead's reports).

- a new focus that is a complete noun phrase replaces the earlier noun phrase whole, its
  modifiers and head, rather than being spliced into it ("sick days" for "days of paid
  vacation", 备份 for "NimbusDrive 的审计日志");
- a group of people replaces the frame's group, or the asker's own pronoun ("we", 我们),
  never added beside it;
- in a chain, a follow-up the documents did not cover leaves the topic where it was;
- a new focus no document covers is refused, not answered with the earlier answer.
"""

from __future__ import annotations

import pytest

from kbqa.core.retrieval.ellipsis import is_follow_up
from kbqa.core.retrieval.standalone import rewrite_deterministic
from kbqa.core.types import Chunk, Turn
from tests.core.retrieval.offline_ask import ask_offline, rewrite


@pytest.mark.parametrize(
    ("topic", "follow_up", "expected"),
    [
        # before: "How many days of sick vacation do full-time employees get?"
        ("How many days of paid vacation do full-time employees get?", "and sick days?",
         "How many sick days do full-time employees get?"),
        # before: "How many days of sick off do full-timers get a year?"
        ("How many days of paid time off do full-timers get a year?", "and sick days?",
         "How many sick days do full-timers get a year?"),
        ("How many days of annual leave do full-timers get?", "and bereavement days?",
         "How many bereavement days do full-timers get?"),
        # a compound WordNet names ("sick leave") keeps the documents' "X of Y" form
        ("How many weeks of parental leave do employees get?", "and sick weeks?",
         "How many weeks of sick leave do employees get?"),
        # before: "全职员工每年有多少天带薪病假？" (the old focus's modifier kept)
        ("全职员工每年有多少天带薪年假？", "那病假呢？", "全职员工每年有多少天病假？"),
        # before: "备份 的审计日志保留多久？" (only the modifier replaced)
        ("NimbusDrive 的审计日志保留多久？", "那备份呢？", "备份保留多久？"),
        # before: "客户数据的日志备份保留多久？"
        ("客户数据的加密备份保留多久？", "那审计日志呢？", "审计日志保留多久？"),
        # before: "备份里删除的文件能保留多久？"
        ("回收站里删除的文件能保留多久？", "那备份呢？", "备份能保留多久？"),
        # before: "笔台式电脑多久更换一次？" (a span starting inside 笔记本电脑)
        ("笔记本电脑多久更换一次？", "那台式电脑呢？", "台式电脑多久更换一次？"),
        # before: not read as a follow-up at all ("命名过的版本呢？")
        ("文件的历史版本能保存多久？", "那命名过的版本呢？", "文件的命名过的版本能保存多久？"),
    ],
)
def test_a_complete_noun_phrase_replaces_the_earlier_one_whole(
    topic: str, follow_up: str, expected: str
) -> None:
    assert rewrite(topic, follow_up) == expected


@pytest.mark.parametrize(
    ("earlier", "follow_up", "expected"),
    [
        # before: "…do we get a year for contractors?" (both groups asked)
        (["How many fully paid sick days do we get a year?"], "and for contractors?",
         "How many fully paid sick days do contractors get a year?"),
        (["How many fully paid sick days do I get per year?"], "and contractors?",
         "How many fully paid sick days do contractors get per year?"),
        (["Can we borrow a monitor to take home?"], "what about interns?",
         "Can interns borrow a monitor to take home?"),
        (["Am I allowed to borrow a monitor?"], "and interns?",
         "Are interns allowed to borrow a monitor?"),
        (["Is there free parking for us at the office?"], "what about visitors?",
         "Is there free parking for visitors at the office?"),
        (["How many days of annual leave do we get?"], "and part-timers?",
         "How many days of annual leave do part-timers get?"),
        (["How many days of sick leave do full-time employees get?", "and annual leave?"],
         "and contractors?", "How many days of annual leave do contractors get?"),
        # before: "对于兼职员工，我们一年有多少天年假？"
        (["我们一年有多少天年假？"], "那兼职员工呢？", "兼职员工一年有多少天年假？"),
        (["我能借显示器回家吗？"], "那实习生呢？", "实习生能借显示器回家吗？"),
        (["我们在办公室连哪个 Wi-Fi？"], "那访客呢？", "访客在办公室连哪个 Wi-Fi？"),
        # before: "外包人员呢？" (not read as a follow-up: three words of its own)
        (["全职员工每年有多少天病假？"], "那外包人员呢？", "外包人员每年有多少天病假？"),
        (["全职员工每年有多少天年假？", "那病假呢？"], "那外包人员呢？",
         "外包人员每年有多少天病假？"),
    ],
)
def test_a_group_replaces_the_frames_group_or_the_askers_pronoun(
    earlier: list[str], follow_up: str, expected: str
) -> None:
    assert rewrite(*earlier, follow_up) == expected


@pytest.mark.parametrize(
    ("topic", "follow_up", "expected"),
    [
        # before: "What if I'm in Zurich (hotel limit per night)?" (the frame's verb lost)
        ("What's the hotel limit per night when travelling for work?", "what if I'm in Zurich?",
         "What's the hotel limit per night when travelling for work, if I'm in Zurich?"),
        ("How much can I spend on a hotel per night?", "and if the trip is to London?",
         "How much can I spend on a hotel per night, if the trip is to London?"),
        # "it" is the situation, not the topic's thing (before: "If the max is Paris?")
        ("what's the max I can spend on a hotel per night when I travel for work?",
         "and if it's Paris?",
         "What's the max I can spend on a hotel per night when I travel for work, for Paris?"),
        # a name of two words is a name (before: "…spend on a New York when I travel…")
        ("what's the max I can spend on a hotel per night when I travel for work?",
         "what if it is in New York?",
         "What's the max I can spend on a hotel per night when I travel for work, for New York?"),
        ("What's the hotel limit per night in Paris?", "what about New York?",
         "What's the hotel limit per night in New York?"),
        # a group in a place: the place moves (before: "…limit for a colleagues in Europe in
        # Chengdu?", the group put in the place of the client dinner)
        ("What's the limit for a client dinner per person in Chengdu?",
         "and for colleagues in Europe?",
         "What's the limit for a client dinner per person in Europe, for colleagues?"),
    ],
)
def test_a_condition_naming_a_name_asks_the_earlier_question_under_it(
    topic: str, follow_up: str, expected: str
) -> None:
    assert rewrite(topic, follow_up) == expected


@pytest.mark.parametrize(
    ("topic", "follow_up", "expected"),
    [
        # a condition without a name asks what follows from it, as before
        ("What's the rate limit of the open API?", "what if we exceed it?",
         "What if we exceed the rate limit of the open API?"),
        ("What is the rate limit of the open API?", "What if we exceed the limit?",
         "What if we exceed the limit (rate limit of the open API)?"),
    ],
)
def test_a_condition_without_a_name_keeps_its_own_question(
    topic: str, follow_up: str, expected: str
) -> None:
    assert rewrite(topic, follow_up) == expected


def test_a_condition_on_the_asker_still_narrows() -> None:
    # "I" of "if I forget" is no subject of the question: the group narrows it
    assert rewrite("What if I forget my password?", "and admins?") == (
        "What if I forget my password, for admins?")


@pytest.mark.parametrize(
    ("turns", "follow_up", "expected"),
    [
        # before: "How often are monitors replaced in 2022?" (refused again)
        ([("How often are laptops replaced?", False), ("and monitors?", True)], "and in 2022?",
         "How often are laptops replaced in 2022?"),
        ([("笔记本电脑多久更换一次？", False), ("那办公椅呢？", True)], "那2022年的呢？",
         "2022年笔记本电脑多久更换一次？"),
        ([("How many days of annual leave do full-time employees get?", False),
          ("and bereavement days?", True)], "and for part-timers?",
         "How many days of annual leave do part-time employees get?"),
        ([("全职员工每年有多少天年假？", False), ("那丧假呢？", True)], "那实习生呢？",
         "实习生每年有多少天年假？"),
        # a covered follow-up moves the topic on, as before
        ([("How often are laptops replaced?", False), ("and monitors?", False)],
         "and in 2022?", "How often are monitors replaced in 2022?"),
        # an uncovered full question is still the frame: the user asked it in full
        ([("How often are laptops replaced?", False),
          ("How often are monitors replaced?", True)], "and in 2022?",
         "How often are monitors replaced in 2022?"),
        # the refused topic is carried in parentheses, where the reader holds its words to
        # the blocks, not worked into the question as if it were covered
        ([("how many vacation days do i get as a full timer?", True)],
         "what if I don't use them all?",
         "What if I don't use them all (vacation days full timer)?"),
        ([("团建每人多少钱？", True)], "超了怎么办？", "超了怎么办（团建、每人、钱）？"),
        # answered, the same follow-up is worked into the question as before
        ([("how many vacation days do i get as a full timer?", False)],
         "what if I don't use them all?",
         "What if I don't use the vacation days all?"),
    ],
)
def test_a_chain_keeps_the_last_covered_focus_and_carries_a_refused_one_apart(
    turns: list[tuple[str, bool]], follow_up: str, expected: str
) -> None:
    history = tuple(Turn("user", q, uncovered=uncovered) for q, uncovered in turns)
    assert rewrite_deterministic(follow_up, history) == expected


@pytest.mark.parametrize(
    ("question", "previous", "leans"),
    [
        ("那外包人员呢？", "全职员工每年有多少天病假？", True),
        ("那命名过的版本呢？", "文件的历史版本能保存多久？", True),
        # a clause before 呢, or a question of its own, is no noun phrase
        ("那要是整个办公室都断网了呢？", "工单一般多久有人回复？", False),
        ("And what is the upload limit?", "How long do deleted files stay in the bin?", False),
    ],
)
def test_a_noun_phrase_after_a_connector_leans_back_whatever_its_length(
    question: str, previous: str, leans: bool
) -> None:
    assert is_follow_up(question, previous) is leans



@pytest.mark.parametrize(
    ("history", "follow_up", "expected"),
    [
        # before: "打车呢，一次能报多少？" alone, with 那: the trip was lost
        (["下周去杭州出差，住宿一晚能报多少？"], "那打车呢，一次能报多少？",
         "下周去杭州出差，打车呢，一次能报多少？"),
        # before: "婚假要提前几天申请病假呢，要交证明？"
        (["婚假要提前几天申请？"], "那病假呢，要交证明吗？", "病假要交证明吗？"),
        # a group keeps the earlier question's thing
        (["正式员工每年有几天带薪病假？"], "那外包员工呢，一年有几天？",
         "外包员工呢，一年有几天带薪病假？"),
    ],
)
def test_an_opening_ne_clause_names_the_focus_of_the_question_after_it(
    history: list[str], follow_up: str, expected: str
) -> None:
    turns = tuple(Turn(role="user", text=t) for t in history)
    assert rewrite_deterministic(follow_up, turns) == expected



@pytest.mark.parametrize(
    ("topic", "follow_up", "expected"),
    [
        # before: "出差住早餐一晚能报多少？" (the object alone replaced); the night is the
        # lodging's rate and goes with it
        ("出差住宾馆一晚能报多少？", "那吃早餐呢？", "出差吃早餐能报多少？"),
        # before: "对于坐公交，出差打车能报销吗？" (both actions asked)
        ("出差打车能报销吗？", "那坐公交呢？", "出差坐公交能报销吗？"),
        # the new action's own opening words are not repeated
        ("请供应商吃饭每人能报多少？", "那请供应商喝咖啡呢？", "请供应商喝咖啡每人能报多少？"),
    ],
)
def test_another_action_replaces_the_earlier_action_with_its_object(
    topic: str, follow_up: str, expected: str
) -> None:
    assert rewrite_deterministic(follow_up, (Turn(role="user", text=topic),)) == expected



@pytest.mark.parametrize(
    ("question", "previous", "leans"),
    [
        # before: read as a predicate with its subject elided ("账号被锁了两步验证怎么关闭？")
        ("两步验证怎么关闭？", "账号被锁了怎么办？", False),
        # an amount of the predicate still leans back
        ("超过两天会怎样？", "报销单多久要交？", True),
    ],
)
def test_a_numeral_before_an_act_names_a_kind_of_it(
    question: str, previous: str, leans: bool
) -> None:
    assert is_follow_up(question, previous) is leans



def test_a_thing_replaces_a_thing_never_the_askers_place() -> None:
    # before: "我在杭州，酒店一晚能报多少？" + "早餐呢？" asked "我在早餐，…"
    topic = (Turn(role="user", text="我在杭州，出差订酒店一晚能报多少？"),)
    assert rewrite_deterministic("早餐呢？", topic).startswith("我在杭州，")


# ------------------------------------------------------------------- through the pipeline


def _chunk(n: int, title: str, section: str, text: str) -> Chunk:
    return Chunk(chunk_id=f"doc-{n:03d}#c01", doc_id=f"doc-{n:03d}", title=title,
                 section=section, updated="2025-01-02", text=text)


KB = [
    _chunk(1, "Leave policy", "Annual leave", (
        "Full-time employees receive 20 days of paid annual leave per calendar year. "
        "Part-time employees receive a share in proportion to their contracted hours.")),
    _chunk(2, "Leave policy", "Sick leave", (
        "If you are ill, tell your manager before your working day starts. Employees receive "
        "10 days of fully paid sick leave per calendar year.")),
    _chunk(3, "数据保留制度", "审计日志",
           "NimbusDrive 审计日志的存储期限为 365 天，客户管理员可以随时导出。"),
    _chunk(4, "数据保留制度", "备份",
           "系统会定期为客户数据制作加密备份。每份备份在创建 35 天后自动过期，随即销毁。"),
    _chunk(5, "Equipment policy", "Laptops", "Company laptops are replaced every 4 years."),
]
async def _ask(questions: list[str]) -> tuple[str, str, str]:
    """The shown text, status and standalone query of the last of ``questions``."""
    return await ask_offline(KB, questions)


@pytest.mark.parametrize(
    ("questions", "old_answer"),
    [
        # before: "聊天记录 的审计日志保留多久？" quoted the audit log's 365 days
        (["NimbusDrive 的审计日志保留多久？", "那聊天记录呢？"], "365"),
        (["How many days of annual leave do full-timers get?", "and bereavement days?"], "20"),
        # before: the employees' 10 days, as if they were the contractors' rule
        (["How many fully paid sick days do we get a year?", "and for contractors?"], "10"),
    ],
)
async def test_a_new_focus_no_passage_covers_is_refused(
    questions: list[str], old_answer: str
) -> None:
    shown, status, _ = await _ask(questions)
    assert old_answer not in shown
    assert status.startswith("refused")


@pytest.mark.parametrize(
    ("questions", "new_answer"),
    [
        (["NimbusDrive 的审计日志保留多久？", "那备份呢？"], "35"),
        (["客户数据的加密备份保留多久？", "那审计日志呢？"], "365"),
        # before: "Full-time employees receive 20 days…", the full-timers' rule
        (["How many days of annual leave do full-timers get?", "and part-timers?"],
         "in proportion"),
    ],
)
async def test_a_new_focus_is_answered_of_itself(questions: list[str], new_answer: str) -> None:
    shown, status, _ = await _ask(questions)
    assert new_answer in shown, (status, shown)


@pytest.mark.parametrize(
    ("topic", "follow_up", "expected"),
    [
        # before: "我在要是去绵阳，下周去上海出差…" (the whole follow-up put over the first place)
        ("我在成都办公室，下周去上海出差，酒店一晚最多能报多少？", "那要是去绵阳呢？",
         "我在成都办公室，下周去绵阳出差，酒店一晚最多能报多少？"),
        # before: "下周要去要是去深圳出差…"
        ("下周要去重庆出差，酒店一晚能报多少？", "那要是去深圳呢？",
         "下周要去深圳出差，酒店一晚能报多少？"),
        ("下周要去重庆出差，酒店一晚能报多少？", "如果在深圳呢？",
         "下周要去深圳出差，酒店一晚能报多少？"),
        # with no verb to follow, the first name of the kind is replaced
        ("成都这边请客户吃饭，每人最多报多少？", "那上海呢？",
         "上海这边请客户吃饭，每人最多报多少？"),
    ],
)
def test_a_conditional_place_replaces_the_place_its_verb_leads(
    topic: str, follow_up: str, expected: str
) -> None:
    """"那要是去X呢？" asks the trip of X: the condition word goes, and of several places the
    one after the same verb (去) is replaced, not the asker's own office."""
    assert rewrite(topic, follow_up) == expected


@pytest.mark.parametrize(
    ("questions", "expected"),
    [
        # before: "How much is the Business plan per seat on Enterprise?" (both plans)
        (("How much is the Team plan per seat?", "and on Premium?"),
         "How much is the Premium plan per seat?"),
        # before: "…on the Premium?" (the head noun went with the old name)
        (("How much storage does each user get on the Team plan?", "and on Premium?"),
         "How much storage does each user get on the Premium plan?"),
        # a name in another role is not replaced: the office stays, the city is added
        (("What is the hotel limit per night for Utrecht staff?", "and in Vienna?"),
         "What is the hotel limit per night for Utrecht staff in Vienna?"),
        # before: "How often do phones get tablets?" (the verb phrase was the focus)
        (("How often do phones get swapped out?", "and tablets?"),
         "How often do tablets get swapped out?"),
        # a whole question pointing back is the next topic; before: the price was asked
        (("How much is the Team plan per seat?",
          "And how much storage does each user get with that?", "and on Premium?"),
         "How much storage does each user get with the Premium plan per seat?"),
    ],
)
def test_a_named_or_plural_focus_replaces_the_topics_own(
    questions: tuple[str, ...], expected: str
) -> None:
    assert rewrite(*questions) == expected



@pytest.mark.parametrize(
    ("topic", "follow_up", "expected"),
    [
        # a tester's pair: merged as "加班晚了平时上班打车回家能报吗？", it got the overtime taxi
        # rule, where the FAQ says commuting is not reimbursed
        ("加班晚了打车回家能报吗？", "平时上班打车呢？", "平时上班打车能报吗？"),
        ("出差打车能报销吗？", "那周末加班打车呢？", "周末加班打车能报销吗？"),
        # another action still replaces the earlier one in its situation
        ("出差打车能报销吗？", "那坐地铁呢？", "出差坐地铁能报销吗？"),
        # the earlier action's rate goes with it: meals are not counted per night (a tester's
        # "那吃饭呢？" got the hotel rule again)
        ("我下个月去上海出差，住酒店每晚能报多少？", "那吃饭呢？",
         "我下个月去上海出差，吃饭能报多少？"),
        ("出差住酒店一晚能报多少？", "那吃饭呢？", "出差吃饭能报多少？"),
        ("请供应商吃饭每人能报多少？", "那请供应商喝咖啡呢？", "请供应商喝咖啡每人能报多少？"),
    ],
)
def test_the_earlier_action_in_another_situation_replaces_the_situation(
        topic: str, follow_up: str, expected: str) -> None:
    assert rewrite_deterministic(follow_up, [Turn(role="user", text=topic)]) == expected


@pytest.mark.parametrize(
    ("topic", "follow_up", "expected"),
    [
        # a tester's "阿姆斯特丹那边呢？" lost the childbirth: "那边" hid the place
        ("生孩子能休多久？", "阿姆斯特丹那边呢？", "在阿姆斯特丹，生孩子能休多久？"),
        ("出差住酒店一晚能报多少？", "那成都那边呢？", "在成都，出差住酒店一晚能报多少？"),
    ],
)
def test_a_place_over_there_is_the_place(topic: str, follow_up: str, expected: str) -> None:
    assert rewrite_deterministic(follow_up, [Turn(role="user", text=topic)]) == expected


def test_the_earlier_act_stays_when_its_object_is_replaced() -> None:
    # a tester's "what about sick days?" became "Can I sick days over to next year?"
    assert rewrite("Can I carry unused vacation days over to next year?",
                   "what about sick days?") == "Can I carry sick days over to next year?"


def test_an_ask_of_the_elided_subject_is_the_topic_a_later_follow_up_changes() -> None:
    # a tester's chain: "丢了呢？" asked the replacement cycle again ("丢了多久更换一次？")
    history = [Turn(role="user", text="笔记本电脑多久更换一次？"),
               Turn(role="assistant", text="…"),
               Turn(role="user", text="坏了怎么办？"), Turn(role="assistant", text="…")]
    assert rewrite_deterministic("丢了呢？", history) == "笔记本电脑丢了怎么办？"
    # ...but one whose subject could only be carried in parentheses leaves the topic as it was
    history = [Turn(role="user", text="年假有几天？"), Turn(role="assistant", text="…"),
               Turn(role="user", text="能结转吗？"), Turn(role="assistant", text="…")]
    assert rewrite_deterministic("那病假呢？", history) == "病假有几天？"
