#!/usr/bin/env python3
"""Health checks for service managers (systemd units, compose), standard library only.

    deploy/healthcheck.py [--wait SECONDS] URL      exit 0 once URL answers 200
    deploy/healthcheck.py [--wait SECONDS] --migrations
                                                    exit 0 once the database has every
                                                    migration of the code on disk

URL is usually gunicorn's ``/healthz`` (database and Redis, tournaments/health.py). Without
``--wait`` one try is made; with it, tries every half second until SECONDS have passed.
Exit 1 (with one sentence on stderr) when it never succeeded, 2 on bad usage.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def url_ok(url: str) -> tuple[bool, str]:
    try:
        with urllib.request.urlopen(url, timeout=3) as response:
            return response.status == 200, f"{url} answered {response.status}"
    except urllib.error.HTTPError as error:
        return False, f"{url} answered {error.code}"
    except OSError as error:
        return False, f"{url} did not answer ({error.__class__.__name__})"


def migrations_ok() -> tuple[bool, str]:
    result = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "migrate", "--check", "--noinput"],
        cwd=ROOT, capture_output=True, text=True, env=os.environ, timeout=120,
    )  # fmt: skip
    return result.returncode == 0, "the database is not migrated to the code on disk yet"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", nargs="?")
    parser.add_argument("--migrations", action="store_true")
    parser.add_argument("--wait", type=float, default=0.0)
    args = parser.parse_args(argv)
    if bool(args.url) == args.migrations:
        print("healthcheck: give either a URL or --migrations.", file=sys.stderr)
        return 2
    deadline = time.monotonic() + args.wait
    while True:
        ok, why = migrations_ok() if args.migrations else url_ok(args.url)
        if ok:
            return 0
        if time.monotonic() >= deadline:
            print(f"healthcheck: {why}.", file=sys.stderr)
            return 1
        time.sleep(0.5)


if __name__ == "__main__":
    sys.exit(main())
