"""Paraphrase help for the extractive answerer (``extractive.py``): a question worded
differently from its documents.

- ``spell_numbers``: an English number word ("two days") becomes its digits, so it is a
  condition joined with its unit (``2 day``, ``extractive_text.question_numbers``), not the
  rarest word of the question.
- ``expand``: a question term that no block has is replaced by the block terms that say
  the same: its associations learned from the knowledge base (``associate.py``), or for a
  Chinese word the block words that begin with it or with its content characters (``丢`` ->
  ``丢失``, ``能报`` -> ``报销``), so a paraphrase is answered instead of declined; an
  English agent noun meets its base word ("part-timers" -> ``time``) and a long compound
  its first word ("headquartered" -> ``head``). No hand-written synonym table: one
  written from the demo's own paraphrases did not carry to questions its authors never
  saw (issue 12).
- ``is_question``: a sentence that is itself a question ("离职时未休的年假怎么处理？", a FAQ
  heading) never answers one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache

from kbqa.core.readers.extractive.question import GENERIC_TERMS
from kbqa.core.retrieval.focus_en import is_person_en
from kbqa.core.text.quantities import CN_NUMERALS, COUNT_WORDS_ZH
from kbqa.core.text.terms import (
    a_not_a_pieces,
    cjk_bigrams,
    fold,
    is_acronym,
    is_question_word,
    is_stop_en,
    jieba_frequency,
    jieba_words,
    stem,
    terms,
)
from kbqa.core.text.thesaurus import known_word
from kbqa.core.text.word_forms import verb_forms, word_family
from kbqa.core.types import Block

NUMBER_WORDS = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split())}
_NUMBER_WORD_RE = re.compile(rf"\b({'|'.join(NUMBER_WORDS)})\b(?=\s+([A-Za-z]+))", re.I)
_CJK_RE = re.compile(r"[\u3400-\u9fff]")
MAX_PREFIX_MATCHES = 3  # a Chinese word starting more block words than this is too vague
# Letters of a folded English word that may be a compound ("headquarter"; "freelanc" may
# not: "free" is another word). Measured 2026-12-01: natural +1, demo and RGB unchanged.
MIN_COMPOUND = 9



_AGENT_RE = re.compile(r"[a-z]{3,}er")  # a folded English agent noun: "timer", "reader"


def agent_base(word: str, terms: Sequence[frozenset[str]]) -> str:
    """``word`` or, for an English agent noun no term set holds ("timer" of
    "part-timers"), its base word that one does ("time"): a part-timer is a part-time
    employee. A word naming people by itself ("contractor", ``focus_en.is_person_en``) is
    left as it is."""
    everything = frozenset().union(*terms) if terms else frozenset()
    # a whole word for people keeps its meaning: a contractor is no "contract"
    if word in everything or not _AGENT_RE.fullmatch(word) or is_person_en(word):
        return word
    return next((b for b in (word[:-1], word[:-2]) if b in everything), word)


def spell_numbers(question: str) -> str:
    """``question`` with English number words before a content word as digits: "two days"
    -> "2 days"; "one of them" stays. Midnight and noon (午夜) are times of day as "0:00" and
    "12:00" are, checked against a source's times ("Can I get a taxi at midnight?" over
    "journeys between 22:00 and 06:00": a new user's report, 2026-12-07)."""
    question = _CLOCK_WORD_RE.sub(lambda m: _CLOCK_WORDS[m.group().lower()], question)
    return _NUMBER_WORD_RE.sub(
        lambda m: m.group(1) if is_stop_en(m.group(2), is_acronym(m.group(2)))
        else NUMBER_WORDS[m.group(1).lower()], question)


_CLOCK_WORDS = {"midnight": "0:00", "noon": "12:00", "midday": "12:00", "午夜": "0点",
                "半夜十二点": "0点"}
_CLOCK_WORD_RE = re.compile(r"\b(?:midnight|noon|midday)\b|午夜|半夜十二点", re.IGNORECASE)


