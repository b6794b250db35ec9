"""One immutable piece of the BM25 index: the postings of a set of chunks as numpy arrays.

A segment holds, for every chunk (a *position* 0..n-1): its chunk_id, a document key (the
stored document's primary key, so one document's chunks can be found and deleted), and its
length in terms; and for every term (sorted, found by binary search): the positions holding
it and the term frequency there (CSR layout, as Lucene's postings lists). Term statistics
(N, document frequency, average length) are NOT baked in: they are computed over the live
positions of all segments at query time (``kbqa.core.retrieval.index``), so deleting or
adding a document never forces a rebuild to keep scores exact.

A segment may also hold one dense vector per position (``vectors``, float32, unit length)
from the sentence encoder named ``vector_model`` (``kbqa.core.retrieval.semantic``): same
positions, so deletion and visibility masks apply to them unchanged; and, with them, the
vectors of each chunk's sentences for the reader (``sentences``,
``kbqa.core.retrieval.semantic_sentences``).

On disk a segment is a folder of ``.npy`` files opened with ``mmap_mode="r"``: opening costs
a few milliseconds whatever the size, and worker processes on one machine share one copy in
the page cache.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from kbqa.core.retrieval.semantic_sentences import (
    SentenceVectors,
    merge_sentences,
    open_sentences,
    write_sentences,
)

Array = NDArray[Any]
_ARRAYS = (
    "vocab_blob",
    "vocab_offsets",
    "post_offsets",
    "post_positions",
    "post_tfs",
    "doc_len",
    "doc_key",
    "ids_blob",
    "ids_offsets",
    "access_class",
    "access_blob",
    "access_offsets",
)
VECTOR_MODEL = "vector_model.txt"  # beside vectors.npy: the encoder's name


FOUND_TERMS = 65_536  # terms whose place a table remembers (about 10 MB at most), then forgets


class StringTable(Sequence[str]):
    """Strings packed as one UTF-8 byte array plus offsets; ``table[i]`` decodes one.

    Sorted tables (the vocabulary) support ``find`` by binary search: Python orders str by
    code point, which is the order of their UTF-8 bytes, so ``sorted()`` order holds.
    """

    def __init__(self, blob: Array, offsets: Array) -> None:
        self.blob = blob
        self.offsets = offsets
        # buffer views of the arrays: indexing one gives a Python int or bytes directly,
        # where a numpy scalar costs a microsecond or two per step of the binary search
        self._bytes = np.ascontiguousarray(blob).data
        self._offsets = np.ascontiguousarray(offsets).data
        self._found: dict[str, int] = {}

    @classmethod
    def of(cls, strings: Sequence[str]) -> StringTable:
        encoded = [s.encode("utf-8") for s in strings]
        offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
        np.cumsum([len(e) for e in encoded], out=offsets[1:])
        blob = np.frombuffer(b"".join(encoded), dtype=np.uint8)
        return cls(blob, offsets)

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        return str(self._bytes[self._offsets[i]:self._offsets[i + 1]], "utf-8")

    def __iter__(self) -> Iterator[str]:
        data = self.blob.tobytes()
        offs = self.offsets.tolist()
        for a, b in zip(offs, offs[1:], strict=False):
            yield data[a:b].decode("utf-8")

    def find(self, s: str) -> int:
        """Index of ``s`` in a sorted table, or -1. The answers are remembered (at most
        ``FOUND_TERMS``, then all forgotten at once): the table never changes, and one
        answer asks after the same terms several times (the question's search, the
        expansions' and the conflict gate's: 459 look-ups of about 60 distinct terms for the
        load bench's answer, 2026-12-01)."""
        found = self._found.get(s)
        if found is None:
            i = bisect.bisect_left(self, s)
            found = i if i < len(self) and self[i] == s else -1
            if len(self._found) >= FOUND_TERMS:
                self._found.clear()
            self._found[s] = found
        return found


@dataclass(frozen=True)
class Segment:
    """Postings of ``len(self)`` chunks; arrays may be in memory or memory-mapped."""

    vocab: StringTable  # sorted distinct terms
    post_offsets: Array  # int64, len(vocab) + 1: term i's postings are [off[i], off[i+1])
    post_positions: Array  # int32, positions holding the term, ascending
    post_tfs: Array  # int32, term frequency at that position
    doc_len: Array  # int32 per position: number of terms (duplicates counted)
    doc_key: Array  # int64 per position: the document's key
    chunk_ids: StringTable  # per position
    access_class: Array  # int32 per position: index into access_classes
    access_classes: StringTable  # access labels, ","-joined ("" = everyone)
    vectors: Array | None = None  # float32 (positions, dim), unit length; None: no encoder
    vector_model: str = ""  # the encoder that made ``vectors``
    sentences: SentenceVectors | None = None  # the chunks' sentences, same encoder

    def access_labels(self) -> list[tuple[str, ...]]:
        """Each access class's labels (``kbqa.core.types.Chunk.access``)."""
        return [tuple(c.split(",")) if c else () for c in self.access_classes]

    def __len__(self) -> int:
        return len(self.doc_len)

    def postings(self, term: str) -> tuple[Array, Array] | None:
        """(positions, term frequencies) of ``term``, or None if no chunk here holds it."""
        i = self.vocab.find(term)
        if i < 0:
            return None
        start, end = int(self.post_offsets[i]), int(self.post_offsets[i + 1])
        return self.post_positions[start:end], self.post_tfs[start:end]

    def term_column(self) -> Array:
        """The vocabulary index of every posting (int64, same length as post_positions)."""
        counts = np.diff(self.post_offsets)
        return np.repeat(np.arange(len(self.vocab), dtype=np.int64), counts)


def build_segment(
    chunk_ids: Sequence[str],
    doc_keys: Sequence[int],
    term_lists: Sequence[Sequence[str]],
    accesses: Sequence[Sequence[str]] = (),
    vectors: tuple[str, Array] | None = None,
    sentences: SentenceVectors | None = None,
) -> Segment:
    """A segment over chunks given as parallel sequences (position i = the i-th chunk);
    ``accesses`` are the chunks' access labels (default: everyone's); ``vectors`` the
    encoder's name and a (chunks, dim) array of their dense vectors, if any; ``sentences``
    their sentences' vectors from the same encoder (kept only with ``vectors``).

    Term frequencies and lengths count duplicates, as rank-bm25's ``doc_freqs`` and
    ``doc_len`` do. Cost: one dict look-up per term occurrence, then numpy sorting.
    """
    vocab: dict[str, int] = {}
    flat = [vocab.setdefault(t, len(vocab)) for ts in term_lists for t in ts]
    lens = np.fromiter((len(ts) for ts in term_lists), dtype=np.int32, count=len(term_lists))
    ordered = sorted(vocab)
    rank = np.empty(len(vocab), dtype=np.int64)
    rank[np.fromiter((vocab[t] for t in ordered), dtype=np.int64, count=len(ordered))] = np.arange(
        len(ordered)
    )
    positions = np.repeat(np.arange(len(lens), dtype=np.int64), lens)
    term_ids = rank[np.asarray(flat, dtype=np.int64)] if flat else np.zeros(0, dtype=np.int64)
    classes, of = _access_classes(accesses or [()] * len(chunk_ids))
    segment = _from_postings(
        ordered,
        term_ids,
        positions,
        np.ones(len(positions), dtype=np.int64),
        lens,
        np.asarray(doc_keys, dtype=np.int64),
        chunk_ids,
        (classes, of),
    )
    return _with_vectors(segment, vectors, sentences)


def _with_vectors(
    segment: Segment, vectors: tuple[str, Array] | None, sentences: SentenceVectors | None
) -> Segment:
    if vectors is None:
        return segment
    model, array = vectors
    if len(array) != len(segment):
        raise ValueError(f"{len(array)} vectors for {len(segment)} chunks")
    if sentences is not None and len(sentences.offsets) != len(segment) + 1:
        raise ValueError(f"sentences of {len(sentences.offsets) - 1} chunks for {len(segment)}")
    return replace(segment, vectors=np.asarray(array, dtype=np.float32), vector_model=model,
                   sentences=sentences)


def _access_classes(accesses: Sequence[Sequence[str]]) -> tuple[list[str], Array]:
    """Distinct access label sets (","-joined, sorted) and each position's class."""
    found: dict[str, int] = {}
    of = [found.setdefault(",".join(sorted(a)), len(found)) for a in accesses]
    return list(found), np.asarray(of, dtype=np.int32)


def _from_postings(
    vocab: Sequence[str],
    term_ids: Array,
    positions: Array,
    tfs: Array,
    lens: Array,
    doc_keys: Array,
    chunk_ids: Sequence[str],
    access: tuple[list[str], Array],
) -> Segment:
    """Sum ``tfs`` per (term, position) pair and lay the result out as CSR. Terms without
    postings (all their chunks deleted) are dropped: a purged document's words leave."""
    n = max(len(lens), 1)
    keys = term_ids * n + positions
    uniq, inverse = np.unique(keys, return_inverse=True)
    summed = np.bincount(inverse, weights=tfs, minlength=len(uniq)).astype(np.int32)
    present, post_terms = np.unique(uniq // n, return_inverse=True)
    kept = [vocab[i] for i in present.tolist()]
    offsets = np.zeros(len(kept) + 1, dtype=np.int64)
    np.cumsum(np.bincount(post_terms, minlength=len(kept)), out=offsets[1:])
    return Segment(
        vocab=StringTable.of(kept),
        post_offsets=offsets,
        post_positions=(uniq % n).astype(np.int32),
        post_tfs=summed,
        doc_len=np.asarray(lens, dtype=np.int32),
        doc_key=np.asarray(doc_keys, dtype=np.int64),
        chunk_ids=StringTable.of(chunk_ids),
        access_class=np.asarray(access[1], dtype=np.int32),
        access_classes=StringTable.of(access[0]),
    )


def merge_segments(parts: Sequence[tuple[Segment, Array | None]]) -> Segment:
    """One segment holding the live positions of ``parts`` ((segment, live mask or None)).

    Positions are renumbered in order (first part's live chunks first). Pure array work: no
    chunk is re-tokenised. Memory is about 40 bytes per live posting while it runs.
    """
    vocab = sorted(set().union(*(set(seg.vocab) for seg, _ in parts)))
    where = {t: i for i, t in enumerate(vocab)}
    cols: dict[str, list[Array]] = {k: [] for k in ("t", "p", "f", "len", "key", "acc")}
    chunk_ids: list[str] = []
    classes: dict[str, int] = {}
    vectors: list[Array] = []
    base = 0
    for seg, live in parts:
        alive = np.ones(len(seg), dtype=bool) if live is None else np.asarray(live, dtype=bool)
        new_pos = np.cumsum(alive, dtype=np.int64) - 1 + base
        to_merged = np.fromiter((where[t] for t in seg.vocab), np.int64, count=len(seg.vocab))
        pos = np.asarray(seg.post_positions, dtype=np.int64)
        keep = alive[pos]
        cols["t"].append(to_merged[seg.term_column()[keep]])
        cols["p"].append(new_pos[pos[keep]])
        cols["f"].append(np.asarray(seg.post_tfs)[keep].astype(np.int64))
        cols["len"].append(np.asarray(seg.doc_len)[alive])
        cols["key"].append(np.asarray(seg.doc_key)[alive])
        to_class = [classes.setdefault(c, len(classes)) for c in seg.access_classes]
        remap = np.asarray(to_class, dtype=np.int32)
        cols["acc"].append(remap[np.asarray(seg.access_class)[alive]])
        chunk_ids.extend(cid for cid, a in zip(seg.chunk_ids, alive.tolist(), strict=True) if a)
        if seg.vectors is not None:
            vectors.append(np.asarray(seg.vectors)[alive])
        base += int(alive.sum())

    def cat(name: str, dtype: Any) -> Array:
        return np.concatenate(cols[name]) if cols[name] else np.zeros(0, dtype=dtype)

    merged = _from_postings(
        vocab,
        cat("t", np.int64),
        cat("p", np.int64),
        cat("f", np.int64),
        cat("len", np.int32),
        cat("key", np.int64),
        chunk_ids,
        (list(classes), cat("acc", np.int32)),
    )
    dense = _merged_vectors(parts, vectors)
    return _with_vectors(merged, dense, _merged_sentences(parts) if dense else None)


def _merged_vectors(
    parts: Sequence[tuple[Segment, Array | None]], vectors: list[Array]
) -> tuple[str, Array] | None:
    """The parts' vectors end to end, if every part has them from one encoder (else None:
    mixed vectors are never compared, ``index_build`` recomputes them)."""
    models = {seg.vector_model if seg.vectors is not None else "" for seg, _ in parts if len(seg)}
    if len(models) != 1 or "" in models:
        return None
    return models.pop(), np.concatenate(vectors)


def _merged_sentences(parts: Sequence[tuple[Segment, Array | None]]) -> SentenceVectors | None:
    """The parts' sentence vectors, if every non-empty part has them (else None: the
    reader encodes per question until ``index_build``)."""
    parts = [(seg, live) for seg, live in parts if len(seg)]  # an empty part has no vectors
    with_sentences = [(seg.sentences, live) for seg, live in parts if seg.sentences is not None]
    if not parts or len(with_sentences) != len(parts):
        return None
    return merge_sentences(with_sentences)


def write_segment(segment: Segment, folder: Path) -> None:
    """Write ``segment`` as ``.npy`` files into ``folder`` (created; must not exist yet).

    Not fsynced: the index is derived data (the chunk table is the truth), so after a power
    loss ``manage.py index_build`` rebuilds it; an fsync per file cost more than the rest
    of a one-document update (measured with ``bench/ingest.py``, 2026-11-30).
    """
    folder.mkdir(parents=True)
    arrays = {
        "vocab_blob": segment.vocab.blob,
        "vocab_offsets": segment.vocab.offsets,
        "post_offsets": segment.post_offsets,
        "post_positions": segment.post_positions,
        "post_tfs": segment.post_tfs,
        "doc_len": segment.doc_len,
        "doc_key": segment.doc_key,
        "ids_blob": segment.chunk_ids.blob,
        "ids_offsets": segment.chunk_ids.offsets,
        "access_class": segment.access_class,
        "access_blob": segment.access_classes.blob,
        "access_offsets": segment.access_classes.offsets,
    }
    for name, array in arrays.items():
        np.save(folder / f"{name}.npy", np.ascontiguousarray(array))
    if segment.vectors is not None:
        np.save(folder / "vectors.npy", np.ascontiguousarray(segment.vectors, dtype=np.float32))
        (folder / VECTOR_MODEL).write_text(segment.vector_model, encoding="utf-8")
        if segment.sentences is not None:
            write_sentences(segment.sentences, folder)


def open_segment(folder: Path) -> Segment:
    """Memory-map a segment written by ``write_segment`` (no data is read until used).

    Raises OSError if a file is missing, ValueError if one is not a ``.npy`` array.
    """
    a = {name: _load(folder / f"{name}.npy") for name in _ARRAYS}
    has_vectors = (folder / VECTOR_MODEL).is_file()
    return Segment(
        vocab=StringTable(a["vocab_blob"], a["vocab_offsets"]),
        post_offsets=a["post_offsets"],
        post_positions=a["post_positions"],
        post_tfs=a["post_tfs"],
        doc_len=a["doc_len"],
        doc_key=a["doc_key"],
        chunk_ids=StringTable(a["ids_blob"], a["ids_offsets"]),
        access_class=a["access_class"],
        access_classes=StringTable(a["access_blob"], a["access_offsets"]),
        vectors=_load(folder / "vectors.npy") if has_vectors else None,
        vector_model=(folder / VECTOR_MODEL).read_text("utf-8") if has_vectors else "",
        sentences=open_sentences(folder) if has_vectors else None,
    )


def _load(path: Path) -> Array:
    # numpy cannot memory-map a zero-length array (mmap needs >= 1 byte of data)
    array: Array = np.load(path, mmap_mode=None if path.stat().st_size < 4096 else "r")
    # a plain ndarray view of the mapping: slicing np.memmap costs microseconds per slice
    return array.view(np.ndarray)
