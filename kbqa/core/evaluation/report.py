"""Plain-text tables and the Markdown report of an evaluation or calibration run."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kbqa.core.evaluation.calibration import (
    SIGNALS,
    Recommendation,
    Signals,
    histogram,
    observed_candidates,
    recommend_threshold,
    separation,
)
from kbqa.core.evaluation.metrics import CaseResult, Rate, Summary, percentile

_ROWS: tuple[tuple[str, str], ...] = (
    ("cases", "cases"),
    ("errors", "errors (case raised)"),
    ("answer_accuracy", "answer accuracy"),
    ("wrongful_refusal_rate", "wrongful refusal rate"),
    ("refusal_recall", "refusal recall"),
    ("reason_accuracy", "  refusal reason accuracy"),
    ("unsupported_answer_rate", "unsupported-answer rate"),
    ("conflict_recall", "conflict recall"),
    ("citation_validity", "citation validity"),
    ("dropped_per_answer", "dropped sentences / answer"),
    ("latency_ms_p50", "latency p50 (ms)"),
    ("latency_ms_p95", "latency p95 (ms)"),
)


def _cell(value: object) -> str:
    if isinstance(value, Rate):
        if value.value is None:
            return "n/a"
        return f"{value.value * 100:.1f}% ({value.hits}/{value.total})"
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:.1f}" if value >= 10 else f"{value:.2f}"
    return str(value)


def format_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Left-aligned first column, right-aligned others, two spaces between columns."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        first = cells[0].ljust(widths[0])
        rest = [c.rjust(w) for c, w in zip(cells[1:], widths[1:], strict=True)]
        return "  ".join([first, *rest]).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(header), rule, *(line(r) for r in rows)])


def summary_table(summaries: Mapping[str, Summary]) -> str:
    """The summary metrics as rows, one column per key of ``summaries`` (all, en, zh)."""
    header = ["metric", *summaries]
    rows = [
        [label, *(_cell(getattr(s, key)) for s in summaries.values())] for key, label in _ROWS
    ]
    return format_table(header, rows)


def _quantiles(values: Sequence[float]) -> list[str]:
    return [_cell(percentile(values, p)) for p in (0, 10, 25, 50, 75, 90, 100)]


def distribution_table(signals: Sequence[Signals]) -> str:
    """Each signal's quantiles for answerable vs unanswerable questions, with ROC AUC."""
    header = ["signal", "set", "n", "min", "p10", "p25", "p50", "p75", "p90", "max", "AUC"]
    rows = []
    for name in SIGNALS:
        ans = [s.value(name) for s in signals if s.expect == "answer"]
        ref = [s.value(name) for s in signals if s.expect == "refuse"]
        auc = _cell(separation(ans, ref))
        rows.append([name, "answer", str(len(ans)), *_quantiles(ans), auc])
        rows.append(["", "refuse", str(len(ref)), *_quantiles(ref), ""])
    return format_table(header, rows)


def relevance_histogram(signals: Sequence[Signals], *, threshold: float, width: int = 30) -> str:
    """Side-by-side text histogram of top relevance; ``<`` marks the bin holding the threshold."""
    ans = histogram([s.relevance for s in signals if s.expect == "answer"])
    ref = histogram([s.relevance for s in signals if s.expect == "refuse"])
    peak = max([1, *ans, *ref])
    lines = [f"{'relevance':<11}{'answerable':<{width + 6}}unanswerable"]
    for i, (a, r) in enumerate(zip(ans, ref, strict=True)):
        lo, hi = i / 10, (i + 1) / 10
        mark = "<" if lo <= threshold < hi or (i == 9 and threshold >= 1.0) else " "
        bar_a = "#" * round(a * width / peak)
        bar_r = "#" * round(r * width / peak)
        lines.append(f"{lo:.1f}-{hi:.1f} {mark} {a:>4} {bar_a:<{width}} {r:>4} {bar_r}")
    return "\n".join(lines)


