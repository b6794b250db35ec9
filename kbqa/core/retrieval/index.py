"""BM25 search over a set of segments with deleted positions (one consistent snapshot).

Scores equal rank-bm25's ``BM25Okapi`` with Lucene's IDF (``bm25.LuceneBM25``) computed
over the chunks counted: N, the average length and each term's document frequency are
counted over positions not deleted, at query time, so an index of a base segment plus small
delta segments answers exactly as one built from scratch over the same chunks. The
arithmetic follows rank-bm25's ``get_scores`` operation by operation, in query-term order,
so scores are bit-identical, not merely close.

Visibility: ``search(..., audience=...)`` counts only the positions whose access labels
the audience may read (a boolean mask per segment, built once per audience and snapshot)
and takes the statistics of that set too, so a hidden document changes no score, rank or
relevance (README: Who may read what): the same answer as an index of the readable chunks.
"""

from __future__ import annotations

import bisect
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kbqa.core.retrieval.scoring import K1, B, ideal_score, length_allowance, lucene_idf
from kbqa.core.retrieval.segment import Array, Segment
from kbqa.core.types import Audience

IMPACT_CACHE = 32_000_000  # floats (256 MB) of cached term impacts per view, at most
IMPACT_MIN = 1_000  # postings: shorter lists are cheap to score, not worth caching
BLOCK = 1024  # scores per block for the top-k cut-off (see _segment_best; a max over
# 1,024-wide rows took 0.02 ms per 100,000 scores, over 64-wide rows 0.9 ms: 2026-11-30)
VIEWS = 64  # audiences whose masks a snapshot keeps
KNOWN_TERMS = 65_536  # terms whose presence a snapshot remembers (``knows``)


@dataclass(frozen=True)
class Hit:
    """One search result: the chunk's id and document key, its BM25 score and relevance."""

    chunk_id: str
    doc_key: int
    score: float
    relevance: float


@dataclass
class _View:
    """The chunks one audience searches: per segment a mask of counted positions (None:
    all), their number and average length, and caches valid for these statistics."""

    masks: tuple[Array | None, ...]
    total: int
    avgdl: float
    norms: dict[int, Array] = field(default_factory=dict)
    impacts: OrderedDict[tuple[int, str], Array] = field(default_factory=OrderedDict)
    impacts_size: int = 0


