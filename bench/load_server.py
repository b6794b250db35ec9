"""The database, the Daphne processes and the profiler of ``bench/load.py``.

Everything here runs in the bench process or starts a child: the throwaway database (SQLite
in the data dir, or ``kbqa_bench`` dropped and created on a PostgreSQL server), the bench
users with their sessions, conversations and API tokens, one Daphne per checkout measured
(its own code: the child runs with that checkout as its working directory, which comes
first on ``sys.path``), and py-spy attached to a server.
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from bench.fake_model import BACKLOG, QUESTION

ROOT = Path(__file__).resolve().parent.parent
SECRET = "bench-only-secret-key"


@dataclass(frozen=True)
class Credentials:
    """The bench users: ``sessions[i]`` and ``tokens[i]`` log in user i; ``conversations[j][i]``
    is user i's conversation for checkout j (a chat's second turn would carry history)."""

    sessions: list[str]
    conversations: list[list[int]]
    tokens: list[str]


def env_for(args: argparse.Namespace, data_dir: str) -> dict[str, str]:
    env = {**os.environ, "KBQA_DATA_DIR": data_dir, "KBQA_SECRET_KEY": SECRET, "KBQA_DEBUG": "0",
           "KBQA_LOG_LEVEL": "WARNING", "DJANGO_SETTINGS_MODULE": "kbqa.settings"}
    env.pop("KBQA_REDIS_URL", None)
    if args.db:
        env["DATABASE_URL"] = args.db.rsplit("/", 1)[0] + "/kbqa_bench"
        if args.redis:
            env["KBQA_REDIS_URL"] = args.redis
    else:
        env.pop("DATABASE_URL", None)
    return env


def postgres_recreate(url: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS kbqa_bench WITH (FORCE)")
        conn.execute("CREATE DATABASE kbqa_bench")


def setup_database(users: int, checkouts: int) -> Credentials:
    """Migrate, ingest the demo documents, and make ``users`` users, each with a session,
    an API token and one conversation per checkout measured."""
    import django
    from django.core.management import call_command

    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.models import User
    from django.contrib.sessions.backends.db import SessionStore

    from chat.auth import api_token_create
    from chat.models import Conversation

    call_command("migrate", verbosity=0)
    call_command("ingest", str(ROOT / "sources/demo/docs"), verbosity=0, stdout=io.StringIO())
    creds = Credentials([], [[] for _ in range(checkouts)], [])
    for i in range(users):
        user = User(username=f"bench-{i}")
        user.set_unusable_password()
        user.save()
        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.create()
        creds.sessions.append(store.session_key or "")
        for mine in creds.conversations:
            mine.append(Conversation.objects.create(owner=user).pk)
        creds.tokens.append(api_token_create(user=user, name="bench")[1])
    return creds


def stored_counts() -> tuple[int, int]:
    """(traces stored complete, assistant messages complete and linked to their trace) for
    QUESTION: "complete" is anything but pending (an answered, refused or error turn)."""
    from django.db import connections

    from chat.models import Message, Trace

    connections.close_all()
    traces = Trace.objects.filter(question=QUESTION).exclude(status="pending").count()
    messages = (
        Message.objects.filter(role="assistant", trace__question=QUESTION)
        .exclude(status="pending")
        .count()
    )
    return traces, messages


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(env: dict[str, str], port: int, code: Path = ROOT) -> subprocess.Popen[bytes]:
    """Daphne serving ``code``'s ``kbqa.asgi`` on 127.0.0.1:``port``, logging to the data dir."""
    # Twisted listens with a backlog of 50: 200 clients connecting at once would see dropped
    # SYNs and retry after 1-3 s. The endpoint string raises it (README: production recipe).
    endpoint = f"tcp:port={port}:interface=127.0.0.1:backlog={BACKLOG}"
    # Daphne drops a websocket the app has not accepted within 5 s (its default); accepting
    # needs the session and the conversation from the database, which waits under a burst.
    cmd = [sys.executable, "-m", "daphne", "-e", endpoint, "--websocket_connect_timeout", "60",
           "kbqa.asgi:application"]
    log_path = Path(env["KBQA_DATA_DIR"]) / f"daphne-{port}.log"
    log = open(log_path, "wb")  # noqa: SIM115 - the child owns it
    proc = subprocess.Popen(cmd, cwd=code, env=env, stderr=log, stdout=log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc
        if proc.poll() is not None:
            raise SystemExit(f"daphne exited: {log_path.read_text()[-2000:]}")
        time.sleep(0.2)
    raise SystemExit("daphne did not start in 60 s")


def server_log(env: dict[str, str], port: int) -> list[str]:
    path = Path(env["KBQA_DATA_DIR"]) / f"daphne-{port}.log"
    return path.read_text(errors="replace").splitlines()


def profile_start(path: str, pid: int) -> subprocess.Popen[bytes] | None:
    """py-spy recording ``pid`` into ``path`` (collapsed stacks for a ``.txt`` path,
    speedscope JSON otherwise); None without a path."""
    if not path:
        return None
    exe = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    fmt = "raw" if path.endswith(".txt") else "speedscope"
    cmd = [exe, "record", "--pid", str(pid), "--format", fmt, "--rate", "100",
           "--output", path, "--threads", "--nonblocking"]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL)


def profile_stop(proc: subprocess.Popen[bytes] | None) -> None:
    if proc is not None:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
