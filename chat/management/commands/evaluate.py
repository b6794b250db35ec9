"""``manage.py evaluate FILE...``: run evaluation cases through the chat pipeline and score them.

Prints a summary table broken down by language (README: Evaluation). ``--json`` prints one
JSON object per case per line and the summary (exactly ``JSON_SUMMARY_KEYS``) as the last
line. ``--out DIR`` writes ``results.jsonl`` and ``results.md`` for people to read. Bad files
and lines are reported on stderr by line number and skipped; a case that raises is recorded
as an error result and the run goes on. Traces are not stored unless ``--store-traces``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from asgiref.sync import async_to_sync
from django.core.management.base import BaseCommand, CommandError, CommandParser

from chat.evaluation import load_cases, run_cases, write_results
from chat.pipeline_settings import pipeline_config_from_settings, provider_from_settings
from kbqa.arguments import share, whole_number
from kbqa.core.errors import KbqaError
from kbqa.core.evaluation.cases import EXPECTS, EvalCase, expect_counts
from kbqa.core.evaluation.metrics import CaseResult, summarise, summarise_by_language
from kbqa.core.evaluation.report import results_markdown, summary_table
from kbqa.core.pipeline import PipelineConfig
from kbqa.core.providers.base import Provider
from kbqa.core.retrieval import cross_language
from sources.models import Chunk


def current_chunks_exist() -> bool:
    """Whether the stored knowledge base has anything to retrieve."""
    return Chunk.objects.filter(is_current=True).exists()


def select_cases(
    cases: list[EvalCase], *, expect: list[str] | None, limit: int | None
) -> list[EvalCase]:
    """Cases with one of the ``expect`` values (all when None), then the first ``limit``."""
    chosen = [c for c in cases if not expect or c.expect in expect]
    return chosen[:limit] if limit is not None else chosen


class Command(BaseCommand):
    help = "Run evaluation cases (JSON Lines) through the answer pipeline and print metrics."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE")
        parser.add_argument("--format", choices=["cases", "rgb"], default="cases")
        parser.add_argument("--provider", help="provider name (default: KBQA_PROVIDER)")
        # --limit -5 ran all but the last five cases
        parser.add_argument("--limit", type=whole_number(1), help="run only the first N cases")
        parser.add_argument("--expect", action="append", choices=EXPECTS,
                            help="run only cases with this expectation (repeatable)")
        parser.add_argument("--min-relevance", type=share,
                            help="override KBQA_MIN_RELEVANCE for this run (0 to 1)")
        parser.add_argument("--json", action="store_true",
                            help="one JSON object per case, then the summary, one per line")
        parser.add_argument("--out", metavar="DIR", help="write results.jsonl and results.md")
        parser.add_argument("--store-traces", action="store_true",
                            help="store a trace per case in the database (off by default)")
        parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
        parser.add_argument("--strict", action="store_true",
                            help="stop with an error when any line of the files is skipped")

    def handle(self, *args: Any, **opts: Any) -> None:
        out = opts["out"]
        if out and Path(out).exists() and not Path(out).is_dir():  # found after the whole run
            raise CommandError(f"--out {out}: a file is there; name a directory")
        cases, problems = load_cases(opts["files"], fmt=opts["format"])
        for problem in problems:
            self.stderr.write(f"skipped {problem}")
        if problems and opts["strict"]:  # a gate must not pass on half a file
            raise CommandError(f"{len(problems)} line(s) skipped (--strict).")
        cases = select_cases(cases, expect=opts["expect"], limit=opts["limit"])
        if not cases:
            raise CommandError("No valid cases to run.")
        counts = ", ".join(f"{n} {e}" for e, n in expect_counts(cases).items() if n)
        self.stderr.write(f"Running {len(cases)} cases ({counts}).")
        if any(not c.documents for c in cases) and not current_chunks_exist():
            self.stderr.write(
                "Warning: the stored knowledge base is empty, so cases without their own "
                "documents will all be refused. Load documents first (`manage.py ingest PATH` "
                "or `manage.py demo_setup`)."
            )
        try:
            provider = provider_from_settings(opts["provider"])
        except KbqaError as exc:
            raise CommandError(f"Provider unavailable: {exc}") from None
        overrides: dict[str, Any] = {}
        if opts["min_relevance"] is not None:
            overrides["min_relevance"] = opts["min_relevance"]
        config = pipeline_config_from_settings(**overrides)
        # retrieval's second search in the other language draws the same low-score line
        before = cross_language.set_threshold(config.min_relevance)
        try:
            results = async_to_sync(self._run)(cases, provider, config, opts)
        finally:
            cross_language.set_threshold(before)
        self._report(results, opts, provider)

    async def _run(
        self, cases: list[EvalCase], provider: Provider, config: PipelineConfig,
        opts: dict[str, Any],
    ) -> list[CaseResult]:
        def emit(result: CaseResult) -> None:
            if opts["json"]:
                self.stdout.write(json.dumps(result.to_dict(), ensure_ascii=False))
                self.stdout.flush()

        try:
            return await run_cases(
                cases, provider=provider, config=config, store_traces=opts["store_traces"],
                progress=not opts["no_progress"], on_result=emit,
            )
        finally:
            await provider.aclose()

    def _report(self, results: list[CaseResult], opts: dict[str, Any], provider: Provider) -> None:
        summary = summarise(results)
        table = summary_table(summarise_by_language(results))
        if opts["json"]:
            self.stdout.write(json.dumps(summary.to_json(), ensure_ascii=False))
        else:
            self.stdout.write(f"Provider: {provider.label}")
            self.stdout.write(table)
        if opts["out"]:
            title = f"Evaluation of {', '.join(opts['files'])} ({provider.label})"
            path = write_results(results, out_dir=opts["out"],
                                 markdown=results_markdown(results, title=title, table=table))
            self.stderr.write(f"Per-case results written to {path}/results.jsonl and results.md")
        validity = summary.citation_validity.value
        if validity is not None and validity < 1.0:
            self.stderr.write(
                f"WARNING: citation validity is {validity:.1%}; every emitted citation must "
                "pass re-verification (see citation_issues in the per-case results)."
            )
