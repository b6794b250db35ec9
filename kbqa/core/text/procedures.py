"""How-to questions and the sentences that answer them: instructions, not mentions.

A question asking how to do something ("How do I set up 2FA?", "What are the steps to
reset my password?", 怎么开启两步验证, 电脑丢了应该怎么办) is answered by a sentence that
*tells the asker what to do*, not by one that merely mentions the task: a meeting note
("Sofia asked for a video about setting up 2FA", 王琳提出，应该录一个开启两步验证的视频) or a
fact about passwords says nothing about how. Both sides live here, outside the offline
reader, so the pipeline's gates and any reader can type a question without importing a
reader's internals.

- ``asks_procedure(ask)``: the ask clause asks how to do something: "how do/can/should
  I|we|you <verb>", "how to", "what are the steps / the process", "what should I do", "is
  there a way to"; Chinese 怎么/如何/怎样/咋 followed by what is not an adverb or copula
  (``怎么只出黑白的``, 怎么回事 and 怎么样 ask why or how it is), 怎么办, 步骤, 流程, 办法.
  "How do I know…" and "how does X work" ask for facts.
- ``gives_action(sentence)``: the sentence gives an action. English: an imperative at a
  clause start (the sentence's, after ``;``/``:``, after a leading purpose or condition
  clause "To turn it on, open …", "If you lose it, contact …", after "then", "first",
  "please"): a verb's base form there (WordNet's verb index, ``thesaurus.morphy``, or the
  closed list ``_OPERATION_VERBS``) not followed by an auxiliary (then it was a noun
  subject: "Leave requests must be…", "Support should…"); or a modal with the addressee
  or a generic subject and a verb, not negated ("you can sign out under …", "employees
  must report …", "Claims must be submitted through …"), or a passive with its means
  ("claimed through the normal expense process"). Chinese (jieba's part-of-speech
  tags): an operation verb or a verb opening the sentence after discourse markers (首先,
  然后, 请, 先, 第一步…), ``请`` + verb anywhere, or a modal (可以, 需要, 须, 必须, 应, 要…)
  followed by a verb in its clause, not negated (不得, 无需 …). Perfective 了/过 after the
  verb narrates instead (新增了…).
- ``reported``: reported speech and minutes are never an action, whatever they contain:
  "X asked / said / suggested / agreed …", "was discussed"; Chinese a noun, name or
  pronoun followed by a verb of saying or deciding (王琳提出, 会议决定, 大家认为, 客服同事反馈).
- ``minutes_source``: a document that is a meeting note (its authority ``meeting-note``,
  or a title naming minutes, meeting notes, 纪要, 会议记录) records what people said.
- ``procedural_heading``: a section heading that names a task ("How to …", "Setting up
  …", 如何开启两步验证？, 操作步骤), under which a numbered or bulleted item is a step.

The signals are general ones of the two languages (imperative mood at a clause start,
modal + verb, list structure, discourse markers, verbs of saying), in the spirit of the
imperative/declarative distinction of speech-act classifiers (Searle 1976's directives);
none is written for one document or question.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from kbqa.core.text.terms import pos_tags
from kbqa.core.text.thesaurus import morphy

# --------------------------------------------------------------------------- questions

_EN_ASK_RE = re.compile(
    r"\bhow (?:do|can|could|should|would|must|may|might|shall) (?:i|we|you|one)\b"
    r"(?! (?:know|tell|say)\b)(?! (?:not|never)\b)"
    r"|\bhow (?:am i|are we|are you) (?:supposed|meant|able) to\b"
    r"|\bhow to\b|\bhow (?:do|would) i go about\b"
    r"|\bwhat (?:are|is|'s) the (?:steps|process|procedure)\b|\b(?:steps|procedure) (?:to|for)\b"
    r"|\bwhat (?:do|should|must|can) (?:i|we|you) (?:need to |have to )?do\b"
    r"|\bis there (?:a|any) way (?:to|for)\b")
# Nouns that name the answer's type in a how-to question ("the steps to", 流程), not
# its task.
PROCEDURE_NOUNS = frozenset(
    """step steps process procedure procedures way ways instructions
    步骤 流程 办法 方法 操作""".split())
_ZH_HOW = frozenset(("怎么", "如何", "怎样", "咋", "怎么样才能", "如何才能"))
# What 怎么 asks when an adverb or a copula follows it: why ("怎么只出黑白的", 怎么不, 怎么会)
# or how it is (怎么样), not how to do; nor 算/计算 (加班费怎么算: a rule or rate answers).
_ZH_NOT_HOW = frozenset("会 是 样 这么 那么 还 又 就 总 老 都 算 计算 折算 计".split())
_ZH_ASK_RE = re.compile(
    r"怎么办|怎么弄|怎么操作|怎么做|如何操作|步骤|流程|操作方法|(?:什么|有没有|有何)办法")
# ...nor paying out pay (病假工资怎么发: at what rate; 邮件怎么发 is still how to send one)
_ZH_PAY_VERBS = frozenset("发 发放 给 付 支付".split())
_ZH_PAY_RE = re.compile(r"工资|薪|奖金|补贴|津贴|费|报酬|提成")


@lru_cache(maxsize=1024)
def asks_procedure(ask: str) -> bool:
    """Whether the ask clause ``ask`` asks how to do something (``_EN_ASK_RE``; Chinese
    怎么/如何/怎样/咋 before a word jieba does not tag as an adverb, nor a copula or 会, and
    ``_ZH_ASK_RE``)."""
    text = unicodedata.normalize("NFKC", ask).lower().replace("’", "'")
    if _EN_ASK_RE.search(text) or _ZH_ASK_RE.search(text):
        return True
    words = pos_tags(text)
    for (word, _), (after, tag) in zip(words, words[1:], strict=False):
        paid = after in _ZH_PAY_VERBS and _ZH_PAY_RE.search(text)
        if word in _ZH_HOW and after.strip() and after not in _ZH_NOT_HOW and not (
                tag.startswith("d") or tag == "x" or paid):
            return True
    return False


def asked_action(ask: str) -> str:
    """The Chinese word right after 怎么/如何/怎样/咋 in ``ask``: the action asked about
    (``重置`` of 如何重置密码, which jieba may tag as a noun), never a modifier of the
    object; "" when there is none."""
    words = pos_tags(unicodedata.normalize("NFKC", ask).lower())
    for (word, _), (after, tag) in zip(words, words[1:], strict=False):
        if word in _ZH_HOW and after.strip() and tag != "x" and after not in _ZH_NOT_HOW:
            return after
    return ""


# A role that acts for others: an action whose only subject is one ("Administrators can
# make 2FA mandatory", 管理员可以要求…) is that role's task, not the asker's.
_EN_ROLE_MODAL_RE = re.compile(
    r"\b(admin|administrator|owner|editor|manager|customer)s?\s+(?:can|could|must|should|may"
    r"|need to|needs to|have to|has to)\b")
_ZH_ROLE_RE = re.compile(
    r"(管理员|所有者|编辑者|经理|负责人|客户)(?:可以|可|需要|须|必须|应|应该|要)")


def acting_role(sentence: str) -> str:
    """The role (lower case: "administrator", ``管理员``) whose action ``sentence`` states
    when a role is its only actor: a modal after a role noun and no order to the reader (an
    imperative, ``请``); "" otherwise."""
    text = unicodedata.normalize("NFKC", sentence)
    if _CJK_RE.search(text):
        m = _ZH_ROLE_RE.search(text)
        return m.group(1) if m and "请" not in text else ""
    if any(_imperative(c) for c in _EN_CLAUSE_RE.split(text) if c):
        return ""
    m = _EN_ROLE_MODAL_RE.search(text.lower())
    return m.group(1) if m else ""


_CLAUSE_OPENING_RE = re.compile(r"(?:^|[.?!;,]\s+)([A-Za-z]+)")


def opening_verbs(question: str) -> frozenset[str]:
    """The English words (lower case) that open a clause of ``question`` as an inflected
    verb with its subject dropped ("Left my laptop bag on the train", "Lost my badge",
    "Forgot my password"): WordNet reads them as another verb form ("left" -> "leave"),
    so they say what happened, not what the task is about."""
    out = set()
    for word in _CLAUSE_OPENING_RE.findall(unicodedata.normalize("NFKC", question)):
        low = word.lower()
        bases = morphy(low, "verb")
        if bases and low not in bases:
            out.add(low)
    return frozenset(out)


# --------------------------------------------------------------------------- sentences

# Verbs of operating a system or an office that open an instruction (the closed class of
# software manuals and office policies); WordNet's verb index covers the rest.
_OPERATION_VERBS = frozenset(
    """open go click tap press select choose enter type contact ask send use save sign log
    submit fill call email report set turn enable disable follow upload download install
    visit request return book file add remove create update change reset check make scan
    attach apply connect copy move restore delete share invite register complete read
    see find write print keep bring take pick raise drag drop paste export import
    rename split compress exclude pause cancel protect give put quote tell""".split())
_EN_AUX = frozenset(
    """is are was were be been has have had do does did can could will would shall should
    may might must 's""".split())