_TIME_UNIT = r"(second|minute|hour|day|week|month|year|working day|business day)"
_HALF_RE = re.compile(rf"\bhalf an? {_TIME_UNIT}\b", re.IGNORECASE)
_AND_A_HALF_RE = re.compile(
    rf"\b(?:an?|({'|'.join(NUMBER_WORDS)}|\d+)) "
    rf"(?:and a half {_TIME_UNIT}s?|{_TIME_UNIT}s? and a half)\b",
    re.IGNORECASE)
_COUNTED_TIME_RE = re.compile(
    rf"\b({'|'.join(NUMBER_WORDS)})\b(?=[ -](?:full |calendar |consecutive )?{_TIME_UNIT})",
    re.IGNORECASE)
_ONE_UNIT_RE = re.compile(
    rf"\b(within|in|for|after|than|about|up to|at least|at most|once) an? {_TIME_UNIT}\b",
    re.IGNORECASE)


@lru_cache(maxsize=8192)  # asked of every candidate sentence (``focus.new_answer``)
def spell_amounts(text: str) -> str:
    """``text`` (a source's sentence) with its English spelled durations as digits, so a
    sentence stating one answers "how long" as "2 hours" does: "two hours" -> "2 hours"
    (a count of other things, "two ways", stays words), "half a day" -> "0.5 day", "one
    and a half hours" / "a day and a half" -> "1.5 hours" / "1.5 days", "within an hour"
    -> "within 1 hour". "EUR 45 a day" (a rate) stays."""
    def and_a_half(m: re.Match[str]) -> str:
        count = m.group(1)
        whole = int(NUMBER_WORDS.get(count.lower(), count)) if count else 1
        return f"{whole}.5 {m.group(2) or m.group(3)}s"
    text = _HALF_RE.sub(lambda m: f"0.5 {m.group(1)}", text)
    text = _AND_A_HALF_RE.sub(and_a_half, text)
    text = _ONE_UNIT_RE.sub(lambda m: f"{m.group(1)} 1 {m.group(2)}", text)
    return _COUNTED_TIME_RE.sub(lambda m: NUMBER_WORDS[m.group(1).lower()], text)


def as_read(question: str, blocks: Sequence[Block]) -> str:
    """``question`` as the reader reads it over ``blocks``: without closing mood particles
    (``without_mood_particles``), count words apart (``count_words_apart``)."""
    question = without_mood_particles(question)
    if not any(ch in COUNT_WORDS_ZH for ch in question):
        return question  # no count word to read apart (every English question)
    return count_words_apart(question, " ".join(b.chunk.text for b in blocks))


def count_words_apart(question: str, text: str) -> str:
    """``question`` with a space after a count word that jieba glues to the word after it,
    right after a number, 多少 or 几 ("我们一年有多少天年假？" segments as 多少/天年/假, so
    the reader read 天年 and 假 where the asker wrote 年假; with the space, 多少天 年假), when
    the rest joined with the next word is in ``text`` (the blocks': jieba's dictionary
    lacks 年假). As the conflict gate's bindings end a phrase at a count word
    (``_COUNT_END_RE``)."""
    words = jieba_words(question)
    out, cut = [], False
    for i, word in enumerate(words):
        before = words[i - 1] if i else ""
        after = words[i + 1] if i + 1 < len(words) else ""
        # ...only when the rest and what follows is a word the blocks write (天年/假: 年假),
        # so a word of its own (2022/年度) stays whole
        if (len(word) > 1 and word[0] in COUNT_WORDS_ZH and before
                and (before in ("多少", "几") or before[-1].isdigit()
                     or before[-1] in CN_NUMERALS)
                and len(word[1:] + after) > 1 and word[1:] + after in text):
            out.append(f"{word[0]} {word[1:]}")
            cut = True
        else:
            out.append(word)
    return "".join(out) if cut else question


# Chinese words for the least and the most of something, each said several ways: a
# question's 最少 is the document's 最小 or 至少 (年假最少能请多久 / 年假最小申请单位为半天).
_BOUND_GROUPS = ("最少 最小 至少 最低 最短", "最多 最大 至多 最高 最长")
_BOUND_VARIANTS = {w: tuple(v for v in group.split() if v != w)
                   for group in _BOUND_GROUPS for w in group.split()}


