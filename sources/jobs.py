"""Ingesting uploads in the background, so a large file never holds the upload request.

The admin upload page ingests small files while it answers (their outcome is shown at
once, as messages) and queues the rest as ``IngestJob`` rows (``ingest_jobs_queue``). A
runner thread in the web process (``ingest_jobs_start``; one per process, ended when the
queue is empty) takes the oldest queued job, ingests it with ``document_ingest`` and
writes its stage and percent as it goes; the document list polls them (``ingest_jobs_recent``).

- Each job is one ``document_ingest``: parsed and chunked before any write, stored in one
  transaction, so a failing file leaves every stored document as it was, and the job says
  why (``messages``). Duplicate detection, access groups and chunk versioning are the
  ingest's own.
- Files of one upload go in the order they were sent (a batch never has two jobs running),
  so two files with one doc_id end as they would have in the request.
- A job whose runner died (the server stopped or restarted) is marked failed as
  interrupted, with what that left: nothing changed if it stopped before storing.
  Several server processes share the queue: a job is claimed by one conditional UPDATE.
"""

from __future__ import annotations

import functools
import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.core.files.base import ContentFile, File
from django.db import close_old_connections, connection
from django.db.models import QuerySet
from django.utils import timezone, translation
from django.utils.translation import gettext

from kbqa.db import lock_lost, write_retried
from sources.ingest_types import IngestOverrides, IngestResult, IngestStage, outcome_lines
from sources.models import IngestJob
from sources.services import document_ingest
from sources.uploads import ingest_failure_reason

logger = logging.getLogger(__name__)
State = IngestJob.State
# Where each stage starts, in percent of the whole ingest; "chunking" grows to "storing".
# From a profile of a 15 MB text (bench/ingest.py --big, 2026-12-01): reading 6%, cutting
# and finding terms 60%, storing 20%, updating the index 14%.
STAGE_PERCENT: dict[IngestStage, int] = {
    "reading": 0, "chunking": 6, "storing": 70, "indexing": 88
}
PROGRESS_SECONDS = 0.5  # at most one progress write per this many seconds
STALE_AFTER = timedelta(hours=1)  # a running job silent this long has lost its runner
# finished jobs the document list still shows: a failure for a day (its reason is the only
# record of it), a success for an hour (the document list shows the document itself; a
# tester read a day-old "added …" row as part of every later upload)
RECENT_FAILED = timedelta(hours=24)
RECENT_READY = timedelta(hours=1)
WORKER = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


@dataclass(frozen=True)
class FinishedUpload:
    """A file of an upload already told at once (ingested, or refused before ingesting):
    kept as a finished row beside the upload's queued files, so the page's reload when
    they end does not lose its outcome. ``state``: ready, failed or skipped (the same text
    as a stored document); ``messages``: ``(level, text)`` lines."""

    name: str
    state: str
    doc_id: str = ""
    messages: Sequence[tuple[str, str]] = ()


def ingest_jobs_queue(
    *,
    uploads: Sequence[File[Any]],
    overrides: IngestOverrides,
    replace: bool,
    user: Any,
    earlier: dict[str, str],
    finished: Sequence[FinishedUpload] = (),
) -> list[IngestJob]:
    """Store ``uploads`` as queued jobs of one batch (in order) and start the runner.
    ``earlier``: doc_id -> file name of documents this upload already wrote; ``finished``:
    its files already told, stored first as finished rows of the same batch."""
    batch = uuid.uuid4().hex
    now = timezone.now()
    by = user if getattr(user, "pk", None) else None
    IngestJob.objects.bulk_create(IngestJob(
        batch=batch, name=f.name or "upload", doc_id=f.doc_id, uploaded_by=by,
        state=f.state, percent=100,
        messages=[list(line) for line in f.messages], language=translation.get_language() or "",
        started_at=now, finished_at=now,
    ) for f in finished)
    jobs = []
    for upload in uploads:
        job = IngestJob(
            batch=batch,
            name=upload.name or "upload",
            overrides=overrides.as_dict(),
            replace=replace,
            earlier=earlier,
            language=translation.get_language() or "",
            uploaded_by=by,
        )
        job.upload.save(job.name, upload, save=False)
        job.save()
        jobs.append(job)
    ingest_jobs_start()
    return jobs


