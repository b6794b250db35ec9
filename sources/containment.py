"""Parse an uploaded file where it cannot hurt the server: a child process with limits.

``parse_contained`` runs ``sources.parsers.parse_file`` in a child process forked from a small
fork server (``multiprocessing`` "forkserver", parsers preloaded, so a parse starts in
milliseconds and never inherits the server's memory, threads or database connections). The
child gets an address-space limit (its size at start plus ``ParseLimits.memory_mb``) and a CPU
limit; the parent waits at most ``ParseLimits.seconds`` and kills it then. Before parsing,
a ZIP-based file (.docx) whose members unpack to more than ``ParseLimits.unzipped_mb`` is
refused from its directory, which bounds what ``zipfile`` will inflate (it never reads past a
member's declared size).

The limits themselves live in two functions that every parsing process uses:
``limit_process`` (once per process: memory) and ``parse_limited`` (per file: unpacked size,
wall-clock alarm, CPU backstop). ``parse_contained``'s child calls them, and so do the worker
processes of ``sources.bulk``, which skip the per-file child (issue 11: 175 ms per file).

Why: measured against main on 2026-11-30 (issue 15): a 1 MB .docx inflating to 1 GB used
2.3 GB for 9.3 s, a 38 KB .docx took 25.7 s, an 8 KB PDF 11.3 s, all inside the web process.

Pure Python, no Django: the caller passes the limits (``sources.services`` reads the
``KBQA_PARSE_*`` and ``KBQA_MAX_UNZIPPED_MB`` settings). Every refusal is an ``IngestError``
naming the file and the limit.
"""

from __future__ import annotations

import io
import logging
import math
import multiprocessing
import os
import resource
import signal
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import PurePath

from kbqa.core.errors import IngestError, gettext_noop
from sources.parsed import ParsedDocument
from sources.parsers import parse_file

logger = logging.getLogger(__name__)
MB = 1024 * 1024
ZIP_SUFFIXES = frozenset({".docx"})
Parse = Callable[..., ParsedDocument]


@dataclass(frozen=True)
class ParseLimits:
    """``seconds`` of wall-clock time, ``memory_mb`` of address space beyond the parser
    process's own, ``unzipped_mb`` for all members of a ZIP-based file together."""

    seconds: float = 10.0
    memory_mb: int = 512
    unzipped_mb: int = 200


_context = multiprocessing.get_context("forkserver")
_context.set_forkserver_preload(["sources.parsers"])


def fork_server() -> multiprocessing.context.ForkServerContext:
    """The context whose processes come from the parsing fork server: small, no threads, no
    database connections (``sources.chunk_terms`` starts its workers from it too)."""
    return _context


def parse_contained(
    *, name: str, data: bytes, limits: ParseLimits, parse: Parse = parse_file
) -> ParsedDocument:
    """``parse(name=name, data=data)`` in a limited child process; the same result or error.

    Raises ``IngestError`` as ``parse_file`` does, and when the file unpacks to too much,
    takes longer than ``limits.seconds``, needs more memory than ``limits.memory_mb`` or the
    child dies. ``parse`` must be importable by name (tests pass slow or greedy ones).
    """
    receiver, sender = _context.Pipe(duplex=False)
    child = _context.Process(target=_child, args=(sender, parse, name, data, limits), daemon=True)
    child.start()
    sender.close()
    try:
        if not receiver.poll(limits.seconds):
            raise _time_error(name, limits)
        outcome = receiver.recv()
    except EOFError:
        outcome = ("died", None)
    finally:
        receiver.close()
        if child.is_alive():
            child.kill()
        child.join()
    return _result(name, outcome, limits, child.exitcode)


def _result(
    name: str, outcome: tuple[str, object], limits: ParseLimits, exitcode: int | None
) -> ParsedDocument:
    kind, value = outcome
    if kind == "ok":
        assert isinstance(value, ParsedDocument)
        return value
    if kind == "refused":
        assert isinstance(value, IngestError)
        raise value
    if kind == "failed":
        logger.error("parsing %s failed in the child process:\n%s", name, value)
        raise IngestError(
            gettext_noop("%(name)s: the file could not be read (unexpected parser error)"),
            name=name,
        )
    raise stopped_error(name=name, limits=limits, exitcode=exitcode)


