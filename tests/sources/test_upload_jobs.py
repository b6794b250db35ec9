"""Admin uploads ingested in the background: the upload answers at once, the document list
shows each file's state until it is ready or failed (with the reason), a failing or
interrupted ingest changes no stored document."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from html import unescape
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone

import sources.jobs
from sources.models import Chunk, Document, IngestJob
from sources.selectors import chunks_search
from sources.services import document_ingest

pytestmark = pytest.mark.django_db(transaction=True)
UPLOAD_URL = "/admin/sources/document/upload/"
CHANGELIST = "/admin/sources/document/"
JOBS_URL = "/admin/sources/document/uploads/"
TRAVEL = b"---\ndoc_id: doc-010\ntitle: Travel\n---\n# Hotels\n\nUp to 200 USD per night.\n"


@pytest.fixture
def admin_client(client: Client, settings: Any) -> Iterator[Client]:
    settings.KBQA_UPLOAD_INLINE_KB = 0  # every file in the background
    client.force_login(User.objects.create_superuser("root", "root@example.com", "pw-123456789"))
    yield client
    runners_done()


def runners_done() -> None:
    for thread in threading.enumerate():
        if thread.name == "kbqa-ingest":
            thread.join(timeout=60)


def wait_until_finished(timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while IngestJob.objects.filter(finished_at__isnull=True).exists():
        assert time.monotonic() < deadline, "the background ingest did not finish"
        time.sleep(0.05)
    runners_done()


def rows(html: str) -> list[tuple[str, str, str]]:
    """The uploads panel's rows as text: (file, state, outcome)."""
    found = re.findall(r'<tr class="ingest-job[^"]*"[^>]*>(.*?)</tr>', html, re.S)
    cells = [re.findall(r"<td>(.*?)</td>", row, re.S) for row in found]
    return [(text(c[0]), text(c[1]), text(c[3])) for c in cells]


