""".ci/services.sh env: the DATABASE_URL it prints reads back as the role it was given."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import dj_database_url
import pytest

ROOT = Path(__file__).resolve().parent.parent


def printed_env(**variables: str) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("KBQA_PG_")}
    result = subprocess.run(
        ["bash", str(ROOT / ".ci" / "services.sh"), "env"], capture_output=True, text=True,
        env={**clean, **variables}, timeout=30, check=True,
    )
    lines = [line.removeprefix("export ").split("=", 1) for line in result.stdout.splitlines()]
    return dict(lines)


@pytest.mark.parametrize(
    ("user", "password", "database"),
    [
        ("kbqa", "t4p@ss#1", "kbqa"),  # the tester's: read as password `t4p` for host `ss`
        ("kbqa", "p/ss:w%rd?x", "kbqa"),
        ("kb@qa", "pä ss'\"", "kb qa"),
    ],
)
def test_database_url_reads_back_as_the_role_and_database(
    user: str, password: str, database: str
) -> None:
    env = printed_env(KBQA_PG_USER=user, KBQA_PG_PASSWORD=password, KBQA_PG_DB=database)
    parsed = dj_database_url.parse(env["DATABASE_URL"])
    assert (parsed["USER"], parsed["PASSWORD"], parsed["NAME"]) == (user, password, database)
    assert (parsed["HOST"], parsed["PORT"]) == ("127.0.0.1", 5432)


def test_the_tester_password_is_percent_encoded() -> None:
    env = printed_env(KBQA_PG_PASSWORD="t4p@ss#1")
    assert env["DATABASE_URL"] == "postgres://kbqa:t4p%40ss%231@127.0.0.1:5432/kbqa"
    assert env["KBQA_REDIS_URL"] == "redis://127.0.0.1:6379/0"