# After a verb that is also a common noun ("Support", "Access"), one of these makes it a
# verb: an object's determiner or pronoun, a particle, a preposition, a menu name.
_EN_OBJECT = frozenset(
    """the a an your you it them this that these those all any each every one some up out
    in on off back down over for with at from into through via under by""".split())
_EN_LEAD_RE = re.compile(
    r"^(?:(?:to|if|when|whenever|once|before|after|while|for|in order to|in case|in|on|from"
    r"|under|at|with|via|within|during|inside)\b[^,;:]*,\s*)?"
    r"(?:(?:first|then|next|finally|afterwards|now|also|simply|just|please|always),?\s+)*",
    re.IGNORECASE)
_EN_MODAL_RE = re.compile(
    r"\b(?:you|employees?|users?|staff|members?|admins?|administrators?|customers?|owners?"
    r"|editors?|managers?|everyone|anyone|requests?|claims?|forms?|receipts?|devices?)"
    r"\s+(?:can|could|must|should|may|need to|needs to|have to|has to|are required to|"
    r"is required to|will need to|are asked to|are expected to)\s+(?:also |then |first |"
    r"simply |just |always |only )?(?!not\b|never\b)(be \w+(?:ed|en)\b|[a-z]+)")
# An obligation in the passive names the thing and what must be done with it ("Lost or
# stolen equipment must be reported to the IT helpdesk within 24 hours").
_EN_OBLIGATION_RE = re.compile(
    r"\b(?:must|should|needs? to|has to|have to|is to|are to) be (?:\w+ )?\w+(?:ed|en)\b")
