"""Chinese follow-ups: the earlier question's focus found and replaced by characters and
jieba's part-of-speech tags (ICTCLAS tag set, jieba README "词性标注").

``parallel_zh`` replaces a sibling noun (病假/年假), ``combine_zh`` joins any other Chinese
follow-up with its Chinese topic; ``standalone`` decides when to call them.
"""

from __future__ import annotations

import re

from kbqa.core.retrieval.action_zh import replace_action_zh, restated_zh
from kbqa.core.retrieval.ellipsis import (
    NOUN_TAG_PREFIXES,
    PRONOUNS_ZH,
    QUESTION_WORDS_ZH,
    core,
    lacks_subject_zh,
    topic_clause_ne_zh,
    topic_words,
    with_topic,
)
from kbqa.core.retrieval.places_zh import new_place_zh, new_time_zh, without_locative
from kbqa.core.retrieval.tags_zh import INTERROGATIVES_ZH, PERSON_HEADS_ZH, asking_word
from kbqa.core.retrieval.tail_zh import with_counted_thing, without_tail
from kbqa.core.text.normalise import has_cjk
from kbqa.core.text.terms import pos_tags

TRAILING_PARTICLE_ZH_RE = re.compile(r"(呢|吗|啊|呀)$")

# Characters that begin no noun phrase: measure words, prepositions, particles
# ("多少天年假": 天 counts days; "在外地打车": 在 is "at"). jieba segments such runs
# unreliably (天年/假), so sibling spans are found by characters, not by jieba's words.
NON_INITIAL_ZH = frozenset("的了在是有和与及或对把被从向给每个天几多少去到为")
MAX_SPAN_GROWTH = 2  # a sibling may be up to 2 characters longer or shorter (年假/陪产假)
# An acronym right before a sibling span is its modifier ("IT 部门", "VPN 权限").
_ACRONYM_BEFORE_RE = re.compile(r"(?<![A-Za-z])[A-Z]{2,}[ \t]?$")

# Verbs that take an action as their object and add little of their own (形式动词 "light
# verbs": 进行审批, 提交申请), besides any one-character verb (走审批, 做体检, 办报销).
LIGHT_VERBS_ZH = frozenset("进行 提交 办理 发起 经过 通过 需要 完成 申请 加以 予以 给予".split())
# jieba tags of an action: verbs and verbal nouns (ICTCLAS: v, vn).
_ACTION_TAGS = ("v", "vn")


def is_verb_object_zh(phrase: str) -> bool:
    """Whether ``phrase`` is a verb with an action as its object ("走审批", "做体检",
    "提交审批", "需要报销"), by jieba's tags: a one-character or light verb (``LIGHT_VERBS_ZH``)
    then words ending in a verb or verbal noun. Such a phrase does something with a thing;
    it never names a sibling of one ("陪产假": 产假 is a noun, so a sibling of 年假 stays one;
    "入职体检": 入职 is neither, so it stays a sibling of 年度体检)."""
    import jieba.posseg

    pairs = [(p.word, p.flag) for p in jieba.posseg.cut(phrase) if p.word.strip()]
    if len(pairs) < 2:
        return False
    (verb, tag), (_, head_tag) = pairs[0], pairs[-1]
    light = len(verb) == 1 or verb in LIGHT_VERBS_ZH
    return tag == "v" and light and head_tag in _ACTION_TAGS


