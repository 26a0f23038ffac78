"""Polls per second the production-like stack serves with p99 under 300 ms (issue 16).

    .venv/bin/python bench/stack_polls.py [--players 5000] [--instances 1|2] [--workers 2]
                                          [--rates 200,400,...] [--step 8] [--max-seconds 150]
                                          [--no-live-versions] [--no-poll-lane]

Starts a private ``deploy/stack`` (PostgreSQL, Redis, gunicorn with deploy/gunicorn.conf.py,
one Celery worker) on free loopback ports; with ``--instances 2`` two gunicorn instances
(``STACK_WEB_INSTANCES``, two ports) behind Debian's nginx with the shipped configuration
(tests/production/nginx.py renders it; the loopback address is listed as a hall, so only
the per-token limit applies, and the plain-HTTP server proxies instead of redirecting: TLS
is left out). A tournament with ``--players`` registrations, their tablet tokens, a game and
an open round whose top is computed; every tablet polls once to hold the current ETag.

Then an open-loop load: at each offered rate (``--rates``, polls a second) for ``--step``
seconds, ``GET /tablette/<token>/etat/`` with ``If-None-Match``, tokens in turn, each
request leaving at its scheduled time (asyncio; a new connection to gunicorn, whose sync
workers close it; keep-alive connections to nginx). Latency is counted from the scheduled
time, so a client or server falling behind shows. The run stops after the first rate whose
p99 is over 300 ms or that had errors, or at ``--max-seconds``.

Prints for each rate: polls/s served, the 304 share, p50/p90/p99/max, errors, and the CPU
milliseconds the server's processes used per poll (from /proc, by component: gunicorn's
workers, Redis, nginx, PostgreSQL), which depends far less than the latencies on the other
programs sharing the machine; the load average and the client's own CPU. Traffic only to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from stack_common import load_average, manage_shell, pct, private_stack  # noqa: E402

from tests.production import nginx as nginx_front  # noqa: E402

P99_LIMIT = 0.300
MAX_IN_FLIGHT = 3000

SETUP = r"""
import json
from tournaments.access import SYSTEM
from tournaments.models import Lexicon, Player, Registration, Tournament
from tournaments.services import (
    game_create, registration_tokens_issue, round_compute_top, round_draw, round_open,
)
n = {players}
lexicon = Lexicon.objects.order_by("pk").first()
t = Tournament.objects.create(name="Polls", slug="polls", lexicon=lexicon, seconds_per_move=3600)
players = Player.objects.bulk_create([Player(name=f"Joueur {{i + 1}}") for i in range(n)])
Registration.objects.bulk_create(
    [Registration(tournament=t, player=p, table_number=i + 1) for i, p in enumerate(players)],
    batch_size=1000,
)
registration_tokens_issue(tournament_id=t.pk, actor=SYSTEM)
game = game_create(tournament_id=t.pk, seed=7, actor=SYSTEM)
rnd = round_open(round_id=round_draw(game_id=game.pk, actor=SYSTEM).pk, actor=SYSTEM)
round_compute_top(round_id=rnd.pk, actor=SYSTEM)
tokens = list(Registration.objects.filter(tournament=t).values_list("access_token", flat=True))
print(json.dumps({{"tokens": tokens}}))
"""


CLOSE = r"""
import json
from tournaments.access import SYSTEM
from tournaments.models import Round
from tournaments.services import round_close
rnd = Round.objects.filter(game__tournament__slug="polls").order_by("-pk").first()
round_close(round_id=rnd.pk, actor=SYSTEM, confirm=True)
print(json.dumps({"round": rnd.pk}))
"""


class Client:
    """Open-loop HTTP/1.1 GETs on one port; keeps connections the server keeps alive."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
        self.etags: dict[str, str] = {}
        self.offset = 0  # the next token in turn

    async def get(self, token: str) -> int:
        path = f"/tablette/{token}/etat/"
        held = self.etags.get(token)
        lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", "Accept: application/json"]
        if held:
            lines.append(f"If-None-Match: {held}")
        request = ("\r\n".join(lines) + "\r\n\r\n").encode()
        for attempt in (1, 2):
            conn = self.idle.pop() if self.idle else None
            reused = conn is not None
            if conn is None:
                conn = await asyncio.open_connection("127.0.0.1", self.port)
            reader, writer = conn
            try:
                writer.write(request)
                head = await reader.readuntil(b"\r\n\r\n")
            except (OSError, asyncio.IncompleteReadError):
                writer.close()
                if reused and attempt == 1:
                    continue  # a keep-alive connection the server had closed
                raise
            status, headers = _head(head)
            length = int(headers.get("content-length", "0"))
            body = await reader.readexactly(length) if length else b""
            del body
            if status == 200 and "etag" in headers:
                self.etags[token] = headers["etag"]
            if headers.get("connection", "").lower() == "close":
                writer.close()
            else:
                self.idle.append(conn)
            return status
        raise OSError("no connection")


