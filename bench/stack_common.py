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
import os
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


_TICK = os.sysconf("SC_CLK_TCK")


def _proc_cpu(pid: int, *, reaped: bool) -> float:
    """CPU seconds of one process (user + system), with its reaped children's if asked."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    ticks = int(fields[11]) + int(fields[12])  # utime, stime
    if reaped:
        ticks += int(fields[13]) + int(fields[14])  # cutime, cstime
    return ticks / _TICK


def _descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        try:
            text = Path(f"/proc/{parent}/task/{parent}/children").read_text()
            kids = [int(p) for p in text.split()]
        except OSError:
            kids = []
        found.extend(kids)
        todo.extend(kids)
    return found


def tree_cpu(pid: int) -> float:
    """CPU seconds used so far by ``pid`` and everything under it: the live descendants'
    own time plus what the exited ones left in the root's counters (a PostgreSQL backend
    that ended, a recycled gunicorn worker)."""
    return _proc_cpu(pid, reaped=True) + sum(_proc_cpu(p, reaped=False) for p in _descendants(pid))


def stack_roots(stack: Stack) -> dict[str, int]:
    """The stack's process trees by component: gunicorn, PostgreSQL, Redis, the worker."""
    run = stack.directory / "run"
    roots = {}
    pids = {
        "gunicorn": run / "gunicorn.pid",
        "redis": run / "redis.pid",
        "worker": run / "celery.pid",
        "postgres": stack.directory / "pg" / "data" / "postmaster.pid",
    }
    for name, path in pids.items():
        with contextlib.suppress(OSError, ValueError, IndexError):
            roots[name] = int(path.read_text().split()[0])
    return roots


def cpu_snapshot(roots: dict[str, int], clients: list[int] | None = None) -> dict[str, float]:
    """CPU seconds per component so far; ``load generator`` is this process (its threads)
    plus any client processes it started (``clients``)."""
    snap = {name: tree_cpu(pid) for name, pid in roots.items()}
    snap["load generator"] = _proc_cpu(os.getpid(), reaped=True) + sum(
        tree_cpu(p) for p in clients or []
    )
    return snap


def cpu_report(before: dict[str, float], after: dict[str, float], wall: float, n: int) -> str:
    """One line per component: CPU seconds used between the snapshots, cores busy on
    average, milliseconds of CPU per request."""
    lines = [f"CPU between first send and last answer ({wall:.2f} s wall, {n} requests):"]
    total = 0.0
    for name in after:
        used = after[name] - before.get(name, 0.0)
        total += used
        lines.append(f"  {name:<15} {used:7.2f} s  {used / wall:5.2f} cores  "
                     f"{used * 1000 / max(n, 1):6.2f} ms/request")  # fmt: skip
    lines.append(f"  {'all':<15} {total:7.2f} s  {total / wall:5.2f} cores  "
                 f"{total * 1000 / max(n, 1):6.2f} ms/request")  # fmt: skip
    return "\n".join(lines)
