"""Dense vectors of chunks for the retrieval index (README: Semantic recall).

When a sentence encoder is configured (``KBQA_SEMANTIC``, ``kbqa.core.retrieval.semantic``)
every index entry carries its chunk's vector, computed at ingestion. A chunk id names one
version of one chunk's text, so a vector already in the index for the same id and encoder is
reused: ``index_build`` and re-ingesting an unchanged document encode nothing again.
Without an encoder, entries carry no vector and the index is BM25 only, as before.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
from django.conf import settings

from kbqa.core.retrieval.semantic import Encoder, load_encoder, passage_text, use_encoder
from kbqa.core.retrieval.store import Entry, IndexStore

logger = logging.getLogger(__name__)
ENCODE_BATCH = 8  # chunks per encoder call (~1.6 s): a question waits at most that long for
# the encoder (one call at a time) while a document is being ingested


def current_encoder() -> Encoder | None:
    """The encoder ``settings.KBQA_SEMANTIC`` names (loaded once per process), or None;
    also made the one the core's ``sentence_similarities`` uses (the reader's hook)."""
    encoder = load_encoder(settings.KBQA_SEMANTIC)
    use_encoder(encoder)
    return encoder


def known_vectors(store: IndexStore, model: str) -> dict[str, np.ndarray]:
    """chunk_id -> vector of every chunk the committed index holds a ``model`` vector for
    (deleted positions included: a retired and restored chunk keeps its vector)."""
    snapshot = store.open() if store.exists() else None
    found: dict[str, np.ndarray] = {}
    for seg in snapshot.segments if snapshot is not None else ():
        if seg.vectors is None or seg.vector_model != model:
            continue
        for i, chunk_id in enumerate(seg.chunk_ids):
            found[chunk_id] = seg.vectors[i]
    return found


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
        known = known_vectors(store, encoder.name)
        missing = [i for i, e in enumerate(entries) if e.chunk_id not in known]
        for start in range(0, len(missing), ENCODE_BATCH):
            part = missing[start : start + ENCODE_BATCH]
            vectors = encoder.passages([passage_text(*texts[i]) for i in part])
            known.update((entries[i].chunk_id, v) for i, v in zip(part, vectors, strict=True))
    except Exception:
        logger.exception("encoding chunks failed; the index stays BM25 only")
        return list(entries)
    return [replace(e, vector=known[e.chunk_id], vector_model=encoder.name) for e in entries]
