"""Writing many derived rows at once, for ``services.standings``. On PostgreSQL one
statement carries every row as one array a column (``INSERT … SELECT … FROM unnest(…)``):
a 5,000-player close spent most of its time in the driver's per-row work of
``executemany`` (a statement, a JSON adapter and a round trip in the pipeline per row),
and before that in the ORM's ``bulk_create`` (docs/benchmarks.md, "Stored rankings").
SQLite (the embedded profile) keeps ``executemany``. No audit row: the change that caused
the rows writes it."""

from __future__ import annotations

import json
from collections.abc import Sequence

import psycopg
from django.db import connection, models


def json_value(value: list[int]) -> str:
    """A list as a JSON column's value: its compact JSON text (what the database parses
    into ``jsonb``; no driver adapter per value)."""
    return json.dumps(value, separators=(",", ":"))


def _insert(
    model: type[models.Model], columns: Sequence[str], rows: Sequence[tuple], conflict: str
) -> None:
    if not rows:
        return
    q = connection.ops.quote_name
    table = q(model._meta.db_table)
    names = ", ".join(q(c) for c in columns)
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql":
            marks = ", ".join(["%s"] * len(columns))
            cursor.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks}) {conflict}", rows)
            return
        types = [_db_type(model, c) for c in columns]
        arrays = ", ".join(f"%b::{t}[]" for t in types)
        sql = f"INSERT INTO {table} ({names}) SELECT * FROM unnest({arrays}) {conflict}"  # noqa: S608 (quoted names, the fields' own types)
        # Bound by the server, sent in binary: Django's cursor binds on the client, which
        # spent a second writing 5,000-element arrays as SQL text. Same connection, so
        # the same transaction.
        with psycopg.Cursor(cursor.connection) as bound:
            bound.execute(sql, [list(column) for column in zip(*rows, strict=True)])


def _db_type(model: type[models.Model], column: str) -> str:
    field = model._meta.get_field(column)
    assert isinstance(field, models.Field), column  # a concrete column, not a relation's
    return str(field.db_type(connection))


def insert_rows(model: type[models.Model], columns: Sequence[str], rows: Sequence[tuple]) -> None:
    """Insert ``rows`` (tuples in ``columns`` order; a JSON column's value as
    :func:`json_value` writes it) in one statement."""
    _insert(model, columns, rows, "")


def upsert_rows(
    model: type[models.Model],
    columns: Sequence[str],
    rows: Sequence[tuple],
    *,
    unique: Sequence[str],
) -> None:
    """Insert or update ``rows`` on ``unique`` (PostgreSQL and SQLite share the syntax)."""
    q = connection.ops.quote_name
    updates = ", ".join(f"{q(c)} = excluded.{q(c)}" for c in columns if c not in unique)
    conflict = f"ON CONFLICT ({', '.join(q(c) for c in unique)}) DO UPDATE SET {updates}"
    _insert(model, columns, rows, conflict)
