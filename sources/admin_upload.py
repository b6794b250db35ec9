"""The admin's upload page and the uploads shown on the document list.

Small files are ingested while the page answers and told as messages; a file over
``KBQA_UPLOAD_INLINE_KB``, and every file after the first such one or after
``INLINE_SECONDS`` of ingesting, is queued (``sources.jobs``) so the request never waits
for a long ingest. The process's one-time loading of the text tools (jieba, tiktoken) is
done before that clock starts: it is not the files' cost, and counting it sent every file
after the first of a small upload to the background on a freshly started server. The
document list then shows each queued file's state (queued, ingesting with its stage and
percent, ready, failed and why), refreshed by htmx every second while one is running, and
reloads itself when the last one ends so the new documents are listed. That reload would
lose the messages of the files told at once, so when an upload is partly queued, those
files' outcomes go into the uploads table too, as finished rows of the same upload (a
tester saw six of eight files' outcomes vanish a second after the page showed them).
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy, ngettext

from sources.forms import ScreenedUpload, UploadForm
from sources.ingest_types import IngestOverrides, IngestResult, outcome_lines
from sources.jobs import (
    FinishedUpload,
    ingest_jobs_queue,
    ingest_jobs_recent,
    ingest_jobs_resume,
)
from sources.models import IngestJob
from sources.services import document_ingest, reingest_source
from sources.uploads import ingest_failure_reason
from sources.warm import text_tools_warm

INLINE_SECONDS = 2.0  # the upload page ingests files itself for at most about this long
JOBS_PARTIAL = "admin/sources/document/ingest_jobs.html"
STAGE_WORDS = {
    "": gettext_lazy("starting"),
    "reading": gettext_lazy("reading the file"),
    "chunking": gettext_lazy("cutting it into passages and finding their words"),
    "storing": gettext_lazy("storing the passages"),
    "indexing": gettext_lazy("updating the search index"),
}


class UploadAdminMixin:
    """``DocumentAdmin``'s upload page (``upload_view``) and uploads list (``jobs_view``)."""

    admin_site: Any
    model: Any

    def upload_view(self, request: HttpRequest) -> HttpResponse:
        """Upload one or many files; each is ingested on its own (one bad file spoils none).
        Raises PermissionDenied (403, as Django's own add page) without permission to view
        and add documents: a redirect to the list led staff without them to a 403 anyway."""
        if not self.has_view_permission(request) or not request.user.has_perm(  # type: ignore[attr-defined]
            "sources.add_document"
        ):
            raise PermissionDenied
        form = UploadForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            self._ingest_uploads(request, form)
            return HttpResponseRedirect(reverse("admin:sources_document_changelist"))
        context = {
            **self.admin_site.each_context(request),
            "form": form,
            "opts": self.model._meta,
            "title": gettext("Upload documents"),
        }
        return TemplateResponse(request, "admin/sources/document/upload.html", context)

    def _ingest_uploads(self, request: HttpRequest, form: UploadForm) -> None:
        """Ingest the small files now and queue the rest (module docstring), in order."""
        written: dict[str, str] = {}  # doc_id -> file name, to tell of a clash
        later: list[ScreenedUpload] = []
        told: list[FinishedUpload] = []  # the files told at once, for the uploads table
        text_tools_warm()
        start = time.monotonic()
        inline_bytes = settings.KBQA_UPLOAD_INLINE_KB * 1024
        replace = form.cleaned_data["replace"]
        for screened in form.screened_uploads():
            if screened.problem:
                level = "error" if screened.failed else "warning"
                told.append(_told(request, screened.upload.name or "", IngestJob.State.FAILED,
                                  "", [(level, screened.problem)]))
                continue
            in_time = time.monotonic() - start < INLINE_SECONDS
            if later or (screened.upload.size or 0) > inline_bytes or not in_time:
                later.append(screened)
                continue
            result, lines = self._ingest_upload(
                screened.upload, form.overrides(), earlier=written, replace=replace
            )
            if result is not None and result.doc_id not in written:
                written[result.doc_id] = screened.upload.name
            failed = any(level == "error" for level, _ in lines)
            state = (IngestJob.State.READY if result else
                     IngestJob.State.FAILED if failed else IngestJob.State.SKIPPED)
            told.append(_told(request, screened.upload.name or "", state,
                              result.doc_id if result else "", lines))
        if later:
            uploads = [s.upload for s in later]
            ingest_jobs_queue(
                uploads=uploads, overrides=form.overrides(), replace=replace,
                user=request.user, earlier=written, finished=told,
            )
            messages.info(request, _queued_message([u.name or "" for u in uploads]))

    def _ingest_upload(
        self,
        upload: Any,
        overrides: IngestOverrides,
        *,
        earlier: dict[str, str],
        replace: bool = False,
    ) -> tuple[IngestResult | None, list[tuple[str, str]]]:
        """Ingest one file; its result (None when it failed or was not added: the same
        text as a stored document) and the lines saying how it went (``outcome_lines``).
        ``earlier`` maps the doc_ids written so far in this upload to their file names."""
        try:
            result = document_ingest(file=upload, overrides=overrides, replace=replace)
        except Exception as exc:  # every failure is a message, never a 500
            return None, [("error", ingest_failure_reason(upload.name, exc))]
        lines = outcome_lines(upload.name, result, earlier)
        return (None if result.status == "duplicate" else result), lines

    def jobs_view(self, request: HttpRequest) -> HttpResponse:
        """The uploads panel alone (htmx polls it). When the page had a running upload
        (``?active=1``) and none runs any more, htmx reloads the page (``HX-Refresh``) so the
        new documents appear in the list. Raises PermissionDenied without permission to view
        documents: the panel names the files uploaded, as the list it belongs to does."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        context = jobs_context()
        response = TemplateResponse(request, JOBS_PARTIAL, context)
        if request.GET.get("active") and not context["jobs_active"]:
            response["HX-Refresh"] = "true"
        return response


_REPORT = {"success": messages.success, "warning": messages.warning, "error": messages.error}


def _told(request: HttpRequest, name: str, state: str, doc_id: str,
          lines: list[tuple[str, str]]) -> FinishedUpload:
    """Show ``lines`` (``(level, text)``) as messages now; the file's finished row."""
    for level, text in lines:
        _REPORT[level](request, text)
    return FinishedUpload(name=name, state=state, doc_id=doc_id, messages=lines)