class IndexSnapshot:
    """Segments plus their deletion masks, searched as one index. Read-only, thread-safe.

    ``deleted[i]`` is a bool array over segment i's positions (True = not live) or None.
    """

    def __init__(
        self,
        segments: Sequence[Segment],
        deleted: Sequence[Array | None] = (),
        *,
        generation: int = 0,
        terms_version: int = 0,
    ) -> None:
        self.segments = tuple(segments)
        masks = list(deleted) + [None] * (len(self.segments) - len(deleted))
        self.live: tuple[Array | None, ...] = tuple(None if d is None else ~d for d in masks)
        self.generation = generation
        self.terms_version = terms_version
        self._lock = threading.Lock()
        self._views: dict[Audience, _View] = {}
        self._known: dict[str, bool] = {}
        self._words: dict[str, tuple[str, ...]] = {}
        #: each query term's expansions for this snapshot (``synonyms.lexical_query``'s memo)
        self.expansions: dict[tuple[str, str], tuple[str, ...]] = {}
        #: searches already made on this snapshot (``sources.selectors.chunks_search``'s memo)
        self.searches: dict[tuple[Any, ...], tuple[Hit, ...]] = {}
        self._all = self._view_of(self.live)
        self.total = self._all.total
        self.avgdl = self._all.avgdl

    def __len__(self) -> int:
        """Number of live chunks."""
        return self.total

    def _view_of(self, masks: Sequence[Array | None]) -> _View:
        total, total_len = 0, 0
        for seg, mask in zip(self.segments, masks, strict=True):
            lens = np.asarray(seg.doc_len, dtype=np.int64)
            total += len(seg) if mask is None else int(mask.sum())
            total_len += int(lens.sum() if mask is None else lens[mask].sum())
        # rank-bm25: avgdl = num_doc / corpus_size, both integers
        return _View(tuple(masks), total, total_len / total if total else 0.0)

    def view(self, audience: Audience | None) -> _View:
        """The chunks ``audience`` may read (None or ``everything``: every live chunk)."""
        if audience is None or audience.everything:
            return self._all
        found = self._views.get(audience)
        if found is None:
            masks = [
                _and(live, _readable(seg, audience))
                for seg, live in zip(self.segments, self.live, strict=True)
            ]
            found = self._view_of(masks)
            with self._lock:
                if len(self._views) >= VIEWS:
                    self._views.clear()
                self._views[audience] = found
        return found

    def _postings(self, term: str, view: _View) -> list[tuple[int, Array, Array]]:
        """(segment number, counted positions, their term frequencies) for ``term``."""
        parts = []
        for i, (seg, mask) in enumerate(zip(self.segments, view.masks, strict=True)):
            found = seg.postings(term)
            if found is None:
                continue
            pos, tfs = found
            if mask is not None:
                keep = mask[pos]
                pos, tfs = pos[keep], tfs[keep]
            if len(pos):
                parts.append((i, pos, tfs))
        return parts

    def doc_freq(self, term: str, audience: Audience | None = None) -> int:
        """Counted chunks containing ``term``."""
        return sum(len(pos) for _, pos, _ in self._postings(term, self.view(audience)))

    def knows(self, term: str) -> bool:
        """Whether some live chunk (whoever may read it) has ``term``. Remembered per
        snapshot (at most ``KNOWN_TERMS`` terms, then all forgotten at once): the snapshot
        never changes, and expanding one query asks after the same terms many times (each
        gloss of each word the index lacks, in up to four inflections)."""
        known = self._known.get(term)
        if known is None:
            known = self.doc_freq(term) > 0
            if len(self._known) >= KNOWN_TERMS:
                self._known.clear()
            self._known[term] = known
        return known

    def words_starting(self, letter: str) -> tuple[str, ...]:
        """The English (ASCII letters only) terms of 3+ letters starting with ``letter``, in
        any segment, sorted: spelling correction's candidates (``text.spelling``). A range
        of each sorted vocabulary, read once per letter per snapshot."""
        found = self._words.get(letter)
        if found is None:
            words: set[str] = set()
            for seg in self.segments:
                lo = bisect.bisect_left(seg.vocab, letter)
                hi = bisect.bisect_left(seg.vocab, chr(ord(letter) + 1))
                words.update(w for w in seg.vocab[lo:hi]
                             if len(w) >= 3 and w.isascii() and w.isalpha())
            found = tuple(sorted(words))
            with self._lock:
                self._words[letter] = found
        return found

    def idf(self, term: str, audience: Audience | None = None) -> float:
        """Lucene IDF of ``term`` over the counted chunks (n = 0 for an unseen term)."""
        return lucene_idf(self.doc_freq(term, audience), self.view(audience).total)

    def _norm(self, view: _View, i: int) -> Array:
        """Segment i's length normalisation per position, ``k1 * (1 - b + b * dl / avgdl)``,
        computed once per view (8 bytes per chunk) with rank-bm25's exact expression."""
        norm = view.norms.get(i)
        if norm is None:
            doc_len = np.asarray(self.segments[i].doc_len, dtype=np.float64)
            norm = K1 * (1 - B + B * doc_len / (view.avgdl or 1.0))
            view.norms[i] = norm
        return norm

    def scores(
        self, query_terms: Sequence[str], audience: Audience | None = None,
        weights: Mapping[str, float] | None = None,
    ) -> tuple[dict[int, Array], dict[str, int]]:
        """BM25 score arrays per segment touched (float64, one per position; positions not
        counted score 0) and each distinct query term's document frequency. A term listed
        in ``weights`` contributes that fraction of its BM25 score (thesaurus expansions,
        ``kbqa.core.retrieval.synonyms``); the others count fully."""
        view = self.view(audience)
        out: dict[int, Array] = {}
        freqs: dict[str, int] = {}
        for term in dict.fromkeys(query_terms):
            parts = self._postings(term, view)
            freqs[term] = sum(len(pos) for _, pos, _ in parts)
            if not parts:
                continue  # rank-bm25 adds idf 0 for an unseen term
            idf = lucene_idf(freqs[term], view.total)
            for i, pos, tfs in parts:
                score = out.get(i)
                if score is None:
                    score = out[i] = np.zeros(len(self.segments[i]))
                # adds in query-term order from 0.0, as rank-bm25's ``score += ...`` does:
                # the same floats (numpy 2's add.at; bincount with weights was 6x slower)
                impact = self._impact(view, i, term, idf, pos, tfs)
                if weights and term in weights:
                    impact = impact * weights[term]
                np.add.at(score, pos, impact)
        return out, freqs

    def _impact(self, view: _View, i: int, term: str, idf: float, pos: Array, tfs: Array) -> Array:
        """``term``'s score contribution at ``pos`` in segment i (rank-bm25's expression).

        The arrays of the terms with the longest postings are kept for this view (LRU,
        ``IMPACT_CACHE`` floats, 8 bytes each, per process): a frequent term then costs one
        scatter-add, as in bm25s, instead of six array passes."""
        key = (i, term)
        with self._lock:
            cached = view.impacts.get(key)
            if cached is not None:
                view.impacts.move_to_end(key)
                return cached
        q_freq = tfs.astype(np.float64)
        impact: Array = idf * (q_freq * (K1 + 1) / (q_freq + self._norm(view, i)[pos]))
        if len(impact) >= IMPACT_MIN:
            with self._lock:
                view.impacts[key] = impact
                view.impacts_size += len(impact)
                while view.impacts_size > IMPACT_CACHE:
                    _, old = view.impacts.popitem(last=False)
                    view.impacts_size -= len(old)
        return impact

    def search(
        self,
        query_terms: Sequence[str],
        k: int,
        *,
        audience: Audience | None = None,
        ideal_terms: Sequence[str] | None = None,
        weights: Mapping[str, float] | None = None,
        groups: Sequence[frozenset[str]] = (),
        min_groups: int = 0,
    ) -> list[Hit]:
        """At most ``k`` hits with score > 0 among the chunks ``audience`` may read (None:
        all), best first, ties by chunk_id ascending.

        ``query_terms`` count once each (distinct). ``relevance = score *
        length_allowance / ideal_score`` (``scoring``: ``ideal_score`` over
        ``ideal_terms``, default the query terms, with that set's IDFs), in [0, 1];
        ``weights`` scale terms in both (``scores``). With ``min_groups``, only chunks
        holding a term of at least that many of ``groups`` are hits (a translated query's
        words, each with its alternatives: ``cross_language``). Returns [] for an empty
        index or readable set, k < 1, or no terms.
        """
        terms = list(dict.fromkeys(query_terms))
        view = self.view(audience)
        if not terms or k < 1 or not view.total:
            return []
        per_segment, freqs = self.scores(terms, audience, weights)
        if min_groups:
            per_segment = self._with_groups(per_segment, view, groups, min_groups)
        candidates = []
        for i, score in per_segment.items():
            pos = _segment_best(score, k)
            candidates.append((i, pos, score[pos]))
        hits = _best(candidates, k)
        counted = terms if ideal_terms is None else ideal_terms
        ideal = ideal_score(counted, lambda t: self._idf_in(view, t, freqs)
                            * (weights.get(t, 1.0) if weights else 1.0))
        found = sorted(
            (-value, self.segments[i].chunk_ids[p], int(self.segments[i].doc_key[p]), value, i, p)
            for i, p, value in hits
        )[:k]
        return [
            Hit(cid, key, value,
                min(value * length_allowance(float(self._norm(view, i)[p])) / ideal, 1.0)
                if ideal > 0 else 0.0)
            for _, cid, key, value, i, p in found
        ]

    def _with_groups(self, per_segment: dict[int, Array], view: _View,
                     groups: Sequence[frozenset[str]], least: int) -> dict[int, Array]:
        """``per_segment``'s scores, 0 where a position holds terms of fewer than ``least``
        of ``groups``."""
        counts = {i: np.zeros(len(self.segments[i]), dtype=np.int32) for i in per_segment}
        for group in groups:
            held = {i: np.zeros(len(c), dtype=bool) for i, c in counts.items()}
            for term in group:
                for i, pos, _ in self._postings(term, view):
                    if i in held:
                        held[i][pos] = True
            for i, c in counts.items():
                c += held[i]
        return {i: np.where(counts[i] >= least, score, 0.0) for i, score in per_segment.items()}

    def _idf_in(self, view: _View, term: str, freqs: dict[str, int]) -> float:
        if term not in freqs:
            freqs[term] = sum(len(pos) for _, pos, _ in self._postings(term, view))
        return lucene_idf(freqs[term], view.total)