# A passive naming its means states the way something is done ("…, claimed through the
# normal expense process with a receipt", "requests are submitted via the portal").
_EN_MEANS_RE = re.compile(r"\b\w+(?:ed|en) (?:through|via|in|using) (?:the|a|an|your) ")
_EN_REPORTED_RE = re.compile(
    r"(?<!\bare )(?<!\bis )(?<!\bbe )(?<!\bbeen )(?<!\bget )"
    r"\b(?:asked|said|says|reported|raised|suggested|suggests|mentioned|noted|proposed"
    r"|agreed|discussed|explained|told|requested|complained|wondered|argued|decided"
    r"|announced|promised|presented|will look into|will confirm|will check|will add"
    r"|will send|will follow up)\b", re.IGNORECASE)
_WORD_RE = re.compile(r"[A-Za-z]+(?:'[a-z]+)?|[^\sA-Za-z]")
_CJK_RE = re.compile(r"[\u3400-\u9fff]")
_EN_CLAUSE_RE = re.compile(r"\s*[;:]\s*|\s+(?:and then|then)\s+")


def gives_action(sentence: str) -> bool:
    """Whether ``sentence`` tells someone what to do (English or Chinese, see the module
    docstring) and is not reported speech (``reported``)."""
    return _orders(sentence, anywhere=True)


