"""Proposals through gunicorn on deploy/stack: N tablets each submit once in a window.

    .venv/bin/python bench/stack_proposals.py [--tablets 500] [--window 30] [--web-workers 2]

Starts a private stack (tests/production/stack.py: PostgreSQL, Redis, gunicorn, a worker),
registers N players, opens a round, then N client threads each POST one proposal
(``/api/player/proposals/``) at a uniformly random moment of the window. Prints the rate
sustained, latency percentiles and errors, then stops the stack.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.production.play import create_tournament, move_for  # noqa: E402
from tests.production.stack import Stack, make_stack_dir  # noqa: E402


def pct(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] * 1000


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tablets", type=int, default=500)
    parser.add_argument("--window", type=float, default=30.0)
    parser.add_argument("--web-workers", type=int, default=2)
    args = parser.parse_args()
    stack = Stack(make_stack_dir())
    stack.env["STACK_WEB_WORKERS"] = str(args.web_workers)
    stack.env["TIRAGE_CELERY_APP"] = "tournaments"
    try:
        stack.start()
        stack.setup_site()
        t0 = time.monotonic()
        t = create_tournament(stack, args.tablets, seconds_per_move=600)
        print(f"setup: {args.tablets} players registered in {time.monotonic() - t0:.1f} s")
        game = t.new_game(seed=7)
        rnd = t.wait_top(t.draw(game["id"])["id"])
        t.open(rnd["id"])
        latencies: list[float] = []
        errors: list[str] = []
        lock = threading.Lock()
        start = time.monotonic() + 0.5

        def tablet(i: int) -> None:
            time.sleep(max(0.0, start + random.uniform(0, args.window) - time.monotonic()))
            began = time.perf_counter()
            try:
                response = t.submit(i, move_for(rnd, i), key=f"bench-{i}")
                status = response.status
            except OSError as error:
                status, response = 0, error
            with lock:
                latencies.append(time.perf_counter() - began)
                if status != 201:
                    errors.append(f"{i}: {response!r}")

        threads = [threading.Thread(target=tablet, args=(i,)) for i in range(args.tablets)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - start
        stored = stack.sql(
            "SELECT count(*) FROM tournaments_proposalversion WHERE round_id = %s", rnd["id"]
        )[0][0]
        print(f"tablets {args.tablets}, window {args.window:.0f} s, gunicorn sync workers "
              f"{args.web_workers}: {len(latencies) / elapsed:.1f} proposals/s over "
              f"{elapsed:.1f} s; stored {stored}")  # fmt: skip
        print(f"latency ms: p50 {pct(latencies, 50):.1f}  p90 {pct(latencies, 90):.1f}  "
              f"p99 {pct(latencies, 99):.1f}  max {max(latencies) * 1000:.1f}")  # fmt: skip
        print(f"errors: {len(errors)}", *errors[:5], sep="\n  ")
        return 1 if errors or stored != args.tablets else 0
    finally:
        stack.stop()
        shutil.rmtree(stack.directory, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
