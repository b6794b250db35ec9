"""Ingesting many files fast (``manage.py ingest``, ``demo_setup``): what
``sources.services.documents_ingest_paths`` does.

- Worker processes (one per CPU) read, parse, chunk and tokenise files (the CPU-bound
  part, ``sources.bulk_workers``, under the parse limits) while this process stores them,
  in order.
- Files that would be one document are refused, not stored in path order
  (``sources.batch_files.DocIdClaims``).
- Files are stored a group at a time, in one transaction: a group's new documents (doc_id
  not stored yet) with one bulk INSERT per table; files of documents already stored one by
  one through ``services._store``, each in a savepoint, so a failing file changes nothing.
- Each group, once committed, becomes one index delta (``sources.indexing``). A group closes
  after ``GROUP_FILES`` files or ``GROUP_SECONDS``, so another process finds a new chunk
  within about a second of its file being read.

Measured with ``bench/ingest.py`` (README, Benchmarks).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace as dataclass_replace
from pathlib import Path

from django.db import transaction

from kbqa.core.errors import IngestError
from sources.batch_files import DocIdClaims, Item
from sources.bulk_workers import Prepared, prepared_entries
from sources.identity import fingerprints, stored_first_fingerprints
from sources.indexing import index_documents
from sources.ingest_types import (
    IngestFailure,
    IngestOverrides,
    IngestResult,
    IngestSummary,
    with_warnings,
)
from sources.models import Chunk, Document, PurgedChunk
from sources.services import _DocumentDraft, _replace_original, _store
from sources.uploads import ingest_failure_reason
from sources.versioning import chunk_id_for, chunk_row
from sources.visibility import visibility_groups

GROUP_FILES = 200
GROUP_SECONDS = 0.5
Outcome = IngestResult | IngestFailure


def ingest_entries(
    entries: Sequence[Path | IngestFailure],
    *,
    overrides: IngestOverrides,
    max_tokens: int,
    on_progress: Callable[[int, int, Outcome], None] | None,
    processes: int,
    replace: bool = False,
) -> IngestSummary:
    """Ingest ``entries`` (files, or failures standing for missing paths) in order;
    ``replace``: as ``services.document_ingest``'s."""
    results: list[IngestResult] = []
    failures: list[IngestFailure] = []

    def report(outcomes: list[Outcome]) -> None:
        for outcome in outcomes:
            (failures if isinstance(outcome, IngestFailure) else results).append(outcome)  # type: ignore[arg-type]
            if on_progress is not None:
                on_progress(len(results) + len(failures), len(entries), outcome)

    group = _Group(overrides, replace=replace)
    claims = DocIdClaims(entries)
    with prepared_entries(entries, overrides, max_tokens, processes) as prepared:
        for entry, item in zip(entries, prepared, strict=True):
            for settled in claims.take(entry, item):
                group.add(*settled)
            if group.due():
                report(group.flush())
    for settled in claims.rest():
        group.add(*settled)
    report(group.flush())
    return IngestSummary(tuple(results), tuple(failures))