def expand(qterms: Sequence[str], block_terms: Sequence[frozenset[str]],
           associations: Mapping[str, tuple[str, ...]] | None = None,
           acts: frozenset[str] = frozenset(), names: frozenset[str] = frozenset()) -> list[str]:
    """``qterms`` with each term no block has replaced by block terms that say the same:
    its knowledge-base associations (``associations``, from ``associate.associations``),
    then for Chinese the at most ``MAX_PREFIX_MATCHES`` block words starting with it, or
    with what is left of it without function characters (``能报`` -> ``报`` -> ``报销``,
    ``丢`` -> ``丢失``; one character left: ``_one_character``, ``要交`` -> ``提交``); for one
    of ``acts`` (the asker's own acts, ``question_verbs.own_acts``) another form of the verb
    (``_same_verb``); a term with none stays as it is (it may be a gap). A term of ``names``
    (``camel_case_names``: "MacBook") is a name, never a compound's head or tail word. Order
    kept, no duplicates."""
    everything = frozenset().union(*block_terms) if block_terms else frozenset()
    out: list[str] = []
    for t in qterms:
        if t in everything:
            # the asker's own act met in the blocks is still met in its other forms: "I
            # lost my receipt" by "If you lose a receipt", not only by "a lost device"
            out.extend([t, *(_same_verb(t, everything) if t in acts else [])])
            continue
        found = [s for s in (associations or {}).get(t, ()) if s in everything]
        if not found:  # 最少 met as the blocks' 最小: one bound, said two ways
            found = [v for v in _BOUND_VARIANTS.get(t, ()) if v in everything][:1]
        if not found:
            found = [w for w in _per_forms(t) if w in everything][:1]
        # ...unless the question's own word begins with it: 报 of "要报备吗？什么时候报？" is
        # that 报备, not the blocks' 报销
        core = _core_chars(t) if _CJK_RE.search(t) else ""
        if not found and _CJK_RE.search(t) and not (core and any(
                len(q) > len(core) and q.startswith(core) and q != t
                and jieba_frequency().get(q) for q in qterms)):
            found = _starting_with(t, everything) or (
                _one_character(core, everything) if len(core) == 1
                else _starting_with(core, everything))
        if not found and t in acts:
            found = _same_verb(t, everything)  # "I forget" -> "forgot", "I lost" -> "lose"
        if t in names:
            out.append(t)  # a MacBook is no book, a ThinkPad no pad
            continue
        if not found and (base := agent_base(t, block_terms)) != t:
            found = [base]  # "part-timers" are "part-time" employees
        if not found and t.isascii() and len(t) >= MIN_COMPOUND and not is_person_en(t):
            found = _head_word(t, everything)  # "headquartered" -> "head"; not "contractor"
        if not found and t.isascii() and t.isalpha():
            found = _tail_word(t, everything)  # "helpdesk" -> "desk" of "Service Desk"
        out.extend(found or [t])
    return list(dict.fromkeys(out))


def with_family(question: str, qterms: Sequence[str],
                block_terms: Sequence[frozenset[str]]) -> list[str]:
    """``qterms`` with each English term no block has replaced by the block terms of its
    word family (``word_forms.word_family``: "expire" met as the blocks' "expiry", "cancel"
    as "cancellation"), at most two; never a word for people ("approver"): the word said
    in another part of speech, which the suffix stemmer (``terms.fold``) keeps apart."""
    everything = frozenset().union(*block_terms) if block_terms else frozenset()
    words = {fold(stem(w.lower())): w.lower() for w in _LATIN_RE.findall(question)}
    out: list[str] = []
    for t in qterms:
        written = words.get(t)
        found = [] if t in everything or written is None else [
            f for w in word_family(written) if not is_person_en(w)
            for f in (fold(stem(w)),) if f in everything and f != t]
        out.extend(list(dict.fromkeys(found))[:2] if found else [t])
    return list(dict.fromkeys(out))


