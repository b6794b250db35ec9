"""Which code a benchmark row measured: the checkout's commit (for ``--against`` tables)."""

from __future__ import annotations

import subprocess
from pathlib import Path


def commit(code: Path) -> str:
    """The checkout's commit, short, with ``+`` when it has uncommitted changes."""
    git = ["git", "-C", str(code)]
    sha = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(
        [*git, "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True
    ).stdout.strip()
    return sha.stdout.strip() + ("+" if dirty else "")
