"""The credential reads of ``chat.auth`` written as SQL: the websocket's session with its
user, the API token with its user. Each runs on every question, and through the ORM its query
building was most of its cost (README: Benchmarks). The SQL names tables and columns from the
models (a custom user model works) and is the same on SQLite and PostgreSQL.
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from chat.models import ApiToken

# Django's own session store and user backend, the ones ``session_logs_in`` reads as SQL.
DB_SESSIONS = "django.contrib.sessions.backends.db"
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def session_read(session_key: str, user: AbstractBaseUser) -> bool | None:
    """``chat.auth.session_logs_in`` for Django's database sessions, from one statement: None
    when only Django's own path can tell (another backend, a hash the current secret does
    not verify)."""
    users = get_user_model()._meta
    active = "u.is_active" if any(f.name == "is_active" for f in users.concrete_fields) else "1"
    store = import_module(DB_SESSIONS).SessionStore
    expiry = store.get_model_class()._meta.get_field("expire_date")
    sql = (
        f"SELECT s.session_data, u.password, {active}"  # noqa: S608 - names from _meta
        f" FROM {store.get_model_class()._meta.db_table} s, {users.db_table} u"
        f" WHERE s.session_key = %s AND s.expire_date > %s AND u.{users.pk.column} = %s"
    )
    with connection.cursor() as cursor:
        now = expiry.get_db_prep_value(timezone.now(), connection)
        cursor.execute(sql, [session_key, now, user.pk])
        row = cursor.fetchone()
    if row is None:  # no live session of that key, or the user is gone
        return False
    data, password, is_active = row
    session = store().decode(data)
    if session.get(BACKEND_SESSION_KEY) != MODEL_BACKEND:
        return None if BACKEND_SESSION_KEY in session else False
    if str(session.get(SESSION_KEY)) != str(user.pk) or not is_active:
        return False
    fresh = copy.copy(user)
    fresh.password = password
    hashed = session.get(HASH_SESSION_KEY)
    if hashed and constant_time_compare(hashed, fresh.get_session_auth_hash()):
        return MODEL_BACKEND in settings.AUTHENTICATION_BACKENDS
    return None


def token_read(key_hash: str) -> ApiToken | None:
    """The token of ``key_hash`` with its user, as ``select_related("user")`` loads them, in
    one SQL statement: through the ORM the look-up cost 0.39 ms of CPU per API answer, its
    query building mostly, against 0.05 ms (in process, 2026-12-01)."""
    users = get_user_model()
    token_reader, user_reader = _row_reader(ApiToken), _row_reader(users)
    sql = (
        f"SELECT {token_reader.columns('t')}, {user_reader.columns('u')}"  # noqa: S608 - _meta
        f" FROM {ApiToken._meta.db_table} t"
        f" JOIN {users._meta.db_table} u ON u.{users._meta.pk.column} = t.user_id"
        " WHERE t.key_hash = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [key_hash])
        row = cursor.fetchone()
    if row is None:
        return None
    split = len(token_reader.fields)
    token = token_reader.instance(row[:split])
    ApiToken.user.field.set_cached_value(token, user_reader.instance(row[split:]))
    return token


@dataclass(frozen=True)
class _RowReader:
    """Model instances from rows of every concrete column, converted as the ORM converts
    them from the backend (SQLite gives dates as text and booleans as integers)."""

    model: Any
    fields: tuple[Any, ...]
    converters: tuple[tuple[Any, ...], ...]

    def columns(self, alias: str) -> str:
        return ", ".join(f"{alias}.{f.column}" for f in self.fields)

    def instance(self, values: tuple[Any, ...]) -> Any:
        converted = list(values)
        for i, field in enumerate(self.fields):
            for convert in self.converters[i]:
                converted[i] = convert(converted[i], field, connection)
        return self.model.from_db(connection.alias, [f.attname for f in self.fields], converted)


@functools.cache
def _row_reader(model: Any) -> _RowReader:
    fields = tuple(model._meta.concrete_fields)
    converters = tuple(
        tuple(connection.ops.get_db_converters(f.get_col(model._meta.db_table)))
        + tuple(f.get_db_converters(connection))
        for f in fields
    )
    return _RowReader(model, fields, converters)
