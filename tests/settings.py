"""Settings for the test suite: the real settings with a throwaway key and data dir."""

from __future__ import annotations

import os
import tempfile

os.environ.setdefault("KBQA_SECRET_KEY", "test-only-secret-key")
os.environ.setdefault("KBQA_DATA_DIR", tempfile.mkdtemp(prefix="kbqa-test-"))

from kbqa.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast logins in tests
