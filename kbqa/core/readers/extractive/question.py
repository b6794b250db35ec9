"""What the extractive answerer (``extractive.py``) reads from a question.

- ``question_terms``: its content terms, folded; ``groups``: a Chinese word and its parts
  (``彻底清除``, ``彻底``, ``清除``) count once, as the heaviest part a sentence has.
- ``answer_kind``: what kind of thing answers it: a quantity ("how long", ``多久``), a
  person ("who", ``谁``), a version ("which versions", ``版本``); ``states`` whether a
  sentence states one ("90 days", "Priya Raman", "iOS 16").
- ``Phrases``: the question's noun phrases (runs of content words); a word absent from the
  blocks that modifies a phrase whose other words are there ("doctor's note" answered by
  "hospital note", "operating systems" by "Supported systems") is a qualifier, not what is
  asked about.
- which of its words no block has count as missing, and which a gap line may name: the
  next module, ``absent``.
- ``contradicts``: a sentence naming another place or name for the same thing ("Rotterdam
  office" when asked about the "Chengdu office") is about something else.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import Literal

from kbqa.core.readers.extractive.question_verbs import catenative_verbs
from kbqa.core.readers.extractive.text import question_numbers
from kbqa.core.text.number_words import money_in_words
from kbqa.core.text.quantities import is_currency, names_money
from kbqa.core.text.terms import (
    A_NOT_A_RE,
    a_not_a_pieces,
    acronym_starts,
    fold,
    is_question_word,
    is_stop_en,
    stem,
    terms,
)
from kbqa.core.text.thesaurus import known_word, morphy, rather_noun

AnswerKind = Literal["money", "quantity", "person", "version", "number", "other"]

GENERIC_TERMS = frozenset(
    """long many much get got need want know tell way happen still ever really thing keep
    something anything someone anyone stuff make let like able allowed possible please
    after before during within until since per via
    多久 多长 多长时间 需要 怎样 怎么办 能否 是不是 哪里 时候 知道 告诉 东西 事情 事儿
    弄 搞 咋办 咋整 咋弄""".split())
# Verbs that carry the question's grammar, not its subject: never named as not covered
# ("How long does the free trial last?" is answered; "last" is not missing), nor taken as
# the specific thing asked about ("What did the meeting decide?"); 处理/解决 as "handle".
VERBS = frozenset(fold(w) for w in (
    "last take use work go come mean run apply happen exist stay become allow do make give "
    "put set find decide fix change say think help handle solve resolve choose agree start "
    "stop add remove send ask show see look turn open close follow 处理 解决".split()))
# Words naming the kind of place asked for ("which cities", 哪几个城市, "office address"): a
# place the answer names answers them ("法兰克福和新加坡" for 城市), no "not covered" names them.
PLACE_TYPE_TERMS = frozenset(fold(stem(t)) for t in "city cities country countries location "
                             "place address 城市 国家 地点 地方 位置 地区 地址".split())
# Words naming the kind of answer rather than what is asked about: a quoted number answers
# them, and their absence from the blocks is no reason to decline.
ANSWER_TYPE_TERMS = frozenset(fold(t) for t in (
    "limit maximum minimum max min size deadline amount number value price cost period duration "
    "budget length width height weight capacity "
    "often frequently frequency version versions "
    "上限 最多 最长 大小 期限 截止 时限 金额 数量 钱 价格 费用 标准 版本 人数 次数 预算 长度 容量 "
    "时间 日期").split()) | PLACE_TYPE_TERMS
# ...of which the bound words say only that a bound answers ("the maximum file name length"):
# light words (``light_terms``), or "The maximum size of a file…" leads for a name's length.
BOUND_TERMS = frozenset("maximum minimum max min".split())
# "How long/many/much", "多久/多少/几": the answer is a quantity (measured on the demo
# documents: without it "How long does the recycle bin keep items?" quoted how to restore).
# "The most I can claim", "the least we pay" ask an amount one may reach (not "most popular").
_QUANTITY_RE = re.compile(
    r"\bhow (?:long|many|much|big|large|often|soon|quickly|fast)\b"
    r"|多久|多少|多长|多大|(?<!哪)几[天个次年月周小]|[怎如][么何]计?算"  # 怎么算: a rate or amount
    r"|人数|次数|\bthe (?:most|least)\s+(?:i|we|you|they|one|someone)\s+(?:can|could|may|"
    r"will|would|should|am|are|get)\b"
    # a superlative of size asks how big: "What's the biggest file I can upload?"
    r"|\bthe (?:biggest|largest|smallest|longest|shortest|heaviest)\b")
# 多少 after a thing that is a code or an address (密码是多少, 电话多少, 分机号是多少) asks for
# that string, as 是什么 does, not for an amount.
_IDENTIFIER_ASK_ZH_RE = re.compile(
    r"(密码|口令|电话|号码|手机号|分机号?|账号|帐号|编号|工号|邮编|邮箱|网址|地址|代码|验证码|房间号"
    r"|门牌号|车牌号?)(?:是|为)?多少(?!钱|天|个|次|年|位|人|小时|分钟)")
# Weaker signs of a quantity, read after "who" and "which version": "the upload limit".
_QUANTITY_WEAK_RE = re.compile(
    r"\bwhen\b|\bdeadline|\bdue\b|\b(?:max|maximum|minimum|limit)\w*"
    r"|上限|最多|最长|截止|期限|时限|什么时候|何时")
# A price: "how much does it cost", "多少钱", "how much for a new one?", "how much can I
# claim"; answered by an amount with its currency.
_DURATION_ASK_RE = re.compile(r"\bhow (?:long|often|soon)\b|多久|多长时间|多少天")
_MONEY_RE = re.compile(
    r"\b(?:cost|costs|price|prices|priced|fee|fees|charge|charged|pay)\b|多少钱|价格|收费|[要花付]钱"
    r"|\bhow much (?:for|(?:can|could|may) (?:i|we|you|they) (?:claim|spend|expense)"
    r"|do (?:i|we|you|they) get back)\b")
# "What's the budget for…" asks an amount of money; "is there a budget for…" whether one
# exists, which a rule without an amount may answer
_BUDGET_RE = re.compile(r"\bwhat(?:'s|s| is| are)? (?:the |our |my |a )?budgets?\b")
_EXISTS_RE = re.compile(r"\b(?:is|are) there\b|\bdo (?:we|i|you) (?:have|get)\b")
# ...but not "Are minibar costs reimbursed?": a yes/no ask whose predicate is a participle
# asks whether that happens to the costs ("covered", "paid back"), not what they are.
_PASSIVE_ASK_RE = re.compile(
    r"^\s*(?:is|are|was|were|(?:can|will|would|could|should|may)\b.*\bbe)\b.*"
    r"\b(?:[a-z]+ed|paid)(?:\s+(?:back|in full|too|also|as well))?\s*[?.!]*\s*$")
_CURRENCY_RE = re.compile(
    r"(?:\b(?:EUR|USD|CNY|RMB|GBP)\b|[€$£¥]|元|欧元|美元|英镑)\s?\d|\d\s?(?:\b(?:EUR|USD|CNY"
    r"|RMB|GBP|euros?|dollars?)\b|[€$£¥]|元|欧元|美元|英镑)")
# A price of nothing states an amount too: "free of charge", "at no cost", 免费, 不收费 (not
# a free trial or "Free up space"); so does a price set per customer ("quoted individually").
_FREE_RE = re.compile(
    r"\b(?:free of charge|for free|(?:is|are|stays?|remains?) free|at no (?:extra )?(?:cost|charge)"
    r"|no charge|costs? nothing|(?:quoted|priced) individually|custom pric\w*|price on request)"
    r"\b|免费(?![\u4e00-\u9fff])|不收费|不另收费|无需付费|面议|单独报价|另行报价", re.IGNORECASE)
# A Chinese amount in words with its unit: 半天, 两周, 三个月; not 每天, 上半年, 第三次, 前两次
_COUNT_ZH_RE = re.compile(r"(?<![每当这那哪同上下第前后近头])(?:半|[一二两三四五六七八九十]+个?半?)"
                          r"(?:天|小时|周|星期|个月|年|次)")
# A digit that is not only a year ("the 2022 version" states no duration), nor inside an
# identifier ("HMAC-SHA256", "X1", "FIDO2"): letters or a hyphen right before it.
_QUANTITY_NUMBER_RE = re.compile(r"(?<![\d.A-Za-z-])(?!(?:19|20)\d\d(?![\d.]))\d")
# A name with a dotted version ("OAuth 2.0", "TLS 1.2") names a standard, not an amount;
# a currency code before a decimal ("EUR 0.30", "SGD 0.60": ``is_currency``) is an amount.
_DOTTED_VERSION_RE = re.compile(r"\b([A-Za-z]+)\s?\d+(?:\.\d+)+\b")
_PERSON_RE = re.compile(r"\bwho(?:m|se)?\b|谁")
_VERSION_RE = re.compile(r"\bversions?\b|版本")
# "iOS 16", "Windows 11", "SAML 2.0", "v2.1": a name with its version number.
_VERSION_TOKEN_RE = re.compile(r"\b[A-Za-z][A-Za-z]*\s?\d+(?:\.\d+)*\b|\bv\d+(?:\.\d+)+")
# Two capitalised words after the sentence's first word: "Priya Raman", "Tomás Herrera".
_NAME_RE = re.compile(r"(?<=\S\s)[^\W\d_a-z][^\W\d_A-Z]+ [^\W\d_a-z][^\W\d_A-Z]+")
# A company's legal form after capitalised words: "Apple Computer Inc." names a company, not
# a person (RGB zh_fact: 苹果是谁创立的 answered by 命名为美国苹果电脑公司（Apple Computer Inc.）).
_LEGAL_FORM_RE = re.compile(
    r"\s*(?:Inc|Corp|Corporation|Ltd|Limited|LLC|LLP|PLC|plc|GmbH|AG|SA|Co|Company|Group)\b")
_WORD_RE = re.compile(r"[A-Za-z]+|[^\sA-Za-z]")
# A role answers "who" as a name does ("the finance director", 部门负责人, “编辑者”, the
# reception 前台): the heads of role nouns, English and Chinese; and an English department
# ("HR, through the HR portal"), which is who one asks. Chinese departments (人事部) were
# measured and left out: "合同、薪资或假期问题：通过人事系统联系人事部" then outranked the
# reception's 接入码 for "接入码找谁要？" on the type alone.
ROLE_RE = re.compile(
    r"\b(?:manager|director|owner|administrator|editor|helpdesk|reception(?:ist)?)s?\b"
    r"|\b(?:front|help|service|security|support) desk\b|负责人|经理|主管|总监|管理员|所有者"
    r"|编辑者|审批人|前台|服务台"
    r"|(?-i:\bHR\b)|\bhuman resources\b|\b(?:finance|legal|payroll|facilities|procurement)"
    r" (?:department|team)\b", re.IGNORECASE)
# An hour written in Chinese numerals ("早上八点", "下午五点"; not 一点, "a bit").
CN_HOUR = r"(?:早上|上午|中午|下午|晚上|凌晨|傍晚)?[两三四五六七八九十]{1,3}点"
# A time of day: 11pm, 11:30, 23:30, 9 a.m., 晚上11点, 下午五点半 (no duration, date, amount).
CLOCK_RE = re.compile(
    r"(?<![\d.,:])(?:\d{1,2}:\d{2}(?:\s*[ap]\.?m\.?)?|\d{1,2}\s*[ap]\.?m\.?(?![a-z])"
    rf"|\d{{1,2}}\s*点(?:半|\d{{1,2}}分?)?|{CN_HOUR}(?:半|[一二三四五]十分)?)", re.IGNORECASE)
NOUN_TAGS = re.compile(r"^(?:n[a-z]*|eng|j|l|i)$")  # jieba: nouns, names, foreign, idioms
# jieba tags of words that never say what is asked about: localizers (后), prepositions,
# conjunctions, particles, interjections. Numerals and quantifiers stay (天 in 多少天).
_SCORELESS_TAGS = re.compile(r"^(?:f|p|c|u[a-z]*|y|e|o)$")
# jieba tags of words that qualify what is asked about rather than name it: verbs ("vn",
# a noun made from a verb, names a thing).
_QUALIFIER_TAGS = re.compile(r"^v[dgiq]?$")
# Tags of words that never name what is asked about: pronouns (每年), numerals and
# quantifiers (几天), places and directions (里, 天内), times, prepositions, conjunctions,
# particles, adverbs, interjections (jieba/ICTCLAS tag set).
_FUNCTION_TAGS = re.compile(r"^(?:r|m|mq|q|f|s|t|tg|p|c|u|u[a-z]+|d|dg|y|e|o|x|w)$")
_CJK_RE = re.compile(r"[\u3400-\u9fff]")
# jieba tags of words that set the scene rather than name what is asked about: pronouns
# (谁, 每个, 自己), numerals and measure words (一年, 第一天, 天), times (明天), localizers,
# adverbs (jieba/ICTCLAS tag set). They stay terms, as light ones (``light_terms``).
_LIGHT_TAGS = re.compile(r"^(?:r|q|t|tg|f|d|ad)$")


@lru_cache(maxsize=1024)
def tagged(question: str) -> tuple[tuple[str, str], ...]:
    """``(folded word, jieba tag)`` of a question with Chinese; () without. Loads jieba's
    part-of-speech model on first use (about 1 s)."""
    if not _CJK_RE.search(question):
        return ()
    import jieba.posseg

    # An A-not-A form (能不能, 可不可以) is cut apart from the word before it, which jieba
    # otherwise glues to its first character: 年假能不能 -> 年/假能/不能.
    text = A_NOT_A_RE.sub(lambda m: f" {m.group(0)} ", question)
    return tuple((fold(p.word.lower()), p.flag) for p in jieba.posseg.cut(text))


def qualifiers(question: str) -> frozenset[str]:
    """The Chinese words of ``question`` that jieba tags as verbs (``改成``, ``任意``):
    they qualify what is asked about rather than name it."""
    return frozenset(w for w, tag in tagged(question) if _QUALIFIER_TAGS.match(tag))


@lru_cache(maxsize=512)
def nominal_verbs(question: str) -> frozenset[str]:
    """Chinese verbs of ``question`` that name a thing: right after 的 and right before a
    noun, inside the noun phrase 的 opens (``每年的体检费用``: 体检 qualifies 费用 as a noun
    does; ``报销费用`` alone is a verb and its object). Li & Thompson 1981, ch. 20."""
    words = tagged(question)
    return frozenset(w for i, (w, t) in enumerate(words)
                     if t.startswith("v") and 0 < i < len(words) - 1 and words[i - 1][0] == "的"
                     and words[i + 1][1].startswith("n"))


def function_words(question: str) -> frozenset[str]:
    """The Chinese words of ``question`` that can never name a thing (``_FUNCTION_TAGS``:
    ``每年``, ``几天``, ``天内``, ``里``), so a gap sentence never names them."""
    return frozenset(w for w, tag in tagged(question) if _FUNCTION_TAGS.match(tag))


def asking_words(question: str) -> list[str]:
    """The Chinese terms of ``question`` that only ask (question words, ``GENERIC_TERMS``:
    ``多长时间``, ``多少``): no piece of one (``长时间``) is content the blocks may lack."""
    return [w for w in terms(question)
            if not w.isascii() and (is_question_word(w) or w in GENERIC_TERMS)]


def question_terms(question: str) -> list[str]:
    """The question's distinct content terms, folded, in order: generic words, Chinese
    function words (``后``: jieba tags ``_SCORELESS_TAGS``), 几点/几时 (an FAQ line asking
    几点 is no answer; a time is) and Latin tokens of 1-2 letters ("a b recycle bin")
    removed, a number joined with its unit or next word (``40 day``: not 40 users)."""
    joined = question_numbers(question)
    skip = GENERIC_TERMS | frozenset(w for w, t in tagged(question) if _SCORELESS_TAGS.match(t))
    skip |= a_not_a_pieces(question) | {"几点", "几时", "几点钟"}
    out = [joined.get(t, fold(t)) for t in terms(question)
           if t not in skip and not (t.isascii() and t.isalpha() and len(t) <= 2)]
    return list(dict.fromkeys(out))


def light_terms(question: str) -> frozenset[str]:
    """The question's terms, folded, that stopwords-iso lists (``terms.is_question_word``:
    "get", "back", "new", "one", "again", "due", ``得``, ``要``), time words ("Monday",
    ``明天``) and Chinese pronouns, measure words and adverbs (``_LIGHT_TAGS``): kept for
    matching, but they say little about what is asked, so a sentence sharing only them
    ("request a new one" for "When am I due for a new one?") must not outscore one sharing
    the focus noun ("laptop"). The list is broad (it holds "bill", "free", "system"): a
    light term still counts, at ``scoring.LIGHT_FACTOR`` of its weight, and the caller
    keeps words the blocks' headings use at full weight."""
    # A word of a hyphenated compound ("part-timers", "year-end") names the asked group
    # or thing, however common it is alone.
    compound = {fold(t) for w in _COMPOUND_RE.findall(question) for t in terms(w)}
    stop = {fold(t) for t in terms(question)
            if (is_question_word(t) or t in TIME_WORDS or fold(t) in BOUND_TERMS)
            and fold(t) not in compound}
    stop |= {fold(stem(m.group(1).lower())) for m in _DEICTIC_UNIT_RE.finditer(question)}
    stop |= catenative_verbs(question)  # "required" of "required to be in the office"
    return frozenset(stop) | frozenset(w for w, tag in tagged(question) if _LIGHT_TAGS.match(tag))


