"""A real Daphne process on a free loopback port, for tests about what the server does.

DEBUG is off, as in production; the data directory (SQLite, uploads) is the test's own.
``peak_rss_mb`` reads the process's high-water resident memory (``VmHWM``, Linux).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 30.0


@dataclass(frozen=True)
class Daphne:
    port: int
    pid: int
    data_dir: Path

    def peak_rss_mb(self) -> float:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        raise RuntimeError("no VmHWM in /proc status")

    def terminate(self) -> None:
        """SIGTERM, as a service manager stops the server (the context still reaps it)."""
        os.kill(self.pid, signal.SIGTERM)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_env(data_dir: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KBQA_", "DJANGO_"))}
    env.pop("DATABASE_URL", None)
    env.update(
        DJANGO_SETTINGS_MODULE="kbqa.settings",
        KBQA_DATA_DIR=str(data_dir),
        KBQA_SECRET_KEY="live-test-only-secret-key",
        KBQA_LOG_LEVEL="WARNING",
        # as in tests/settings.py: no live server loads the optional sentence encoder (with
        # the extra installed, demo_setup would encode every chunk and sentence, ~100 s)
        KBQA_SEMANTIC="off",
    )
    env.update(extra)
    return env


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        cwd=ROOT, env=env, check=True, capture_output=True, text=True,
    )


@contextmanager
def daphne(data_dir: Path, *, setup: tuple[str, ...] = (), **extra: str) -> Iterator[Daphne]:
    """Migrate ``data_dir``'s database, run the ``setup`` management commands (no
    arguments, e.g. ``demo_setup``), serve it with Daphne, stop the process afterwards;
    ``extra`` adds settings."""
    env = server_env(data_dir, **extra)
    manage(env, "migrate", "--noinput")
    for command in setup:
        manage(env, command)
    port = free_port()
    log = (data_dir / "daphne.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
         "kbqa.asgi:application"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    try:
        wait_for_port(port, proc)
        yield Daphne(port, proc.pid, data_dir)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def api_key_create(data_dir: Path, username: str = "api-client") -> str:
    """A user and an API token in ``data_dir``'s database; returns the token's key."""
    code = (
        "from django.contrib.auth import get_user_model; from chat.auth import api_token_create; "
        f"u = get_user_model().objects.create_user({username!r}, password='pw-api-client-1'); "
        "print(api_token_create(user=u)[1])"
    )
    return manage(server_env(data_dir), "shell", "-c", code).stdout.strip().splitlines()[-1]


def wait_for_port(port: int, proc: subprocess.Popen[bytes]) -> None:
    """Return once ``proc`` (Daphne) listens on 127.0.0.1:``port``; RuntimeError if it exits
    first or does not listen within ``START_SECONDS``."""
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"daphne exited with code {proc.returncode} before listening")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"daphne did not listen on port {port} within {START_SECONDS}s")
