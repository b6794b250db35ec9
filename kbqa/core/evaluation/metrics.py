"""Per-case results and the summary metrics computed from them.

Definitions (README: Evaluation); a rate whose denominator is 0 is None ("n/a"):

- answer accuracy: expect=answer cases whose emitted sentences contain every answer_contains
  group (``answer_matches``); with no groups, any emitted sentence counts.
- wrongful refusal rate: expect=answer cases that were refused.
- refusal recall: expect=refuse cases that were refused; reason accuracy: of those refused
  cases that name a ``refusal_reason``, the share refused for exactly that reason.
- unsupported-answer rate (hallucination rate): expect=refuse cases with any sentence emitted.
- conflict recall: expect=conflict cases refused for ``conflict``, or whose emitted text
  contains every answer_contains group (both values shown); a case without groups counts
  only when refused for ``conflict`` (an answer giving one value is no recall: a tester's
  case file scored 100% with its Chinese question answered with one side's value).
- citation validity: emitted citations that resolve to an issued block and pass an
  independent re-run of the verifier, over all emitted citations. Must be 1.0.
- dropped per answer: mean Dropped events over cases that emitted at least one sentence.
- latency p50/p95: per-case wall time in ms, linear interpolation between closest ranks
  (numpy's default percentile method).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from kbqa.core.evaluation.cases import AliasGroups, answer_matches

JSON_SUMMARY_KEYS: tuple[str, ...] = (
    "cases", "answer_accuracy", "wrongful_refusal_rate", "refusal_recall",
    "unsupported_answer_rate", "conflict_recall", "citation_validity",
    "latency_ms_p50", "latency_ms_p95",
)


@dataclass(frozen=True)
class CaseResult:
    """What one case produced. ``status`` is Done.status, or "error" when the run raised.

    ``sentences`` are the emitted ones as ``{"index", "text", "citations"}``; ``refusal_reason``
    is "" unless refused; ``citations_checked``/``citations_valid`` count emitted
    (sentence, citation number) pairs and those that passed the independent check.
    """

    case_id: str
    question: str
    lang: str
    expect: str
    status: str
    sentences: tuple[dict[str, Any], ...] = ()
    dropped: int = 0
    refusal_reason: str = ""
    refusal_message: str = ""
    latency_ms: float = 0.0
    citations_checked: int = 0
    citations_valid: int = 0
    citation_issues: tuple[str, ...] = ()
    error: str = ""
    answer_contains: AliasGroups = ()
    expected_reason: str | None = None
    trace_id: str = ""
    blocks: tuple[dict[str, Any], ...] = field(default=())
    follow_up: bool = False  # the case had a history: a follow-up in a conversation

    @property
    def text(self) -> str:
        return " ".join(str(s["text"]) for s in self.sentences)

    @property
    def refused(self) -> bool:
        return self.status.startswith("refused_")

    @property
    def matched(self) -> bool:
        return bool(self.sentences) and answer_matches(
            self.text, self.answer_contains, lang=self.lang
        )

    @property
    def correct(self) -> bool:
        """Whether the case went as expected: an answer case answered with its text, a
        refusal case refused (with the expected reason, when one is given) showing nothing,
        a conflict case refused for the conflict (or answered with its text)."""
        if self.status == "error":
            return False
        if self.expect == "answer":
            return self.matched
        if self.expect == "refuse":
            reason_ok = not self.expected_reason or self.refusal_reason == self.expected_reason
            return self.refused and not self.sentences and reason_ok
        return self.refusal_reason == "conflict" or self.matched

    @property
    def verdict(self) -> str:
        """"ok" (``correct``), "wrong" (sentences shown that do not answer as expected, or
        shown where a refusal was expected) or "missed" (refused or failed where an answer
        was expected, or the wrong refusal)."""
        if self.correct:
            return "ok"
        return "wrong" if self.sentences else "missed"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready per-case line (``--json``, ``--out``)."""
        return {
            "id": self.case_id, "question": self.question, "lang": self.lang,
            "expect": self.expect, "status": self.status, "text": self.text,
            "sentences": list(self.sentences), "dropped": self.dropped,
            "refusal_reason": self.refusal_reason or None,
            "refusal_message": self.refusal_message or None,
            "matched": self.matched, "correct": self.correct, "verdict": self.verdict,
            "latency_ms": round(self.latency_ms, 1),
            "citations_checked": self.citations_checked,
            "citations_valid": self.citations_valid,
            "citation_issues": list(self.citation_issues), "error": self.error or None,
            "trace_id": self.trace_id or None, "blocks": list(self.blocks),
            "follow_up": self.follow_up,
        }


