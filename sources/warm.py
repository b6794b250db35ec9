"""Start-up work a process does before its first question or upload, so neither pays it.

``index_warm`` (``kbqa.asgi`` calls it) opens the retrieval index and loads the text tools
in background threads; ``text_tools_warm`` (the upload page, before its inline clock starts)
loads what ingesting needs, waiting for the start-up thread when it is still loading.
"""

from __future__ import annotations

import threading

from kbqa.core.retrieval.synonyms import warm as synonyms_warm
from kbqa.core.text.bilingual import warm as bilingual_warm
from kbqa.core.text.names_zh import warm as names_warm
from kbqa.core.text.terms import terms
from kbqa.core.text.tokens import encoding
from sources.selectors import IndexStatus, index_status
from sources.vectors import current_encoder


def index_warm() -> IndexStatus:
    """Open the index before the first question and start loading, in background threads,
    jieba's dictionary (about 0.7 s; a question arriving sooner waits for it; tiktoken
    loads with the first question or upload, so an idle worker does not hold it), WordNet's
    index (about 2 s, ``synonyms.warm``), CC-CEDICT (about 1 s, ``bilingual.warm``, then
    0.15 s for its proper nouns, ``names_zh.warm``) and the sentence encoder when one is
    configured, so the server listens at once. Returns the status (logged if there is a
    problem)."""
    threading.Thread(target=terms, args=("预热 warm",), name="kbqa-warm", daemon=True).start()
    threading.Thread(target=synonyms_warm, name="kbqa-warm-wordnet", daemon=True).start()
    threading.Thread(target=_warm_cedict, name="kbqa-warm-cedict", daemon=True).start()
    threading.Thread(target=_warm_encoder, name="kbqa-warm-encoder", daemon=True).start()
    return index_status()


def text_tools_warm() -> None:
    """Load what finding a text's terms and counting its tokens need, once per process:
    jieba's dictionary (about 0.7 s; about 5 s the first time on a machine, when jieba
    writes its cache) and tiktoken's cl100k_base (about 0.3 s). Returns at once when both
    are loaded; a call made while the start-up thread loads them waits for it."""
    terms("预热 warm")
    encoding()


def _warm_cedict() -> None:
    bilingual_warm()
    names_warm()


def _warm_encoder() -> None:
    """Load the sentence encoder, if configured, and run it once (its first call costs
    about 0.8 s, later ones about 0.1 s)."""
    encoder = current_encoder()
    if encoder is not None:
        encoder.query("预热 warm")