_COMPOUND_RE = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)+")
# ...but a unit after "last", "next" or "this" says when ("sick … last week"), after "every
# few" how often the asker guesses, after "for a" how long they mean to ("unpaid leave for a
# month": a bank rule's "the 10th of the month" led): not what is asked about
_DEICTIC_UNIT_RE = re.compile(
    r"\b(?:last|next|this|past|every\s+(?:few|other|couple\s+of)|for\s+(?:a|an|one))\s+"
    r"(week|month|year|quarter)s?\b", re.IGNORECASE)
# English time words: when the asker is ("since Monday", "in June", "every morning"), and
# "time" itself ("a bunch of times", "this time"), not what is asked about; Chinese ones
# carry jieba's ``t`` tag. Units of time were measured and left out (2026-12-02, demo sets:
# "calls per minute", "three days a week" are what those questions ask about).
TIME_WORDS = frozenset(stem(w) for w in (
    "monday tuesday wednesday thursday friday saturday sunday weekend weekday today tomorrow "
    "yesterday tonight morning afternoon evening night january february march april may june "
    "july august september october november december "
    "time").split())
# The unit after "how many" or 多少/几 ("how many days", 多少天; "how much leave" names what
# is measured): any stated quantity answers it, so it says nothing about the topic.
_UNIT_RE = re.compile(
    r"\bhow many ([a-z]+)(?: ([a-z]+))?|(?:多少|几)([\u3400-\u9fff])")