@dataclass(frozen=True)
class Rate:
    """``hits`` out of ``total``; ``value`` None when total is 0."""

    hits: int
    total: int

    @property
    def value(self) -> float | None:
        return self.hits / self.total if self.total else None


def percentile(values: Sequence[float], p: float) -> float | None:
    """The ``p``-th percentile (0..100) by linear interpolation; None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    pos = (len(ordered) - 1) * p / 100
    low = int(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def _rate(results: Sequence[CaseResult], hit: Callable[[CaseResult], bool]) -> Rate:
    return Rate(sum(1 for r in results if hit(r)), len(results))


@dataclass(frozen=True)
class Summary:
    """The summary table's numbers for one set of results (all cases, or one language)."""

    cases: int
    errors: int
    answer_accuracy: Rate
    wrongful_refusal_rate: Rate
    refusal_recall: Rate
    reason_accuracy: Rate
    unsupported_answer_rate: Rate
    conflict_recall: Rate
    citation_validity: Rate
    dropped_per_answer: float | None
    latency_ms_p50: float | None
    latency_ms_p95: float | None

    def to_json(self) -> dict[str, Any]:
        """Exactly JSON_SUMMARY_KEYS: rates as floats in [0, 1] (4 places) or null."""
        out: dict[str, Any] = {}
        for key in JSON_SUMMARY_KEYS:
            value = getattr(self, key)
            if isinstance(value, Rate):
                value = value.value
            out[key] = round(value, 4) if isinstance(value, float) else value
        return out


def summarise(results: Sequence[CaseResult]) -> Summary:
    """Compute every metric of the module docstring over ``results``."""
    answer = [r for r in results if r.expect == "answer"]
    refuse = [r for r in results if r.expect == "refuse"]
    conflict = [r for r in results if r.expect == "conflict"]
    reasoned = [r for r in refuse if r.refused and r.expected_reason]
    answered = [r for r in results if r.sentences]
    latencies = [r.latency_ms for r in results]
    return Summary(
        cases=len(results),
        errors=sum(1 for r in results if r.status == "error"),
        answer_accuracy=_rate(answer, lambda r: r.matched),
        wrongful_refusal_rate=_rate(answer, lambda r: r.refused),
        refusal_recall=_rate(refuse, lambda r: r.refused),
        reason_accuracy=_rate(reasoned, lambda r: r.refusal_reason == r.expected_reason),
        unsupported_answer_rate=_rate(refuse, lambda r: bool(r.sentences)),
        conflict_recall=_rate(
            conflict, lambda r: r.refusal_reason == "conflict"
            or (bool(r.answer_contains) and r.matched)
        ),
        citation_validity=Rate(
            sum(r.citations_valid for r in results), sum(r.citations_checked for r in results)
        ),
        dropped_per_answer=(
            sum(r.dropped for r in answered) / len(answered) if answered else None
        ),
        latency_ms_p50=percentile(latencies, 50),
        latency_ms_p95=percentile(latencies, 95),
    )


def summarise_by_language(results: Sequence[CaseResult]) -> dict[str, Summary]:
    """``{"all": ..., "en": ..., "zh": ..., "follow-up": ...}`` (a language only when it has
    cases; "follow-up", the cases asked after a history, only when there are some)."""
    out = {"all": summarise(results)}
    for lang in ("en", "zh"):
        subset = [r for r in results if r.lang == lang]
        if subset:
            out[lang] = summarise(subset)
    follow_ups = [r for r in results if r.follow_up]
    if follow_ups:
        out["follow-up"] = summarise(follow_ups)
    return out