def parallel_zh(noun: str, topic: str) -> str | None:
    """"年假" after "员工每年有多少天病假？" -> the topic with 病假 replaced by 年假: a span of
    the topic with the same head (last) character, the usual shape of sibling nouns in
    Chinese (病假/年假, 入门版/企业版, 陪产假/年假), as close in length to the new noun as
    possible (the shorter, then the later on a tie), never starting with a function
    character; a group of people replaces the topic's group (``_replace_group_zh``) and a
    year its year; likewise a place, person or organisation name replaces the topic's name of
    the same kind."""
    if len(noun) < 2 or is_verb_object_zh(noun):
        return None  # "走审批" does something with the topic's 审批; it names no sibling
    group = _replace_group_zh(noun, topic)
    if group:
        return group
    # a span starting inside one of jieba's words ("记本电脑" of 笔记本电脑) comes last
    bounds = _word_starts(topic)
    found: list[tuple[bool, int, int, int, int]] = []  # (inside, |diff|, length, -end, start)
    for end in range(len(topic), 1, -1):
        if topic[end - 1] != noun[-1]:
            continue
        for size in range(2, len(noun) + MAX_SPAN_GROWTH + 1):
            span = topic[max(end - size, 0):end]
            # a span across 的 takes the modifier's tail with it ("件的历史版本")
            if (len(span) == size and span != noun and has_cjk(span) and span.isalnum()
                    and span[0] not in NON_INITIAL_ZH and "的" not in span):
                found.append((end - size not in bounds, abs(size - len(noun)), size, -end,
                              end - size))
    if found:
        *_, size, _, start = min(found)
        counted = _counted_start(topic, start)  # 多少天带薪年假: 带薪 goes with 年假
        start, size = counted, size + start - counted
        acronym = _ACRONYM_BEFORE_RE.search(topic[:start])  # "IT 部门": IT modifies 部门
        if acronym:
            start, size = acronym.start(), size + start - acronym.start()
        action = _action_start(noun, topic, start + size)
        if action is not None:
            start, size = action, size + start - action
        return f"{core(topic[:start] + noun + topic[start + size:])}？"
    return _parallel_name_zh(noun, topic) or _replace_year_zh(noun, topic)


def _word_starts(text: str) -> frozenset[int]:
    """Offsets where jieba's words of ``text`` start."""
    import jieba

    starts, at = set(), 0
    for word in jieba.cut(text):
        starts.add(at)
        at += len(word)
    return frozenset(starts)


MAX_COUNTED_MODIFIERS = 2  # words between a measure word and the counted noun's span


def _counted_start(topic: str, start: int) -> int:
    """Where the noun phrase counted by a measure word begins, when the span at ``start``
    is its head: "带薪年假" of "多少天带薪年假" (天 counts it, 带薪 modifies it): the new
    sibling replaces the whole counted phrase, never keeping the old one's modifier
    ("带薪病假"). ``start`` itself when no numeral or measure word (jieba's m, q) comes
    within ``MAX_COUNTED_MODIFIERS`` words before it."""
    import jieba.posseg

    pairs = [(p.word, p.flag) for p in jieba.posseg.cut(topic[:start])]
    at = start
    for word, flag in reversed(pairs[-MAX_COUNTED_MODIFIERS - 1:]):
        if flag in ("m", "q"):
            return at
        if not has_cjk(word) or word == "的" or word in _PREDICATE_START_ZH:
            break
        at -= len(word)
    return start


# jieba tags of the words that modify an action before it: verbs done first (出差), a
# preposition and its place or time (在外地, 在周末), adverbs (ICTCLAS: v, p, n, s, f, t, d).
_ACTION_MODIFIER_TAGS = ("v", "p", "n", "s", "f", "t", "d")


def _action_start(noun: str, topic: str, end: int) -> int | None:
    """Where the topic's action ending at ``end`` begins with its modifiers, when ``noun``
    is that action with modifiers of its own: "上下班打车" after "出差在外地打车能报销吗？"
    replaces "出差在外地打车" (taking a taxi on a business trip), not only "外地打车"; the
    new modifiers replace the old ones, never join them. None when the topic's word at
    ``end`` is no verb (年假, 入门版: a thing keeps its own replacement) or ``noun`` is the
    bare action. A group of people (员工) or a predicate start stops the span."""
    import jieba.posseg

    pairs = [(p.word, p.flag) for p in jieba.posseg.cut(topic[:end])]
    own = [p.word for p in jieba.posseg.cut(noun)]
    if not pairs or pairs[-1][1] != "v" or len(own) < 2 or own[-1] != pairs[-1][0]:
        return None
    start = end - len(pairs[-1][0])
    for word, flag in reversed(pairs[:-1]):
        if (not flag.startswith(_ACTION_MODIFIER_TAGS) or word[-1] in PERSON_HEADS_ZH
                or word in _PREDICATE_START_ZH or any(q in word for q in QUESTION_WORDS_ZH)):
            break
        start -= len(word)
    return start


