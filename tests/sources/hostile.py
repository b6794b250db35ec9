"""Parsers that misbehave on purpose, run by ``sources.containment`` in its child process.

No Django and no pytest imports: the fork server's child imports this module by name.
"""

from __future__ import annotations

import os
import time

from sources.parsed import ParsedDocument


def slow_parse(*, name: str, data: bytes) -> ParsedDocument:
    """Takes a minute, like the 38 KB .docx of issue 15 took 25.7 s."""
    time.sleep(60)
    return ParsedDocument("never", {}, "")


def greedy_parse(*, name: str, data: bytes) -> ParsedDocument:
    """Wants 4 GB, like a file that inflates far beyond its size."""
    hoard = bytearray(4 * 1024**3)
    return ParsedDocument(str(len(hoard)), {}, "")


def crashing_parse(*, name: str, data: bytes) -> ParsedDocument:
    """Dies without a word, as a native library can."""
    os._exit(3)


def picky_parse(*, name: str, data: bytes) -> ParsedDocument:
    """Parses like ``parse_file``, except a file named slow-* (sleeps a minute), stuck-* (the same,
    deaf to the alarm) or crash-*
    (the process dies): one bad file among good ones in a bulk ingest."""
    from sources.parsers import parse_file

    if name.startswith("slow-"):
        return slow_parse(name=name, data=data)
    if name.startswith("stuck-"):  # like C code that never returns to Python
        import signal

        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        return slow_parse(name=name, data=data)
    if name.startswith("crash-"):
        return crashing_parse(name=name, data=data)
    return parse_file(name=name, data=data)