_LATIN_RE = re.compile(r"[A-Za-z]+")


def with_bigrams(question: str, qterms: Sequence[str],
                 block_terms: Sequence[frozenset[str]]) -> list[str]:
    """``qterms`` plus the question's CJK bigrams that are block words, without the
    question's pieces such a bigram overlaps: jieba cuts ``几天年假`` as ``天年/假``; the
    bigram ``年假`` is the block's word (the retrieval side does the same,
    ``terms.relevance_terms``)."""
    everything = frozenset().union(*block_terms) if block_terms else frozenset()
    form = a_not_a_pieces(question)  # 不能 of 能不能: it asks yes or no
    bigrams = [b for b in dict.fromkeys(cjk_bigrams(question))
               if b in everything and b not in qterms and not is_question_word(b)
               and b not in GENERIC_TERMS  # 多久 of 保留多久: a question word, no topic
               and b not in form]
    covered = set("".join(bigrams))
    kept = [t for t in qterms if t.isascii() or t in everything or not covered & set(t)]
    return kept + bigrams


# A word with a capital after a small letter inside it: a product or company name written
# in camel case ("MacBook", "iPhone", "ThinkPad"), not a closed compound of common words.
_CAMEL_CASE_RE = re.compile(r"\b[A-Za-z]*[a-z][A-Z][A-Za-z]*\b")


def camel_case_names(question: str) -> frozenset[str]:
    """The terms of ``question``'s camel-case words ("MacBook" -> ``macbook``): names, whose
    last part says nothing of what they are (a MacBook is a laptop, not a book)."""
    return frozenset(t for m in _CAMEL_CASE_RE.finditer(question) for t in terms(m.group()))


def _head_word(term: str, everything: frozenset[str]) -> list[str]:
    """The longest block word of 4+ letters that an English compound no block has begins
    with ("headquartered" -> "head" of "head office"); a stop word never."""
    heads = [b for b in everything if len(b) >= 4 and b.isalpha() and term.startswith(b)
             and not is_question_word(b)]
    return [max(heads, key=len)] if heads else []


def _tail_word(term: str, everything: frozenset[str]) -> list[str]:
    """The longest block word of 4+ letters that an English closed compound no block has
    ends with, after an English word of 3+ letters (WordNet's): "helpdesk" -> "desk" of the
    blocks' "IT Service Desk", "inbox" no (its rest is no word); the last part of an
    English compound is its head, the thing it names."""
    tails = [b for b in everything if len(b) >= 4 and b.isalpha() and term.endswith(b)
             and len(term) - len(b) >= 3 and known_word(term[:-len(b)])
             and not is_question_word(b)]
    return [max(tails, key=len)] if tails else []


def _core_chars(term: str) -> str:
    """``term`` without its function characters (stopwords-iso's one-character Chinese
    stop words: 能, 还, 个, 全...): ``能报`` -> ``报``, ``还查`` -> ``查``."""
    return "".join(ch for ch in term if not is_question_word(ch))


def _starting_with(stem_: str, everything: frozenset[str],
                   most: int = MAX_PREFIX_MATCHES) -> list[str]:
    """The block words beginning with ``stem_`` (itself if a block has it), or [] when more
    than ``most`` do."""
    if not stem_ or stem_ in everything:
        return [stem_] if stem_ else []
    found = sorted(w for w in everything if w != stem_ and w.startswith(stem_))
    return found if len(found) <= most else []


def _same_verb(term: str, everything: frozenset[str]) -> list[str]:
    """The block words that are another form of the irregular English verb ``term``
    (``word_forms.verb_forms``, WordNet's verb exception list: "forget" and "forgot", "lose"
    and "lost", "pay" and "paid"), at most two. Regular forms are left as they are ("paying"
    is not "paid": measured, it answered the asker's framing words)."""
    if not term.isalpha():
        return []
    found = sorted(w for w in verb_forms(term) if w in everything)
    return found if len(found) <= 2 else []