def jobs_context() -> dict[str, Any]:
    """What the uploads panel shows: recent jobs with their state in words."""
    ingest_jobs_resume()
    jobs = list(ingest_jobs_recent())
    for job in jobs:
        job.state_text = job_state_text(job)  # type: ignore[attr-defined]
    active = any(j.state in (IngestJob.State.QUEUED, IngestJob.State.RUNNING) for j in jobs)
    return {"jobs": jobs, "jobs_active": active}


def job_state_text(job: IngestJob) -> str:
    """``queued``, ``ingesting: updating the search index (90%)``, ``ready``, ``failed``."""
    if job.state == IngestJob.State.RUNNING:
        stage = STAGE_WORDS.get(job.stage, job.stage)
        return gettext("ingesting: %(stage)s (%(percent)d%%)") % {
            "stage": stage, "percent": job.percent
        }
    return str(IngestJob.State(job.state).label)


def reingest_queued(request: HttpRequest, document: Any) -> bool:
    """Queue ``document``'s re-ingest when its original is over ``KBQA_UPLOAD_INLINE_KB``
    (and say so); False when it is small enough to re-ingest now. Raises ``IngestError``
    when it cannot be re-ingested (``services.reingest_source``)."""
    if not document.original_file or document.retired_at is not None:
        return False  # ``document_reingest`` says why
    if document.original_file.size <= settings.KBQA_UPLOAD_INLINE_KB * 1024:
        return False
    upload, overrides = reingest_source(document=document)
    ingest_jobs_queue(
        uploads=[upload], overrides=overrides, replace=False, user=request.user, earlier={}
    )
    messages.info(request, _queued_message([upload.name or document.doc_id]))
    return True


def _queued_message(names: list[str]) -> str:
    return ngettext(
        "%(names)s: accepted; it is being ingested in the background. Its progress is shown "
        "under Uploads below.",
        "%(names)s: accepted; they are being ingested in the background, one after the "
        "other. Their progress is shown under Uploads below.",
        len(names),
    ) % {"names": ", ".join(names)}
