"""``python manage.py documents_purge DOC_ID... --yes``: delete documents for good."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from sources.ingest_types import chunks_phrase
from sources.lifecycle import document_purge
from sources.models import Document


class Command(BaseCommand):
    help = (
        "Purge documents: delete their rows, all their chunks (current, superseded and "
        "retired) and their stored original files. This cannot be undone. Use it only for "
        "content that must be removed; to take a document out of answers, delete it in the "
        "admin instead (it is retired and can be restored). A stored answer that cited a "
        'purged chunk shows the passage as "no longer available"; the chunk ids are '
        "remembered (no text) and never given to other text. Without --yes nothing changes."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("doc_ids", nargs="+", help="doc_id of each document to purge")
        parser.add_argument("--yes", action="store_true", help="really purge (no prompt)")

    def handle(self, *args: Any, **options: Any) -> None:
        doc_ids: list[str] = options["doc_ids"]
        documents = {d.doc_id: d for d in Document.objects.filter(doc_id__in=doc_ids)}
        missing = [d for d in doc_ids if d not in documents]
        if missing:
            raise CommandError(f"no document with doc_id: {', '.join(missing)}; nothing purged")
        if not options["yes"]:
            for doc_id, doc in documents.items():
                self.stdout.write(f"would purge {doc_id}: {chunks_phrase(doc.chunks.count())}")
            raise CommandError("nothing purged; add --yes to purge for good")
        for doc_id in dict.fromkeys(doc_ids):
            result = document_purge(document=documents[doc_id])
            file_note = f", file {result.original_file}" if result.original_file else ""
            self.stdout.write(f"purged {doc_id}: {chunks_phrase(result.chunks)}{file_note}")