_YEAR_ZH_RE = re.compile(r"(?:19|20)\d\d年?")
_OF_YEAR_ZH_RE = re.compile(r"((?:19|20)\d\d年?)的?")
# jieba tags of words that may modify a group of people (全职/n 员工, 新/a 员工, 正式/b 员工).
_GROUP_MODIFIER_TAGS = ("n", "a", "b", "vn", "j")


def _replace_year_zh(noun: str, topic: str) -> str | None:
    """"2022年" after "笔记本电脑多久更换一次？": a year replaces the topic's year, else
    opens the question ("2022年笔记本电脑多久更换一次？", the question asked of that year),
    with no comma: after one it read as a condition outside the ask clause, which the
    answer need not state, and the current policy's value was quoted for 2022 without a
    word about the year (a tester, 2026-12-06)."""
    m = _OF_YEAR_ZH_RE.fullmatch(noun)  # 2022年的: "the one of 2022"
    if not m:
        return None
    noun = m.group(1)
    year = _YEAR_ZH_RE.search(topic)
    if year:
        return f"{core(topic[:year.start()] + noun + topic[year.end():])}？"
    return f"{noun}{core(topic)}？"


def _replace_group_zh(noun: str, topic: str) -> str | None:
    """"实习生" after "全职员工每年有多少天病假？" -> "实习生每年有多少天病假？": a group of
    people (``PERSON_HEADS_ZH``) replaces the topic's group with its modifiers (全职), the
    same question asked of the new group, never of both; None when the topic names none."""
    noun = re.sub("^对于?", "", noun)  # 那对于实习生呢: "as for interns"
    if noun[-1:] not in tuple(PERSON_HEADS_ZH):
        return None
    group = group_span_zh(topic) or _asker_span_zh(topic)
    if group is None or topic[group[0]:group[1]] == noun:
        return None
    return f"{core(topic[:group[0]] + noun + topic[group[1]:])}？"


# The asker's personal pronouns (a closed class: first and second person, 大家 "everyone");
# 他/她/它 point at someone or something named before.
ASKER_PRONOUNS_ZH = frozenset("我 我们 咱们 你 你们 您 大家".split())


def _asker_span_zh(topic: str) -> tuple[int, int] | None:
    """(start, end) of the asker's pronoun in the topic (jieba's r: "我们" of
    "我们一年有多少天年假？"), the group a follow-up's group replaces ("那实习生呢？" ->
    "实习生一年有多少天年假？"); None without one."""
    import jieba.posseg

    start = 0
    for pair in jieba.posseg.cut(topic):
        if pair.flag.startswith("r") and pair.word in ASKER_PRONOUNS_ZH:
            return start, start + len(pair.word)
        start += len(pair.word)
    return None


def group_span_zh(topic: str) -> tuple[int, int] | None:
    """(start, end) of the topic's first group of people: a noun ending in a
    ``PERSON_HEADS_ZH`` character with the nouns and adjectives before it (全职员工);
    None without one."""
    import jieba.posseg

    pairs = [(p.word, p.flag) for p in jieba.posseg.cut(topic)]
    for i, (word, flag) in enumerate(pairs):
        if flag.startswith(NOUN_TAG_PREFIXES) and word[-1] in PERSON_HEADS_ZH:
            first = i
            while first and pairs[first - 1][1].startswith(_GROUP_MODIFIER_TAGS):
                first -= 1
            start = sum(len(w) for w, _ in pairs[:first])
            return start, start + sum(len(w) for w, _ in pairs[first:i + 1])
    return None
# jieba tags of proper names: places, people, organisations ("那成都呢？" after a Shanghai
# question asks the same of Chengdu).
_NAME_TAGS = ("ns", "nr", "nt")


# jieba tags of the words that may lead a name without changing what it names: a verb of
# motion or a preposition ("去绵阳", "在成都", "到北京"; ICTCLAS v, p), and a conjunction
# that makes the follow-up a condition ("要是去绵阳", "如果在深圳"; ICTCLAS c).
_NAME_LEAD_TAGS = ("v", "p", "c")


