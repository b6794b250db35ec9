"""A command whose reader goes away (`manage.py ask ... | head -1`) stops quietly: no
traceback on the terminal, exit status 1, and the turn's trace is still stored."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_ask_piped_into_a_reader_that_closes_stops_without_a_traceback(tmp_path: Path) -> None:
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith("KBQA_") and k != "DATABASE_URL"}  # its own SQLite
    env = {**clean, "DJANGO_SETTINGS_MODULE": "kbqa.settings", "KBQA_DEBUG": "1",
           "KBQA_DATA_DIR": str(tmp_path)}
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "-v", "0"], cwd=ROOT, env=env, check=True, timeout=120)
    ask = subprocess.Popen(
        [*manage, "ask", "--json", "How many days of annual leave do I get?"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert ask.stdout is not None
    ask.stdout.close()  # the reader is gone before the first line is written
    _, stderr = ask.communicate(timeout=120)
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr
    assert ask.returncode == 1
    probe = "from chat.models import Trace; print(Trace.objects.count())"
    stored = subprocess.run([*manage, "shell", "-v", "0", "-c", probe], cwd=ROOT, env=env,
                            capture_output=True, text=True, check=True, timeout=60)
    assert stored.stdout.split() == ["1"]
