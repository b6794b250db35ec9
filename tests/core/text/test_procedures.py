"""Which questions ask how to do something, and which sentences tell someone what to do."""

from __future__ import annotations

import pytest

from kbqa.core.text.procedures import (
    asks_procedure,
    gives_action,
    opening_verbs,
    procedural_heading,
)


@pytest.mark.parametrize(
    ("ask", "expected"),
    [
        ("How do I set up 2FA?", True),
        ("How can we reset a user's password?", True),
        ("What are the steps to enable single sign-on?", True),
        ("What should I do if my laptop is stolen?", True),
        ("Is there a way to restore an old version?", True),
        ("如何重置密码？", True),
        ("怎么连 Wi-Fi？", True),
        ("电脑丢了应该怎么办？", True),
        ("报销流程是什么？", True),
        # facts, reasons and how something is, not how to do it
        ("How do sharing links work?", False),
        ("How do I know if my account is locked?", False),
        ("How long does the trial last?", False),
        ("Can I keep my laptop when I quit?", False),
        ("打印机怎么只出黑白的？", False),
        ("上传一直不开始，怎么回事？", False),
        ("这个方案怎么样？", False),
    ],
)
def test_asks_procedure(ask: str, expected: bool) -> None:
    assert asks_procedure(ask) is expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("To turn it on, open Account > Security > Two-factor authentication.", True),
        ("Passwords are never sent by e-mail; use Forgot password to set a new one.", True),
        ("If you lose your laptop, contact the IT helpdesk.", True),
        ("Save the recovery codes somewhere safe.", True),
        ("In the web app, drag files onto any folder view, or click New → Upload.", True),
        ("Lost or stolen equipment must be reported to the IT helpdesk within 24 hours.", True),
        ("You can sign out of all devices under Account > Security.", True),
        ("Claims must be submitted through the expense tool.", True),
        # a passive with its means says how it is done
        ("The company pays a one-time allowance of EUR 300, claimed through the normal "
         "expense process with a receipt.", True),
        # mentions, facts, minutes, reported speech
        ("Sofia asked for a short video about setting up 2FA.", False),
        ("Chen said that password resets are the most common ticket.", False),
        ("The team agreed to look into password reset e-mails.", False),
        ("Password strength is checked when you reset your password.", False),
        ("Sign-in questions are down since the new 2FA help pages were published.", False),
        ("Access to shared folders is controlled by the owner.", False),  # noun, not verb
        ("Until then, support should not promise either value.", False),
        ("Company equipment stays the property of Nimbus Works.", False),
        ("You approve it in the portal; leave counts as approved once it shows.", False),
        ("打开“账号 → 安全 → 两步验证”，按照页面提示操作即可。", True),
        ("忘记密码时请使用“忘记密码”功能重新设置。", True),
        ("首先登录管理后台，然后选择用户管理。", True),
        ("联系 IT 服务台重置密码。", True),
        ("设备丢失或被盗，必须在 24 小时内报告 IT 服务台。", True),
        ("王琳提出，应该录一个开启两步验证的视频。", False),
        ("会议决定：今后每次修改英文页面，都要同步更新中文页面。", False),
        ("客服同事反馈，最近关于两步验证的咨询增多。", False),
        ("两步验证在密码之后增加第二道验证，支持两种方式：", False),
        ("王琳介绍了新版本：新增了扫描文档功能。", False),
        ("删除操作并不会立刻清除数据。", False),  # a verb opening a subject, not an order
        ("停用的账号在离职 6 个月后删除。", False),
        ("删除完成后，公司会向客户发送书面确认。", False),
        ("本制度说明员工可以享受的带薪假期。", False),
        # the means of a task, as "booked through the calendar" (a tester's 会议室怎么预订
        # got the rooms' equipment instead)
        ("会议室通过公司日历预订。", True),
        ("在会议邀请中添加会议室即可。", True),
        ("会议室都配有大屏幕和视频会议设备。", False),
        # an urgent adverb and the means before the verb (a code-blind tester's
        # 眼睛溅到化学品怎么处理 was refused)
        ("皮肤或眼睛接触化学品时，立即用洗眼器或紧急喷淋冲洗至少 15 分钟，然后报告班长。", True),
        ("用户可以在设置中修改头像。", True),
        ("用户名由字母和数字组成。", False),
    ],
)
def test_gives_action(sentence: str, expected: bool) -> None:
    assert gives_action(sentence) is expected


@pytest.mark.parametrize(
    ("heading", "expected"),
    [("How to reset your password", True), ("Setting up your phone", True),
     ("如何开启两步验证？", True), ("Passwords", False), ("付款方式", False)],
)
def test_procedural_heading(heading: str, expected: bool) -> None:
    assert procedural_heading(heading) is expected


def test_a_verb_opening_a_question_is_what_happened_not_the_task() -> None:
    assert opening_verbs("Left my laptop bag on the train. What do I need to do?") == {"left"}
    assert opening_verbs("How do I set up 2FA?") == frozenset()


@pytest.mark.parametrize("sentence", [
    "工牌丢失需在 48 小时内告知前台，补办费用为 30 元。",  # jieba cuts 需在 as one word
    "报销单应于次月 5 日前提交给财务。",
])
def test_a_modal_joined_to_its_preposition_still_gives_an_action(sentence: str) -> None:
    assert gives_action(sentence)
