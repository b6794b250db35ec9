"""Sentence vectors stored with the index, for the reader (README: Semantic recall).

The offline reader compares the question with every sentence of its blocks
(``kbqa.core.readers.extractive.meaning``). Encoding those sentences per question cost
about 40 ms each, 0.7 s for a first answer, paid again by every process; so ingestion
encodes each chunk's sentences (split as the reader splits them) next to the chunk's own
vector, and a question only encodes itself.

Layout, per segment (``kbqa.core.retrieval.segment``), beside ``vectors.npy`` and from the
same encoder (``vector_model``):

- ``sentence_offsets.npy`` int64 (positions + 1): position i's sentences are rows
  ``offsets[i]:offsets[i + 1]`` of ``sentence_vectors.npy``, float32 (sentences, dim), unit
  length. Aligned with the postings, so merges drop a deleted chunk's sentences with it.
- ``sentence_keys.npy`` uint64, ascending: the key (``sentence_key``) of every row, and
  ``sentence_rows.npy`` int64, the row each sorted key belongs to: a question's sentences
  are found by binary search (``np.searchsorted``) in memory-mapped files, whatever the size.

A vector depends only on the encoder and the sentence's text, so a key found anywhere in
the index (even at a deleted position, or in another chunk) gives the right vector.
The key is the first 8 bytes of BLAKE2b of the UTF-8 text: with a million sentences the
chance of any collision is about 3e-8 (birthday bound, n^2 / 2^65).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

if TYPE_CHECKING:  # the index imports this module through its segments
    from kbqa.core.retrieval.index import IndexSnapshot

Array = NDArray[Any]
_FILES = ("sentence_offsets", "sentence_vectors", "sentence_keys", "sentence_rows")


def sentence_key(text: str) -> int:
    """The 64-bit key of one sentence's text (module docstring)."""
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "little")


def sentence_keys(texts: Sequence[str]) -> Array:
    """uint64 (len(texts),): ``sentence_key`` of each text, in order."""
    return np.fromiter((sentence_key(t) for t in texts), dtype=np.uint64, count=len(texts))


@dataclass(frozen=True)
class ChunkSentences:
    """One chunk's sentences as the index stores them: ``keys`` uint64 (s,) and
    ``vectors`` float32 (s, dim), in reading order."""

    keys: Array
    vectors: Array


@dataclass(frozen=True)
class SentenceVectors:
    """The sentence vectors of one segment's positions (module docstring)."""

    offsets: Array  # int64 (positions + 1,)
    vectors: Array  # float32 (sentences, dim)
    keys: Array  # uint64 (sentences,), ascending
    rows: Array  # int64 (sentences,): the row of vectors each sorted key names

    def row_keys(self) -> Array:
        """uint64 (sentences,): the key of each row, in row order."""
        out = np.empty(len(self.keys), dtype=np.uint64)
        out[np.asarray(self.rows)] = self.keys
        return out

    def find(self, keys: Array) -> tuple[Array, Array]:
        """(which of ``keys`` are stored: bool mask, their rows) by binary search."""
        if not len(self.keys):
            return np.zeros(len(keys), dtype=bool), np.zeros(0, dtype=np.int64)
        at = np.searchsorted(self.keys, keys)
        at = np.minimum(at, len(self.keys) - 1)
        hit = np.asarray(self.keys)[at] == keys
        return hit, np.asarray(self.rows)[at[hit]]


def holds_sentences(snapshot: IndexSnapshot, model: str) -> bool:
    """Whether every non-empty segment of ``snapshot`` stores sentence vectors of ``model``
    (else the reader encodes the missing ones per question until ``index_build``)."""
    return all(s.sentences is not None and s.vector_model == model
               for s in snapshot.segments if len(s))


def stored_sentence_vectors(
    snapshot: IndexSnapshot, model: str, texts: Sequence[str]
) -> dict[str, Array]:
    """text -> float32 (dim,) vector of each of ``texts`` that ``snapshot`` stores from
    encoder ``model``; texts not stored are left out. Cost: one hash per text and one
    binary search per segment."""
    unique = list(dict.fromkeys(texts))
    keys = sentence_keys(unique)
    found: dict[str, Array] = {}
    for seg in snapshot.segments:
        if seg.sentences is None or seg.vector_model != model or len(found) == len(unique):
            continue
        hit, rows = seg.sentences.find(keys)
        vectors = np.asarray(seg.sentences.vectors[rows], dtype=np.float32)
        hits = (t for t, h in zip(unique, hit.tolist(), strict=True) if h)
        for text, vector in zip(hits, vectors, strict=True):
            found.setdefault(text, vector)
    return found


def build_sentences(chunks: Sequence[ChunkSentences], dim: int) -> SentenceVectors:
    """The ``SentenceVectors`` of positions holding ``chunks`` (position i = chunks[i])."""
    offsets = np.zeros(len(chunks) + 1, dtype=np.int64)
    np.cumsum([len(c.keys) for c in chunks], out=offsets[1:])
    keys = np.concatenate([c.keys for c in chunks]) if chunks else np.zeros(0, np.uint64)
    vectors = (np.concatenate([np.asarray(c.vectors, dtype=np.float32) for c in chunks])
               if chunks else np.zeros((0, dim), dtype=np.float32))
    rows = np.argsort(keys, kind="stable").astype(np.int64)
    return SentenceVectors(offsets, vectors.reshape(-1, dim), keys[rows].astype(np.uint64), rows)


def merge_sentences(parts: Sequence[tuple[SentenceVectors, Array | None]]) -> SentenceVectors:
    """The sentences of the live positions of ``parts`` ((sentences, live mask or None)),
    positions renumbered in order as ``segment.merge_segments`` does: a deleted chunk's
    sentences leave the files with it."""
    chunks: list[ChunkSentences] = []
    dim = 0
    for sents, live in parts:
        dim = int(sents.vectors.shape[1])
        counts = np.diff(np.asarray(sents.offsets))
        alive = np.ones(len(counts), dtype=bool) if live is None else np.asarray(live, bool)
        keep = np.repeat(alive, counts)
        offsets = np.zeros(int(alive.sum()) + 1, dtype=np.int64)
        np.cumsum(counts[alive], out=offsets[1:])
        keys, vectors = sents.row_keys()[keep], np.asarray(sents.vectors)[keep]
        chunks.extend(ChunkSentences(keys[a:b], vectors[a:b])
                      for a, b in zip(offsets[:-1].tolist(), offsets[1:].tolist(), strict=True))
    return build_sentences(chunks, dim)


def write_sentences(sentences: SentenceVectors, folder: Path) -> None:
    """Write the four ``.npy`` files of ``sentences`` into ``folder`` (which exists)."""
    arrays = (sentences.offsets, sentences.vectors, sentences.keys, sentences.rows)
    for name, array in zip(_FILES, arrays, strict=True):
        np.save(folder / f"{name}.npy", np.ascontiguousarray(array))


def open_sentences(folder: Path) -> SentenceVectors | None:
    """Memory-map the files ``write_sentences`` wrote, or None when ``folder`` has none
    (a segment written before sentence vectors were stored)."""
    if not (folder / f"{_FILES[0]}.npy").is_file():
        return None
    return SentenceVectors(*(_load(folder / f"{name}.npy") for name in _FILES))


def _load(path: Path) -> Array:
    # numpy cannot memory-map a zero-length array; small files are read outright
    array: Array = np.load(path, mmap_mode=None if path.stat().st_size < 4096 else "r")
    return array.view(np.ndarray)
