"""Load benchmark: 200 simulated tablets on one game, served by gunicorn.

    .venv/bin/python bench/tablets.py [--tablets 200] [--workers 2] [--seconds 30]
                                      [--window 20] [--database-url URL]

The script prepares a database (a temporary SQLite file, or ``--database-url``, e.g.
``postgres://postgres@127.0.0.1:5432/h11``, which is migrated and **emptied** first), creates
a tournament with N players, their tablet tokens and an open round, starts gunicorn on
127.0.0.1 with sync workers, then runs N client threads (stdlib ``http.client``, one
keep-alive connection each). Every tablet loads its page once (CSRF cookie), polls the state
endpoint every second with ``If-None-Match`` and submits its move once at a random moment in
the first ``--window`` seconds. Near the end the round is closed by another process, and
the time each tablet needs to see "closed" is measured (the 2-second target).

Prints request latency percentiles (p50/p90/p99/max) by kind, the share of 304s, the error
count and the close-propagation times. Exit status 1 when any request failed.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable

SETUP = r"""
import json, sys
from django.db import connection
from tests.engine.conftest import conformance_words
from engine.lexicon.automaton import build_lexicon_file
from tournaments.access import SYSTEM
from tournaments.models import Player, Registration, Tournament
from tournaments.services import game_create, lexicon_register, round_draw, round_open
from tournaments.services.registry import registration_token_issue

n, lex_path = int(sys.argv[1]), sys.argv[2]
build_lexicon_file(conformance_words(), lex_path, name="conformance", source="bench", version="1")
lexicon = lexicon_register(path=lex_path, actor=SYSTEM)
t = Tournament.objects.create(name="Bench", slug="bench", lexicon=lexicon, seconds_per_move=120)
tokens = []
for i in range(n):
    p = Player.objects.create(name=f"Joueur {i + 1}")
    reg = Registration.objects.create(tournament=t, player=p, table_number=i + 1)
    tokens.append(registration_token_issue(registration_id=reg.pk, actor=SYSTEM))