def opens_with_action(sentence: str) -> bool:
    """Whether ``sentence`` opens with an order after markers and a leading condition, as
    a step does ("Open the cover…", 打开泵头盖板…), not a rule's subject (员工工牌为蓝色)."""
    return _orders(sentence, anywhere=False)


def _orders(sentence: str, anywhere: bool) -> bool:
    """An imperative opening a clause; ``anywhere``: or an obligation, means or modal."""
    text = unicodedata.normalize("NFKC", sentence).strip()
    if not text or reported(text):
        return False
    if _CJK_RE.search(text):
        return _zh_action(text, anywhere)
    if any(_imperative(c) for c in _EN_CLAUSE_RE.split(text) if c):
        return True
    if not anywhere:
        return False
    if _EN_OBLIGATION_RE.search(text.lower()) or _EN_MEANS_RE.search(text.lower()):
        return True
    m = _EN_MODAL_RE.search(text.lower())
    return m is not None and (m.group(1).startswith("be ") or _is_verb(m.group(1)))


def _is_verb(word: str) -> bool:
    """Whether English ``word`` (lower case) is a verb's base form: a closed-class
    operation verb or a lemma of WordNet's verb index."""
    return word in _OPERATION_VERBS or word in morphy(word, "verb")


def _imperative(clause: str) -> bool:
    """Whether English ``clause`` opens (after a purpose or condition clause and discourse
    markers, ``_EN_LEAD_RE``) with a verb's base form that is not a noun subject."""
    rest = clause[_EN_LEAD_RE.match(clause).end():]  # type: ignore[union-attr]
    words = [w for w in _WORD_RE.findall(rest) if w not in ("*", "`", '"', "“")]
    if not words or not words[0].isalpha():
        return False
    first, after = words[0].lower(), (words[1].lower() if len(words) > 1 else "")
    if after in _EN_AUX or after in ("-", "'s"):
        return False
    if first in _OPERATION_VERBS:
        return True
    if after.endswith("s") and _is_verb(after[:-1]):  # "Support keeps…": a subject
        return False
    # No auxiliary follows before a comma (then it was the subject's noun: "Access for
    # guests is controlled…").
    # A verb that is also a noun ("Support", "Company", "Second") opens an instruction
    # only before its object's determiner, a particle or a menu name.
    head = " ".join(words[1:6]).split(",")[0].lower().split()
    return first in morphy(first, "verb") and not _EN_AUX & set(head) and (
        after in _EN_OBJECT or (len(words) > 1 and words[1][:1].isupper()))


def reported(sentence: str) -> bool:
    """Whether ``sentence`` reports what someone said, asked or decided (English verbs of
    saying, ``_EN_REPORTED_RE``; Chinese a noun, name or pronoun right before one of
    ``_ZH_SAYING``): minutes, not an instruction."""
    text = unicodedata.normalize("NFKC", sentence)
    if not _CJK_RE.search(text):
        return bool(_EN_REPORTED_RE.search(text))
    words = pos_tags(text)
    return any(word in _ZH_SAYING and (tag_before[:1] in ("n", "r") or tag_before == "nr")
               for (_, tag_before), (word, _) in zip(words, words[1:], strict=False))


_ZH_SAYING = frozenset(
    """说 表示 提出 提到 指出 认为 建议 提醒 汇报 反馈 介绍 询问 问 决定 讨论 同意 希望 要求
    觉得 透露 强调 称""".split())
