"""``python manage.py ingest PATH...``: ingest files and folders into the knowledge base."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from sources.models import Authority
from sources.services import (
    IngestFailure,
    IngestOverrides,
    IngestResult,
    chunks_phrase,
    documents_ingest_paths,
)


class Command(BaseCommand):
    help = (
        "Ingest documents (Markdown, text, HTML, PDF, DOCX) from files or folders. "
        "Prints one line per file (a failed file or missing path by name, with the reason) and "
        "a summary; a file that fails changes nothing stored. Exit code 0 even when files "
        "failed, unless --strict."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", help="files or folders (searched recursively)")
        parser.add_argument("--authority", choices=Authority.values, default="")
        parser.add_argument("--language", choices=["en", "zh"], default="")
        parser.add_argument("--updated", default="", help="effective date, YYYY-MM-DD")
        parser.add_argument("--source-url", default="")
        parser.add_argument(
            "--groups",
            default="",
            help="only members of these Django groups may read the documents "
            "(comma-separated names, e.g. hr,finance; 'everyone' for all)",
        )
        parser.add_argument("--max-tokens", type=int, default=None, help="chunk size (tokens)")
        parser.add_argument("--strict", action="store_true", help="exit 1 if any file failed")

    def handle(self, *args: Any, **options: Any) -> None:
        overrides = IngestOverrides(
            authority=options["authority"],
            language=options["language"],
            updated=options["updated"],
            source_url=options["source_url"],
            visibility=options["groups"],
        )
        summary = documents_ingest_paths(
            paths=options["paths"],
            overrides=overrides,
            max_tokens=options["max_tokens"],
            on_progress=self._progress,
        )
        self.stdout.write(summary.line())
        if options["strict"] and summary.failures:
            raise CommandError(f"{len(summary.failures)} file(s) failed")

    def _progress(self, i: int, total: int, outcome: IngestResult | IngestFailure) -> None:
        if isinstance(outcome, IngestFailure):
            self.stderr.write(f"[{i}/{total}] FAILED {outcome.reason}")
            return
        self.stdout.write(
            f"[{i}/{total}] {outcome.status:<9} {outcome.doc_id} ({outcome.name}): "
            f"{chunks_phrase(outcome.chunks)}, {outcome.chunks_added} new, "
            f"{outcome.chunks_superseded} superseded"
        )
        for warning in outcome.warnings:
            self.stderr.write(f"[{i}/{total}] WARNING {warning}")