@lru_cache(maxsize=1024)  # asked per candidate sentence (``focus.new_answer``)
def unit_terms(question: str) -> frozenset[str]:
    """The folded unit words a quantity question asks in: ``day`` for "how many days" and
    "how many sick days" (a noun after the adjective; "do", "fit" are none), ``天`` for 多少天."""
    found = _UNIT_RE.findall(unicodedata.normalize("NFKC", question).lower())
    return frozenset(
        fold(stem(after if after and not is_question_word(after) and (
            rather_noun(after) or not morphy(after, "verb")) else en)) if en else zh
        for en, after, zh in found)


def light_parts(qterms: Sequence[str], light: frozenset[str]) -> frozenset[str]:
    """``light`` plus the Chinese question terms that are one character (``天``, ``新``:
    a morpheme, not a word) or a piece of a light word (``一天`` of ``第一天``)."""
    cjk_light = [w for w in light if not w.isascii()]
    return light | frozenset(
        t for t in qterms if not t.isascii() and (len(t) == 1 or any(t in w for w in cjk_light)))


def groups(qterms: Sequence[str]) -> dict[str, str]:
    """Each term's group: the longest question term containing it (itself if none), so a
    Chinese word and its search-mode parts, or ``7 july`` and ``july``, count once."""
    return {t: max((o for o in qterms if t in o), key=len) for t in qterms}