def text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def test_a_large_upload_is_accepted_at_once_and_its_progress_shown(
    admin_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    real_ingest = sources.jobs.document_ingest

    def held_ingest(**kwargs: Any) -> Any:
        # A real ingest reports as it reads: a report that loses a lock race to the page's
        # reads (SQLite) is caught up by the next one, so this one keeps reporting too.
        deadline = time.monotonic() + 30
        while not release.wait(0.05):
            assert time.monotonic() < deadline
            kwargs["on_progress"]("reading", 0.0)
        return real_ingest(**kwargs)

    monkeypatch.setattr(sources.jobs, "document_ingest", held_ingest)
    response = admin_client.post(
        UPLOAD_URL, {"files": [SimpleUploadedFile("travel.md", TRAVEL)]}, follow=True
    )
    html = response.content.decode()
    assert "travel.md: accepted; it is being ingested in the background" in html
    assert not Document.objects.exists()  # the answer did not wait for the ingest
    deadline = time.monotonic() + 30
    while "ingesting: reading the file" not in admin_client.get(JOBS_URL).content.decode():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    polled = admin_client.get(CHANGELIST).content.decode()
    assert 'hx-trigger="every 1s"' in polled  # the list refreshes while it runs
    assert rows(polled) == [("travel.md", "ingesting: reading the file (0%) 0%", "")]
    release.set()
    wait_until_finished()
    done = admin_client.get(JOBS_URL + "?active=1")
    assert done["HX-Refresh"] == "true"  # the page reloads to list the new document
    html = admin_client.get(CHANGELIST).content.decode()
    assert rows(html) == [
        ("travel.md", "ready", "travel.md: added doc-010 (1 chunk, 1 new, 0 superseded)")
    ]
    assert 'hx-trigger="every 1s"' not in html
    assert [h.chunk.chunk_id for h in chunks_search(query="USD per night", k=1)] == ["doc-010#c01"]


def test_a_failing_file_says_why_and_leaves_the_others_untouched(admin_client: Client) -> None:
    document_ingest(file=SimpleUploadedFile("travel.md", TRAVEL))
    before = list(Chunk.objects.values_list("chunk_id", "text", "is_current"))
    files = [
        SimpleUploadedFile("travel.md", b"---\ndoc_id: doc-010\ntitle: [broken\n---\nx"),
        SimpleUploadedFile("faq.txt", b"Ask the service desk."),
    ]
    response = admin_client.post(UPLOAD_URL, {"files": files})
    assert response.status_code == 302
    wait_until_finished()
    html = admin_client.get(CHANGELIST).content.decode()
    assert rows(html) == [
        ("faq.txt", "ready", "faq.txt: added faq (1 chunk, 1 new, 0 superseded)"),
        (
            "travel.md",
            "failed",
            "travel.md: bad front matter (did not find expected ',' or ']' on line 3). The "
            "block between the --- lines at the top is YAML: put a value that holds a colon or "
            'a # in quotes, e.g. title: "Travel: Europe"',
        ),
    ]
    after = Chunk.objects.exclude(document__doc_id="faq")
    assert list(after.values_list("chunk_id", "text", "is_current")) == before


def test_an_ingest_cut_short_by_a_restart_is_told_and_changes_nothing(
    admin_client: Client,
) -> None:
    document_ingest(file=SimpleUploadedFile("travel.md", TRAVEL))
    IngestJob.objects.create(
        batch="b1",
        name="travel.md",
        state=IngestJob.State.RUNNING,
        stage="chunking",
        worker=sources.jobs.WORKER.rsplit(":", 1)[0] + ":gone0000",  # this pid, an older process
    )
    html = admin_client.get(CHANGELIST).content.decode()
    assert rows(html) == [
        (
            "travel.md",
            "failed",
            "travel.md: not ingested: the server stopped before it was stored; nothing was "
            "changed. Upload it again",
        )
    ]
    assert Document.objects.get(doc_id="doc-010").chunks.count() == 1


def test_uploads_of_one_batch_go_in_the_order_sent(admin_client: Client) -> None:
    """The second file claims the first one's doc_id: refused, as in the upload request, so
    the first file must have gone in first."""
    files = [
        SimpleUploadedFile("a.md", b"---\ndoc_id: same\n---\nFirst text about parking."),
        SimpleUploadedFile("b.md", b"---\ndoc_id: same\n---\nSecond text about lunch."),
    ]
    admin_client.post(UPLOAD_URL, {"files": files})
    wait_until_finished()
    [(b_state, b_outcome), (a_state, _)] = [
        r[1:] for r in rows(admin_client.get(CHANGELIST).content.decode())
    ]
    assert (a_state, b_state) == ("ready", "failed")
    assert b_outcome.startswith("b.md: not ingested; its doc_id same belongs to “a” from a.md.")
    assert Document.objects.get(doc_id="same").chunks.get(is_current=True).text == (
        "First text about parking."
    )


def test_files_told_at_once_keep_their_outcome_when_the_page_reloads(
    admin_client: Client, settings: Any
) -> None:
    """A mixed upload: the small files are ingested at once and told as messages, the big
    one is queued; the page reloads when it ends, and every file's outcome must still be
    in the uploads table (the messages were shown once, then lost with the reload)."""
    settings.KBQA_UPLOAD_INLINE_KB = 1
    files = [
        SimpleUploadedFile("faq.txt", b"Ask the service desk about parking."),
        SimpleUploadedFile("faq-copy.txt", b"Ask the service desk about parking."),
        SimpleUploadedFile("broken.md", b"---\ntitle: [broken\n---\nx"),
        SimpleUploadedFile("handbook.txt", b"The canteen opens at noon. " * 200),
        SimpleUploadedFile("handbook-copy.txt", b"The canteen opens at noon. " * 200),
    ]
    shown = admin_client.post(UPLOAD_URL, {"files": files}, follow=True).content.decode()
    assert "faq.txt: added faq" in text(shown)
    wait_until_finished()
    assert admin_client.get(JOBS_URL + "?active=1")["HX-Refresh"] == "true"
    reloaded = rows(admin_client.get(CHANGELIST).content.decode())
    # a copy of a stored text is "not added", never "ready" (a tester read it as added)
    assert [(name, state) for name, state, _ in reloaded] == [
        ("handbook-copy.txt", "not added"), ("handbook.txt", "ready"),
        ("broken.md", "failed"), ("faq-copy.txt", "not added"), ("faq.txt", "ready"),
    ]
    outcomes = {name: outcome for name, _, outcome in reloaded}
    assert outcomes["faq.txt"].startswith("faq.txt: added faq (1 chunk")
    assert outcomes["broken.md"].startswith("broken.md: bad front matter")
    assert outcomes["handbook.txt"].startswith("handbook.txt: added handbook")
    assert "faq-copy.txt" in outcomes["faq-copy.txt"]


SUPPORTED = ".docx, .htm, .html, .markdown, .md, .pdf, .text, .txt"


def test_a_file_of_a_type_no_parser_reads_is_refused_at_once_not_accepted(
    admin_client: Client,
) -> None:
    """A trial's .csv and .xlsx were "accepted; they are being ingested in the background",
    then failed as "unsupported file type": refused at once now, as a file over the size
    limit is, and the other files of the upload go on."""
    files = [
        SimpleUploadedFile("prices.csv", b"item,price\ncoffee,2.50\n"),
        SimpleUploadedFile("faq.txt", b"Ask the service desk."),
        SimpleUploadedFile("Prices.XLSX", b"PK\x03\x04 not really a workbook"),
    ]
    response = admin_client.post(UPLOAD_URL, {"files": files}, follow=True)
    told = [(m.level_tag, str(m)) for m in response.context["messages"]]
    assert told == [
        ("error", f"prices.csv: unsupported file type '.csv'; use {SUPPORTED}"),
        ("error", f"Prices.XLSX: unsupported file type '.xlsx'; use {SUPPORTED}"),
        ("info", "faq.txt: accepted; it is being ingested in the background. Its progress "
                 "is shown under Uploads below."),
    ]
    wait_until_finished()
    assert [r[:2] for r in rows(admin_client.get(CHANGELIST).content.decode())] == [
        ("faq.txt", "ready"), ("Prices.XLSX", "failed"), ("prices.csv", "failed")]
    assert list(Document.objects.values_list("doc_id", flat=True)) == ["faq"]


def test_reingesting_a_large_document_runs_in_the_background(admin_client: Client) -> None:
    document_ingest(file=SimpleUploadedFile("travel.md", TRAVEL))
    doc = Document.objects.get(doc_id="doc-010")
    response = admin_client.post(
        CHANGELIST, {"action": "reingest", "_selected_action": [doc.pk]}, follow=True
    )
    assert "travel.md: accepted; it is being ingested in the background" in (
        response.content.decode()
    )
    wait_until_finished()
    assert rows(admin_client.get(CHANGELIST).content.decode()) == [
        ("travel.md", "ready", "travel.md: unchanged doc-010 (1 chunk, 0 new, 0 superseded)")
    ]


def test_small_files_are_ingested_at_once_even_when_the_text_tools_load_slowly(
    admin_client: Client, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A freshly started server loads jieba and tiktoken on its first ingest (seconds the
    first time on a machine): several small files uploaded together are still all
    ingested while the page answers, not all but the first sent to the background."""
    import sources.admin_upload

    settings.KBQA_UPLOAD_INLINE_KB = 256
    monkeypatch.setattr(sources.admin_upload, "text_tools_warm", lambda: time.sleep(2.5))
    files = [
        SimpleUploadedFile(
            f"policy-{n}.md",
            f"---\ndoc_id: doc-2{n}\ntitle: Policy {n}\n---\n# Rule\n\nRule {n} holds.\n".encode(),
        )
        for n in range(5)
    ]
    html = admin_client.post(UPLOAD_URL, {"files": files}, follow=True).content.decode()
    assert "in the background" not in html
    assert sorted(Document.objects.values_list("doc_id", flat=True)) == [
        f"doc-2{n}" for n in range(5)
    ]
    assert not IngestJob.objects.exists()


def test_a_lock_lost_while_claiming_or_reporting_progress_costs_no_upload(
    admin_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process holding SQLite's write lock past the busy timeout: the runner's
    claim, its progress writes and its outcome each meet "database is locked" once. The
    file is still ingested and its row says so (no job left queued or running)."""
    from django.db import OperationalError
    from django.db.models import QuerySet

    update = QuerySet.update
    failed: set[str] = set()

    def locked_once(self: QuerySet[Any], **kwargs: Any) -> int:
        kind = next((k for k in ("worker", "stage", "finished_at") if k in kwargs), "")
        if self.model is IngestJob and kind and kind not in failed:
            failed.add(kind)
            raise OperationalError("database is locked")
        return update(self, **kwargs)

    monkeypatch.setattr(QuerySet, "update", locked_once)
    monkeypatch.setattr("kbqa.db.RETRY_DELAYS", (0.01, 0.01))
    response = admin_client.post(UPLOAD_URL, {"files": [SimpleUploadedFile("travel.md", TRAVEL)]})
    assert response.status_code == 302
    wait_until_finished()
    assert failed == {"worker", "stage", "finished_at"}
    html = admin_client.get(CHANGELIST).content.decode()
    assert [(name, state) for name, state, _ in rows(html)] == [("travel.md", "ready")]
    assert Document.objects.get(doc_id="doc-010").chunks.count() == 1


@pytest.mark.django_db
def test_the_uploads_table_keeps_a_failure_for_a_day_and_a_success_for_an_hour() -> None:
    """A day-old 'added …' row read as part of every later upload (tester's report)."""
    now = timezone.now()
    for name, state, age in [("old-ok.md", "ready", 2), ("new-ok.md", "ready", 0.5),
                             ("old-bad.md", "failed", 20), ("ancient-bad.md", "failed", 30),
                             ("waiting.md", "queued", None)]:
        IngestJob.objects.create(
            batch="b", name=name, state=state,
            finished_at=None if age is None else now - timedelta(hours=age))
    assert sorted(j.name for j in sources.jobs.ingest_jobs_recent()) == [
        "new-ok.md", "old-bad.md", "waiting.md"]