def _head(raw: bytes) -> tuple[int, dict[str, str]]:
    lines = raw.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    return status, headers


async def run_rate(client: Client, tokens: list[str], rate: float, seconds: float) -> dict:
    """Offer ``rate`` polls a second for ``seconds``; latencies from the scheduled times."""
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    errors: list[str] = []
    total = int(rate * seconds)
    loop = asyncio.get_running_loop()
    start = loop.time() + 0.05
    pending: set[asyncio.Task] = set()

    async def one(i: int, due: float) -> None:
        try:
            status = await asyncio.wait_for(client.get(tokens[i % len(tokens)]), 10)
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as error:
            errors.append(repr(error)[:120])
            return
        latencies.append(loop.time() - due)
        statuses[status] = statuses.get(status, 0) + 1
        if status not in (200, 304):
            errors.append(f"HTTP {status}")

    for i in range(total):
        due = start + i / rate
        delay = due - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        if len(pending) >= MAX_IN_FLIGHT:
            errors.append(f"over {MAX_IN_FLIGHT} polls waiting: the server fell behind")
            break
        task = asyncio.ensure_future(one(client.offset + i, due))
        pending.add(task)
        task.add_done_callback(pending.discard)
    if pending:
        await asyncio.wait(pending, timeout=15)
    client.offset += total
    elapsed = loop.time() - start
    return {"latencies": latencies, "statuses": statuses, "errors": errors, "elapsed": elapsed}


async def warm_up(client: Client, tokens: list[str]) -> int:
    """Each tablet polls until it holds its ETag (3 tries), 16 at a time: the steady state
    of a room where every tablet already has the page. Returns how many never answered."""
    gate = asyncio.Semaphore(16)
    missed = 0

    async def first(token: str) -> None:
        nonlocal missed
        async with gate:
            for _ in range(3):
                try:
                    if await asyncio.wait_for(client.get(token), 30) == 200:
                        return
                except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError):
                    pass
            missed += 1

    await asyncio.gather(*(first(token) for token in tokens))
    return missed


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds of ``pids`` and their descendants, reaped ones included."""
    tick = os.sysconf("SC_CLK_TCK")
    seen: set[int] = set()
    total = 0.0
    todo = list(pids)
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            # utime, stime and the reaped children's cutime, cstime: a PostgreSQL backend or
            # autovacuum worker that exits moves its CPU into its parent's, so the sum over
            # the live processes never goes back.
            total += sum(int(f) for f in fields[11:15]) / tick
            children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        except OSError:
            continue
        todo += [int(c) for c in children]
    return total


def server_pids(stack: Any, instances: int, extra: list[int]) -> dict[str, list[int]]:
    """The server's processes by component (each with its children)."""
    run = stack.directory / "run"
    names = ["gunicorn.pid"] + [f"gunicorn-{n}.pid" for n in range(2, instances + 1)]
    groups: dict[str, list[int]] = {
        "gunicorn": [int((run / n).read_text()) for n in names if (run / n).exists()],
        "redis": [int((run / "redis.pid").read_text())] if (run / "redis.pid").exists() else [],
        "nginx": extra,
    }
    pg = stack.directory / "pg" / "data" / "postmaster.pid"
    groups["postgres"] = [int(pg.read_text().split()[0])] if pg.exists() else []
    return groups


