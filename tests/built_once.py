"""Rows a test process builds once and copies back for each test that asks again."""

import sqlite3
from collections.abc import Callable
from typing import Any, TypeVar

Built = TypeVar("Built")
_BUILT: dict[str, tuple[sqlite3.Connection, Any]] = {}


def built_once(key: str, build: Callable[[], Built]) -> Built:
    """What `build()` stores, built by the first test of this process that asks for `key` and copied back into
    the test database for each later one: a test on a transactional database (a live server's) starts from an
    emptied database, and building the demo nights again took a second or more per test, against milliseconds
    for SQLite's backup API. `build` returns plain values (primary keys), read again by the caller, never
    model instances a test could have changed. On PostgreSQL every test builds its own."""
    from django.contrib.contenttypes.models import ContentType
    from django.db import connection

    if connection.vendor != "sqlite":
        return build()
    connection.ensure_connection()
    kept = _BUILT.get(key)
    if kept is None:
        built = build()
        copy = sqlite3.connect(":memory:", check_same_thread=False)
        connection.connection.backup(copy)
        _BUILT[key] = (copy, built)
        return built
    copy, built = kept
    copy.backup(connection.connection)  # every table as it was, the ids' sequences too
    ContentType.objects.clear_cache()  # the emptied database's flush made them again, under other ids
    return built  # type: ignore[no-any-return]
