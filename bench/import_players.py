"""Time the players' import at its limits (issue 14): parsing alone (no lock) and the
whole import of 2,000 valid rows (the lock is held only while saving), plus the refusals
of a 2 MB file of wrong rows and of a file with a wrong header.

    TIRAGE_VAR_DIR=/tmp/bench-import .venv/bin/python bench/import_players.py [--repeat 3]

Uses the embedded profile (SQLite under TIRAGE_VAR_DIR, migrated here) unless
DATABASE_URL is set. Prints the median and max of each step in seconds.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournaments.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

from tournaments.access import SYSTEM  # noqa: E402
from tournaments.errors import ServiceError  # noqa: E402
from tournaments.models import Tournament  # noqa: E402
from tournaments.services.imports import (  # noqa: E402
    MAX_IMPORT_ROWS,
    parse_players,
    players_import,
)


def _rows(n: int, prefix: str) -> bytes:
    lines = ["nom;licence;club;année"]
    lines += [f"Joueur {i};{prefix}{i:06d};Club {i % 40};{1950 + i % 60}" for i in range(n)]
    return ("\n".join(lines) + "\n").encode()


def _time(step: Callable[[], object]) -> float:
    started = time.perf_counter()
    with contextlib.suppress(ServiceError):  # the refusals are what is timed
        step()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    valid = _rows(MAX_IMPORT_ROWS, "L")
    wrong = ("nom;licence;table\n" + "x;;abc\n" * 290_000).encode()[: 2 * 1024 * 1024 - 10]
    headless = ("pseudo;licence\n" + "x;y\n" * 400_000).encode()
    results: dict[str, list[float]] = {}
    for run in range(args.repeat):
        t = Tournament.objects.create(name=f"Bench {run}", slug=f"bench-import-{time.time_ns()}")
        content = _rows(MAX_IMPORT_ROWS, f"R{run}-")
        steps = {
            f"parse {MAX_IMPORT_ROWS} rows (no lock)": lambda: parse_players("j.csv", valid),
            f"import {MAX_IMPORT_ROWS} rows": lambda c=content, t=t: players_import(
                tournament_id=t.pk, filename="j.csv", content=c, actor=SYSTEM
            ),
            f"refuse 2 MB of wrong rows ({len(wrong) // 1024} kB)": lambda t=t: players_import(
                tournament_id=t.pk, filename="j.csv", content=wrong, actor=SYSTEM
            ),
            "refuse a wrong header (1.6 MB)": lambda t=t: players_import(
                tournament_id=t.pk, filename="j.csv", content=headless, actor=SYSTEM
            ),
        }
        for name, step in steps.items():
            results.setdefault(name, []).append(_time(step))
    for name, values in results.items():
        print(f"{name:45s} median {statistics.median(values):7.3f} s  max {max(values):7.3f} s")


if __name__ == "__main__":
    main()