# Chinese operation verbs that open an instruction although jieba may tag them as nouns
# (联系/n, 重置/n, 报告/n).
_ZH_OPERATION = frozenset(
    """点击 单击 进入 打开 选择 联系 提交 登录 登入 前往 填写 发送 拨打 申请 扫描 上传 下载
    安装 设置 输入 使用 访问 找 按 按照 重置 报告 确认 保存 开启 关闭 启用 停用 勾选 切换
    归还 交给 告知 通知 携带 到 去 点 选 拍照 附上 登记""".split())
_ZH_MARKERS = frozenset("""首先 然后 接着 再 最后 之后 随后 先 请 并 即可 直接 可 只需 只要
    立即 立刻 马上 及时 尽快 迅速""".split())
_ZH_MODALS = frozenset("可以 可 需要 需 须 必须 应 应该 应当 要 请 务必 记得 只需".split())
_ZH_NEGATIONS = frozenset("不 无 别 勿 不得 不要 无需 不必 不用 没有 未 禁止 严禁 不能".split())
_ZH_STATIVE = frozenset("是 有 为 包括 支持 属于 成为 会 能 可能 没有 存在 增加 新增 提供".split())
_ZH_CLAUSE_RE = re.compile(r"[，,；;：:。！!？?]")
_ZH_STEP_RE = re.compile(r"^(?:第[一二三四五六七八九十\d]+步|\d+[.、)）])\s*")


def _zh_action(text: str, anywhere: bool = True) -> bool:
    """Chinese: an imperative opening the sentence (after markers and leading condition
    clauses ending in 时/后/前: ``_ZH_CONDITION_RE``); ``anywhere``: or the means of a task,
    or an unnegated modal + verb (``请`` included) in any clause."""
    if anywhere and _ZH_MEANS_RE.search(text):
        return True
    clauses = [c for c in _ZH_CLAUSE_RE.split(_ZH_STEP_RE.sub("", text)) if c.strip()]
    opening = next((i for i, c in enumerate(clauses) if not _ZH_CONDITION_RE.search(c)), -1)
    for i, clause in enumerate(clauses if anywhere else clauses[:opening + 1]):
        words = [(w, t) for w, t in pos_tags(clause) if w.strip()]
        if i == opening and _zh_opens_with_verb(words):
            return True
        if anywhere and _zh_modal_verb(words):
            return True
    return False


# The means of a task, as English "booked through the calendar" (``_EN_MEANS_RE``): "会议室
# 通过公司日历预订", or a step closed by 即可 ("that is all it takes": 在会议邀请中添加会议室即可).
_ZH_MEANS_RE = re.compile(r"通过[^，。；,;！？]{1,24}?[\u4e00-\u9fff]{2}|即可(?=[。！;；,，]|$)")
# A leading clause that sets a time or condition ("设备丢失时", "删除完成后"): the action,
# if any, comes after it.
_ZH_CONDITION_RE = re.compile(r"(?:时|后|前|时候|的话|之后|以后|之前)\s*$")
# After a clause-initial verb these make it part of the subject or a statement, not an
# order (nor does an attributive 的 right after it: 停用的账号, 开放 API 的默认速率): a
# copula or a prediction
# (删除操作并不会…, 兼职员工按…折算 has no verb first), a passive or an agent (由, 被).
_ZH_STATEMENT = frozenset("是 为 会 被 由 将 已 已经 并 不会 自动 一律".split())


def _zh_verb(word: str, tag: str) -> bool:
    return word in _ZH_OPERATION or (tag.startswith("v") and word not in _ZH_STATIVE)