def answer_kind(question: str) -> AnswerKind:
    """What answers ``question``: a price ("cost", ``多少钱``) an amount of money, then "how
    long/many/much" a quantity, "who" a person, "which versions" a version, then
    "limit"/"deadline"/"when" any number (a year too)."""
    # 密码是多少 asks for the password, as 密码是什么 does: no quantity
    q = _IDENTIFIER_ASK_ZH_RE.sub(r"\1是什么", question.lower())
    # "How long does it take to charge the scanner?" asks a duration, whatever "charge" is
    if (_MONEY_RE.search(q) or (_BUDGET_RE.search(q) and not _EXISTS_RE.search(q))) and not (
            _DURATION_ASK_RE.search(q) or _PASSIVE_ASK_RE.search(q)):
        return "money"
    if _QUANTITY_RE.search(q):
        return "quantity"
    if _PERSON_RE.search(q):
        return "person"
    if _VERSION_RE.search(q):
        return "version"
    return "number" if _QUANTITY_WEAK_RE.search(q) else "other"


def states(kind: AnswerKind, text: str) -> bool:
    """Whether sentence ``text`` states what ``kind`` asks for: an amount with a currency
    ("EUR 15", ``15 欧元``, "thirty yuan": ``money_in_words``), a number other than a year
    (and a version's), a version ("iOS 16"), a person's name ("Priya Raman"; in Chinese a
    name jieba tags ``nr``)."""
    if kind == "money":
        return bool(_CURRENCY_RE.search(text) or _FREE_RE.search(text) or names_money(text)
                    or money_in_words(text))
    if kind == "quantity":
        digits = _DOTTED_VERSION_RE.sub(
            lambda m: m[0] if m[1] == "RMB" or is_currency(m[1]) else "…", text)
        return bool(_QUANTITY_NUMBER_RE.search(digits) or _COUNT_ZH_RE.search(digits)
                    or money_in_words(text))
    if kind == "number":
        return any(ch.isdigit() for ch in text) or money_in_words(text)
    if kind == "version":
        return bool(_VERSION_TOKEN_RE.search(text))
    if kind == "person":
        return (any(_person_name(m) for m in _NAME_RE.finditer(text))
                or bool(ROLE_RE.search(text)) or any(t == "nr" for _, t in tagged(text)))
    return False