class _Group:
    """Prepared files waiting to be stored together (module docstring)."""

    def __init__(self, overrides: IngestOverrides, *, replace: bool = False) -> None:
        self.overrides = overrides
        self.replace = replace
        self._items: list[Item] = []
        self._started = 0.0

    def add(self, entry: Path | IngestFailure, item: Prepared | IngestFailure) -> None:
        if not self._items:
            self._started = time.monotonic()
        self._items.append((entry, _with_groups(entry, item)))

    def due(self) -> bool:
        waited = time.monotonic() - self._started
        return len(self._items) >= GROUP_FILES or (bool(self._items) and waited >= GROUP_SECONDS)

    def flush(self) -> list[Outcome]:
        """Store the group in one transaction, index what changed; outcomes in order."""
        items, self._items = self._items, []
        outcomes: list[Outcome | None] = [None] * len(items)
        changed: list[int] = []
        with transaction.atomic():
            new, one_by_one = self._split(items, outcomes)
            if new:
                try:
                    with transaction.atomic():
                        stored = self._insert_new([items[i] for i in new])
                    for i, (result, key) in zip(new, stored, strict=True):
                        outcomes[i] = result
                        changed.append(key)
                except Exception:  # a clash or bad value: store them one by one instead
                    one_by_one = sorted(one_by_one + new)
            for i in one_by_one:
                outcomes[i] = self._store_one(items[i], changed)
        index_documents(doc_keys=changed, merge="inline")
        return [dataclass_replace(o, path=str(entry)) if isinstance(o, IngestResult) else o
                for o, (entry, _) in zip(outcomes, items, strict=True) if o is not None]

    def _split(
        self, items: list[Item], outcomes: list[Outcome | None]
    ) -> tuple[list[int], list[int]]:
        """Positions of new documents (bulk-inserted) and of the others (one by one: stored
        already, repeated in the group, limited to groups, or maybe a stored text again)."""
        drafts = [it[2] for _, it in items if not isinstance(it, IngestFailure)]
        ids = [d.fields["doc_id"] for d in drafts]
        stored = set(Document.objects.filter(doc_id__in=ids).values_list("doc_id", flat=True))
        firsts = [fingerprints(d.drafts)[0][1] for d in drafts]
        seen: set[str] = set()
        repeated = {d for d in ids if d in seen or seen.add(d)}  # type: ignore[func-returns-value]
        seen = set()
        copies = {f for f in firsts if f in seen or seen.add(f)}  # type: ignore[func-returns-value]
        copies |= stored_first_fingerprints(firsts)
        new, one_by_one = [], []
        for i, (_, item) in enumerate(items):
            if isinstance(item, IngestFailure):
                outcomes[i] = item
            elif (
                item[2].fields["doc_id"] in stored | repeated
                or item[2].groups
                or fingerprints(item[2].drafts)[0][1] in copies
            ):
                one_by_one.append(i)
            else:
                new.append(i)
        return new, one_by_one

    def _store_one(self, item: Item, changed: list[int]) -> Outcome:
        path, prepared = item
        assert isinstance(path, Path) and not isinstance(prepared, IngestFailure)
        name, data, draft = prepared
        try:
            with transaction.atomic():
                result, key = _store(name, data, draft, self.overrides, replace=self.replace)
        except Exception as exc:
            return IngestFailure(str(path), ingest_failure_reason(path.name, exc))
        if result.status not in ("unchanged", "duplicate"):
            changed.append(key)
        return with_warnings(result, draft.warnings)

    def _insert_new(self, items: list[Item]) -> list[tuple[IngestResult, int]]:
        """Insert documents whose doc_id is not stored: one INSERT per table. Raises
        ``_Clash`` if a chunk id is taken by another document (then ``_store`` decides)."""
        prepared = [p for _, p in items if not isinstance(p, IngestFailure)]
        doc_ids = [p[2].fields["doc_id"] for p in prepared]
        taken = set(
            PurgedChunk.objects.filter(doc_id__in=doc_ids).values_list("chunk_id", flat=True)
        )
        docs = []
        for name, data, draft in prepared:
            doc = Document(**draft.fields, overrides=self.overrides.stored())
            doc.content_hash = draft.content_hash
            _replace_original(doc, name, data)
            docs.append(doc)
        Document.objects.bulk_create(docs)
        chunks = [
            c for doc, p in zip(docs, prepared, strict=True) for c in _chunks(doc, p[2], taken)
        ]
        if Chunk.objects.filter(chunk_id__in=[c.chunk_id for c in chunks]).exists():
            raise _Clash
        Chunk.objects.bulk_create(chunks, batch_size=500)
        return [
            (
                IngestResult(
                    name,
                    doc.doc_id,
                    doc.title,
                    "added",
                    len(d.drafts),
                    len(d.drafts),
                    0,
                    0,
                    d.doc_id_from_name,
                    warnings=d.warnings,
                ),
                doc.pk,
            )
            for doc, (name, _, d) in zip(docs, prepared, strict=True)
        ]


def _with_groups(
    entry: Path | IngestFailure, item: Prepared | IngestFailure
) -> Prepared | IngestFailure:
    """Resolve a stated visibility to groups here, in the process that owns the database
    connection (workers never touch it)."""
    if isinstance(item, IngestFailure) or not item[2].visibility:
        return item
    name, data, draft = item
    try:
        groups = visibility_groups(name, draft.visibility)
    except IngestError as exc:
        return IngestFailure(str(entry), str(exc))
    return name, data, dataclass_replace(draft, groups=groups, visibility="")


class _Clash(Exception):
    """A new document's chunk id is already stored (only after a doc_id rename)."""


def _chunks(doc: Document, draft: _DocumentDraft, taken: set[str]) -> list[Chunk]:
    """The chunk rows of a new document: version 1, or the first one no tombstone holds."""
    rows = []
    for d, terms in zip(draft.drafts, draft.terms, strict=True):
        version = 1
        while chunk_id_for(doc.doc_id, d.ordinal, version) in taken:
            version += 1
        row = chunk_row(doc, d, terms, version)
        row.chunk_id = chunk_id_for(doc.doc_id, d.ordinal, version)
        rows.append(row)
    return rows
