"""Where one proposal's time goes: a submission profiled inside the site, on deploy/stack.

    .venv/bin/python bench/stack_profile.py [--tablets 200] [--top 30]

Starts a private stack (bench/stack_common.py), registers the players and opens a round
through the API as bench/stack_proposals.py does, then in one ``manage.py shell`` process
(the stack's production settings, database and Redis) sends each player's proposal through
Django's WSGI handler (the whole middleware stack, DRF, authentication, the service)
and prints the CPU milliseconds per request of the first half (warm: the first 10 requests
are left out; no profiler), the SQL statements of one warm request, and the functions that
cost most in the second half, under cProfile.
Nothing goes over the network but the database's and Redis's loopback.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from stack_common import load_average, manage_shell, private_stack, require

from tests.production.play import create_tournament, move_for

SHELL = r"""
import cProfile, io, json, pstats, time
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

plan = json.loads({plan!r})
client = Client(HTTP_HOST="127.0.0.1")


def send(item):
    response = client.post("/api/player/proposals/", data=item["body"],
                           content_type="application/json",
                           HTTP_AUTHORIZATION="Player " + item["token"])
    assert response.status_code == 201, (response.status_code, response.content[:300])


warm, rest = plan[:10], plan[10:]
for item in warm:
    send(item)
with CaptureQueriesContext(connection) as queries:
    send(rest[0])
sql = [q["sql"][:160] for q in queries.captured_queries]
half = len(rest) // 2
cpu0, wall0 = time.process_time(), time.perf_counter()
for item in rest[1:half]:
    send(item)
cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
profile = cProfile.Profile()
profile.enable()
for item in rest[half:]:
    send(item)
profile.disable()
out = io.StringIO()
pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats({top})
out2 = io.StringIO()
pstats.Stats(profile, stream=out2).sort_stats("tottime").print_stats({top})
print(out.getvalue())
print(out2.getvalue())
print(json.dumps({{"n": half - 1, "cpu": cpu, "wall": wall, "sql": sql}}))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tablets", type=int, default=200, help="players (default 200)")
    parser.add_argument("--top", type=int, default=30, help="functions listed (default 30)")
    args = parser.parse_args()
    require(parser, 12 <= args.tablets <= 5000, "--tablets must be from 12 to 5000.")
    require(parser, 1 <= args.top <= 200, "--top must be from 1 to 200.")
    with private_stack() as stack:
        t = create_tournament(stack, args.tablets, seconds_per_move=600)
        game = t.new_game(seed=7)
        rnd = t.wait_top(t.draw(game["id"])["id"])
        t.open(rnd["id"])
        plan = []
        for i in range(args.tablets):
            move = move_for(rnd, i)
            plan.append({"token": t.tokens[i], "body": {
                "reference": move["coord"], "word": move["word"], "score": move["score"],
                "client_key": f"profile-{i}"}})  # fmt: skip
        print(f"load average before: {load_average()}")
        began = time.monotonic()
        code = SHELL.format(plan=json.dumps(plan), top=args.top)
        result = manage_shell(stack, code, timeout=900)
        print(f"load average after: {load_average()} ({time.monotonic() - began:.0f} s)")
        n = result["n"]
        print(f"{n} warm requests in one process: {result['cpu'] * 1000 / n:.2f} ms CPU, "
              f"{result['wall'] * 1000 / n:.2f} ms wall per request (no profiler)")  # fmt: skip
        print(f"SQL of one warm request ({len(result['sql'])} statements):")
        for line in result["sql"]:
            print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