game = game_create(tournament_id=t.pk, seed=7, actor=SYSTEM)
rnd = round_open(round_id=round_draw(game_id=game.pk, actor=SYSTEM).pk, actor=SYSTEM)
print(json.dumps({"tokens": tokens, "round": rnd.pk, "rack": rnd.rack}))
"""

CLOSE = r"""
import sys, time
from tournaments.access import SYSTEM
from tournaments.services import round_close
round_close(round_id=int(sys.argv[1]), actor=SYSTEM, confirm=True)
print(time.time())
"""

# Moves that fit ESIUHAN on the empty board (seed 7, round 1): valid and invalid words alike.
MOVES = [("H4", "HAINES"), ("H4", "HAINSE"), ("H8", "HUE"), ("8H", "HAIES"), ("H6", "NUES")]


def manage(env: dict[str, str], *args: str, stdin: str | None = None) -> str:
    result = subprocess.run(
        [PYTHON, "manage.py", *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=600,
    )
    if result.returncode != 0:
        sys.exit(f"manage.py {' '.join(args)} failed:\n{result.stderr[-3000:]}")
    return result.stdout


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.status: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        self.errors: list[str] = []
        self.seen_closed: list[float] = []

    def record(self, kind: str, seconds: float, status: int) -> None:
        with self.lock:
            self.latency[kind].append(seconds)
            self.status[kind][status] += 1

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)


class Tablet(threading.Thread):
    def __init__(
        self,
        port: int,
        token: str,
        round_id: int,
        stats: Stats,
        stop: threading.Event,
        submit_at: float,
    ) -> None:
        super().__init__(daemon=True)
        self.port, self.token, self.round_id, self.stats, self.stop = (
            port,
            token,
            round_id,
            stats,
            stop,
        )
        self.submit_at = submit_at
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.cookie, self.csrf, self.etag, self.closed = "", "", None, False

    def request(
        self,
        kind: str,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, bytes, http.client.HTTPResponse]:
        headers = {"Cookie": self.cookie, **(headers or {})}
        for attempt in (1, 2):
            start = time.perf_counter()
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                data = response.read()
            except (OSError, http.client.HTTPException) as error:
                self.conn.close()
                if attempt == 1 and isinstance(
                    error, (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError)
                ):
                    continue  # a keep-alive connection the server closed: reconnect once
                self.stats.error(f"{kind}: {error!r}")
                return 0, b"", None  # type: ignore[return-value]
            self.stats.record(kind, time.perf_counter() - start, response.status)
            if response.status >= 400:
                self.stats.error(f"{kind}: HTTP {response.status} {data[:200]!r}")
            return response.status, data, response
        raise AssertionError("unreachable")

    def run(self) -> None:
        # Players open their tablets over a few seconds, not in the same millisecond, so the
        # polls of 200 tablets fall at independent phases of the 1-second period (as they
        # do in a room); the page itself adds no jitter, so neither does this loop after.
        time.sleep(random.uniform(0, 1.0))
        base = f"/tablette/{self.token}/"
        status, data, response = self.request("page", "GET", base)
        if status != 200:
            return
        cookie = response.getheader("Set-Cookie") or ""
        match = re.search(r"csrftoken=([^;]+)", cookie)
        self.csrf = match.group(1) if match else ""
        self.cookie = f"csrftoken={self.csrf}"
        submitted = False
        next_poll = time.monotonic()
        while not self.stop.is_set():
            now = time.monotonic()
            if not submitted and now >= self.submit_at:
                submitted = True
                self.submit()
            if now >= next_poll:
                self.poll()
                next_poll += 1.0
            time.sleep(
                max(
                    0.0,
                    min(next_poll, self.submit_at if not submitted else next_poll)
                    - time.monotonic(),
                )
            )

    def poll(self) -> None:
        headers = {"Accept": "application/json"}
        if self.etag:
            headers["If-None-Match"] = self.etag
        status, data, response = self.request(
            "state", "GET", f"/tablette/{self.token}/etat/", headers=headers
        )
        if status == 200:
            self.etag = response.getheader("ETag")
            state = json.loads(data)
            if not self.closed and state["round"] and state["round"]["state"] == "closed":
                self.closed = True
                with self.stats.lock:
                    self.stats.seen_closed.append(time.time())

    def submit(self) -> None:
        reference, word = random.choice(MOVES)
        key = f"bench-{random.getrandbits(48):x}"
        body = json.dumps(
            {"round": self.round_id, "reference": reference, "word": word, "client_key": key}
        ).encode()
        headers = {
            "Content-Type": "application/json",
            "X-CSRFToken": self.csrf,
            "Accept": "application/json",
        }
        self.request("preview", "POST", f"/tablette/{self.token}/apercu/", body, headers)
        self.request("submit", "POST", f"/tablette/{self.token}/envoi/", body, headers)


def warm_up(port: int, token: str, times: int) -> None:
    """A few unmeasured requests so every worker has loaded templates and URL patterns."""
    for _ in range(times):
        for path in (f"/tablette/{token}/", f"/tablette/{token}/etat/"):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", path)
            conn.getresponse().read()
            conn.close()


def percentiles(values: list[float]) -> str:
    if not values:
        return "no request"
    ms = sorted(v * 1000 for v in values)
    q = statistics.quantiles(ms, n=100, method="inclusive") if len(ms) > 1 else ms * 99
    p50, p90, p99 = q[49], q[89], q[98]
    return f"n={len(ms):5d}  p50 {p50:6.1f}  p90 {p90:6.1f}  p99 {p99:6.1f}  max {ms[-1]:6.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tablets", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2, help="sync workers (2 = cores)")
    parser.add_argument("--threads", type=int, default=1, help=">1: gthread workers, keep-alive")
    parser.add_argument("--seconds", type=float, default=30.0, help="length of the run")
    parser.add_argument("--window", type=float, default=20.0, help="submissions happen in it")
    parser.add_argument("--database-url", default="", help="default: a temporary SQLite file")
    args = parser.parse_args()
    if not shutil.which("gunicorn", path=str(Path(PYTHON).parent)):
        sys.exit("gunicorn is not installed in this virtualenv: pip install gunicorn")

    tmp = Path(tempfile.mkdtemp(prefix="tirage-bench-"))
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        DJANGO_SETTINGS_MODULE="tournaments.settings",
        TIRAGE_VAR_DIR=str(tmp / "var"),
        DEBUG="false",
        LOG_LEVEL="WARNING",
        PYTHONPATH=str(ROOT),
    )
    if args.database_url:
        env["DATABASE_URL"] = args.database_url
    print(
        f"database: {urlsplit(args.database_url).scheme or 'sqlite'}  "
        f"tablets: {args.tablets}  gunicorn workers: {args.workers} × {args.threads} threads"
    )
    if args.database_url:
        manage(env, "flush", "--no-input")
    manage(env, "migrate", "--no-input")
    setup = json.loads(
        manage(
            env,
            "shell",
            "-c",
            SETUP.replace("sys.argv[1]", str(args.tablets)).replace(
                "sys.argv[2]", repr(str(tmp / "bench.lex"))
            ),
        ).splitlines()[-1]
    )
    port = free_port()
    server = subprocess.Popen(
        [
            str(Path(PYTHON).parent / "gunicorn"),
            "tournaments.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(args.workers),
            "--worker-class",
            "gthread" if args.threads > 1 else "sync",
            "--threads",
            str(args.threads),
            "--preload",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        warm_up(port, setup["tokens"][0], 10 * args.workers)
        stats, stop = Stats(), threading.Event()
        start = time.monotonic()
        tablets = [
            Tablet(port, token, setup["round"], stats, stop, start + random.uniform(0, args.window))
            for token in setup["tokens"]
        ]
        for tablet in tablets:
            tablet.start()
        close_at = start + args.seconds - 6
        time.sleep(max(0.0, close_at - time.monotonic()))
        closed_at = float(
            manage(env, "shell", "-c", CLOSE.replace("sys.argv[1]", str(setup["round"]))).split()[
                -1
            ]
        )
        time.sleep(max(0.0, start + args.seconds - time.monotonic()))
        stop.set()
        for tablet in tablets:
            tablet.join(timeout=15)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
        shutil.rmtree(tmp, ignore_errors=True)

    print(
        f"run: {args.seconds:.0f} s, submissions spread over {args.window:.0f} s, "
        f"rack {setup['rack']}"
    )
    everything: list[float] = []
    for kind in ("page", "state", "preview", "submit"):
        everything += stats.latency[kind]
        codes = ", ".join(f"{c}×{n}" for c, n in sorted(stats.status[kind].items()))
        print(f"  {kind:8s} {percentiles(stats.latency[kind])}   [{codes}]")
    print(f"  {'all':8s} {percentiles(everything)}")
    polls = stats.status["state"]
    total = sum(polls.values()) or 1
    print(f"  state answered 304: {100 * polls.get(304, 0) / total:.1f} %")
    lags = sorted(t - closed_at for t in stats.seen_closed)
    if lags:
        print(
            f"  round closed → seen by {len(lags)}/{args.tablets} tablets: "
            f"median {statistics.median(lags):.2f} s, max {lags[-1]:.2f} s"
        )
    else:
        print("  round closed → seen by no tablet")
    print(f"  errors: {len(stats.errors)}")
    for line in stats.errors[:10]:
        print(f"    {line}")
    return 1 if stats.errors or len(lags) < args.tablets else 0


if __name__ == "__main__":
    sys.exit(main())
