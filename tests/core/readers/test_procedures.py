"""How-to questions through the pipeline with the offline reader (issue 12, item 3): the
answer is an instruction for the asked task; a meeting note or a sentence that only
mentions the task is no answer, and the refusal names the closest documents."""

from __future__ import annotations

from kbqa.core.pipeline import AnswerRequest, PipelineConfig, answer
from kbqa.core.readers.extractive.reader import ExtractiveProvider
from kbqa.core.records import TraceRecorder
from kbqa.core.retrieval.bm25 import InMemoryRetriever
from kbqa.core.types import Chunk, Refusal, Sentence


def _chunk(n: int, title: str, section: str, text: str, *, language: str = "en",
           authority: str = "other") -> Chunk:
    return Chunk(chunk_id=f"doc-{n:03d}#c01", doc_id=f"doc-{n:03d}", title=title,
                 section=section, updated="2025-04-03", text=text, language=language,
                 authority=authority)


MEETING = _chunk(1, "Weekly product meeting notes, 7 July 2025", "Support ticket trends", (
    "Sign-in questions are down since the new 2FA help pages were published. Sofia asked "
    "for a short video about setting up 2FA. Chen said that password resets are the most "
    "common ticket. The team agreed to look into password reset e-mails."),
    authority="meeting-note")
HOWTO = _chunk(2, "Accounts and sign-in", "Setting up 2FA", (
    "2FA adds a second step after the password.\n\n"
    "To set up 2FA, open Account > Security > Two-factor authentication and scan the code "
    "with your authenticator app. Save the recovery codes somewhere safe. Administrators "
    "can make 2FA mandatory for everyone in the organisation."))
FACTS = _chunk(3, "Security overview", "Passwords", (
    "Passwords are stored as salted hashes and are never visible to administrators. "
    "Password strength is checked whenever a password is reset."))
STEPS = _chunk(4, "Accounts and sign-in", "How to reset your password", (
    "To reset your password:\n\n"
    "1. Open the sign-in page and choose Forgot password.\n"
    "2. Enter your work e-mail address.\n"
    "3. Follow the link in the e-mail within 30 minutes."))
ZH_MEETING = _chunk(5, "产品周会纪要（2025 年 6 月 23 日）", "客服反馈", (
    "客服同事反馈，最近关于两步验证的咨询增多。王琳提出，应该录一个开启两步验证的视频。"
    "会议决定在常见问题页面中补充更清楚的说明。"), language="zh", authority="meeting-note")
ZH_HOWTO = _chunk(6, "账号登录与两步验证常见问题", "如何开启两步验证？", (
    "打开“账号 → 安全 → 两步验证”，按照页面提示操作即可。开启后请妥善保存恢复码。"),
    language="zh")
ZH_FACTS = _chunk(7, "安全概述", "两步验证", (
    "两步验证在密码之后增加第二道验证，支持身份验证器应用和硬件安全密钥两种方式。"),
    language="zh")
# The deployed thresholds (settings: KBQA_MIN_RELEVANCE, KBQA_READER_RELEVANCE).
CONFIG = PipelineConfig(min_relevance=0.13, reader_relevance=0.05)


async def _ask(question: str, kb: list[Chunk]) -> tuple[list[str], str, list[str]]:
    """What the user sees: the shown sentences, the turn's status and, for a refusal, the
    documents it names."""
    trace = TraceRecorder(trace_id="01TEST", question=question)
    events = [ev async for ev in answer(
        AnswerRequest(question=question), retriever=InMemoryRetriever(kb),
        provider=ExtractiveProvider(), config=CONFIG, trace=trace)]
    refusals = [ev.to_dict() for ev in events if isinstance(ev, Refusal)]
    named = [d["doc_id"] for d in refusals[0].get("documents", [])] if refusals else []
    return [ev.text for ev in events if isinstance(ev, Sentence)], trace.status, named


async def test_the_how_to_page_answers_not_the_meeting_note() -> None:
    said, status, _ = await _ask("How do I set up 2FA?", [MEETING, HOWTO, FACTS])
    assert status == "answered"
    assert said[0].startswith("To set up 2FA, open Account > Security")
    assert not any("Sofia" in s or "2FA help pages" in s for s in said)
    # the administrators' action is theirs to take, not the asker's
    assert not any(s.startswith("Administrators") for s in said)


async def test_a_meeting_note_alone_is_no_how_to() -> None:
    said, status, named = await _ask("How do I set up 2FA?", [MEETING, FACTS])
    assert said == []
    assert status == "refused_no_support"
    assert "doc-001" in named  # the closest document is named, as a link


async def test_a_sentence_about_passwords_does_not_say_how_to_reset_one() -> None:
    said, status, named = await _ask("How do I reset my password?", [MEETING, FACTS])
    assert (said, status) == ([], "refused_no_support")
    assert named  # the closest documents are named
    said, status, _ = await _ask("How do I reset my password?", [MEETING, FACTS, STEPS])
    assert status == "answered"
    assert said[:2] == ["To reset your password:",
                        "Open the sign-in page and choose Forgot password."]


async def test_chinese_how_to_is_answered_by_the_steps() -> None:
    said, status, _ = await _ask("怎么开启两步验证？", [ZH_MEETING, ZH_HOWTO, ZH_FACTS])
    assert status == "answered"
    assert said[0] == "打开“账号 → 安全 → 两步验证”，按照页面提示操作即可。"
    assert not any("王琳" in s or "客服" in s for s in said)


async def test_chinese_meeting_note_alone_is_declined_naming_the_closest() -> None:
    said, status, named = await _ask("如何开启两步验证？", [ZH_MEETING, ZH_FACTS])
    assert (said, status) == ([], "refused_no_support")
    assert "doc-005" in named


async def test_an_administrators_how_to_is_answered_with_their_action() -> None:
    said, status, _ = await _ask("How do administrators make 2FA mandatory?", [MEETING, HOWTO])
    assert status == "answered"
    assert said[0] == "Administrators can make 2FA mandatory for everyone in the organisation."


async def test_a_fact_question_about_the_same_topic_is_still_answered() -> None:
    # Only how-to questions need an instruction: "which methods" is answered by a fact.
    said, status, _ = await _ask("两步验证支持哪两种方式？", [ZH_MEETING, ZH_FACTS])
    assert status == "answered"
    assert "身份验证器应用" in said[0]


async def test_what_to_do_after_an_accident_is_answered_by_the_first_aid_rule() -> None:
    # A code-blind tester's 眼睛溅到化学品怎么处理: "处理" (handle) is how the ask is put,
    # not a word the documents must have, and 立即用洗眼器…冲洗 is an order.
    safety = _chunk(8, "苏州洁净室与化学品安全须知", "三、化学品安全", (
        "使用甲醛、苯酚和氯仿必须在通风橱内操作。\n\n"
        "皮肤或眼睛接触化学品时，立即用洗眼器或紧急喷淋冲洗至少 15 分钟，然后报告班长。"
        "洗眼器距离工作台不得超过 10 米。"), language="zh")
    said, status, _ = await _ask("眼睛溅到化学品怎么处理", [safety, ZH_FACTS])
    assert status == "answered" and "15 分钟" in said[0]