def _parallel_name_zh(noun: str, topic: str) -> str | None:
    """A place, person or organisation name replacing the topic's name of the same kind;
    a verb of motion or preposition before it ("那去绵阳呢？") goes with the topic's own
    wording, never twice ("出差去去绵阳"), and picks the name it leads in the topic when the
    topic has several ("我在成都办公室，下周去上海出差…" then "那要是去绵阳呢？": the trip goes
    to 绵阳; the asker stays in 成都). A leading condition (要是, 如果) is dropped."""
    import jieba.posseg

    tagged = [(w.word, w.flag) for w in jieba.posseg.cut(noun) if w.word.strip()]
    leads: list[str] = []
    # only a one-character verb leads ("去"): 审计/v 日志/ns is one noun, whatever its tags
    while len(tagged) > 1 and tagged[0][1].startswith(_NAME_LEAD_TAGS) and (
            len(tagged[0][0]) == 1 or tagged[0][1] in ("p", "c")):
        leads.append(tagged[0][0])
        tagged = tagged[1:]
    if len(tagged) != 1 or tagged[0][1] not in _NAME_TAGS:
        return None
    noun = tagged[0][0]
    pairs = pos_tags(topic)
    names = [(i, word) for i, (word, flag) in enumerate(pairs)
             if flag == tagged[0][1] and word != noun]
    if not names:
        return None
    led = [word for i, word in names if i and leads and pairs[i - 1][0] == leads[-1]]
    return f"{core(topic.replace((led or [names[0][1]])[0], noun, 1))}？"


_THERE_ZH_RE = re.compile(r"(?<=..)(?:那边|这边|那里|这里|那儿|这儿)$")


def combine_zh(rest: str, topic: str) -> str:
    body = core(rest)
    bare = TRAILING_PARTICLE_ZH_RE.sub("", body)
    restated = restated_zh(bare, topic) if body.endswith("呢") else None
    if restated:  # "平时上班打车呢？": the topic's action again, in another situation
        return restated
    if topic_clause_ne_zh(body):
        # "病假呢，要提前申请吗？" after "年假要提前多久申请？": a sibling thing with an ask of
        # its own is asked of it ("病假要提前申请吗？"); a group or another thing keeps the
        # earlier question's frame around it (below)
        noun, ask = (part.strip() for part in body.split("呢", 1))
        ask = ask.lstrip("，, ")
        if noun[-1] not in PERSON_HEADS_ZH and parallel_zh(noun, topic):
            return f"{noun}{ask}？"
    # "阿姆斯特丹那边呢？": the place itself ("over there" points at it)
    noun = _THERE_ZH_RE.sub("", bare)
    parallel = parallel_zh(noun, topic)
    if parallel:
        return parallel
    place = (new_place_zh(noun, topic) or new_time_zh(noun, topic)) if body.endswith("呢") else ""
    if place:  # "那成都呢？", "周末呢？" after a question naming none: where or when, not what
        return f"{place}，{core(topic)}？"
    focus = first_noun_phrase_zh(topic)
    pronoun = next((p for p in PRONOUNS_ZH if p in body), None)
    if focus and pronoun:  # "那它能恢复吗？": the pronoun stands for the topic's subject
        return f"{body.replace(pronoun, focus, 1)}？"
    if body.endswith("呢") and is_verb_object_zh(noun):
        return f"{core(topic)}，{body}？"  # "走审批呢？": the same topic, done this way
    action = replace_action_zh(noun, topic) if body.endswith("呢") else None
    if action:
        return action
    if body.endswith("呢"):
        thing = thing_focus_zh(topic)
        if thing and noun[-1] not in PERSON_HEADS_ZH:  # "那历史版本呢？": another thing
            # ...not in the earlier thing's place ("误删的文件在回收站里能放几天？")
            return f"{core(without_locative(topic.replace(thing, noun + chr(0), 1)))}？"
        return f"对于{noun}，{core(topic)}？"  # "那管理员呢？": the same question, for admins
    subject = with_counted_thing(without_tail(re.split(r"[，,]", _subject_zh(topic))[-1]), topic)
    if subject and lacks_subject_zh(body):  # "超过了会怎样？": the topic's subject was elided
        return f"{subject}{body}？"
    return with_topic(body, topic_words(topic, body), zh=True)