# The measures a Chinese rate is stated per (每晚, 每天, 每人, 每月, 每公里…).
_PER_UNITS = frozenset("晚 天 日 夜 人 位 月 年 周 星期 小时 次 公里 张 台".split())


def _per_forms(term: str) -> list[str]:
    """A Chinese "one <measure>" of a rate question as the documents' "each <measure>":
    ``一晚`` -> ``每晚``, ``一天`` -> ``每天``, ``一个月`` -> ``每个月``, ``每月``
    ("酒店一晚最多能报多少" asks the rate per night that "住宿每晚不超过 500 元" states), for
    the measures of ``_PER_UNITS``; [] for any other term."""
    rest = term[1:]
    if term[:1] != "一" or rest.removeprefix("个") not in _PER_UNITS:
        return []  # 一个 alone is "one", never "each" (每个 API 客户端)
    return [f"每{rest}"] + ([f"每{rest[1:]}"] if rest[0] == "个" else [])


def _one_character(char: str, everything: frozenset[str]) -> list[str]:
    """The block word a one-character word begins (``报`` -> ``报销``, ``交`` -> ``交给``)
    and the two-character block word it ends (``交`` -> ``提交``, ``换`` -> ``更换``), each
    only when it is the one such word: a Chinese verb of one character is often the head of
    the documents' two-character one, after a prefix as often as before a suffix."""
    starting = _starting_with(char, everything, 1)
    if starting == [char]:  # a block has the character itself
        return starting
    ending = [w for w in everything if len(w) == 2 and w[1] == char and w[0] != char
              and not is_question_word(w)]
    return starting + ending if starting and len(ending) == 1 else starting


def is_question(text: str) -> bool:
    """Whether sentence ``text`` is itself a question (ends with ``?`` or ``？``)."""
    return text.rstrip().rstrip("\"'”’)）*").endswith(("?", "？"))


# A sentence about the document itself ("This policy explains which expenses…", 本制度说明…)
# says what the document covers, not any of its rules: it answers nothing asked of them.
# "This policy applies to…" states a scope, a rule of its own, and stays.
_DESCRIBES_DOCUMENT_RE = re.compile(
    r"^\s*(?:this|the present)\s+(?:policy|document|guide|manual|handbook|page|faq|section|"
    r"chapter|article|procedure)\s+(?:explains|describes|outlines|summari[sz]es|lists|"
    r"introduces|gives an overview|covers|sets out|collects|is (?:for|about|meant for))\b"
    # an FAQ's opening line: "Answers to the questions our support desk receives most often"
    r"|^\s*(?:answers to (?:the |your )?(?:most )?(?:common |frequent )?questions"
    r"|frequently asked questions (?:about|on))\b"
    r"|^\s*本(?:制度|规定|文档|文件|指南|手册|文|政策|章|节|页)(?:说明|介绍|概述|列出|描述|面向|"
    r"整理|汇总|收集|是)"
    # "本制度规定…如何报销": what the document lays down, said as the questions it answers
    r"|^\s*本(?:制度|规定|文档|文件|指南|手册|文|政策|章|节|页)规定[^。]*(?:如何|哪些|什么|怎样|怎么)",
    re.IGNORECASE)


def describes_document(text: str) -> bool:
    """Whether sentence ``text`` describes its own document ("This policy explains which
    business expenses Nimbus Works pays back, …"): never an answer."""
    return bool(_DESCRIBES_DOCUMENT_RE.search(text))


# Sentence-final particles that carry the asker's mood, not the question (Li & Thompson
# 1981, ch. 7): 保存多久嘛, 能报吗呀. 吗 (a yes/no question) and 呢 (a follow-up's "and …?")
# say what is asked and stay.
_MOOD_PARTICLES_RE = re.compile(r"[嘛呀啊吧哦啦呐]+(?=[？?！!。～~\s]*$)")


def without_mood_particles(question: str) -> str:
    """``question`` without its closing mood particles (``_MOOD_PARTICLES_RE``)."""
    return _MOOD_PARTICLES_RE.sub("", question)
