"""Helpers shared by the benchmarks that run against a private ``deploy/stack``
(``bench/stack_proposals.py``, ``bench/stack_rankings.py``, ``bench/stack_batch.py``).

``private_stack`` starts a stack on free ports in a temporary directory
(tests/production/stack.py), registers the conformance lexicon and the arbiter account, and
always stops it and removes its directory, also on Ctrl-C or SIGTERM. ``manage_shell`` runs
Python in ``manage.py shell`` with the stack's environment (its database, Redis, settings).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shutil
import signal
import statistics
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.production.stack import ARBITER, Stack, make_stack_dir, missing_tools  # noqa: E402, F401


def pct(values: list[float], q: int) -> float:
    """The ``q``-th percentile of ``values`` (seconds) in milliseconds."""
    if len(values) == 1:
        return values[0] * 1000
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] * 1000


def summary(values: list[float]) -> str:
    """``median … p90 … p99 … max … ms`` of durations in seconds."""
    return (
        f"median {pct(values, 50):.1f}  p90 {pct(values, 90):.1f}  p99 {pct(values, 99):.1f}  "
        f"max {max(values) * 1000:.1f} ms (n={len(values)})"
    )


def require(parser: argparse.ArgumentParser, condition: bool, sentence: str) -> None:
    """Exit 2 with ``sentence`` (argparse's usage line first) unless ``condition``."""
    if not condition:
        parser.error(sentence)


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def _terminate(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


@contextlib.contextmanager
def private_stack(*, web_workers: int = 2, worker_concurrency: int = 2) -> Iterator[Stack]:
    """A started stack (conformance lexicon and arbiter registered), stopped on exit."""
    why = missing_tools()
    if why:
        raise SystemExit(f"cannot start the stack here: {why}")
    signal.signal(signal.SIGTERM, _terminate)
    stack = Stack(make_stack_dir())
    stack.env["STACK_WEB_WORKERS"] = str(web_workers)
    stack.env["STACK_WORKER_CONCURRENCY"] = str(worker_concurrency)
    stack.env["TIRAGE_CELERY_APP"] = "tournaments"
    try:
        stack.start()
        stack.setup_site()
        yield stack
    finally:
        try:
            stack.stop()
        finally:
            shutil.rmtree(stack.directory, ignore_errors=True)


def manage_shell(stack: Stack, code: str, *, timeout: float = 3600, echo: bool = True) -> Any:
    """Run ``code`` in ``manage.py shell`` against the stack; its last output line is JSON,
    returned decoded. Lines before it are echoed (progress) unless ``echo`` is false."""
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, env=stack.site_env(),
        capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip
    if result.returncode != 0:
        raise SystemExit(f"manage.py shell failed:\n{result.stderr[-3000:]}")
    lines = result.stdout.strip().splitlines()
    for line in lines[:-1] if echo else ():
        if line.strip() and "objects imported automatically" not in line:
            print(line, flush=True)
    return json.loads(lines[-1])
