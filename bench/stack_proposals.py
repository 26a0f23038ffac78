"""Proposals through gunicorn on deploy/stack: N tablets each submit once in a window.

    .venv/bin/python bench/stack_proposals.py [--tablets 500] [--window 30] [--web-workers 2]
        [--client async|lean|threads] [--timeout 120]

Starts a private stack (bench/stack_common.py: PostgreSQL, Redis, gunicorn, a worker),
registers N players, opens a round, then each tablet POSTs one proposal
(``/api/player/proposals/``) at a uniformly random moment of the window (offered rate
N / window). Prints the rate sustained, latency percentiles, errors and the proposals
stored, then where the CPU went (each component's CPU seconds between the first send and
the last answer, read from /proc: gunicorn, PostgreSQL, Redis, the worker and this load
generator itself), then stops the stack.

The client is one asyncio loop of raw HTTP/1.1 connections (``async``, the default: about
a tenth of the CPU of a thread per tablet; ``lean``: the same with one ``asyncio.Protocol``
a request instead of stream objects, as bench/event_load.py, about 0.55 ms of CPU a request
instead of 0.8-1.0: it shares the 2 cores with the stack, so the 300/s runs of
2026-12-07 use it), or the original 500 ``http.client`` threads
(``threads``: what the figures before 2026-12-04 used; on 2 cores the threads take a large
share of the CPU the server needs, see docs/benchmarks.md). Every request has its own
connection, as a tablet's would. The run is bounded: a request waits at most --timeout
seconds in all, then counts as an error.

With the queued path (``TIRAGE_QUEUED_PROPOSALS``, on in the stack's production profile)
the answers are ``202`` receipts: after the last answer the bench waits (at most
--drain seconds) until every acknowledged move is a version, counts the worker's CPU up
to that moment, and fails if any move is missing or doubled. ``--sync`` turns the queued
path off in the stack (the synchronous 201 path, as before 2026-12-04's session 6).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from event_load import Exchange
from stack_common import (
    cpu_report,
    cpu_snapshot,
    load_average,
    pct,
    private_stack,
    require,
    stack_roots,
)

from tests.production.play import Tournament, create_tournament, move_for

#: Extra players whose proposals warm the web workers up before the timed run.
WARM_UP = 20
#: A stored move (synchronous path) or a durable receipt (queued path).
ACCEPTED = (201, 202)

Result = tuple[float, float, int, str]  # sent (monotonic), latency (s), HTTP status, error


def _body(rnd: dict, i: int) -> dict:
    move = move_for(rnd, i)
    return {"reference": move["coord"], "word": move["word"], "score": move["score"],
            "client_key": f"bench-{i}"}  # fmt: skip


def run_threads(
    t: Tournament, rnd: dict, moments: list[float], timeout: float,
    tablets: Sequence[int] | None = None,
) -> list[Result]:  # fmt: skip
    """One ``http.client`` thread per tablet (tests/production/stack.py's Client); tablet
    ``tablets[k]`` (default ``k``) sends at ``moments[k]``."""
    who = list(tablets) if tablets is not None else list(range(len(moments)))
    results: list[Result] = []
    lock = threading.Lock()

    def tablet(k: int) -> None:
        time.sleep(max(0.0, moments[k] - time.monotonic()))
        i, sent = who[k], time.monotonic()
        try:
            response = t.player(i).post("/api/player/proposals/", _body(rnd, i))
            status = response.status
            error = "" if status in ACCEPTED else repr(response)
        except OSError as exc:
            status, error = 0, repr(exc)
        with lock:
            results.append((sent, time.monotonic() - sent, status, error))

    threads = [threading.Thread(target=tablet, args=(i,), daemon=True) for i in range(len(moments))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=max(0.0, moments[-1] - time.monotonic()) + timeout)
    return results


async def _post(port: int, auth: str, body: bytes) -> tuple[int, bytes]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(
            b"POST /api/player/proposals/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Accept: application/json\r\nContent-Type: application/json\r\n"
            + f"Authorization: {auth}\r\nContent-Length: {len(body)}\r\n".encode()
            + b"Connection: close\r\n\r\n" + body
        )  # fmt: skip
        await writer.drain()
        raw = await reader.read()
    finally:
        writer.close()
    head, _, rest = raw.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), rest


def run_async(t: Tournament, rnd: dict, moments: list[float], timeout: float) -> list[Result]:
    """All tablets in one asyncio loop of raw HTTP/1.1 requests, one connection each."""
    results: list[Result] = []

    async def tablet(i: int) -> None:
        await asyncio.sleep(max(0.0, moments[i] - time.monotonic()))
        sent = time.monotonic()
        body = json.dumps(_body(rnd, i)).encode()
        try:
            status, rest = await asyncio.wait_for(
                _post(t.stack.web_port, f"Player {t.tokens[i]}", body), timeout
            )
            error = "" if status in ACCEPTED else f"{status} {rest[:200]!r}"
        except (OSError, TimeoutError, ValueError, IndexError) as exc:
            status, error = 0, repr(exc)
        results.append((sent, time.monotonic() - sent, status, error))

    async def everyone() -> None:
        await asyncio.gather(*(tablet(i) for i in range(len(moments))))

    asyncio.run(everyone())
    return results


def run_lean(t: Tournament, rnd: dict, moments: list[float], timeout: float) -> list[Result]:
    """As ``async``, one ``asyncio.Protocol`` a request and no stream objects (as
    bench/event_load.py): about half the load generator's CPU, which shares the cores."""
    results: list[Result] = []

    async def tablet(i: int) -> None:
        body = json.dumps(_body(rnd, i)).encode()
        payload = (
            b"POST /api/player/proposals/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Accept: application/json\r\nContent-Type: application/json\r\n"
            + f"Authorization: Player {t.tokens[i]}\r\nContent-Length: {len(body)}\r\n".encode()
            + b"Connection: close\r\n\r\n" + body
        )  # fmt: skip
        loop = asyncio.get_running_loop()
        await asyncio.sleep(max(0.0, moments[i] - time.monotonic()))
        sent = time.monotonic()
        try:
            async with asyncio.timeout(timeout):
                done = loop.create_future()
                transport, _ = await loop.create_connection(
                    lambda: Exchange(payload, done), "127.0.0.1", t.stack.web_port
                )
                try:
                    raw = await done
                finally:
                    transport.close()
            head, _, rest = raw.partition(b"\r\n\r\n")
            status = int(head.split(b" ", 2)[1])
            error = "" if status in ACCEPTED else f"{status} {rest[:200]!r}"
        except (OSError, TimeoutError, ValueError, IndexError) as exc:
            status, error = 0, repr(exc)
        results.append((sent, time.monotonic() - sent, status, error))

    async def everyone() -> None:
        await asyncio.gather(*(tablet(i) for i in range(len(moments))))

    asyncio.run(everyone())
    return results


CLIENTS: dict[str, Callable[[Tournament, dict, list[float], float], list[Result]]] = {
    "async": run_async,
    "lean": run_lean,
    "threads": run_threads,
}


def _spy(stack: Any, directory: str) -> list[subprocess.Popen]:
    """One ``py-spy record`` per gunicorn worker, writing DIR/worker-PID.txt."""
    Path(directory).mkdir(parents=True, exist_ok=True)
    spy = str(Path(sys.executable).with_name("py-spy"))
    command = [spy, "record", "--format", "raw", "--rate", "200", "--nonblocking"]
    return [
        subprocess.Popen(
            [*command, "-o", f"{directory}/worker-{pid}.txt", "-p", str(pid)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for pid in stack.children(stack.pid("gunicorn"))
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tablets", type=int, default=500, help="players (default 500)")
    parser.add_argument("--window", type=float, default=30.0, help="seconds (default 30)")
    parser.add_argument("--web-workers", type=int, default=2, help="gunicorn (default 2)")
    parser.add_argument("--client", choices=sorted(CLIENTS), default="async")
    parser.add_argument("--timeout", type=float, default=120.0, help="per request, s")
    parser.add_argument(
        "--drain",
        type=float,
        default=120.0,
        help="seconds to wait for the worker to store every queued move",
    )
    parser.add_argument(
        "--sync", action="store_true", help="the synchronous path (TIRAGE_QUEUED_PROPOSALS=false)"
    )
    parser.add_argument("--py-spy", metavar="DIR", default="",
                        help="sample each web worker with py-spy (raw stacks) into DIR "
                             "during the timed run (py-spy must be installed)")  # fmt: skip
    args = parser.parse_args()
    require(parser, 1 <= args.tablets <= 20000, "--tablets must be from 1 to 20000.")
    require(parser, 0 < args.window <= 3600, "--window must be more than 0 and at most 3600 s.")
    require(parser, 1 <= args.web_workers <= 64, "--web-workers must be from 1 to 64.")
    require(parser, 1 <= args.timeout <= 600, "--timeout must be from 1 to 600 s.")
    # The stack's processes inherit this environment (tests/production/stack.py).
    os.environ["TIRAGE_QUEUED_PROPOSALS"] = "false" if args.sync else "true"
    with private_stack(web_workers=args.web_workers) as stack:
        t0 = time.monotonic()
        t = create_tournament(stack, args.tablets + WARM_UP, seconds_per_move=600)
        print(f"setup: {args.tablets} players registered in {time.monotonic() - t0:.1f} s")
        game = t.new_game(seed=7)
        rnd = t.wait_top(t.draw(game["id"])["id"])
        t.open(rnd["id"])
        # Warm both web workers (imports, the lexicon, the first queries) with WARM_UP extra
        # players' proposals, two at a time, before anything is timed.
        warm = list(range(args.tablets, args.tablets + WARM_UP))
        for pair in zip(warm[::2], warm[1::2], strict=True):
            run_threads(t, rnd, [time.monotonic()] * 2, args.timeout, tablets=pair)
        roots = stack_roots(stack)
        print(f"load average before: {load_average()}")
        start = time.monotonic() + 0.5
        moments = sorted(start + random.uniform(0, args.window) for _ in range(args.tablets))
        # tablet i sends at moments[i] (sorted: the thread client joins the last one last)
        spies = _spy(stack, args.py_spy) if args.py_spy else []
        before = cpu_snapshot(roots)
        results = CLIENTS[args.client](t, rnd, moments, args.timeout)
        answered = cpu_snapshot(roots)
        expected = args.tablets + WARM_UP
        drain_start = time.monotonic()
        stored = _stored(stack, rnd["id"])
        while stored < expected and time.monotonic() - drain_start < args.drain:
            time.sleep(0.05)
            stored = _stored(stack, rnd["id"])
        drained = time.monotonic() - drain_start
        after = cpu_snapshot(roots)
        for spy in spies:
            spy.send_signal(signal.SIGINT)  # py-spy writes its file on SIGINT
        for spy in spies:
            spy.wait(timeout=60)
        first = min(r[0] for r in results) if results else start
        last = max(r[0] + r[1] for r in results) if results else start
        wall = max(last - first, 1e-9)
        latencies = [r[1] for r in results]
        errors = [
            f"{r[2]}: {r[3]}" for r in results if r[2] not in ACCEPTED
        ]  # warm-up: stored only
        errors += ["no answer"] * (args.tablets - len(results))
        accepted = sum(1 for r in results if r[2] in ACCEPTED)
        queued = sum(1 for r in results if r[2] == 202)
        pending = stack.sql(
            "SELECT count(*) FROM tournaments_proposalarrival WHERE round_id = %s "
            "AND ingested_at IS NULL", rnd["id"],
        )[0][0]  # fmt: skip
        refused = stack.sql(
            "SELECT count(*) FROM tournaments_proposalarrival WHERE round_id = %s "
            "AND refusal <> ''", rnd["id"],
        )[0][0]  # fmt: skip
        print(f"tablets {args.tablets}, window {args.window:g} s (offered "
              f"{args.tablets / args.window:.1f}/s), client {args.client}, gunicorn sync "
              f"workers {args.web_workers}: {len(results) / wall:.1f} proposals/s sustained "
              f"(first send to last answer, {wall:.2f} s); stored {stored} "
              f"({WARM_UP} of them the warm-up's)")  # fmt: skip
        if latencies:
            print(f"latency ms: p50 {pct(latencies, 50):.1f}  p90 {pct(latencies, 90):.1f}  "
                  f"p99 {pct(latencies, 99):.1f}  max {max(latencies) * 1000:.1f}")  # fmt: skip
        print(f"errors: {len(errors)}", *errors[:5], sep="\n  ")
        print(f"acknowledged {accepted} ({queued} as 202 receipts); versions stored {stored} "
              f"of {expected} expected, {drained:.2f} s after the last answer; arrivals "
              f"pending {pending}, refused {refused}")  # fmt: skip
        print(cpu_report(before, answered, wall, len(results)))
        if queued:
            print("with the worker's batches, up to the last version stored:")
            print(cpu_report(before, after, wall + drained, len(results)))
        print(f"load average after: {load_average()}")
        return 1 if errors or stored != expected or pending or refused else 0


def _stored(stack: Any, round_id: int) -> int:
    return stack.sql(
        "SELECT count(*) FROM tournaments_proposalversion WHERE round_id = %s", round_id
    )[0][0]


if __name__ == "__main__":
    sys.exit(main())