def _child(sender: Connection, parse: Parse, name: str, data: bytes, limits: ParseLimits) -> None:
    """In the child: apply the limits, parse, send ``(kind, value)`` back."""
    limit_process(limits)
    try:
        parsed = parse_limited(name=name, data=data, limits=limits, parse=parse)
        outcome: tuple[str, object] = ("ok", parsed)
    except IngestError as exc:
        outcome = ("refused", exc)
    except Exception:  # the parent logs it; the person sees a generic reason
        import traceback

        outcome = ("failed", traceback.format_exc())
    sender.send(outcome)
    sender.close()


class _Overrun(BaseException):
    """Raised by the wall-clock alarm inside ``parse_limited`` (a BaseException, so a
    parser's ``except Exception`` cannot swallow it)."""


def limit_process(limits: ParseLimits) -> None:
    """Limit this (parsing) process once: address space to its size now plus
    ``limits.memory_mb``. Called by ``parse_contained``'s child and by the worker processes
    of ``sources.bulk`` at start-up; ``parse_limited`` adds the per-file limits."""
    address_space = _address_space_bytes() + limits.memory_mb * MB
    resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))


def parse_limited(
    *, name: str, data: bytes, limits: ParseLimits, parse: Parse = parse_file
) -> ParsedDocument:
    """``parse(name=name, data=data)`` in this process, which ``limit_process`` limited:
    the unpacked-size check first, then at most ``limits.seconds`` of wall-clock time (a
    ``SIGALRM`` timer) and, as a backstop for parsers stuck in C code that the timer cannot
    interrupt, a CPU-time limit one second later (the kernel's ``SIGXCPU`` ends the process;
    its parent reports ``stopped_error``). Main thread only (signals).

    Raises ``IngestError`` as ``parse_file`` does, and for size, time and memory.
    """
    check_unzipped_size(name=name, data=data, limit_mb=limits.unzipped_mb)
    used = resource.getrusage(resource.RUSAGE_SELF)
    cpu = math.ceil(used.ru_utime + used.ru_stime + limits.seconds) + 1
    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    resource.setrlimit(resource.RLIMIT_CPU, (min(cpu, hard), hard))
    previous = signal.signal(signal.SIGALRM, _raise_overrun)
    signal.setitimer(signal.ITIMER_REAL, limits.seconds)
    try:
        return parse(name=name, data=data)
    except _Overrun:
        raise _time_error(name, limits) from None
    except MemoryError:
        raise IngestError(
            gettext_noop(
                "%(name)s: reading the file needed more than %(limit)s MB of memory and was "
                "stopped (limit KBQA_PARSE_MEMORY_MB)"
            ),
            name=name,
            limit=limits.memory_mb,
        ) from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def _raise_overrun(signum: int, frame: object) -> None:
    raise _Overrun


def _time_error(name: str, limits: ParseLimits) -> IngestError:
    return IngestError(
        gettext_noop(
            "%(name)s: reading the file took longer than %(seconds)s s and was stopped; it may "
            "be damaged or built to be slow (limit KBQA_PARSE_SECONDS)"
        ),
        name=name,
        seconds=f"{limits.seconds:g}",
    )


def stopped_error(*, name: str, limits: ParseLimits, exitcode: int | None) -> IngestError:
    """The refusal for a parsing process that ended without an answer: the time limit when
    it overran (``exitcode`` None: still running when its parent gave up; ``-SIGXCPU``: the
    CPU backstop), otherwise its exit code."""
    if exitcode is None or exitcode == -signal.SIGXCPU:
        return _time_error(name, limits)
    return IngestError(
        gettext_noop("%(name)s: reading the file stopped unexpectedly (exit code %(code)s)"),
        name=name,
        code=exitcode,
    )


def _address_space_bytes() -> int:
    """This process's virtual memory size (Linux ``VmSize``), 0 where unknown."""
    try:
        with open(f"/proc/{os.getpid()}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def check_unzipped_size(*, name: str, data: bytes, limit_mb: int) -> None:
    """Raise ``IngestError`` when a ZIP-based file's members unpack to over ``limit_mb`` MB.

    Only the ZIP directory is read. Files that are not ZIP-based pass; a broken ZIP passes
    too, for the parser to name the problem.
    """
    if PurePath(name).suffix.lower() not in ZIP_SUFFIXES:
        return
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            total = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, OSError, ValueError):
        return
    if total > limit_mb * MB:
        raise IngestError(
            gettext_noop(
                "%(name)s: unpacks to %(size)s MB, over the limit of %(limit)s MB "
                "(KBQA_MAX_UNZIPPED_MB); it may be damaged or built to fill memory"
            ),
            name=name,
            size=math.ceil(total / MB),
            limit=limit_mb,
        )
