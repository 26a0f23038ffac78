"""Proposals through gunicorn on deploy/stack: N tablets each submit once in a window.

    .venv/bin/python bench/stack_proposals.py [--tablets 500] [--window 30] [--web-workers 2]

Starts a private stack (bench/stack_common.py: PostgreSQL, Redis, gunicorn, a worker),
registers N players, opens a round, then N client threads each POST one proposal
(``/api/player/proposals/``) at a uniformly random moment of the window. Prints the rate
sustained, latency percentiles and errors, then stops the stack.
"""

from __future__ import annotations

import argparse
import random
import sys
import threading
import time

from stack_common import pct, private_stack, require

from tests.production.play import create_tournament, move_for


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tablets", type=int, default=500, help="players (default 500)")
    parser.add_argument("--window", type=float, default=30.0, help="seconds (default 30)")
    parser.add_argument("--web-workers", type=int, default=2, help="gunicorn (default 2)")
    args = parser.parse_args()
    require(parser, 1 <= args.tablets <= 20000, "--tablets must be from 1 to 20000.")
    require(parser, 0 < args.window <= 3600, "--window must be more than 0 and at most 3600 s.")
    require(parser, 1 <= args.web_workers <= 64, "--web-workers must be from 1 to 64.")
    with private_stack(web_workers=args.web_workers) as stack:
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


if __name__ == "__main__":
    sys.exit(main())