def recommendation_text(rec: Recommendation, *, max_wrongful_refusal: float) -> str:
    """What the chosen threshold does, and the setting line to paste."""
    return "\n".join([
        f"Recommended threshold (wrongful refusals <= {max_wrongful_refusal:.0%}): "
        f"{rec.threshold:.2f}  (ties from {rec.tied[0]:.2f} to {rec.tied[1]:.2f})",
        f"  refuses {rec.refused_unanswerable}/{rec.unanswerable} unanswerable "
        f"({rec.refusal_recall:.1%}), wrongly refuses {rec.refused_answerable}/{rec.answerable} "
        f"answerable ({rec.wrongful_refusal_rate:.1%})",
        f"KBQA_MIN_RELEVANCE={rec.threshold:.2f}",
    ])


def source_comparison_table(signals: Sequence[Signals], *, max_wrongful_refusal: float) -> str:
    """Per source file: the threshold each signal would need there, and how well it separates.

    If the normalised-relevance threshold is similar across knowledge bases of different size
    while the raw BM25 threshold is not, one stored relevance threshold transfers.
    """
    header = ["source", "answer", "refuse", "relevance t", "recall", "AUC rel",
              "BM25 t", "recall", "AUC BM25"]
    rows = []
    for source in sorted({s.source for s in signals}):
        subset = [s for s in signals if s.source == source]
        ans = [s for s in subset if s.expect == "answer"]
        ref = [s for s in subset if s.expect == "refuse"]
        rel = recommend_threshold([s.relevance for s in ans], [s.relevance for s in ref],
                                  max_wrongful_refusal=max_wrongful_refusal)
        raw_values = [s.bm25 for s in subset]
        raw = recommend_threshold([s.bm25 for s in ans], [s.bm25 for s in ref],
                                  max_wrongful_refusal=max_wrongful_refusal,
                                  candidates=observed_candidates(raw_values))
        rows.append([
            source or "-", str(len(ans)), str(len(ref)),
            f"{rel.threshold:.2f}", f"{rel.refusal_recall:.1%}",
            _cell(separation([s.relevance for s in ans], [s.relevance for s in ref])),
            f"{raw.threshold:.2f}", f"{raw.refusal_recall:.1%}",
            _cell(separation([s.bm25 for s in ans], [s.bm25 for s in ref])),
        ])
    return format_table(header, rows)


def _cited_text(sentence: Mapping[str, object]) -> str:
    cites = sentence.get("citations") or ()
    marks = "".join(f"[{n}]" for n in cites) if isinstance(cites, (list, tuple)) else ""
    return f"{sentence.get('text', '')} {marks}".strip()


def case_markdown(result: CaseResult) -> str:
    """One case for a human reader: question, outcome, emitted text with citations."""
    verdict = {"ok": "ok", "wrong": "WRONG", "missed": "MISS"}[result.verdict]
    lines = [
        f"## {result.case_id} ({result.lang}, expect {result.expect}): {verdict}",
        "",
        f"**Question:** {result.question}",
        "",
        f"**Status:** {result.status} · dropped {result.dropped} · {result.latency_ms:.0f} ms",
    ]
    if result.sentences:
        lines += ["", "**Answer:**", "", *(f"> {_cited_text(s)}" for s in result.sentences)]
    if result.refusal_reason:
        lines += ["", f"**Refusal ({result.refusal_reason}):** {result.refusal_message}"]
    if result.answer_contains:
        wanted = " AND ".join("(" + " | ".join(g) + ")" for g in result.answer_contains)
        lines += ["", f"**Expected text:** {wanted}"]
    if result.citation_issues:
        lines += ["", "**Citation issues:**", *(f"- {i}" for i in result.citation_issues)]
    if result.error:
        lines += ["", f"**Error:** {result.error}"]
    return "\n".join(lines) + "\n"


def results_markdown(results: Sequence[CaseResult], *, title: str, table: str) -> str:
    """The whole readable report: summary table first, then every case."""
    head = [f"# {title}", "", "```", table, "```", ""]
    return "\n".join(head) + "\n" + "\n".join(case_markdown(r) for r in results)
