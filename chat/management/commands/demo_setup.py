"""``manage.py demo_setup``: a knowledge base and a login to try kbqa locally (``make run``).

1. If the knowledge base has no document, ingest ``sources/demo/docs/`` (or ``--docs``; ``--docs
   none`` leaves it empty, for an organisation's own uploads: ``make run DOCS=none``);
   if it has documents but the retrieval index is missing or stale (built by another
   tokenizer version, after an upgrade), rebuild it with ``index_build``.
2. With ``KBQA_DEMO`` (``make run``) or ``KBQA_DEBUG`` on, create a ``demo`` superuser with
   a random password if missing, write URL, user and password to
   ``DATA_DIR/demo-login.txt`` (mode 600) and print them.
   Without either no demo login is created: a real deployment makes its own accounts
   (``manage.py createsuperuser``).

Idempotent: an existing knowledge base is left alone, an existing demo user keeps its
password (printed again from the login file when it is there).
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from sources.models import Document
from sources.selectors import index_status
from sources.services import documents_ingest_paths

DEMO_DOCS = Path(settings.BASE_DIR) / "sources" / "demo" / "docs"
DEMO_URL = "http://127.0.0.1:8000/"
LOGIN_FILE = "demo-login.txt"


def login_file_write(path: Path, *, username: str, password: str, url: str = DEMO_URL) -> None:
    """Write the demo login to ``path``, readable by the owner only (mode 600)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(f"url: {url}\nuser: {username}\npassword: {password}\n")
    os.chmod(path, 0o600)  # O_CREAT's mode does not apply to an existing file


def login_file_password(path: Path) -> str:
    """The password recorded in the login file, or "" if there is none."""
    if not path.exists():
        return ""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("password: "):
            return line.removeprefix("password: ").strip()
    return ""


class Command(BaseCommand):
    help = "Load the demo documents into an empty knowledge base and create a local demo login."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--docs", default=str(DEMO_DOCS),
            help="Folder of documents an empty knowledge base starts with; 'none' for none.")
        parser.add_argument("--username", default="demo", help="Name of the demo superuser.")
        parser.add_argument("--url", default=DEMO_URL, help="Where the server will listen.")

    def handle(self, *args: Any, docs: str, username: str, url: str, **options: Any) -> None:
        self.knowledge_base_seed(docs)
        if not (settings.DEBUG or settings.DEMO):
            self.stderr.write(
                "Not creating a demo login: KBQA_DEMO and KBQA_DEBUG are off, so this looks "
                "like a real deployment. Create accounts with `manage.py createsuperuser` instead."
            )
            return
        self.demo_login(username, url)

    def knowledge_base_seed(self, docs: str) -> None:
        if Document.objects.exists():
            self.stdout.write(
                f"Knowledge base already has {Document.objects.count()} documents; left as it is."
            )
            problem = index_status().problem
            if problem:  # else every question would be refused for low relevance
                self.stdout.write(f"The retrieval index needs building ({problem}); building now.")
                call_command("index_build", stdout=self.stdout, stderr=self.stderr)
            return
        if docs.strip().lower() in ("none", ""):
            self.stdout.write("The knowledge base starts empty: upload documents in /admin/ "
                              "(Documents -> Upload documents) or with `manage.py ingest`.")
            return
        folder = Path(docs)
        if not folder.exists():
            raise CommandError(f"No such folder of documents: {docs}")
        summary = documents_ingest_paths(paths=[folder])
        self.stdout.write(f"Ingested {docs}: {summary.line()}")
        for failure in summary.failures:
            self.stderr.write(f"  failed: {failure.reason}")

    def demo_login(self, username: str, url: str) -> None:
        path = Path(settings.DATA_DIR) / LOGIN_FILE
        users = get_user_model().objects
        if users.filter(username=username).exists():
            password = (
                login_file_password(path) or "(unchanged; reset it with `manage.py changepassword`)"
            )
            self.stdout.write(f"Demo user {username!r} already exists.")
        else:
            password = secrets.token_urlsafe(12)
            users.create_superuser(username=username, email="", password=password)
            login_file_write(path, username=username, password=password, url=url)
            self.stdout.write(f"Created demo superuser {username!r} (login saved to {path}).")
        # `make run` starts the server after this command: say when it is ready, or an early
        # visitor meets "connection refused" while Daphne is still importing.
        self.stdout.write(
            f'Open {url} once the server below logs "Listening on TCP address", and log in'
            f" as user: {username}  password: {password}"
        )
