"""Writes to the retrieval index: keeping the files in ``KBQA_INDEX_DIR`` in step with the
chunk table, which stays the truth.

- Every write that changes which chunks are current (ingest, re-ingest, retire, restore,
  purge) calls ``index_documents`` with the documents' keys once its transaction is done:
  their chunks are replaced in a small delta segment (``kbqa.core.retrieval.store``), read
  with their stored terms, never re-tokenised unless their ``terms_version`` is old.
- ``index_build`` (``manage.py index_build``) re-tokenises chunks whose stored terms are
  from another ``TERMS_VERSION`` and rebuilds the whole index; nothing else builds it, and
  no request ever does.
- Merging deltas back into one segment runs in a background thread (or inline in commands)
  once there are ``KBQA_INDEX_MAX_SEGMENTS`` segments, and after every purge, so a purged
  document's terms leave the files too.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Collection, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from django.conf import settings

from kbqa.core.retrieval.store import Entry, IndexStore
from kbqa.core.text.terms import TERMS_VERSION
from sources.chunk_terms import joined_terms as joined_terms  # callers found it here
from sources.models import Chunk, Document
from sources.vectors import current_encoder, with_vectors

logger = logging.getLogger(__name__)
ProgressFn = Callable[[int], None]
BATCH = 20_000  # chunks per build batch: bounds memory (about 1 KB per chunk while building)


def index_store() -> IndexStore:
    """The index folder of this installation (``settings.KBQA_INDEX_DIR``)."""
    return IndexStore(settings.KBQA_INDEX_DIR)


def terms_in_parallel(pairs: Sequence[tuple[str, str]], *, processes: int = 0) -> list[str]:
    """``joined_terms`` of many (section, text) pairs, in order, using ``processes`` worker
    processes (0: one per CPU; below 200 pairs, or 1 process, in this one)."""
    processes = processes or os.cpu_count() or 1
    if processes < 2 or len(pairs) < 200:
        return [joined_terms(s, t) for s, t in pairs]
    with ProcessPoolExecutor(processes) as pool:
        return list(pool.map(_joined, pairs, chunksize=64))


def _joined(pair: tuple[str, str]) -> str:
    return joined_terms(*pair)


def index_documents(*, doc_keys: Collection[int], merge: str = "auto") -> None:
    """Make the index hold exactly the current chunks of these documents (primary keys;
    a purged or retired document has none). Never raises: a failure is logged, and the
    index stays as it was until the next change or ``manage.py index_build``.

    ``merge``: "auto" merges in a background thread when there are
    ``KBQA_INDEX_MAX_SEGMENTS`` segments or more, "inline" does the same before returning
    (commands), "now" always merges before returning, "never" leaves it to a later change.
    """
    if not doc_keys:
        return
    try:
        store = index_store()
        if not store.exists() and _others_exist(doc_keys):
            logger.warning("no retrieval index to update; run manage.py index_build")
            return  # a delta alone would hide every other document
        entries = _current_entries(list(doc_keys), store)
        store.replace_documents(list(doc_keys), entries, terms_version=TERMS_VERSION)
        manifest = store.read_manifest()
        crowded = manifest is not None and (
            len(manifest.segments) >= settings.KBQA_INDEX_MAX_SEGMENTS
        )
        if merge == "now" or (merge == "inline" and crowded):
            store.merge(min_segments=1)
        elif merge == "auto" and crowded:
            merge_in_background()
    except Exception:
        logger.exception("retrieval index update failed; run manage.py index_build")


def _others_exist(doc_keys: Collection[int]) -> bool:
    """Whether current chunks of documents other than these are stored."""
    return Chunk.objects.filter(is_current=True).exclude(document_id__in=doc_keys).exists()


def _current_entries(doc_keys: list[int], store: IndexStore) -> list[Entry]:
    """Index entries of the documents' current chunks, refreshing stale stored terms, with
    their vectors when an encoder is configured (``sources.vectors``). Texts are read only
    for that: a 15 MB document's 22,604 chunks took 3.8 s to read back with them."""
    encoder = current_encoder()
    rows = Chunk.objects.filter(
        document_id__in=doc_keys, is_current=True, document__retired_at__isnull=True
    ).order_by("chunk_id")
    if encoder is None:
        rows = rows.only("chunk_id", "document_id", "terms", "terms_version")
    else:
        rows = rows.select_related("document")
    chunks = list(rows)
    stale = [c for c in chunks if c.terms_version != TERMS_VERSION]
    for c in stale:  # rare (terms from an older TERMS_VERSION): their texts are read here
        c.terms, c.terms_version = joined_terms(c.section, c.text), TERMS_VERSION
    Chunk.objects.bulk_update(stale, ["terms", "terms_version"], batch_size=500)
    access = documents_access(doc_keys)
    entries = [
        Entry(c.chunk_id, c.document_id, c.terms.split(), access[c.document_id]) for c in chunks
    ]
    if encoder is None:
        return entries
    texts = [(c.document.title, c.section, c.text) for c in chunks]
    return with_vectors(entries, texts, store=store, encoder=encoder)


