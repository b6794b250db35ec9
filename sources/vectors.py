"""Dense vectors of chunks and of their sentences for the retrieval index (README: Semantic
recall).

When a sentence encoder is configured (``KBQA_SEMANTIC``, ``kbqa.core.retrieval.semantic``)
every index entry carries its chunk's vector and the vectors of the chunk's sentences (split
as the offline reader splits them, ``quotable_sentences``), computed at ingestion, so a
question encodes only itself. A chunk id names one version of one chunk's text, so vectors
already in the index for the same id and encoder are reused: ``index_build`` and
re-ingesting an unchanged document encode nothing again (an index from before sentence
vectors gets only those). Without an encoder, entries carry no vector and the index is BM25
only, as before.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from dataclasses import replace

import numpy as np
from django.conf import settings

from kbqa.core.readers.extractive.text import quotable_sentences
from kbqa.core.retrieval.index import IndexSnapshot
from kbqa.core.retrieval.semantic import (
    Encoder,
    Vectors,
    load_encoder,
    passage_text,
    use_encoder,
    use_stored_sentences,
)
from kbqa.core.retrieval.semantic_sentences import (
    ChunkSentences,
    holds_sentences,
    sentence_keys,
    stored_sentence_vectors,
)
from kbqa.core.retrieval.store import Entry, IndexStore

logger = logging.getLogger(__name__)
ENCODE_BATCH = 8  # chunks per encoder call (~1.6 s): a question waits at most that long for
# the encoder (one call at a time) while a document is being ingested
SENTENCE_BATCH = 32  # sentences per encoder call (~1.3 s at ~40 ms each), for the same reason
_warned: dict[str, int] = {}  # index folder -> generation last logged as lacking sentences


def current_encoder() -> Encoder | None:
    """The encoder ``settings.KBQA_SEMANTIC`` names (loaded once per process), or None;
    also made the one the core's ``sentence_similarities`` uses (the reader's hook)."""
    encoder = load_encoder(settings.KBQA_SEMANTIC)
    use_encoder(encoder)
    use_stored_sentences(index_sentences if encoder is not None else None)
    return encoder


def index_sentences(model: str, texts: Sequence[str]) -> dict[str, Vectors]:
    """The reader's source of sentence vectors: those of ``texts`` the current index
    stores from encoder ``model``. Logs once per index generation when it stores none (an
    index built before they were: ``manage.py index_build`` adds them; the reader encodes
    them per question meanwhile)."""
    from sources.selectors import index_snapshot  # selectors import this module

    snapshot = index_snapshot()
    if snapshot is None:
        return {}
    if not holds_sentences(snapshot, model):
        _warn_no_sentences(snapshot, model)
    return stored_sentence_vectors(snapshot, model, texts)


def _warn_no_sentences(snapshot: IndexSnapshot, model: str) -> None:
    folder = str(settings.KBQA_INDEX_DIR)
    if _warned.get(folder) != snapshot.generation:
        _warned[folder] = snapshot.generation
        logger.warning("retrieval index has no %s sentence vectors: the reader encodes them "
                       "per question (~40 ms each); run manage.py index_build to add them", model)


def known_vectors(
    store: IndexStore, model: str, wanted: Collection[str]
) -> tuple[dict[str, np.ndarray], dict[str, ChunkSentences]]:
    """chunk_id -> vector, and chunk_id -> sentence vectors, of the ``wanted`` chunks the
    committed index holds ``model`` vectors for (deleted positions included: a retired and
    restored chunk keeps its vectors)."""
    snapshot = store.open() if store.exists() else None
    found: dict[str, np.ndarray] = {}
    sentences: dict[str, ChunkSentences] = {}
    for seg in snapshot.segments if snapshot is not None else ():
        if seg.vectors is None or seg.vector_model != model:
            continue
        stored = seg.sentences
        keys = stored.row_keys() if stored is not None else None
        for i, chunk_id in enumerate(seg.chunk_ids):
            if chunk_id not in wanted:
                continue
            found[chunk_id] = seg.vectors[i]
            if stored is not None and keys is not None:
                start, end = int(stored.offsets[i]), int(stored.offsets[i + 1])
                sentences[chunk_id] = ChunkSentences(keys[start:end], stored.vectors[start:end])
    return found, sentences


def with_vectors(
    entries: Sequence[Entry],
    texts: Sequence[tuple[str, str, str]],
    *,
    store: IndexStore,
    encoder: Encoder | None = None,
) -> list[Entry]:
    """``entries`` with their chunks' vectors (``texts[i]`` is entry i's (title, section,
    text)); unchanged when no encoder is configured or encoding fails (logged: the index
    is then BM25 only until ``manage.py index_build``)."""
    encoder = encoder if encoder is not None else current_encoder()
    if encoder is None or not entries:
        return list(entries)
    try:
        known, sentences = known_vectors(store, encoder.name,
                                         {e.chunk_id for e in entries})
        missing = [i for i, e in enumerate(entries) if e.chunk_id not in known]
        for start in range(0, len(missing), ENCODE_BATCH):
            part = missing[start : start + ENCODE_BATCH]
            vectors = encoder.passages([passage_text(*texts[i]) for i in part])
            known.update((entries[i].chunk_id, v) for i, v in zip(part, vectors, strict=True))
        unsplit = [i for i, e in enumerate(entries) if e.chunk_id not in sentences]
        sentences.update(_sentence_vectors(encoder, [entries[i].chunk_id for i in unsplit],
                                           [texts[i][2] for i in unsplit]))
    except Exception:
        logger.exception("encoding chunks failed; the index stays BM25 only")
        return list(entries)
    return [replace(e, vector=known[e.chunk_id], vector_model=encoder.name,
                    sentences=sentences[e.chunk_id]) for e in entries]


def _sentence_vectors(
    encoder: Encoder, chunk_ids: Sequence[str], texts: Sequence[str]
) -> dict[str, ChunkSentences]:
    """chunk_id -> its sentences' vectors (``texts[i]`` is chunk i's original text),
    each distinct sentence encoded once, ``SENTENCE_BATCH`` at a time."""
    split = [quotable_sentences(t) for t in texts]
    distinct = list(dict.fromkeys(s for sents in split for s in sents))
    vectors: dict[str, Vectors] = {}
    for start in range(0, len(distinct), SENTENCE_BATCH):
        part = distinct[start : start + SENTENCE_BATCH]
        vectors.update(zip(part, encoder.passages(part), strict=True))
    empty = np.zeros((0, encoder.dim), dtype=np.float32)
    return {
        cid: ChunkSentences(sentence_keys(sents),
                            np.stack([vectors[s] for s in sents]) if sents else empty)
        for cid, sents in zip(chunk_ids, split, strict=True)
    }
