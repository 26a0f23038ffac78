"""Driving the production-like stack (``deploy/stack``) from tests and benchmarks.

``Stack`` starts the stack in a private directory on free ports (never the machine's own
PostgreSQL or Redis), registers the conformance lexicon and an arbiter account allowed to
create tournaments, and offers: an HTTP client (stdlib only), SQL on the stack's database
(psycopg), and component control (stop/start/kill) for the fault tests.
"""

from __future__ import annotations

import glob
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
STACK = ROOT / "deploy" / "stack"
ARBITER = ("arbitre-prod", "arbitre-prod-pw-8731")

# Variables that would point the stack elsewhere (CI's DATABASE_URL, a developer's profile).
_STRIP = {
    "TIRAGE_ENV", "TIRAGE_VAR_DIR", "TIRAGE_LEXICON", "TIRAGE_CELERY_QUEUE", "DATABASE_URL",
    "REDIS_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS",
    "SECURE_SSL_REDIRECT", "DJANGO_SETTINGS_MODULE", "TIRAGE_ARBITER_PASSWORD",
}  # fmt: skip

SETUP = r"""
import gzip, json
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from engine.lexicon.automaton import build_lexicon_file
from tests.engine.conftest import WORDS_FILE
from tournaments.access import SYSTEM
from tournaments.services import lexicon_register
with gzip.open(WORDS_FILE, "rt", encoding="utf-8") as handle:
    words = [line.strip() for line in handle if line.strip()]
path = {path!r}
build_lexicon_file(words, path, name="conformance", source=str(WORDS_FILE), version="1")
lexicon = lexicon_register(path=path, actor=SYSTEM)
User = get_user_model()
user = (User.objects.filter(username={user!r}).first()
        or User.objects.create_user({user!r}, password={password!r}))
user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
print(json.dumps({{"lexicon": lexicon.pk}}))
"""


def missing_tools() -> str:
    """Why the stack cannot start here ('' when it can)."""
    if not glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        return "PostgreSQL server binaries (initdb) are not installed"
    if not shutil.which("redis-server"):
        return "redis-server is not installed"
    if not (Path(sys.executable).parent / "gunicorn").exists():
        return "gunicorn is not installed in the virtualenv"
    if os.geteuid() == 0 and not shutil.which("runuser"):
        return "running as root without runuser (initdb refuses root)"
    return ""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Response:
    status: int
    body: Any
    raw: bytes = b""

    def __repr__(self) -> str:
        return f"<{self.status} {self.raw[:300]!r}>"


class Client:
    """JSON over HTTP with one short-lived connection per request (a server that restarts
    between two requests is then no problem)."""

    def __init__(self, port: int, auth: str = "", timeout: float = 30) -> None:
        self.port, self.auth, self.timeout = port, auth, timeout

    def request(self, method: str, path: str, body: Any = None, **headers: str) -> Response:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        hdrs = {"Accept": "application/json", "Host": "127.0.0.1"}
        if self.auth:
            hdrs["Authorization"] = self.auth
        data = None
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            hdrs["Content-Type"] = "application/json"
        hdrs.update({k.replace("_", "-"): v for k, v in headers.items()})
        try:
            conn.request(method, path, body=data, headers=hdrs)
            response = conn.getresponse()
            raw = response.read()
        finally:
            conn.close()
        try:
            parsed = json.loads(raw) if raw else None
        except ValueError:
            parsed = None
        return Response(response.status, parsed, raw)

    def get(self, path: str, **headers: str) -> Response:
        return self.request("GET", path, **headers)

    def post(self, path: str, body: Any = None, **headers: str) -> Response:
        return self.request("POST", path, {} if body is None else body, **headers)

    def ok(self, method: str, path: str, body: Any = None, status: int | tuple = (200, 201)):
        response = self.request(method, path, body)
        wanted = status if isinstance(status, tuple) else (status,)
        assert response.status in wanted, f"{method} {path}: {response!r}"
        return response.body


def wait_for(check: Callable[[], Any], seconds: float, what: str, step: float = 0.2) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds} s")
        time.sleep(step)


