"""Writing many derived rows at once, for ``services.standings``: one prepared statement
(``executemany``) instead of the ORM's ``bulk_create``, which spent most of a
5,000-player close building model instances and SQL (docs/benchmarks.md, "Stored
rankings"). No audit row: the change that caused the rows writes it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection, models


def json_value(value: list[int]) -> Any:
    """A list as the database driver takes a JSON column's value (what ``JSONField``
    hands it, without the field's per-value overhead)."""
    return connection.ops.adapt_json_value(value, None)


def insert_rows(model: type[models.Model], columns: Sequence[str], rows: Sequence[tuple]) -> None:
    """Insert ``rows`` with one prepared statement (``executemany``): the ORM's
    ``bulk_create`` spent most of a 5,000-player close building model instances and SQL
    (docs/benchmarks.md, "Stored rankings")."""
    if not rows:
        return
    q = connection.ops.quote_name
    table = q(model._meta.db_table)
    marks = ", ".join(["%s"] * len(columns))
    sql = f"INSERT INTO {table} ({', '.join(q(c) for c in columns)}) VALUES ({marks})"
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)


def upsert_rows(
    model: type[models.Model],
    columns: Sequence[str],
    rows: Sequence[tuple],
    *,
    unique: Sequence[str],
) -> None:
    """Insert or update ``rows`` on ``unique`` (PostgreSQL and SQLite share the syntax)."""
    if not rows:
        return
    q = connection.ops.quote_name
    table = q(model._meta.db_table)
    marks = ", ".join(["%s"] * len(columns))
    updates = ", ".join(f"{q(c)} = excluded.{q(c)}" for c in columns if c not in unique)
    sql = (
        f"INSERT INTO {table} ({', '.join(q(c) for c in columns)}) VALUES ({marks}) "
        f"ON CONFLICT ({', '.join(q(c) for c in unique)}) DO UPDATE SET {updates}"
    )
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)