def _person_name(match: re.Match[str]) -> bool:
    """Whether two capitalised words (``_NAME_RE``) are a person's name: not a company's,
    whose legal form follows them ("Apple Computer Inc.") or is their second word."""
    text, words = match.string, match.group().split()
    return not (_LEGAL_FORM_RE.fullmatch(words[-1]) or _LEGAL_FORM_RE.match(text, match.end()))


@lru_cache(maxsize=256)
def phrases(question: str) -> tuple[tuple[str, ...], ...]:
    """The question's noun phrases as folded terms: runs of words with no stop word,
    punctuation or (Chinese) non-noun between them; "operating systems", ``医生证明``."""
    if tagged(question):
        words = [(w, bool(NOUN_TAGS.match(t))) for w, t in tagged(question)]
    else:
        text = unicodedata.normalize("NFKC", question)
        acronyms = acronym_starts(text)  # "IT" is an acronym, not the stop word "it"
        # a function word WordNet knows in no part of speech ("per", "via", "during")
        # ends a phrase as a stop word does: "team building budget | per | person"
        words = [(m.group().lower(),
                  m.group().isalpha() and not is_stop_en(m.group(), m.start() in acronyms)
                  and not _function_word(m.group().lower()))
                 for m in _WORD_RE.finditer(text)]
    out: list[tuple[str, ...]] = []
    run: list[str] = []
    for word, content in [*words, ("", False)]:
        if content:
            run.append(fold(stem(word)) if word.isascii() else word)
        elif run:
            out.append(tuple(run))
            run = []
    return tuple(out)