_lock = threading.Lock()
_runner: threading.Thread | None = None
_kicked = False


def ingest_jobs_start() -> None:
    """Make sure this process has a runner thread taking queued jobs (module docstring)."""
    global _runner, _kicked
    with _lock:
        _kicked = True
        if _runner is None:
            _runner = threading.Thread(target=_run_queued, name="kbqa-ingest", daemon=True)
            _runner.start()


def _run_queued() -> None:
    """The runner: ingest queued jobs until none is left, then end (and close its
    database connection). A later ``ingest_jobs_start`` starts a new one."""
    global _runner, _kicked
    try:
        while True:
            with _lock:
                _kicked = False
            job = _claim()
            if job is not None:
                ingest_job_run(job)
                continue
            with _lock:
                if not _kicked:
                    _runner = None
                    return
    except Exception:
        logger.exception("ingest runner stopped")
        with _lock:
            _runner = None
    finally:
        connection.close()


def _claim() -> IngestJob | None:
    """The oldest queued job whose upload has none running, now marked running by this
    process; None when there is none. Interrupted jobs are marked failed first."""
    close_old_connections()
    write_retried(interrupted_jobs_fail)
    busy = IngestJob.objects.filter(state=State.RUNNING).values("batch")
    waiting = IngestJob.objects.filter(state=State.QUEUED).exclude(batch__in=busy)
    batches: set[str] = set()
    for job in waiting.order_by("pk")[:20]:
        if job.batch in batches:
            continue  # only the first of a batch: another process may be running the one before
        batches.add(job.batch)
        now = timezone.now()
        claim = IngestJob.objects.filter(pk=job.pk, state=State.QUEUED).exclude(batch__in=busy)
        taken = write_retried(functools.partial(
            claim.update, state=State.RUNNING, worker=WORKER, started_at=now, heartbeat_at=now
        ))
        if taken:
            job.refresh_from_db()
            return job
    return None


def ingest_job_run(job: IngestJob) -> None:
    """Ingest a claimed job's file and record the outcome; never raises."""
    with translation.override(job.language or None):
        _run(job)


def _run(job: IngestJob) -> None:
    report = _ProgressWriter(job.pk)
    try:
        with job.upload.open("rb") as fh:
            data = fh.read()
        result = document_ingest(
            file=ContentFile(data, name=job.name),
            overrides=IngestOverrides(**job.overrides),
            replace=job.replace,
            on_progress=report,
        )
    except Exception as exc:  # every failure is the job's reason, never a lost thread
        _finish(job, State.FAILED, [["error", ingest_failure_reason(job.name, exc)]])
        return
    if result.status == "duplicate":
        _finish(job, State.SKIPPED, _outcome(job, result))
    else:
        _finish(job, State.READY, _outcome(job, result), doc_id=result.doc_id)


def _outcome(job: IngestJob, result: IngestResult) -> list[list[str]]:
    """The lines the upload page would have shown for this file (``outcome_lines``)."""
    earlier = {**job.earlier, **_batch_written(job)}
    return [list(line) for line in outcome_lines(job.name, result, earlier)]


def _batch_written(job: IngestJob) -> dict[str, str]:
    rows = IngestJob.objects.filter(batch=job.batch, pk__lt=job.pk, state=State.READY)
    return {doc_id: name for doc_id, name in rows.exclude(doc_id="").values_list("doc_id", "name")}


def _finish(job: IngestJob, state: str, lines: list[list[str]], *, doc_id: str = "") -> None:
    """Record the outcome and drop the staged upload (an ingested file's original is kept
    with its document). A write that loses a lock race is tried again (``write_retried``):
    the document is stored by now, and a job left running would later read as interrupted."""
    if job.upload:
        job.upload.delete(save=False)
    write_retried(lambda: IngestJob.objects.filter(pk=job.pk).update(
        state=state, messages=lines, doc_id=doc_id,
        percent=100 if state in (State.READY, State.SKIPPED) else job.percent,
        finished_at=timezone.now(), upload="",
    ))


