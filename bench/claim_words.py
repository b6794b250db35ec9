"""What the claim-word check costs and catches with realistic model answers (anthropic path).

Run after the demo knowledge base is loaded (``bench/eval.sh`` steps 1, or ``make run``):
``KBQA_DEBUG=1 .venv/bin/python bench/claim_words.py``. No model is called: each demo
question gets a scripted answer written the way a model answers from the blocks the demo
retrieves (paraphrased, numbers copied, a name or a yes/no word added), streamed through the
real pipeline and verifier. The run is made twice side by side, with the claim-word check and
with it switched off (``unsupported_words`` returning nothing), and prints per run: dropped
sentences per answer, answer accuracy, answered cases; then the sentences the check dropped.

A second, smaller set holds answers with one wrong claim word each ("every three years" for
4 years, "weekly", a name no source has): it prints how many each run lets through.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kbqa.settings")

import django  # noqa: E402

django.setup()

from chat.evaluation import load_cases, run_cases  # noqa: E402
from chat.pipeline_settings import pipeline_config_from_settings  # noqa: E402
from kbqa.core.evaluation.metrics import CaseResult, summarise  # noqa: E402
from kbqa.core.grounding import citations  # noqa: E402
from kbqa.core.providers.base import Prompt, Provider, ProviderCall  # noqa: E402

QUESTIONS = Path(__file__).resolve().parent.parent / "sources/demo/questions.jsonl"

#: Realistic answers (block numbers as the demo retrieval issues them).
ANSWERS: dict[str, str] = {
    "q-001": "Deleted files and folders stay in the recycle bin for 30 days [1]. During that "
             "period you can restore them at any time [1].",
    "q-002": "删除的文件和文件夹会在回收站中保留 30 天，期间可以随时还原[1]。",
    "q-003": "The free trial of the Business plan lasts 90 days, and no credit card is "
             "required [1].",
    "q-004": "商业版的免费试用期为 90 天，无需绑定信用卡[1]。",
    "q-005": "The open API's default rate limit is 600 requests per minute per API client [1].",
    "q-006": "开放 API 默认的速率限制是每个 API 客户端每分钟 600 次请求[1]。",
    "q-007": "By default, the open API allows 600 requests per minute for each API client [5].",
    "q-010": "Company laptops are replaced every four years [1].",
    "q-011": "公司笔记本电脑每四年更换一次[1]。",
    "q-012": "Full-time employees get 20 days of paid annual leave each calendar year [1].",
    "q-013": "全职员工每个自然年有 20 天带薪年假[1]。",
    "q-014": "Employees receive 10 days of fully paid sick leave per year [1].",
    "q-015": "连续病假超过 3 天时，需要提供医院证明并上传到人事系统[1]。",
    "q-016": "On the Business plan, each user gets 1 TB of storage [1]. Quotas are pooled "
             "across the organisation, so 40 Business users share 40 TB [4].",
    "q-018": "Earlier versions of a file are kept for 180 days on every plan [1].",
    "q-019": "文件的历史版本在所有方案中都保存 180 天[1]。",
    "q-020": "NimbusDrive supports two methods: an authenticator app that generates "
             "time-based one-time codes, and a hardware security key such as a FIDO2 YubiKey "
             "or a passkey [1].",
    "q-021": "连续输错 10 次密码后，账号会被锁定 15 分钟，并会向账号所有者发送提醒邮件[1]。",
    "q-022": "Expense claims must be submitted within 60 days of the date the cost was "
             "incurred [1].",
    "q-023": "报销单必须在费用发生之日起 60 天内提交[1]。",
    "q-024": "The hotel limit is EUR 170 per night, or EUR 240 per night in London, Paris, "
             "Zurich, New York and Tokyo [1].",
    "q-025": "在北京、上海出差，住宿报销标准为每晚不超过 700 元[1]。",
    "q-027": "Each webhook delivery is signed with an HMAC-SHA256 of the raw request body, "
             "computed with the webhook's signing secret [1]. The signature is sent in the "
             "X-Nimbus-Signature header [1].",
    "q-028": "IT 服务台的工作时间是工作日 9:00 至 18:00（当地时间）[1]。",
    "q-029": "The desktop sync client runs on Windows 10 and 11 (64-bit) and on macOS 13 "
             "Ventura or later, on both Intel and Apple silicon Macs [1].",
    "q-031": "Audit log entries are kept for 365 days and can be exported as CSV at any "
             "time [1].",
    "q-032": "合同终止后 45 天内，组织的全部文件和账号信息（包括所有副本）都会被永久删除[1]。",
    "q-043": "No, a doctor's note is only required when an illness lasts more than 3 "
             "consecutive days [1].",
    "q-044": "电脑丢失后，请在 24 小时内通过门户提交“设备丢失”工单[1]。",
    "q-046": "Full-time employees get 20 days of paid annual leave per calendar year [5]. Up "
             "to 5 unused days can be carried over, but they must be taken before 31 March [4].",
    "q-047": "If your laptop is more than two years old, you may buy it at its remaining book "
             "value when you leave [4].",
    "q-049": "离职时，使用超过两年的笔记本电脑可以按剩余账面价值购买[1]。",
    "q-050": "Economy class is required for flights shorter than 6 hours, and premium economy "
             "is allowed on longer flights [1].",
    "q-051": "The Business plan costs EUR 15 per user per month [1].",
    "q-053": "In London you can spend up to EUR 240 per night on a hotel [1].",
    "q-054": "You can try NimbusDrive's Business plan for free for 90 days, with no credit card "
             "needed [1].",
    "q-056": "连续病假超过 3 天才需要医院证明，并需上传到人事系统[1]。",
    "q-057": "在上海出差，酒店住宿每晚最多可报销 700 元[1]。",
    "q-058": "商业版可以免费试用 90 天[1]。",
}

#: Answers with one wrong claim word each: what the two gates alone let through.
FAULTY: dict[str, str] = {
    "q-010": "Company laptops are replaced every three years [1].",
    "q-011": "公司笔记本电脑每三年更换一次[1]。",
    "q-031": "Audit log entries are retained for 365 days and exported weekly as CSV [1].",
    "q-019": "文件的历史版本每周保存一次，保存 180 天[1]。",
    "q-003": "A free trial of the Enterprise plan runs for 90 days and needs no credit card [1].",
    "q-021": "连续输错 10 次密码后，账号会被锁定 15 小时[1]。",
    "q-018": "Earlier versions of a file are kept for at least 180 days on all plans [1].",
    "q-013": "全职员工每个自然年至少享有 20 天带薪年假[1]。",
}


class ScriptedProvider(Provider):
    """Answers each question with its scripted text (by question), like a model would."""

    name: ClassVar[str] = "scripted"

    def __init__(self, answers: dict[str, str]) -> None:
        super().__init__(model="scripted", fast_model="scripted")
        self.answers = answers

    async def stream(self, prompt: Prompt, call: ProviderCall) -> AsyncIterator[str]:
        call.model = call.model_version = "scripted"
        for word in self.answers.get(prompt.question, "").split(" "):
            yield word + " "


@contextmanager
def claim_words_off() -> Iterator[None]:
    saved = citations.unsupported_words
    citations.unsupported_words = lambda *args: []  # type: ignore[assignment]
    try:
        yield
    finally:
        citations.unsupported_words = saved


def run(answers: dict[str, str]) -> list[CaseResult]:
    cases = [c for c in load_cases([str(QUESTIONS)])[0] if c.id in answers]
    by_question = {c.question: answers[c.id] for c in cases}
    config = pipeline_config_from_settings()
    return asyncio.run(run_cases(cases, provider=ScriptedProvider(by_question), config=config,
                                 progress=False))


def report(label: str, results: list[CaseResult]) -> None:
    s = summarise(results)
    answered = sum(r.status == "answered" for r in results)
    print(f"{label:<22} {s.dropped_per_answer or 0:>8.2f} {s.answer_accuracy.value or 0:>9.1%} "
          f"{answered:>3}/{len(results)}")


def main() -> None:
    print(f"Realistic answers: {len(ANSWERS)} demo questions")
    print(f"{'run':<22} {'dropped/answer':>8} {'accuracy':>9} answered")
    on = run(ANSWERS)
    with claim_words_off():
        off = run(ANSWERS)
    report("claim-word check on", on)
    report("claim-word check off", off)
    for r_on, r_off in zip(on, off, strict=True):
        if r_on.dropped > r_off.dropped:
            print(f"  dropped by the check: {r_on.case_id} {ANSWERS[r_on.case_id]}")
    print(f"\nFaulty answers (one wrong claim word each): {len(FAULTY)}")
    bad_on, bad_off = run(FAULTY), None
    with claim_words_off():
        bad_off = run(FAULTY)
    for label, results in (("check on", bad_on), ("check off", bad_off)):
        shown = sum(bool(r.sentences) for r in results)
        print(f"  {label:<10} wrong sentences shown: {shown}/{len(results)}")


if __name__ == "__main__":
    main()
