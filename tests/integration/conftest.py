"""Real services for the integration tests: PostgreSQL, Redis and a Celery worker process.

Locally a missing service skips these tests with a one-line reason; under CI (``tests/ci.py``)
it is a failure, so CI can never go green without having exercised the real stack. ``make
test`` provides them: a private PostgreSQL and Redis unless DATABASE_URL and REDIS_URL are set
(``deploy/with-test-services``).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn
from urllib.parse import quote

import psycopg
import pytest
import redis

from tests.ci import unavailable as ci_unavailable
from tests.conftest import summary_line

ROOT = Path(__file__).resolve().parents[2]


def unavailable(reason: str) -> NoReturn:
    """Skip locally, fail in CI: a missing service must never pass silently there."""
    ci_unavailable(
        "integration", reason, "make test starts private ones; or set DATABASE_URL and REDIS_URL"
    )


def first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


@dataclass(frozen=True)
class Worker:
    """A running ``celery worker`` subprocess consuming a queue private to this session."""

    pid: int
    queue: str
    nodename: str
    log: Path


@pytest.fixture(scope="session")
def postgresql() -> str:
    """PostgreSQL's version, once DATABASE_URL is known to point to a server that answers."""
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url.startswith(("postgres://", "postgresql://")):
        unavailable("DATABASE_URL is not a postgres:// URL (embedded SQLite profile)")
    problem = ""
    # The server must answer; the database DATABASE_URL names need not exist (the tests run
    # in test_<name>_..., which pytest-django creates from the maintenance database).
    server = psycopg.conninfo.make_conninfo(database_url, dbname="postgres")
    try:
        with psycopg.connect(server, connect_timeout=3) as conn:
            version = conn.execute("SHOW server_version").fetchone()[0]
    except psycopg.Error as exc:
        problem = f"PostgreSQL unreachable: {first_line(exc)}"
    if problem:  # reported outside the except block: one clean line, no chained traceback
        unavailable(problem)
    return version.split()[0]


@pytest.fixture(scope="session")
def redis_server() -> tuple[str, str]:
    """``(REDIS_URL, Redis version)``, once REDIS_URL is known to answer."""
    redis_url = os.environ.get("REDIS_URL", "")
    if not redis_url:
        unavailable("REDIS_URL is not set (eager Celery profile)")
    problem = ""
    try:
        client = redis.Redis.from_url(redis_url, socket_connect_timeout=3, socket_timeout=3)
        client.ping()
        version = client.info("server")["redis_version"]
        client.close()
    except redis.RedisError as exc:
        problem = f"Redis unreachable: {first_line(exc)}"
    if problem:
        unavailable(problem)
    return redis_url, version


def worker_database_url(settings_dict: dict) -> str:
    """A DATABASE_URL for the test database pytest-django created (``test_<name>``)."""
    user = quote(settings_dict.get("USER") or "", safe="")
    password = quote(settings_dict.get("PASSWORD") or "", safe="")
    credentials = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{credentials}{host}:{port}/{quote(settings_dict['NAME'], safe='')}"


def _wait_until_ready(process: subprocess.Popen, nodename: str, log: Path) -> None:
    from tournaments import celery_app

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"celery worker exited with {process.returncode}:\n{_tail(log)}")
        if celery_app.control.ping(destination=[nodename], timeout=1.0):
            return
        time.sleep(0.5)
    pytest.fail(f"celery worker not ready after 60 s:\n{_tail(log)}")


def _tail(log: Path, lines: int = 40) -> str:
    return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])


def _stop(process: subprocess.Popen) -> None:
    """Warm shutdown first (SIGTERM), then SIGKILL; only this worker's process group."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


@pytest.fixture(scope="session")
def celery_worker(
    request: pytest.FixtureRequest,
    postgresql: str,
    redis_server: tuple[str, str],
    django_db_setup: None,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Worker]:
    """Start ``celery worker`` on the test database and a private queue; stop it at the end."""
    from django.db import connection

    from tournaments import celery_app

    redis_url, redis_version = redis_server
    # After django_db_setup, settings_dict names the test database, not DATABASE_URL's.
    database_url = worker_database_url(connection.settings_dict)
    database_name = connection.settings_dict["NAME"]
    queue = f"tirage-test-{uuid.uuid4().hex[:12]}"
    nodename = f"{queue}@{socket.gethostname()}"
    log = tmp_path_factory.mktemp("celery") / "worker.log"
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "TIRAGE_CELERY_QUEUE": queue,
        "DJANGO_SETTINGS_MODULE": "tournaments.settings",
        "PYTHONPATH": str(ROOT),
    }
    command = [
        sys.executable, "-m", "celery", "-A", "tournaments", "worker",
        "-l", "info", "--pool=solo", "-c", "1", "-Q", queue, "-n", nodename,
        "--without-gossip", "--without-mingle", "--without-heartbeat",
    ]  # fmt: skip
    with log.open("wb") as output:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    previous_queue = celery_app.conf.task_default_queue
    try:
        _wait_until_ready(process, nodename, log)
        # Route this process's .delay() calls to the private queue (read at send time).
        celery_app.conf.task_default_queue = queue
        summary_line(
            request.config,
            f"integration: PostgreSQL {postgresql}, Redis {redis_version}, "
            f"celery worker pid {process.pid} (queue {queue}, database {database_name})",
        )
        yield Worker(pid=process.pid, queue=queue, nodename=nodename, log=log)
    finally:
        celery_app.conf.task_default_queue = previous_queue
        _stop(process)
        _forget_queue(redis_url, queue)


def _forget_queue(redis_url: str, queue: str) -> None:
    """Drop the private queue's Redis keys so repeated runs leave nothing behind."""
    client = redis.Redis.from_url(redis_url, socket_connect_timeout=3)
    try:
        keys = list(client.scan_iter(match=f"*{queue}*"))
        if keys:
            client.delete(*keys)
    finally:
        client.close()
