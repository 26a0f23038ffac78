"""Backups of a running stack with the shipped scripts, and a fingerprint of a database
to compare one before and after (every table's row count and rows)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.production.stack import ROOT, Stack

BACKUP = ROOT / "deploy" / "tirage-backup"
RESTORE = ROOT / "deploy" / "tirage-restore"


def database_url(stack: Stack, name: str = "tirage") -> str:
    return f"postgres://postgres@127.0.0.1:{stack.pg_port}/{name}"


def script_env(stack: Stack, backups: Path, database: str = "tirage", **extra: str) -> dict:
    """The environment the systemd unit gives the scripts (the service's env file)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TIRAGE_", "DATABASE"))}
    env.update(DATABASE_URL=database_url(stack, database), TIRAGE_BACKUP_DIR=str(backups),
               TIRAGE_VAR_DIR=str(stack.directory / "var"), **extra)  # fmt: skip
    return env


def run(script: Path, *args: str, env: dict) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(script), *args], env=env, capture_output=True, text=True,
                          timeout=300)  # fmt: skip


def psql(stack: Stack, database: str, command: str) -> None:
    subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d",
                    database_url(stack, database), "-c", command],
                   check=True, capture_output=True, timeout=120)  # fmt: skip


def fingerprint(stack: Stack, database: str = "tirage") -> dict[str, tuple[int, str]]:
    """{table: (rows, md5 of the rows in a stable order)} for every table of the schema."""
    import psycopg

    with psycopg.connect(database_url(stack, database), autocommit=True) as conn:
        tables = [r[0] for r in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")]  # fmt: skip
        result = {}
        for table in tables:
            count, digest = conn.execute(
                f"SELECT count(*), md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) FROM \"{table}\" t"  # noqa: E501
            ).fetchone()
            result[table] = (count, digest)
        return result
