"""The persisted index: a folder of segments, deletion masks and one manifest naming them.

Layout (Lucene's, simplified): ``manifest.json`` lists the live segments (``seg-*/``, see
``kbqa.core.retrieval.segment``) and, per segment, the file of its deleted positions. Every
change writes new files and then replaces the manifest atomically (``os.replace``), so a
reader always sees one consistent generation, and a reader that already opened an older
one keeps searching it (its files stay readable while mapped, even once removed).

- ``replace_documents`` (add, update, retire, purge): deletes the documents' positions in
  every segment and adds one small delta segment with their current chunks. Cost depends on
  the documents' size plus one pass over the document keys (8 bytes per chunk).
- ``merge``: rewrites all segments into one without their deleted positions, outside the
  write lock, then commits; changes committed meanwhile are re-applied (the manifest keeps
  a log of which document keys each generation replaced).
- ``version``: a ``stat`` of the manifest, a few microseconds; readers call it per query.

Writers on one machine serialise on an ``fcntl`` lock file. Linux/macOS only.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from kbqa.core.retrieval.index import IndexSnapshot
from kbqa.core.retrieval.segment import (
    Array,
    build_segment,
    merge_segments,
    open_segment,
    write_segment,
)
from kbqa.core.retrieval.semantic_sentences import (
    ChunkSentences,
    SentenceVectors,
    build_sentences,
)

MANIFEST = "manifest.json"
FORMAT = 1


@dataclass(frozen=True)
class Entry:
    """One chunk to index: its id, its document's key, its stored terms and, when a
    sentence encoder is configured, its dense vector, the encoder's name and the vectors of
    its sentences (``kbqa.core.retrieval.semantic_sentences``)."""

    chunk_id: str
    doc_key: int
    terms: Sequence[str]
    access: tuple[str, ...] = ()  # its document's access labels (() = everyone)
    vector: Array | None = None  # float32 (dim,), unit length (``retrieval.semantic``)
    vector_model: str = ""
    sentences: ChunkSentences | None = None


@dataclass
class Manifest:
    generation: int = 0
    terms_version: int = 0
    segments: list[dict[str, Any]] = field(default_factory=list)  # {"name", "deleted"}
    log: list[list[Any]] = field(default_factory=list)  # [generation, [doc keys]]


class IndexStore:
    """An index folder. Safe to use from several threads and processes at once."""

    def __init__(self, folder: Path | str) -> None:
        self.folder = Path(folder)

    # reading

    def exists(self) -> bool:
        return (self.folder / MANIFEST).is_file()

    def version(self) -> tuple[int, int] | None:
        """Changes whenever a change is committed (inode and mtime of the manifest)."""
        try:
            st = os.stat(self.folder / MANIFEST)
        except FileNotFoundError:
            return None
        return (st.st_ino, st.st_mtime_ns)

    def read_manifest(self) -> Manifest | None:
        """The current manifest, or None if the index was never built."""
        try:
            data = json.loads((self.folder / MANIFEST).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        return Manifest(data["generation"], data["terms_version"], data["segments"], data["log"])

    def open(self) -> IndexSnapshot | None:
        """The current generation, memory-mapped; None if the index was never built.

        Retries if a concurrent merge removed a file between reading the manifest and
        opening it. Raises OSError/ValueError if the files are damaged.
        """
        for attempt in range(5):
            manifest = self.read_manifest()
            if manifest is None:
                return None
            try:
                return self._open(manifest)
            except FileNotFoundError:
                if attempt == 4:
                    raise
                time.sleep(0.01)
        raise AssertionError("unreachable")

    def _open(self, manifest: Manifest) -> IndexSnapshot:
        segments, deleted = [], []
        for s in manifest.segments:
            segments.append(open_segment(self.folder / s["name"]))
            deleted.append(np.load(self.folder / s["deleted"]) if s["deleted"] else None)
        return IndexSnapshot(
            segments,
            deleted,
            generation=manifest.generation,
            terms_version=manifest.terms_version,
        )

    # writing

    @contextlib.contextmanager
    def _locked(self, name: str = "write.lock", *, wait: bool = True) -> Iterator[bool]:
        self.folder.mkdir(parents=True, exist_ok=True)
        with open(self.folder / name, "a+") as fh:
            try:
                fcntl.flock(fh, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                yield False
                return
            try:
                yield True
            finally:
                fcntl.flock(fh, fcntl.LOCK_UN)

    def build(self, batches: Iterator[Sequence[Entry]], *, terms_version: int) -> int:
        """Replace the whole index with the chunks of ``batches`` (each batch becomes a
        segment, then all are merged into one). Returns the number of chunks indexed."""
        tmp = self._tmp_folder()
        parts = []
        for batch in batches:
            parts.append((_segment_of(batch), None))
        merged = merge_segments(parts) if len(parts) != 1 else parts[0][0]
        write_segment(merged, tmp)
        with self._locked():
            old = self.read_manifest() or Manifest()
            name = self._install(tmp, old.generation + 1)
            self._commit(Manifest(old.generation + 1, terms_version, [_seg(name)], []))
        return len(merged)

    def replace_documents(
        self, doc_keys: Sequence[int], entries: Sequence[Entry], *, terms_version: int
    ) -> int:
        """Make the index hold exactly ``entries`` for the documents ``doc_keys``: their
        old positions are deleted, ``entries`` (maybe none: retire, purge) become a delta
        segment. Returns the new generation. Creates the index if there was none.
        ``terms_version`` is recorded only when the index is created (a different one
        makes the index stale; only ``build`` changes it)."""
        keys = np.unique(np.asarray(doc_keys, dtype=np.int64))
        with self._locked():
            old = self.read_manifest() or Manifest(terms_version=terms_version)
            gen = old.generation + 1
            segments = [self._delete(s, keys, gen) for s in old.segments]
            if entries:
                tmp = self._tmp_folder()
                write_segment(_segment_of(entries), tmp)
                segments.append(_seg(self._install(tmp, gen)))
            log = [*old.log, [gen, keys.tolist()]]
            self._commit(Manifest(gen, old.terms_version, segments, log))
        return gen

    def _delete(self, entry: dict[str, Any], keys: Array, gen: int) -> dict[str, Any]:
        """The segment entry with the positions of ``keys`` deleted (a new mask file if
        anything changed)."""
        if not len(keys):
            return entry
        seg = open_segment(self.folder / entry["name"])
        hit = np.isin(seg.doc_key, keys)
        if not hit.any():
            return entry
        old = np.load(self.folder / entry["deleted"]) if entry["deleted"] else None
        mask = hit if old is None else (old | hit)
        if old is not None and np.array_equal(mask, old):
            return entry
        name = f"{entry['name']}/deleted-{gen:08d}.npy"
        np.save(self.folder / name, mask)
        return {"name": entry["name"], "deleted": name}

    def merge(self, *, min_segments: int = 2) -> bool:
        """Rewrite the segments as one without deleted positions; searches go on meanwhile.

        Does nothing (returns False) when there are fewer than ``min_segments`` segments
        and no deletions, or another merge is running. Returns True after a merge.
        """
        with self._locked("merge.lock", wait=False) as got:
            if not got:
                return False
            manifest = self.read_manifest()
            if manifest is None or not _worth_merging(manifest, min_segments):
                return False
            snapshot = self._open(manifest)
            merged = merge_segments(list(zip(snapshot.segments, snapshot.live, strict=True)))
            tmp = self._tmp_folder()
            write_segment(merged, tmp)
            with self._locked():
                self._commit_merge(manifest, tmp, merged.doc_key)
        return True

    def _commit_merge(self, before: Manifest, tmp: Path, merged_keys: Array) -> None:
        now = self.read_manifest() or Manifest()
        gen = now.generation + 1
        name = self._install(tmp, gen)
        later = [keys for g, keys in now.log if g > before.generation]
        deleted = None
        if later:
            mask = np.isin(merged_keys, np.asarray(sum(later, []), dtype=np.int64))
            if mask.any():
                deleted = f"{name}/deleted-{gen:08d}.npy"
                np.save(self.folder / deleted, mask)
        merged_names = {s["name"] for s in before.segments}
        added = [s for s in now.segments if s["name"] not in merged_names]
        segments = [{"name": name, "deleted": deleted}, *added]
        self._commit(Manifest(gen, now.terms_version, segments, []))

    def _tmp_folder(self) -> Path:
        self.folder.mkdir(parents=True, exist_ok=True)
        return self.folder / f"tmp-{uuid.uuid4().hex}"

    def _install(self, tmp: Path, gen: int) -> str:
        name = f"seg-{gen:08d}"
        os.replace(tmp, self.folder / name)
        return name

    def _commit(self, manifest: Manifest) -> None:
        """Atomically replace the manifest, then remove files no manifest names any more."""
        tmp = self.folder / f"{MANIFEST}.tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump({"format": FORMAT, **manifest.__dict__}, fh)
        os.replace(tmp, self.folder / MANIFEST)
        self._collect_garbage(manifest)

    def _collect_garbage(self, manifest: Manifest) -> None:
        """Remove segments and mask files the manifest no longer names (open readers keep
        their mapped copies), and temporary folders of writers that died over an hour ago."""
        names = {s["name"] for s in manifest.segments}
        masks = {s["deleted"] for s in manifest.segments if s["deleted"]}
        for path in self.folder.iterdir():
            if path.name.startswith("seg-") and path.name not in names:
                shutil.rmtree(path, ignore_errors=True)
            elif path.name.startswith("seg-"):
                for mask in path.glob("deleted-*.npy"):
                    if f"{path.name}/{mask.name}" not in masks:
                        mask.unlink(missing_ok=True)
            elif path.name.startswith("tmp-") and time.time() - path.stat().st_mtime > 3600:
                shutil.rmtree(path, ignore_errors=True)


class IndexReader:
    """The latest committed generation of a store, reopened only when it changed.

    ``snapshot()`` costs one ``stat`` when nothing changed (every question may call it), a
    few milliseconds to map a new generation otherwise. Thread-safe.
    """

    def __init__(self, store: IndexStore) -> None:
        self.store = store
        self.opens = 0  # generations opened by this reader
        self._version: tuple[int, int] | None = None
        self._snapshot: IndexSnapshot | None = None
        self._lock = threading.Lock()

    def snapshot(self) -> IndexSnapshot | None:
        """The current snapshot, or None if the index was never built."""
        version = self.store.version()
        if version is not None and version == self._version:
            return self._snapshot
        with self._lock:
            if version is None or version != self._version:
                self._snapshot = self.store.open()
                self._version = version
                self.opens += 1
            return self._snapshot


def _seg(name: str) -> dict[str, Any]:
    return {"name": name, "deleted": None}


def _segment_of(entries: Sequence[Entry]) -> Any:
    return build_segment(
        [e.chunk_id for e in entries],
        [e.doc_key for e in entries],
        [e.terms for e in entries],
        [e.access for e in entries],
        dense := _vectors_of(entries),
        _sentences_of(entries) if dense is not None else None,
    )


def _vectors_of(entries: Sequence[Entry]) -> tuple[str, Array] | None:
    """The entries' vectors as one array, when all have one from the same encoder."""
    models = {e.vector_model if e.vector is not None else "" for e in entries}
    if len(models) != 1 or "" in models:
        return None
    return models.pop(), np.stack([np.asarray(e.vector, dtype=np.float32) for e in entries])


def _sentences_of(entries: Sequence[Entry]) -> SentenceVectors | None:
    """The entries' sentence vectors, when all have them (with ``_vectors_of``'s encoder)."""
    found = [e.sentences for e in entries if e.sentences is not None]
    if len(found) != len(entries) or not found:
        return None
    return build_sentences(found, int(np.asarray(entries[0].vector).shape[-1]))


def _worth_merging(manifest: Manifest, min_segments: int) -> bool:
    return len(manifest.segments) >= min_segments or any(s["deleted"] for s in manifest.segments)
