"""A management command that cannot reach PostgreSQL fails at once, the server's reason on
its last line: ``manage.py`` connects without psycopg's pool (``KBQA_DB_POOL=0``).

Through the pool, ``migrate`` with a wrong password printed the pool's connection error 15
times, waited the pool's 20 s and ended on "couldn't get a connection after 20.00 sec" (a
deployment tester). A closed loopback port needs no server; the wrong password runs
against the suite's own PostgreSQL (``make test-postgres``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from tests.kbqa.live import ROOT, free_port, server_env

pytest.importorskip("psycopg")


def migrate(data_dir: Path, database_url: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "migrate", "--noinput"],
        cwd=ROOT, env=server_env(data_dir, DATABASE_URL=database_url),
        capture_output=True, text=True, timeout=120,
    )


def test_migrate_on_a_closed_port_fails_with_connection_refused(tmp_path: Path) -> None:
    out = migrate(tmp_path, f"postgres://kbqa:kbqa@127.0.0.1:{free_port()}/kbqa")
    tail = out.stderr.strip().splitlines()[-2:]
    assert out.returncode == 1
    assert tail[0].startswith("django.db.utils.OperationalError: connection failed: ")
    assert "Connection refused" in tail[0]
    assert "couldn't get a connection" not in out.stderr
    assert "error connecting in 'pool" not in out.stderr


@pytest.mark.skipif(
    connection.vendor != "postgresql" or connection.settings_dict["HOST"] != "127.0.0.1",
    reason="needs the suite's PostgreSQL on the loopback address",
)
def test_migrate_with_a_wrong_password_fails_with_the_servers_reason(tmp_path: Path) -> None:
    given = connection.settings_dict
    url = (f"postgres://{given['USER']}:not-the-password@127.0.0.1:{given['PORT'] or 5432}/"
           f"{given['NAME']}")
    out = migrate(tmp_path, url)
    last = out.stderr.strip().splitlines()[-1]
    assert out.returncode == 1
    assert last.startswith("django.db.utils.OperationalError: connection failed: ")
    assert f'password authentication failed for user "{given["USER"]}"' in last
    assert "couldn't get a connection" not in out.stderr
