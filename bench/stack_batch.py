"""Worker throughput for batch-prepared games on deploy/stack, with 1 then 2 processes.

    .venv/bin/python bench/stack_batch.py [--games 50] [--concurrency 1,2] [--repeat 3]
                                          [--seed 4200] [--lexicon var/lexicons/fr-libre.lex]

Starts a private stack (bench/stack_common.py). For each worker concurrency (``celery -c``,
the stack's ``STACK_WORKER_CONCURRENCY``; the worker is restarted between them), R times:
creates a batch with ``predrawn_batch_prepare(count=G, seed_base=SEED)`` in ``manage.py
shell`` with the stack's environment, then polls ``batch_progress`` every 0.1 s until the
job is done. Every run prepares the same seeds, so the work is identical. Prints, per
concurrency, games/minute of each run (the job's ``created_at`` → ``finished_at`` as
stored; the polled time is printed too) and their median, the per-game task time from the
worker's log (median, p90, p99, max) and the rounds a game. The lexicon: ``--lexicon``
(default the full French list ``var/lexicons/fr-libre.lex`` when built, else the stack's
small conformance lexicon). Stops the stack.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from pathlib import Path

from stack_common import ROOT, load_average, manage_shell, private_stack, require, summary

RUN = r"""
import json, time
from tournaments.access import SYSTEM
from tournaments.models import BatchJob
from tournaments.selectors import batch_progress
from tournaments.services.batch import predrawn_batch_prepare
from tournaments.services.games import lexicon_register

path = {path!r}
lexicon = lexicon_register(path=path, actor=SYSTEM).pk if path else {lexicon}
began = time.monotonic()
job = predrawn_batch_prepare(count={games}, seed_base={seed}, lexicon_id=lexicon, actor=SYSTEM)
queued = time.monotonic()
seen = -1
while True:
    progress = batch_progress(job.pk)
    if progress["done"] != seen:
        seen = progress["done"]
        print(f"  {{time.monotonic() - queued:7.1f}} s  {{seen}}/{{progress['total']}}", flush=True)
    if progress["state"] == "done":
        break
    if time.monotonic() - queued > {timeout}:
        raise SystemExit(f"batch not done within {timeout} s: {{seen}}/{{progress['total']}}")
    time.sleep(0.1)
done = time.monotonic()
games = progress["games"]
job = BatchJob.objects.get(pk=job.pk)
print(json.dumps({{"create_s": queued - began, "seconds": done - queued,
                  "db_seconds": (job.finished_at - job.created_at).total_seconds(),
                  "rounds": [g["rounds"] for g in games],
                  "tops": [g["top_total"] for g in games]}}))
"""

SUCCEEDED = re.compile(r"Task tournaments\.prepare_game\[[^\]]+\] succeeded in ([0-9.]+)s")


def concurrency_list(text: str) -> list[int]:
    try:
        values = [int(part) for part in text.split(",") if part.strip()]
    except ValueError as error:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a comma-separated list of whole numbers."
        ) from error
    if not values or not all(1 <= v <= 32 for v in values):
        raise argparse.ArgumentTypeError("every concurrency must be from 1 to 32.")
    return values


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games in the batch (default 50)")
    parser.add_argument("--concurrency", type=concurrency_list, default=[1, 2],
                        help="worker processes, one run each (default 1,2)")  # fmt: skip
    parser.add_argument("--repeat", type=int, default=3, help="runs a concurrency (default 3)")
    parser.add_argument("--seed", type=int, default=4200, help="seed of the first game")
    default_lexicon = ROOT / "var" / "lexicons" / "fr-libre.lex"
    parser.add_argument("--lexicon", type=Path, default=None,
                        help=f"compiled lexicon (default {default_lexicon.relative_to(ROOT)} "
                             "if built, else the conformance lexicon)")  # fmt: skip
    parser.add_argument("--timeout", type=float, default=1800, help="seconds a run (1800)")
    args = parser.parse_args()
    require(parser, 1 <= args.games <= 500, "--games must be from 1 to 500 (a batch's limit).")
    require(parser, 1 <= args.repeat <= 100, "--repeat must be from 1 to 100.")
    require(parser, 0 <= args.seed < 2**62, "--seed must be from 0 to 2^62.")
    require(parser, args.timeout > 0, "--timeout must be more than 0 seconds.")
    if args.lexicon is not None:
        require(parser, args.lexicon.is_file(), f"There is no lexicon file {args.lexicon}.")
    lexicon = args.lexicon or (default_lexicon if default_lexicon.is_file() else None)
    with private_stack(worker_concurrency=args.concurrency[0]) as stack:
        print(f"lexicon: {lexicon or 'conformance (tests)'}; {args.games} games from seed "
              f"{args.seed}")  # fmt: skip
        log = stack.directory / "log" / "worker.log"
        for concurrency in args.concurrency:
            stack.stop("worker")
            stack.env["STACK_WORKER_CONCURRENCY"] = str(concurrency)
            stack.start("worker")
            offset = log.stat().st_size
            print(f"\ncelery -c {concurrency}; load average {load_average()}")
            rates, runs = [], []
            for _ in range(args.repeat):
                code = RUN.format(
                    path=str(lexicon.resolve()) if lexicon else "", lexicon=stack.lexicon,
                    games=args.games, seed=args.seed, timeout=args.timeout,
                )  # fmt: skip
                run = manage_shell(stack, code, timeout=args.timeout + 120, echo=False)
                rates.append(60 * args.games / run["db_seconds"])
                runs.append(run)
                print(f"  {args.games} games in {run['db_seconds']:.2f} s stored "
                      f"({run['seconds']:.2f} s polled) = {rates[-1]:.0f} games/min; batch "
                      f"created and queued in {run['create_s'] * 1000:.0f} ms; "
                      f"load average {load_average()}")  # fmt: skip
            with log.open(errors="replace") as f:
                f.seek(offset)
                tasks = [float(m.group(1)) for m in SUCCEEDED.finditer(f.read())]
            rounds = sorted(r for run in runs for r in run["rounds"])
            spread = f"min {min(rates):.0f}, max {max(rates):.0f}"
            print(f"celery -c {concurrency}: median {statistics.median(rates):.0f} games/min "
                  f"over {args.repeat} runs ({spread})")  # fmt: skip
            if tasks:
                print(f"  task time per game: {summary(tasks)}")
            print(f"  rounds a game: median {statistics.median(rounds):.0f}, "
                  f"{rounds[0]}–{rounds[-1]}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
