"""The CPU-bound part of a bulk ingest (``sources.bulk``): each file read, parsed, cut into
chunks and their terms found, in worker processes (one per CPU), in order.

- Each file is two pool tasks: reading and parsing it, then drafting it (cutting it into
  chunks and finding their terms, ``services._drafted``).
- The workers parse as contained as an upload's child process (``sources.containment``):
  each is limited once at start (``limit_process``) and per file (``parse_limited``: the
  unpacked-size check, a wall-clock alarm, a CPU backstop); the pool (``pebble``) also gives
  each parse ``KBQA_PARSE_SECONDS`` + ``WORKER_GRACE_SECONDS``, then kills the worker. Only
  the parse is timed, as for one file: a trial's 18.5 MB manual (16,661 chunks) went in
  alone but failed in a folder as "reading the file took longer than 10 s" when the one
  timeout covered its chunking and tokenising too.
- A worker that dies or is killed is replaced; its file fails by name and the stage it
  was in, the others go on.
- Fewer than 8 files are parsed one child process each (``parse_contained``), as uploads.
"""

from __future__ import annotations

import contextlib
import functools
import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path
from typing import Any

from pebble import ProcessExpired, ProcessFuture, ProcessPool

from kbqa.core.errors import IngestError, gettext_noop
from kbqa.core.text.tokens import count_tokens
from sources.containment import ParseLimits, limit_process, parse_limited, stopped_error
from sources.indexing import joined_terms
from sources.ingest_types import IngestFailure, IngestOverrides
from sources.parsed import ParsedDocument
from sources.parsers import parse_file
from sources.services import _DocumentDraft, _drafted, _prepare
from sources.uploads import (
    check_size,
    ingest_failure_reason,
    parse_limits_from_settings,
    read_file,
)

WORKER_GRACE_SECONDS = 10.0  # past the parse limit, for reading the file and handing it on
AHEAD = 64  # files handed to each worker ahead of the one being stored: bounds memory
Prepared = tuple[str, bytes, _DocumentDraft]
Parsed = tuple[str, bytes, ParsedDocument]
Stages = tuple[Callable[[Path], Parsed | IngestFailure],
               Callable[[Path, str, ParsedDocument], _DocumentDraft | IngestFailure]]
DRAFT_STOPPED = gettext_noop(
    "%(name)s: cutting it into passages and finding their words stopped unexpectedly "
    "(exit code %(code)s)"
)


@contextlib.contextmanager
def prepared_entries(
    entries: Sequence[Path | IngestFailure],
    overrides: IngestOverrides,
    max_tokens: int,
    processes: int,
) -> Iterator[Iterator[Prepared | IngestFailure]]:
    """Each entry prepared (read, parsed, chunked, tokenised), in order, lazily; in limited
    worker processes (module docstring) unless there are fewer than 8 files."""
    limits = parse_limits_from_settings()
    if len(entries) < 8:
        yield map(
            functools.partial(_prepare_entry, overrides=overrides, max_tokens=max_tokens), entries
        )
        return
    parse = functools.partial(parse_limited, limits=limits, parse=parse_file)
    stages: Stages = (
        functools.partial(_parse_entry, parse=parse),
        functools.partial(_draft_entry, overrides=overrides, max_tokens=max_tokens),
    )
    processes = processes or os.cpu_count() or 1
    joined_terms("", "预热 warm")  # load jieba's and tiktoken's tables once, before the
    count_tokens("warm")  # workers fork (they share them; about 0.7 s + 0.9 s each)
    context = multiprocessing.get_context("fork")
    pool = ProcessPool(processes, initializer=limit_process, initargs=(limits,), context=context)
    try:
        yield _in_order(pool, stages, entries, limits, processes * AHEAD)
    except BaseException:
        pool.stop()  # files scheduled ahead are not wanted any more
        raise
    finally:
        pool.close()
        pool.join()


def _in_order(
    pool: ProcessPool,
    stages: Stages,
    entries: Sequence[Path | IngestFailure],
    limits: ParseLimits,
    ahead: int,
) -> Iterator[Prepared | IngestFailure]:
    """Each entry prepared in the pool (``_staged``), in order, ``ahead`` files scheduled
    ahead."""
    waiting: deque[tuple[Path | IngestFailure, Future[Prepared | IngestFailure] | None]] = (
        deque())
    rest = iter(entries)
    for entry in rest:
        staged = None if isinstance(entry, IngestFailure) else _staged(pool, stages, entry, limits)
        waiting.append((entry, staged))
        if len(waiting) < ahead:
            continue
        yield _outcome(*waiting.popleft(), limits)
    while waiting:
        yield _outcome(*waiting.popleft(), limits)


