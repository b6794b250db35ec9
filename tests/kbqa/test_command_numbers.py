"""Management commands refuse an out-of-range number at argument parsing, in one line naming
the option (``ingest --max-tokens -1`` printed a traceback, then "FAILED ...: unexpected
error (ValueError)")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.kbqa.live import ROOT, server_env

FAQ = "# FAQ\n\nAsk the service desk.\n"


def test_ingest_max_tokens_minus_one_is_one_line_and_nothing_is_ingested(
    tmp_path: Path,
) -> None:
    (tmp_path / "faq.md").write_text(FAQ)
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "ingest", str(tmp_path / "faq.md"),
         "--max-tokens", "-1"],
        cwd=ROOT, env=server_env(tmp_path / "data"), capture_output=True, text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (
        "manage.py ingest: error: argument --max-tokens: must be 1 or more, not -1")
    assert "Traceback" not in done.stderr and "FAILED" not in done.stderr


@pytest.mark.parametrize(
    ("command", "option", "value", "message"),
    [
        ("ingest", "--max-tokens", "0", "must be 1 or more, not 0"),
        ("ingest", "--max-tokens", "ten", "'ten' is not a whole number"),
        ("ingest", "--processes", "-2", "must be 0 or more, not -2"),
        ("index_build", "--processes", "-1", "must be 0 or more, not -1"),
        ("ask", "--conversation", "-3", "must be 1 or more, not -3"),
        ("calibrate", "--limit", "0", "must be 1 or more, not 0"),
        ("calibrate", "--k", "-1", "must be 1 or more, not -1"),
        ("calibrate", "--max-wrongful-refusal", "1.5", "must be between 0 and 1, not 1.5"),
        ("evaluate", "--min-relevance", "nan", "must be between 0 and 1, not nan"),
    ],
)
def test_every_numeric_option_names_its_range(
    command: str, option: str, value: str, message: str
) -> None:
    positional = {"ask": ["a question"], "index_build": []}.get(command, ["cases.jsonl"])
    with pytest.raises(CommandError) as refused:
        call_command(command, *positional, option, value, skip_checks=True)
    assert str(refused.value) == f"Error: argument {option}: {message}"
