"""Deployment checks Django's own ``check --deploy`` does not make."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Tags, Warning, register

REDIRECT_LOOP = (
    "KBQA_SECURE_SSL_REDIRECT is on but KBQA_SECURE_PROXY_SSL_HEADER is not set: behind a "
    "proxy that terminates TLS (nginx), every request reaches the app as http and is "
    "redirected to https again, for ever (the browser stops at 'too many redirects')."
)
REDIRECT_LOOP_HINT = (
    "Set KBQA_SECURE_PROXY_SSL_HEADER=X-Forwarded-Proto and have the proxy always set that "
    "header (nginx: proxy_set_header X-Forwarded-Proto $scheme;). Only a server that "
    "terminates TLS itself, with no proxy in front, needs neither."
)


@register(Tags.security, deploy=True)
def ssl_redirect_check(app_configs: Any = None, **kwargs: Any) -> list[Warning]:
    """kbqa.W001 when ``SECURE_SSL_REDIRECT`` is on and ``SECURE_PROXY_SSL_HEADER`` is not
    set (from ``KBQA_SECURE_SSL_REDIRECT`` and ``KBQA_SECURE_PROXY_SSL_HEADER``): Django
    then takes every request a TLS-terminating proxy passes on for plain http."""
    if not settings.SECURE_SSL_REDIRECT or settings.SECURE_PROXY_SSL_HEADER:
        return []
    return [Warning(REDIRECT_LOOP, hint=REDIRECT_LOOP_HINT, id="kbqa.W001")]