class _Stopped(Exception):
    """A worker killed (``exitcode`` None: past the parse's time) or dead in ``stage``."""

    def __init__(self, stage: str, exitcode: int | None) -> None:
        super().__init__(stage, exitcode)
        self.stage, self.exitcode = stage, exitcode


def _staged(pool: ProcessPool, stages: Stages, entry: Path, limits: ParseLimits
            ) -> Future[Prepared | IngestFailure]:
    """``entry`` prepared in two pool tasks: read and parsed within the parse's time (then
    the pool kills the worker), then drafted without a time limit, as one file is (module
    docstring). The future raises ``_Stopped`` for a worker that was killed or died; a
    failure of the file itself is its result."""
    parse, draft = stages
    prepared: Future[Prepared | IngestFailure] = Future()

    def parsed(future: ProcessFuture) -> None:
        try:
            result = _stage_result(future, "reading")
            if isinstance(result, IngestFailure):
                prepared.set_result(result)
                return
            name, data, document = result
            drafting = pool.schedule(draft, args=(entry, name, document))
            drafting.add_done_callback(lambda f: drafted(f, name, data))
        except BaseException as exc:  # the consumer raises it: never a future left waiting
            prepared.set_exception(exc)

    def drafted(future: ProcessFuture, name: str, data: bytes) -> None:
        try:
            result = _stage_result(future, "chunking")
            failed = isinstance(result, IngestFailure)
            prepared.set_result(result if failed else (name, data, result))
        except BaseException as exc:
            prepared.set_exception(exc)

    timeout = limits.seconds + WORKER_GRACE_SECONDS
    pool.schedule(parse, args=(entry,), timeout=timeout).add_done_callback(parsed)
    return prepared


def _stage_result(future: ProcessFuture, stage: str) -> Any:
    """The task's result; raises ``_Stopped`` when its worker was killed or died."""
    try:
        return future.result()
    except FutureTimeout:
        raise _Stopped(stage, None) from None
    except ProcessExpired as exc:
        raise _Stopped(stage, exc.exitcode) from None


def _outcome(
    entry: Path | IngestFailure, future: Future[Prepared | IngestFailure] | None,
    limits: ParseLimits,
) -> Prepared | IngestFailure:
    """The file prepared, or its failure when a worker overran or died (naming the stage)."""
    if isinstance(entry, IngestFailure) or future is None:
        assert isinstance(entry, IngestFailure)
        return entry
    try:
        return future.result()
    except _Stopped as stopped:
        if stopped.stage == "reading":
            error = stopped_error(name=entry.name, limits=limits, exitcode=stopped.exitcode)
        else:
            error = IngestError(DRAFT_STOPPED, name=entry.name, code=stopped.exitcode)
    return IngestFailure(str(entry), ingest_failure_reason(entry.name, error))


def _prepare_entry(
    entry: Path | IngestFailure, *, overrides: IngestOverrides, max_tokens: int
) -> Prepared | IngestFailure:
    """In this process (fewer than 8 files): read, parse in a limited child, draft."""
    if isinstance(entry, IngestFailure):
        return entry
    try:
        check_size(path=entry, file=None)
        name, data = read_file(path=entry, file=None)
        return name, data, _prepare(name, data, overrides, max_tokens, groups=False)
    except Exception as exc:  # one bad file must not stop the others
        return IngestFailure(str(entry), ingest_failure_reason(entry.name, exc))


def _parse_entry(entry: Path, *, parse: Callable[..., ParsedDocument]) -> Parsed | IngestFailure:
    """In a worker, timed: the file read and parsed (``parse``: ``parse_limited``)."""
    try:
        check_size(path=entry, file=None)
        name, data = read_file(path=entry, file=None)
        return name, data, parse(name=name, data=data)
    except Exception as exc:  # one bad file must not stop the others
        return IngestFailure(str(entry), ingest_failure_reason(entry.name, exc))


def _draft_entry(
    entry: Path, name: str, parsed: ParsedDocument, *, overrides: IngestOverrides,
    max_tokens: int,
) -> _DocumentDraft | IngestFailure:
    """In a worker, untimed as for one file: chunks and their terms (``services._drafted``)."""
    try:
        return _drafted(name, parsed, overrides, max_tokens, groups=False)
    except Exception as exc:
        return IngestFailure(str(entry), ingest_failure_reason(entry.name, exc))