def cpu_by_group(groups: dict[str, list[int]]) -> dict[str, float]:
    return {name: cpu_seconds(pids) for name, pids in groups.items()}


def cpu_text(before: dict[str, float], after: dict[str, float], n: int) -> tuple[float, str]:
    """Server CPU ms per poll, total and by component."""
    per = {name: 1000 * (after[name] - before[name]) / max(1, n) for name in before}
    parts = ", ".join(f"{name} {value:.2f}" for name, value in per.items() if value >= 0.005)
    return sum(per.values()), parts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--instances", type=int, choices=(1, 2), default=1)
    parser.add_argument("--workers", type=int, default=2, help="sync workers per instance")
    parser.add_argument("--rates", default="50,100,150,200,300,400,500,600,800,1000,1200")
    parser.add_argument("--step", type=float, default=8.0, help="seconds per offered rate")
    parser.add_argument("--max-seconds", type=float, default=150.0, help="load phase bound")
    parser.add_argument(
        "--close-rate", type=float, default=50.0,
        help="then close the round and poll at this rate (full answers); 0: skip",
    )  # fmt: skip
    parser.add_argument(
        "--no-live-versions", action="store_true", help="every poll reads the database"
    )
    parser.add_argument(
        "--no-poll-lane", action="store_true",
        help="the 304s through Django's middleware and views (tournaments/poll_lane.py off)",
    )  # fmt: skip
    args = parser.parse_args()
    rates = [float(r) for r in args.rates.split(",")]

    # Read by deploy/stack (the instances) and by gunicorn (the switch), through the
    # stack's environment, which starts from this one.
    os.environ["STACK_WEB_INSTANCES"] = str(args.instances)
    if args.no_live_versions:
        os.environ["TIRAGE_LIVE_VERSIONS"] = "false"
    if args.no_poll_lane:
        os.environ["TIRAGE_POLL_LANE"] = "false"
    print(f"load average before: {load_average()}", flush=True)
    with private_stack(web_workers=args.workers) as stack:
        front = None
        port = stack.web_port
        if args.instances > 1:
            front = start_nginx(stack, args.instances)
            port = front.rendered.http_port
        try:
            tokens = manage_shell(stack, SETUP.format(players=args.players))["tokens"]
            return measure(args, stack, port, tokens, rates, front)
        finally:
            if front is not None:
                front.stop()
                shutil.rmtree(front.rendered.prefix, ignore_errors=True)


def start_nginx(stack: Any, instances: int) -> Any:
    """The shipped nginx configuration in front of the instances (loopback as a hall)."""
    why = nginx_front.missing()
    if why:
        raise SystemExit(f"cannot start nginx here: {why}")
    prefix = Path(tempfile.mkdtemp(prefix="tirage-polls-nginx-"))
    rendered = nginx_front.render(
        prefix, web_port=stack.web_port, static_dir=stack.directory / "var" / "static"
    )
    site = rendered.config.parent / "sites-available" / "tirage"
    text = site.read_text()
    servers = "".join(
        f"    server 127.0.0.1:{stack.web_port + n} max_fails=3 fail_timeout=10s;\n"
        for n in range(1, instances)
    )
    text = text.replace("    keepalive 32;", servers + "    keepalive 32;")
    redirect = "location / { return 301 https://$host$request_uri; }"
    assert redirect in text
    locations = rendered.config.parent / "snippets" / "tirage-locations.conf"
    text = text.replace(redirect, f"include {locations};")
    site.write_text(text)
    http = rendered.config.parent / "snippets" / "tirage-http.conf"
    hall = "    # 198.51.100.7 1;"
    assert hall in http.read_text()
    http.write_text(http.read_text().replace(hall, "    127.0.0.1 1;" + "\n" + hall))
    checked = rendered.test()
    if checked.returncode != 0:
        raise SystemExit(f"nginx -t failed:\n{checked.stderr}")
    front = nginx_front.Nginx(rendered)
    front.start()
    return front