def _zh_opens_with_verb(words: list[tuple[str, str]]) -> bool:
    """Whether ``words`` (one clause, tagged) open with a verb after discourse markers, the
    verb not followed by the perfective 了/过/着 (a narrative: 新增了扫描功能) nor, in its
    clause, by ``_ZH_STATEMENT`` (then the verb begins a subject: 删除操作并不会…)."""
    i = 0
    while i < len(words) and words[i][0] in _ZH_MARKERS:
        i += 1
    if i < len(words) and words[i] == ("用", "p"):  # its means first: 用洗眼器冲洗
        return bool(_first_verb(words[i + 1:]))
    if i >= len(words) or not _zh_verb(*words[i]):
        return False
    if i + 1 < len(words) and words[i + 1][0] in ("了", "过", "着"):
        return False
    if any(w == "的" for w, _ in words[i + 1:i + 3]):  # 停用的账号, 返回列表的接口
        return False
    return not any(w in _ZH_STATEMENT for w, _ in words[i + 1:])


# A modal jieba joins with the preposition after it (需在 24 小时内告知, 应于月底前提交): a modal
_MODAL_PREPOSITION_RE = re.compile(r"[需须应要][在于向按到经]")


def _zh_modal_verb(words: list[tuple[str, str]]) -> bool:
    """Whether a modal in ``words`` (one clause) is followed by a verb in it, with no
    negation right before it, not ``所`` (所需要的: a relative clause), the verb with no
    attributive 的 right after it (可以享受的带薪假期: ``_first_verb``)."""
    for i, (word, _) in enumerate(words):
        modal = word in _ZH_MODALS or _MODAL_PREPOSITION_RE.fullmatch(word) is not None
        if not modal or (i and words[i - 1][0] in _ZH_NEGATIONS | {"所"}):
            continue
        verb = _first_verb(words[i + 1:])
        if verb is not None:
            return verb
    return False


def _first_verb(words: list[tuple[str, str]]) -> bool | None:
    """For the words after a modal: whether its verb (the first one outside quotation
    marks: 在“已登录的会话”中退出) is a predicate, not an attributive one (享受的带薪假期);
    None without a verb."""
    quoted = False
    for j, (w, t) in enumerate(words):
        if w in _OPEN_QUOTES or w in _CLOSE_QUOTES:
            quoted = w in _OPEN_QUOTES
            continue
        if not quoted and _zh_verb(w, t):
            return not (j + 1 < len(words) and words[j + 1][0] == "的")
    return None


_OPEN_QUOTES = frozenset("“ 「 『 《 (".split())
_CLOSE_QUOTES = frozenset("” 」 』 》 )".split())


_MINUTES_RE = re.compile(r"\b(?:minutes|meeting notes?)\b|纪要|会议记录|周会|例会", re.IGNORECASE)


def minutes_source(title: str, authority: str) -> bool:
    """Whether a document (its ``title`` and ``authority``) records a meeting: what people
    said and agreed, never an instruction to the reader."""
    return authority == "meeting-note" or bool(_MINUTES_RE.search(title))


_HEADING_RE = re.compile(
    r"^(?:how (?:to|do|can)|to |steps?\b|setting up|set up|getting started)"
    r"|\w+ing\b.*\b(?:your|a|an|the)\b"
    r"|如何|怎么|怎样|步骤|流程|操作|指南|方法", re.IGNORECASE)


def procedural_heading(heading: str) -> bool:
    """Whether section ``heading`` names a task ("How to reset your password", "Setting
    up 2FA", 如何开启两步验证？, 操作步骤): its list items are steps."""
    return bool(_HEADING_RE.search(unicodedata.normalize("NFKC", heading).strip()))


# "what happens if/when…", "what if…", "…会怎样/会如何": the ask is the outcome of a condition.
_CONSEQUENCE_RE = re.compile(
    r"\bwhat\s+(?:happens|will\s+happen|would\s+happen)\b|^\s*what\s+if\b"
    r"|会怎样|会怎么样|会如何|会有什么后果", re.IGNORECASE)


def asks_consequence(question: str) -> bool:
    """Whether ``question`` asks what follows from a condition ("What happens if I miss the
    deadline?", 超过了会怎样？): an outcome, told in words, not a value."""
    return bool(_CONSEQUENCE_RE.search(question))
