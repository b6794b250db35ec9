"""Settings come from KBQA_* variables; a bad value names the variable at startup."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def check(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("KBQA_")}
    return subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, capture_output=True, text=True,
        env={**clean, "DJANGO_SETTINGS_MODULE": "kbqa.settings", **env}, timeout=60,
    )


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"KBQA_DEBUG": "1", "KBQA_CONTEXT_BUDGET": "lots"},
         "KBQA_CONTEXT_BUDGET='lots' is not a whole number."),
        ({"KBQA_DEBUG": "1", "KBQA_MIN_RELEVANCE": "high"},
         "KBQA_MIN_RELEVANCE='high' is not a number."),
        ({}, "Set KBQA_SECRET_KEY (or KBQA_DEBUG=1 for local development)."),
    ],
)
def test_bad_configuration_stops_startup_with_the_variable_named(
    env: dict[str, str], message: str, tmp_path: Path
) -> None:
    result = check({"KBQA_DATA_DIR": str(tmp_path), **env})
    assert result.returncode != 0
    assert message in result.stderr


def test_good_configuration_passes_the_system_check(tmp_path: Path) -> None:
    result = check({"KBQA_DATA_DIR": str(tmp_path), "KBQA_SECRET_KEY": "x" * 50,
                    "KBQA_CONTEXT_BUDGET": "800"})
    assert result.returncode == 0, result.stderr
