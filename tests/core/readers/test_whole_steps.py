"""A how-to answer from a numbered procedure shows every step, in order (a code-blind
tester, 2026-12-07: the pump-tube change lost its lock-out step)."""

from __future__ import annotations

from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block

PUMP = make_block(1, "1. 停止灌装线，并在控制面板上选择“维护模式”。\n"
                     "2. 按照上锁挂牌（LOTO）程序切断电源，在主电源开关上挂上本人的锁。\n"
                     "3. 打开泵头盖板，取下旧泵管，检查泵头滚轮有无磨损。\n"
                     "4. 装入新泵管（型号 PT-16），确保泵管位于滚轮中心。\n"
                     "5. 合上盖板，解除上锁，开机后用纯化水空运行 5 分钟。",
                  title="设备维护规程", section="二、更换蠕动泵管的步骤", language="zh")
FIRST_DAY = make_block(2, "- Collect your access badge at reception and your laptop at the IT "
                          "helpdesk.\n- Sign in with the temporary code from the welcome e-mail "
                          "and choose your own password.\n- Set up two-factor authentication "
                          "with an authenticator app.", title="Onboarding",
                       section="Your first day")


async def test_every_step_of_a_numbered_procedure_is_quoted_in_order() -> None:
    answer = await extractive_answer("怎么更换蠕动泵管？", (PUMP,))
    steps = [line.split("[")[0] for line in answer.splitlines() if line.strip()]
    assert len(steps) == 5
    assert "上锁挂牌" in steps[1]  # before: steps 1, 3 and 4 only


async def test_an_item_of_a_checklist_about_something_else_comes_alone() -> None:
    answer = await extractive_answer("I lost my authenticator phone, how do I sign in?",
                                     (FIRST_DAY,))
    assert "access badge" not in answer


BADGES = make_block(3, "1. 员工工牌为蓝色，外包人员工牌为绿色。\n"
                       "2. 员工进出厂区必须刷卡，不得借用他人工牌或尾随他人进入。\n"
                       "3. 工牌遗失须在 24 小时内报告保安室（分机 8110），保安室会立即注销该卡。\n"
                       "4. 员工离职时须将工牌交还行政部，未交还的扣除 100 元。",
                    title="访客与工牌管理规定", section="二、员工工牌", language="zh")


async def test_a_numbered_list_of_rules_is_no_procedure() -> None:
    # A code-blind tester's 工牌丢了怎么办 got all five badge rules, colours included.
    answer = await extractive_answer("工牌遗失了怎么办", (BADGES,))
    assert "8110" in answer and "蓝色" not in answer and "离职" not in answer