def _function_word(word: str) -> bool:
    """Whether ``word`` (lower case) is a stopwords-iso word WordNet does not know as a
    noun, verb, adjective or adverb: a preposition, pronoun or conjunction."""
    return is_question_word(word) and not known_word(word)


def modifies(term: str, question: str, heads: frozenset[str]) -> bool:
    """Whether absent ``term`` qualifies a noun phrase of ``question`` whose head, its last
    word, is in ``heads`` (``医生`` in ``医生证明``: the blocks' ``医院证明`` answers it); a
    word between them is no head ("team" of "team building budget", with "builds" in a
    block and no budget, qualifies nothing the blocks have)."""
    return modified_head(term, question, heads) is not None


def modified_head(term: str, question: str, heads: frozenset[str]) -> str | None:
    """The head ``modifies`` finds for ``term``, or None."""
    for phrase in phrases(question):
        if term in phrase and term != phrase[-1] and phrase[-1] in heads:
            return phrase[-1]
    return None


def in_matched_phrase(term: str, question: str, present: frozenset[str]) -> bool:
    """Whether ``term`` shares a noun phrase of ``question`` with a word in ``present``
    ("conflicting" in "conflicting upload limit pages")."""
    return any(term in p and present & set(p) for p in phrases(question))


def common(df: int, n_blocks: int) -> bool:
    """The verifier's rule: in more than half of the blocks and in at least 3 of them."""
    return df >= 3 and df * 2 > n_blocks
