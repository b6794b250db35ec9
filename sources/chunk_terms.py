"""A document's chunk terms, in worker processes when the document is large.

Finding the index terms (``kbqa.core.text.terms``: jieba for Chinese, stemming for English)
is most of what ingesting a large file costs: 36 s of the 76 s of a 15 MB English and
Chinese text file, profiled on 2026-12-01 (``bench/ingest.py --big``). The chunks of one
document are independent, so a large document's chunks are shared among one worker process
per CPU. The workers are started from the parsing fork server (``sources.containment``),
never forked from the server itself, whose threads may hold locks a fork would copy; so
this module and what it imports stay free of Django.

Pure Python, no Django.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor

from kbqa.core.retrieval.bm25 import section_text_terms
from sources.containment import fork_server

# Below this many characters of text one process is faster: each worker first loads jieba's
# dictionary (about 0.7 s), and 1 MB takes about 2 s in one process (bench/ingest.py --big).
PARALLEL_MIN_CHARS = 1_000_000
BATCH = 256  # chunks per task handed to a worker, and per progress report
Progress = Callable[[int], None]


def joined_terms(section: str, text: str) -> str:
    """A chunk's index terms as stored in ``Chunk.terms`` (space-separated; no term holds
    whitespace: the tokenizer yields Latin words, numbers and CJK words only)."""
    return " ".join(section_text_terms(section, text))


def chunks_terms(
    pairs: Iterable[tuple[str, str]],
    *,
    processes: int = 1,
    on_progress: Progress | None = None,
) -> list[str]:
    """``joined_terms`` of each (section, text) pair, in order. ``processes``: worker
    processes (0: one per CPU; 1: this process). The workers start on the first pairs while
    ``pairs`` (a generator: the chunker's) is still making the next ones.
    ``on_progress(pairs done)`` is called every ``BATCH`` pairs."""
    processes = processes or os.cpu_count() or 1
    if processes < 2:
        return _collected((_joined(pair) for pair in pairs), on_progress)
    with ProcessPoolExecutor(processes, mp_context=fork_server()) as pool:
        return _collected(pool.map(_joined, pairs, chunksize=BATCH), on_progress)


def _collected(results: Iterable[str], on_progress: Progress | None) -> list[str]:
    out: list[str] = []
    for terms in results:
        out.append(terms)
        if on_progress is not None and len(out) % BATCH == 0:
            on_progress(len(out))
    return out


def _joined(pair: tuple[str, str]) -> str:
    return joined_terms(*pair)