# Where a Chinese question's subject ends: the copula, modal verbs and question words.
_PREDICATE_START_ZH = frozenset("是 有 能 要 会 可以 需要 应该 必须".split())


def subject_zh(topic: str) -> str:
    """The topic's subject (``_subject_zh``), else its first noun phrase; "" without one."""
    return _subject_zh(topic) or first_noun_phrase_zh(topic)


def _subject_zh(topic: str) -> str:
    """The topic's subject: its words before the first copula, modal or question word,
    when they hold a noun ("开放 API 的速率限制" of "开放 API 的速率限制是多少？",
    "回收站里的文件" of "回收站里的文件能保留多久？"); "" otherwise ("入职后多久…")."""
    import jieba.posseg

    subject, noun = "", False
    for pair in jieba.posseg.cut(core(topic)):
        if pair.word in _PREDICATE_START_ZH or any(q in pair.word for q in QUESTION_WORDS_ZH):
            break
        subject += pair.word
        noun = noun or pair.flag.startswith(NOUN_TAG_PREFIXES)
    return subject.strip() if noun else ""


# jieba tags of words inside a subject noun phrase: nouns, names, English, abbreviations,
# verbal nouns, locatives (回收站里), modifiers (加密, 全职), 的, and a blank between scripts.
_SUBJECT_NP_TAGS = ("n", "vn", "eng", "j", "f", "a", "b", "uj", "x")


def thing_focus_zh(topic: str) -> str:
    """The noun phrase another thing replaces ("那备份呢？"): the topic's subject when it is a
    noun phrase naming a thing, with its modifiers and relative clauses ("回收站里删除的文件",
    "NimbusDrive 的审计日志": the whole phrase goes, never its modifier alone, which asked
    "备份 的审计日志"); else its first run of nouns (``first_noun_phrase_zh``)."""
    import jieba.posseg

    pairs = [(p.word, p.flag) for p in jieba.posseg.cut(core(topic))]
    words: list[tuple[str, str]] = []
    for i, (word, flag) in enumerate(pairs):
        after = pairs[i + 1] if i + 1 < len(pairs) else ("", "")
        # 删除的文件: a relative clause; 的审计/v 日志: after 的, a verb before a noun
        # modifies it (the head phrase), where elsewhere it may take it as object (住酒店)
        clause = flag.startswith("v") and (after[0] == "的" or (
            bool(words) and words[-1][0] == "的" and after[1].startswith(NOUN_TAG_PREFIXES)))
        if (flag == "x" and word.strip()) or not (flag.startswith(_SUBJECT_NP_TAGS) or clause):
            break
        if asking_word(word):  # 周几/nr, 哪天: a question word jieba tagged a noun names nothing
            if words:
                break
            continue
        words.append((word, flag))
    while words and not words[-1][1].startswith(NOUN_TAG_PREFIXES):
        words.pop()
    phrase = "".join(w for w, _ in words).strip()
    if len(phrase) < 2 or phrase[-1] in PERSON_HEADS_ZH:
        return first_noun_phrase_zh(topic, things_only=True) or first_noun_phrase_zh(topic)
    return phrase


# A noun after these is the asked type, no thing (什么时候, 哪个部门); …的时候 is "when …"


def first_noun_phrase_zh(topic: str, *, things_only: bool = False) -> str:
    """The topic's first run of nouns (jieba tags): ``回收站`` of ``回收站保留多久？``; ""
    without one. With ``things_only`` a run of place names alone (jieba's ns: 成都 of
    "在成都出差住酒店…") says where, not what is asked about: the next run is taken (酒店)."""
    import jieba.posseg

    run, places, pairs = "", True, list(jieba.posseg.cut(topic))
    for before, pair in zip(["", *(p.word for p in pairs)], pairs, strict=False):
        asked = before in INTERROGATIVES_ZH or (before == "的" and pair.word == "时候") or (
            asking_word(pair.word))
        if pair.flag.startswith(NOUN_TAG_PREFIXES) and pair.word.strip() and not asked:
            run, places = run + pair.word, places and pair.flag == "ns"
        elif run and not (things_only and places):
            break
        else:
            run, places = "", True
    return "" if things_only and places else run