def documents_access(doc_keys: Collection[int] | None = None) -> dict[int, tuple[str, ...]]:
    """Access labels (``selectors.document_access``) of these documents, or of all."""
    from sources.selectors import document_access

    docs = Document.objects.prefetch_related("groups")
    if doc_keys is not None:
        docs = docs.filter(pk__in=list(doc_keys))
    return {d.pk: document_access(d) for d in docs}


_merging = threading.Lock()


def merge_in_background() -> None:
    """Merge segments in a daemon thread (one at a time per process; searches go on)."""
    if not _merging.acquire(blocking=False):
        return
    store = index_store()

    def run() -> None:
        try:
            store.merge()
        except Exception:
            logger.exception("retrieval index merge failed")
        finally:
            _merging.release()

    threading.Thread(target=run, name="kbqa-index-merge", daemon=True).start()


@dataclass(frozen=True)
class BuildResult:
    """What ``index_build`` did: chunks re-tokenised, chunks indexed."""

    retokenised: int
    indexed: int


def stale_terms_count() -> int:
    """Stored chunks whose terms are from another TERMS_VERSION (or were never computed)."""
    return Chunk.objects.exclude(terms_version=TERMS_VERSION).count()


def terms_refresh(*, processes: int = 0, on_progress: ProgressFn | None = None) -> int:
    """Re-tokenise every chunk whose stored terms are stale (parallel, bulk writes).
    Returns how many; ``on_progress(n)`` is called after each batch of n chunks."""
    done = 0
    while True:
        rows = list(
            Chunk.objects.exclude(terms_version=TERMS_VERSION).only("pk", "section", "text")[:BATCH]
        )
        if not rows:
            return done
        fresh = terms_in_parallel([(c.section, c.text) for c in rows], processes=processes)
        for c, t in zip(rows, fresh, strict=True):
            c.terms, c.terms_version = t, TERMS_VERSION
        Chunk.objects.bulk_update(rows, ["terms", "terms_version"], batch_size=1000)
        done += len(rows)
        if on_progress is not None:
            on_progress(len(rows))


def index_build(*, processes: int = 0, on_progress: ProgressFn | None = None) -> BuildResult:
    """Re-tokenise stale chunks, then replace the index with every current chunk of a
    document in the knowledge base, read with its stored terms in chunk_id order."""
    retokenised = terms_refresh(processes=processes, on_progress=on_progress)
    store = index_store()
    indexed = store.build(_batches(on_progress, store), terms_version=TERMS_VERSION)
    return BuildResult(retokenised, indexed)


def _batches(on_progress: ProgressFn | None, store: IndexStore) -> Iterator[list[Entry]]:
    access = documents_access()
    encoder = current_encoder()
    fields = ["chunk_id", "document_id", "terms"]
    if encoder is not None:
        fields += ["document__title", "section", "text"]
    rows = (
        Chunk.objects.filter(is_current=True, document__retired_at__isnull=True)
        .order_by("chunk_id")
        .values_list(*fields)
        .iterator(chunk_size=BATCH)
    )
    batch: list[Entry] = []
    texts: list[tuple[str, str, str]] = []
    for chunk_id, doc_key, terms, *text in rows:
        batch.append(Entry(chunk_id, doc_key, terms.split(), access[doc_key]))
        texts.append((text[0], text[1], text[2]) if text else ("", "", ""))
        if len(batch) == BATCH:
            yield with_vectors(batch, texts, store=store, encoder=encoder)
            if on_progress is not None:
                on_progress(len(batch))
            batch, texts = [], []
    # the last one, maybe empty: an empty knowledge base gives an empty index
    yield with_vectors(batch, texts, store=store, encoder=encoder)
    if on_progress is not None:
        on_progress(len(batch))