def _readable(seg: Segment, audience: Audience) -> Array | None:
    """Mask of ``seg``'s positions ``audience`` may read; None when it may read them all."""
    labels = seg.access_labels()
    ok = [i for i, access in enumerate(labels) if audience.may_read(access)]
    if len(ok) == len(labels):
        return None
    return np.isin(seg.access_class, np.asarray(ok, dtype=np.int32))


def _and(a: Array | None, b: Array | None) -> Array | None:
    if a is None:
        return b
    return a if b is None else a & b


def _segment_best(score: Array, k: int) -> Array:
    """Positions with score > 0 that may be among one segment's top ``k`` (ties included).

    A cut-off from block maxima: the k-th largest of the maxima of ``BLOCK``-sized blocks
    is k distinct scores, so at least k scores reach it, and every top-k score is >= it.
    Two passes over the scores, where numpy's introselect (``argpartition``) took tens of
    milliseconds on 100,000 scores that are mostly 0 or tied (measured 2026-11-30)."""
    n = len(score)
    block = min(BLOCK, n // (4 * k))  # at least 4k blocks, so the cut-off is selective
    if block >= 2:
        whole = n // block * block
        maxima = np.concatenate([score[:whole].reshape(-1, block).max(axis=1), score[whole:]])
        cut = np.partition(maxima, len(maxima) - k)[len(maxima) - k]
        if cut > 0:
            return np.flatnonzero(score >= cut)
    return np.flatnonzero(score > 0)


def _best(candidates: list[tuple[int, Array, Array]], k: int) -> list[tuple[int, int, float]]:
    """(segment, position, score) of the top ``k`` candidates, ties at the cut-off included
    (so the chunk_id tie-break can pick among them)."""
    if not candidates:
        return []
    seg = np.concatenate([np.full(len(p), i, dtype=np.int64) for i, p, _ in candidates])
    pos = np.concatenate([p for _, p, _ in candidates])
    val: Any = np.concatenate([v for _, _, v in candidates])
    if len(val) > k:
        cut = val[np.argpartition(-val, k - 1)[:k]].min()
        keep = val >= cut
        seg, pos, val = seg[keep], pos[keep], val[keep]
    return list(zip(seg.tolist(), pos.tolist(), val.tolist(), strict=True))
