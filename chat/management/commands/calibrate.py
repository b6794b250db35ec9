"""``manage.py calibrate FILE...``: measure retrieval signals and recommend the low-score threshold.

For every case, the retriever alone (no generation) gives the
top hit's normalised relevance, its raw BM25 score, the gap to the second hit and the share
of query terms the top hit contains. The command prints both distributions side by side,
a per-source comparison, and the ``KBQA_MIN_RELEVANCE`` that refuses the most unanswerable
questions while wrongful refusals stay at or under ``--max-wrongful-refusal``. "Unanswerable"
means what the low-score gate should stop: expect=refuse cases, except those expected to be
refused as ``no_support`` (related documents exist, and that refusal names them), which must
pass the gate like answer and conflict cases
(rule: ``kbqa.core.evaluation.calibration``). With semantic recall on it also prints
``KBQA_MIN_SIMILARITY``, the cosine above which the gate passes a hit whatever its
relevance, chosen so that no more unanswerable questions get through than with relevance
alone. Re-run it whenever the knowledge base changes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from asgiref.sync import async_to_sync
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from chat.evaluation import collect_signals, load_cases, plot_distributions
from chat.management.commands.evaluate import select_cases
from kbqa.arguments import share, whole_number
from kbqa.core.evaluation.calibration import Signals, recommend_similarity, recommend_threshold
from kbqa.core.evaluation.report import (
    distribution_table,
    recommendation_text,
    relevance_histogram,
    source_comparison_table,
)

# Image formats the plot is written in (matplotlib's Agg, PDF and SVG back ends).
PLOT_FORMATS = frozenset((".png", ".pdf", ".svg", ".jpg", ".jpeg"))


class Command(BaseCommand):
    help = "Recommend KBQA_MIN_RELEVANCE from answerable and unanswerable evaluation cases."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE")
        parser.add_argument("--format", choices=["cases", "rgb"], default="cases")
        parser.add_argument("--max-wrongful-refusal", type=share, default=0.05,
                            help="highest acceptable share of answerable questions refused")
        parser.add_argument("--plot", metavar="PATH.png", help="draw both distributions")
        parser.add_argument("--limit", type=whole_number(1), help="use only the first N cases")
        parser.add_argument("--k", type=whole_number(1),
                            help="hits to retrieve (default KBQA_TOP_K)")
        parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")

    def handle(self, *args: Any, **opts: Any) -> None:
        limit_rate = opts["max_wrongful_refusal"]
        plot = opts["plot"]
        if plot and not Path(plot).resolve().parent.is_dir():  # a traceback after the result
            raise CommandError(f"--plot {plot}: no directory {Path(plot).parent} to write into")
        if plot and Path(plot).suffix.lower() not in PLOT_FORMATS:
            raise CommandError(f"--plot {plot}: name a {', '.join(sorted(PLOT_FORMATS))} file")
        # no answer is scored here: an answer case needs no answer_contains
        cases, problems = load_cases(opts["files"], fmt=opts["format"], scored=False)
        for problem in problems:
            self.stderr.write(f"skipped {problem}")
        cases = select_cases(cases, expect=["answer", "refuse", "conflict"], limit=opts["limit"])
        top_k = opts["k"] or settings.KBQA_TOP_K
        signals = async_to_sync(collect_signals)(
            cases, top_k=top_k, progress=not opts["no_progress"]
        )
        answerable = [s.relevance for s in signals if s.expect == "answer"]
        unanswerable = [s.relevance for s in signals if s.expect == "refuse"]
        if not answerable or not unanswerable:
            raise CommandError("Calibration needs cases with expect=answer AND expect=refuse.")
        rec = recommend_threshold(answerable, unanswerable, max_wrongful_refusal=limit_rate)
        self.stdout.write("Pre-generation signals, answerable vs unanswerable questions:")
        self.stdout.write(distribution_table(signals))
        self.stdout.write("")
        self.stdout.write(relevance_histogram(signals, threshold=rec.threshold))
        self.stdout.write("")
        self.stdout.write("Per source (same rule; does one relevance threshold transfer?):")
        self.stdout.write(source_comparison_table(signals, max_wrongful_refusal=limit_rate))
        self.stdout.write("")
        self.stdout.write(f"Current setting: KBQA_MIN_RELEVANCE={settings.KBQA_MIN_RELEVANCE:.2f}")
        self.stdout.write(recommendation_text(rec, max_wrongful_refusal=limit_rate))
        if any(s.similarity for s in signals):
            self.stdout.write("")
            self.stdout.write(self._similarity_text(signals, rec.threshold))
        if opts["plot"]:
            plot_distributions(signals, min_relevance=rec.threshold, path=opts["plot"])
            self.stderr.write(f"Plot written to {opts['plot']}")

    def _similarity_text(self, signals: list[Signals], min_relevance: float) -> str:
        """The semantic gate's threshold next to the recommended relevance threshold."""
        pairs = {e: [(s.relevance, s.similarity) for s in signals if s.expect == e]
                 for e in ("answer", "refuse")}
        rec = recommend_similarity(pairs["answer"], pairs["refuse"], min_relevance=min_relevance)
        t = rec.threshold

        def by_agreement(expect: str) -> str:
            group = [s for s in signals if s.expect == expect]
            only = [s for s in group if s.relevance < min_relevance and s.agreed
                    and not (t > 0 and s.similarity >= t)]
            return f"{len(only)}/{len(group)}"

        return "\n".join([
            "Semantic recall is on: the gate also passes a hit whose cosine with the question "
            "reaches KBQA_MIN_SIMILARITY",
            f"(refusal recall kept at {rec.refused_unanswerable}/{rec.unanswerable}; "
            f"ties from {rec.tied[0]:.2f} to {rec.tied[1]:.2f}).",
            f"  with it, wrongly refuses {rec.refused_answerable}/{rec.answerable} answerable "
            f"({rec.wrongful_refusal_rate:.1%})",
            f"KBQA_MIN_SIMILARITY={rec.threshold:.2f}",
            f"Agreement (KBQA_SEMANTIC_AGREEMENT): passes {by_agreement('answer')} answerable "
            f"and {by_agreement('refuse')} unanswerable questions the thresholds refuse.",
        ])
