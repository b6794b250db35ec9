"""``python manage.py index_build``: (re)build the retrieval index from the stored terms."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from kbqa.arguments import whole_number
from sources.indexing import index_build, index_store, stale_terms_count
from sources.models import Chunk
from sources.selectors import index_status


class Command(BaseCommand):
    help = (
        "Rebuild the retrieval index (KBQA_INDEX_DIR) from every current chunk's stored "
        "terms, first re-tokenising chunks whose terms come from another tokenizer version. "
        "Run it after upgrading (new migrations or a new TERMS_VERSION); ingesting, retiring "
        "and purging keep the index up to date on their own. Running servers pick the new "
        "index up within a second. --status only reports; --merge only merges segments."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--status", action="store_true", help="report, change nothing")
        parser.add_argument("--merge", action="store_true", help="only merge the segments")
        parser.add_argument(
            "--processes", type=whole_number(0), default=0,
            help="tokenising processes (0: one per CPU)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["status"]:
            self._status()
            return
        start = time.perf_counter()
        if options["merge"]:
            merged = index_store().merge(min_segments=1)
            self.stdout.write("merged" if merged else "nothing to merge (or a merge is running)")
            return
        total = stale_terms_count() + Chunk.objects.filter(is_current=True).count()
        with tqdm(total=total, unit="chunk", disable=None, file=self.stderr) as bar:
            result = index_build(processes=options["processes"], on_progress=bar.update)
        seconds = time.perf_counter() - start
        self.stdout.write(
            f"indexed {result.indexed} chunks ({result.retokenised} re-tokenised) "
            f"in {seconds:.1f} s into {index_store().folder}"
        )

    def _status(self) -> None:
        status = index_status()
        stale = stale_terms_count()
        self.stdout.write(
            f"index: {'built' if status.built else 'missing'}, generation {status.generation}, "
            f"{status.chunks} chunks, terms version {status.terms_version}; "
            f"chunks with stale terms: {stale}"
        )
        if status.problem or stale:
            raise CommandError(status.problem or f"{stale} chunks need index_build")