def measure(
    args: argparse.Namespace, stack: Any, port: int, tokens: list[str], rates: list[float],
    front: Any,
) -> int:  # fmt: skip
    client = Client(port)
    print(
        f"{len(tokens)} tablets, {args.instances} gunicorn instance(s) × {args.workers} sync "
        f"workers{' behind nginx' if front else ''}, port {port}"
        f"{', live versions OFF' if args.no_live_versions else ''}"
        f"{', poll lane OFF' if args.no_poll_lane else ''}",
        flush=True,
    )
    loop = asyncio.new_event_loop()
    warm = time.monotonic()
    missed = loop.run_until_complete(warm_up(client, tokens))
    print(
        f"warm-up: every tablet polled once, 16 at a time ({missed} without an answer, "
        f"{time.monotonic() - warm:.1f} s)",
        flush=True,
    )
    extra = [front.process.pid] if front and front.process else []
    pids = server_pids(stack, args.instances, extra)
    best = 0.0
    began = time.monotonic()
    status = 0
    for rate in rates:
        if time.monotonic() - began + args.step > args.max_seconds:
            print(f"stopped: --max-seconds {args.max_seconds:.0f} reached")
            break
        cpu0, own0 = cpu_by_group(pids), _own_cpu()
        result = loop.run_until_complete(run_rate(client, tokens, rate, args.step))
        cpu1, own = cpu_by_group(pids), _own_cpu() - own0
        lat, n = result["latencies"], len(result["latencies"])
        cpu, parts = cpu_text(cpu0, cpu1, n)
        served = n / result["elapsed"] if result["elapsed"] else 0.0
        share = 100 * result["statuses"].get(304, 0) / max(1, n)
        p99 = pct(lat, 99) if lat else float("inf")
        print(
            f"offered {rate:6.0f}/s  served {served:6.0f}/s  304 {share:5.1f} %  "
            f"p50 {pct(lat, 50):6.1f}  p90 {pct(lat, 90):6.1f}  p99 {p99:7.1f}  "
            f"max {max(lat) * 1000:7.1f} ms  errors {len(result['errors'])}  "
            f"server CPU {cpu:5.2f} ms/poll ({parts})  client CPU {own:4.1f} s  "
            f"load {load_average()}",
            flush=True,
        )
        for line in result["errors"][:3]:
            print(f"    {line}")
        if result["errors"] or p99 > P99_LIMIT * 1000:
            status = 0 if best else 1
            break
        best = max(best, served)
    print(f"highest rate served with p99 < 300 ms and no error: {best:.0f} polls/s")
    if args.close_rate:
        # The round closes: every tablet's next poll is a full answer (its result, the
        # top, its total and rank among all the players), the costly moment of a round.
        manage_shell(stack, CLOSE)
        cpu0 = cpu_by_group(pids)
        result = loop.run_until_complete(run_rate(client, tokens, args.close_rate, args.step))
        lat = result["latencies"]
        n = len(lat)
        cpu, parts = cpu_text(cpu0, cpu_by_group(pids), n)
        full = result["statuses"].get(200, 0)
        print(
            f"after the close, offered {args.close_rate:.0f}/s: {full} full answers of {n}, "
            f"p50 {pct(lat, 50):.1f}  p90 {pct(lat, 90):.1f}  p99 {pct(lat, 99):.1f}  "
            f"max {max(lat) * 1000:.1f} ms  errors {len(result['errors'])}  "
            f"server CPU {cpu:.2f} ms/poll ({parts})"
            if lat
            else f"after the close: no answer ({len(result['errors'])} errors)",
            flush=True,
        )
    print(f"load average after: {load_average()}")
    return status


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    sys.exit(main())
