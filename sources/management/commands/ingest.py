"""``python manage.py ingest PATH...``: ingest files and folders into the knowledge base."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from kbqa.arguments import whole_number
from sources.indexing import index_build, stale_terms_count
from sources.ingest_types import (
    IngestFailure,
    IngestOverrides,
    IngestResult,
    changes,
    chunks_phrase,
)
from sources.models import Authority
from sources.selectors import index_status
from sources.services import documents_ingest_paths


class Command(BaseCommand):
    help = (
        "Ingest documents (Markdown, text, HTML, PDF, DOCX) from files or folders. "
        "Prints one line per file, named by its path (a failed file or missing path with the "
        "reason), and a summary; a file that fails changes nothing stored, and files that "
        "would be one document (the same doc_id) are all refused. Exit code 1 when no file could "
        "be ingested (every file failed, or no path exists); 0 when some files failed but "
        "others went in, unless --strict."
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
        parser.add_argument("--max-tokens", type=whole_number(1), default=None,
                            help="chunk size (tokens, 1 or more; default KBQA_CHUNK_TOKENS)")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="let a file replace a stored document of the same doc_id that came from "
            "another file (without it, such a file fails and nothing changes)",
        )
        parser.add_argument("--strict", action="store_true", help="exit 1 if any file failed")
        parser.add_argument("--quiet", action="store_true", help="no line per file")
        parser.add_argument(
            "--processes", type=whole_number(0), default=0,
            help="parsing processes (0: one per CPU)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        self._quiet = options["quiet"]
        overrides = IngestOverrides(
            authority=options["authority"],
            language=options["language"],
            updated=options["updated"],
            source_url=options["source_url"],
            visibility=options["groups"],
        )
        # the bar goes to a terminal only (tqdm's disable=None), never into redirected output
        with tqdm(unit="file", disable=None, file=self.stderr._out) as self._bar:
            summary = documents_ingest_paths(
                paths=options["paths"],
                overrides=overrides,
                max_tokens=options["max_tokens"],
                on_progress=self._progress,
                processes=options["processes"],
                replace=options["replace"],
            )
        self.stdout.write(summary.line())
        self._rebuild_if_stale(options["processes"])
        if summary.failures and (options["strict"] or not summary.results):
            raise CommandError(f"{len(summary.failures)} file(s) failed"
                               + ("" if summary.results else ", none was ingested"))

    def _rebuild_if_stale(self, processes: int) -> None:
        """Rebuild here, in the ingesting process, when the index is missing or was built
        with another tokenizer version (never in a server request)."""
        stale = stale_terms_count()
        problem = index_status().problem
        if not (problem or stale):
            return
        self.stderr.write(f"{problem or f'{stale} chunks have stale terms'}: rebuilding")
        result = index_build(processes=processes)
        self.stdout.write(
            f"index rebuilt: {result.indexed} chunks ({result.retokenised} re-tokenised)"
        )

    def _progress(self, i: int, total: int, outcome: IngestResult | IngestFailure) -> None:
        self._bar.total = total
        self._bar.update(1)
        if isinstance(outcome, IngestFailure):
            self.stderr.write(f"[{i}/{total}] FAILED {as_given(outcome.reason, outcome.name)}")
            return
        if self._quiet and not outcome.replaced:
            return
        path = outcome.path or outcome.name
        self.stdout.write(
            f"[{i}/{total}] {outcome.status:<9} {outcome.doc_id} ({path}): "
            f"{chunks_phrase(outcome.chunks)}, {outcome.chunks_added} new, "
            f"{outcome.chunks_superseded} superseded{changes(outcome)}"
        )
        for warning in outcome.warnings:
            self.stderr.write(f"[{i}/{total}] WARNING {as_given(warning, path)}")


def as_given(text: str, path: str) -> str:
    """``text`` (a reason or warning that starts with the file's name, ``name: ...``) starting
    with ``path`` as given instead: two files of one name in two folders are told apart."""
    name = Path(path).name
    return path + text[len(name):] if text.startswith(f"{name}:") else text