@dataclass
class Stack:
    directory: Path
    pg_port: int = field(default_factory=free_port)
    redis_port: int = field(default_factory=free_port)
    web_port: int = field(default_factory=free_port)
    lexicon: int = 0
    env: dict[str, str] = field(default_factory=dict)

    # --- life cycle -------------------------------------------------------------------

    def __post_init__(self) -> None:
        base = {k: v for k, v in os.environ.items() if k not in _STRIP}
        # These tests check the synchronous submissions (201, a version at once); the queued
        # path (202, production's default) is driven by bench/stack_proposals.py, which sets
        # TIRAGE_QUEUED_PROPOSALS=true, and tests/integration/test_arrivals_worker.py.
        base.setdefault("TIRAGE_QUEUED_PROPOSALS", "false")
        self.probe = self.directory / "probe"
        self.probe.mkdir(parents=True, exist_ok=True)
        self.env = {
            **base,
            "STACK_DIR": str(self.directory),
            "STACK_PG_PORT": str(self.pg_port),
            "STACK_REDIS_PORT": str(self.redis_port),
            "STACK_WEB_PORT": str(self.web_port),
            "STACK_WEB_WORKERS": "2",
            "STACK_WORKER_CONCURRENCY": "2",
            "TIRAGE_PYTHON": sys.executable,
            "TIRAGE_CELERY_APP": "tests.production.probe",
            "GUNICORN_WSGI_APP": "tests.production.web_probe:web_app",
            "TIRAGE_PROBE_DIR": str(self.probe),
            "PYTHONPATH": str(ROOT),
        }

    def run(self, *args: str, timeout: float = 240) -> str:
        result = subprocess.run(
            [str(STACK), *args], cwd=ROOT, env=self.env, capture_output=True, text=True,
            timeout=timeout,
        )  # fmt: skip
        if result.returncode != 0 and args[0] != "status":
            raise AssertionError(
                f"deploy/stack {' '.join(args)} exited {result.returncode}:\n"
                f"{result.stdout[-2000:]}\n{result.stderr[-3000:]}\n{self.logs()}"
            )
        return result.stdout

    def start(self, *components: str) -> None:
        self.run("start", *components)

    def stop(self, *components: str) -> None:
        self.run("stop", *components)

    def site_env(self) -> dict[str, str]:
        """The environment of the stack's site (for manage.py and the worker)."""
        out = self.run("env")
        values = dict(
            line.removeprefix("export ").split("=", 1)
            for line in out.splitlines()
            if line.startswith("export ")
        )
        return {**self.env, **values}

    def manage(self, *args: str) -> str:
        result = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=self.site_env(),
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert result.returncode == 0, result.stderr[-3000:]
        return result.stdout

    def setup_site(self) -> None:
        code = SETUP.format(
            path=str(self.directory / "conformance.lex"), user=ARBITER[0], password=ARBITER[1]
        )
        self.lexicon = json.loads(self.manage("shell", "-c", code).splitlines()[-1])["lexicon"]

    def logs(self, lines: int = 30) -> str:
        text = []
        for name in ("worker.log", "gunicorn.log", "migrate.log", "redis.log"):
            path = self.directory / "log" / name
            if path.exists():
                tail = path.read_text(errors="replace").splitlines()[-lines:]
                text.append(f"--- {name}\n" + "\n".join(tail))
        return "\n".join(text)

    # --- processes --------------------------------------------------------------------

    def pid(self, name: str) -> int:
        return int((self.directory / "run" / f"{name}.pid").read_text().strip())

    def children(self, pid: int) -> list[int]:
        path = Path(f"/proc/{pid}/task/{pid}/children")
        return [int(p) for p in path.read_text().split()] if path.exists() else []

    def worker_log(self) -> str:
        path = self.directory / "log" / "worker.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def kill(self, pid: int, sig: int = signal.SIGKILL) -> None:
        os.kill(pid, sig)

    # --- database ---------------------------------------------------------------------

    def sql(self, query: str, *params: Any) -> list[tuple]:
        import psycopg

        url = f"postgres://postgres@127.0.0.1:{self.pg_port}/tirage"
        with psycopg.connect(url, connect_timeout=5, autocommit=True) as conn:
            return conn.execute(query, params).fetchall()

    # --- HTTP -------------------------------------------------------------------------

    def client(self, auth: str = "") -> Client:
        return Client(self.web_port, auth)

    def arbiter(self) -> Client:
        anonymous = self.client()
        body = anonymous.ok("POST", "/api/auth/token/", {"username": ARBITER[0],
                                                          "password": ARBITER[1]})  # fmt: skip
        return self.client(f"Token {body['token']}")


def make_stack_dir() -> Path:
    """A directory the `postgres` user can traverse (pytest's tmp dirs are 0700)."""
    directory = Path(tempfile.mkdtemp(prefix="tirage-stack-"))
    directory.chmod(0o755)
    return directory