class _ProgressWriter:
    """``document_ingest``'s ``on_progress``: the job's stage and percent, written when the
    stage changes and otherwise at most every ``PROGRESS_SECONDS``. A write that loses a lock
    race (another process writing, SQLite) is skipped, not retried: the next one catches up,
    and the ingest it reports on must not wait or fail for it."""

    def __init__(self, pk: int) -> None:
        self.pk, self.stage, self.written = pk, "", 0.0

    def __call__(self, stage: IngestStage, fraction: float) -> None:
        now = time.monotonic()
        if stage == self.stage and now - self.written < PROGRESS_SECONDS:
            return
        self.stage, self.written = stage, now
        stages = list(STAGE_PERCENT)
        start = STAGE_PERCENT[stage]
        following = stages.index(stage) + 1
        end = STAGE_PERCENT[stages[following]] if following < len(stages) else 99
        percent = start + int((end - start) * max(0.0, min(fraction, 1.0)))
        try:
            IngestJob.objects.filter(pk=self.pk).update(
                stage=stage, percent=percent, heartbeat_at=timezone.now()
            )
        except Exception as exc:
            if not lock_lost(exc):
                raise
            logger.info("ingest progress not written (%s); the next write catches up", exc)
            self.stage = ""  # written at the next report


def interrupted_jobs_fail() -> int:
    """Mark failed the running jobs whose runner is gone: its process on this host ended
    (or is this process after a restart), or it has been silent for ``STALE_AFTER``.
    Returns how many."""
    host = WORKER.split(":", 1)[0]
    silent = timezone.now() - STALE_AFTER
    failed = 0
    for job in IngestJob.objects.filter(state=State.RUNNING).exclude(worker=WORKER):
        worker_host, pid, _ = (job.worker.split(":") + ["", "", ""])[:3]
        gone = worker_host == host and not _alive(pid)
        if gone or (job.heartbeat_at is not None and job.heartbeat_at < silent):
            failed += IngestJob.objects.filter(pk=job.pk, state=State.RUNNING).update(
                state=State.FAILED, messages=[["error", _interrupted(job)]],
                finished_at=timezone.now(),
            )
    return failed


def _alive(pid: str) -> bool:
    if not pid.isdigit():
        return False
    if int(pid) == os.getpid():
        return False  # this process's runner has another token: the job was a former one's
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _interrupted(job: IngestJob) -> str:
    if job.stage == "indexing":
        return gettext(
            "%(name)s: stored, but the server stopped while it updated the search index; "
            "answers may miss the document until an administrator runs manage.py index_build"
        ) % {"name": job.name}
    return gettext(
        "%(name)s: not ingested: the server stopped before it was stored; nothing was "
        "changed. Upload it again"
    ) % {"name": job.name}


def ingest_jobs_resume() -> None:
    """Mark failed the jobs whose runner is gone (``interrupted_jobs_fail``) and start the
    runner when jobs are queued: after a restart, the document list picks the queue up."""
    interrupted_jobs_fail()
    if IngestJob.objects.filter(state=State.QUEUED).exists():
        ingest_jobs_start()


def ingest_jobs_recent() -> QuerySet[IngestJob]:
    """The uploads the document list shows: queued and running ones, failed ones finished
    in the last ``RECENT_FAILED`` and the others in the last ``RECENT_READY`` (newest first,
    at most 20). A selector: it writes nothing."""
    now = timezone.now()
    jobs = (IngestJob.objects.filter(finished_at__isnull=True)
            | IngestJob.objects.filter(state=State.FAILED, finished_at__gte=now - RECENT_FAILED)
            | IngestJob.objects.filter(finished_at__gte=now - RECENT_READY))
    return jobs.select_related("uploaded_by").order_by("-pk")[:20]
