"""What ``bench/stack_event.py`` measures and how it prints it: every answer's latency by
kind and phase, the errors, and for each phase of the run its wall time, the CPU each part
of the stack used (from /proc) and the load average, so that every figure comes with the
share of the machine the stack had when it was taken. The summary is markdown tables,
ready for docs/benchmarks.md.
"""

from __future__ import annotations

import os
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from stack_common import _proc_cpu, pct, tree_cpu

#: The stack's parts, in the order they are printed.
PARTS = ("gunicorn", "postgres", "redis", "worker")


def load_1min() -> float:
    try:
        return float(Path("/proc/loadavg").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return -1.0


def stack_pids(directory: Path) -> dict[str, list[int]]:
    """The root processes of each part of a ``deploy/stack`` in ``directory``: every
    gunicorn instance's master, PostgreSQL's postmaster, Redis, the Celery worker."""
    run = directory / "run"
    files = {
        "gunicorn": sorted(run.glob("gunicorn*.pid")),
        "redis": [run / "redis.pid"],
        "worker": [run / "celery.pid"],
        "postgres": [directory / "pg" / "data" / "postmaster.pid"],
    }
    pids: dict[str, list[int]] = {}
    for part, paths in files.items():
        for path in paths:
            try:
                pids.setdefault(part, []).append(int(path.read_text().split()[0]))
            except (OSError, ValueError, IndexError):
                continue
    return pids


@dataclass
class Phase:
    times: int = 0
    wall: float = 0.0
    cpu: Counter = field(default_factory=Counter)  # part → CPU seconds
    loads: list[float] = field(default_factory=list)

    def cores(self, part: str) -> float:
        return self.cpu[part] / self.wall if self.wall else 0.0

    @property
    def stack(self) -> float:
        return sum(self.cpu[p] for p in PARTS)


class Phases:
    """The run as a sequence of phases; ``switch`` ends the current one (its wall time,
    each part's CPU and the load average are added to its totals) and starts the next."""

    def __init__(self) -> None:
        self.pids: dict[str, list[int]] = {}
        self.current = "start"
        self.totals: dict[str, Phase] = defaultdict(Phase)
        self._since = time.monotonic()
        self._cpu = self._snapshot()
        self._load = load_1min()

    def _snapshot(self) -> dict[str, float]:
        snap = {part: sum(tree_cpu(pid) for pid in pids) for part, pids in self.pids.items()}
        # This process (the load generator's loop and threads) apart from its reaped
        # children (manage.py shell for the set-up and the check, bench/engine_top.py).
        snap["load generator"] = _proc_cpu(os.getpid(), reaped=False)
        snap["manage.py"] = _proc_cpu(os.getpid(), reaped=True) - snap["load generator"]
        return snap

    def switch(self, name: str) -> None:
        now, cpu, load = time.monotonic(), self._snapshot(), load_1min()
        phase = self.totals[self.current]
        phase.times += 1
        phase.wall += now - self._since
        for part, used in cpu.items():
            phase.cpu[part] += max(0.0, used - self._cpu.get(part, used))
        phase.loads += [self._load, load]
        self.current, self._since, self._cpu, self._load = name, now, cpu, load

    def describe(self, name: str) -> str:
        """``0.84 cores, load 3.1–4.2`` for a phase (the stack's CPU share in it)."""
        phase = self.totals.get(name)
        if not phase or not phase.wall:
            return "–"
        return f"{phase.stack / phase.wall:.2f} cores, load {_loads(phase.loads)}"

    def table(self) -> str:
        head = ("| phase | times | wall s | gunicorn | PostgreSQL | Redis | worker | stack "
                "| load generator | manage.py | load average |")  # fmt: skip
        rows = [head, "| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --- |"]
        for name, p in self.totals.items():
            if p.wall < 0.1:  # an instant (the start): its CPU ratio would be noise
                continue
            cells = [f"{p.cores(part):.2f}" for part in PARTS]
            rows.append(f"| {name} | {p.times} | {p.wall:.1f} | {' | '.join(cells)} | "
                        f"**{p.stack / p.wall:.2f}** | {p.cores('load generator'):.2f} | "
                        f"{p.cores('manage.py'):.2f} | {_loads(p.loads)} |")  # fmt: skip
        rows.append("(CPU columns: cores busy on average over the phase's wall time, from "
                    "/proc; load average: 1-minute, at the phase's starts and ends)")  # fmt: skip
        return "\n".join(rows)


def _loads(values: list[float]) -> str:
    seen = [v for v in values if v >= 0]
    if not seen:
        return "?"
    return f"{min(seen):.1f}–{max(seen):.1f}"


@dataclass
class Figures:
    """Every answer: latency by (kind, phase), statuses by kind, errors by (kind, status)."""

    phases: Phases
    latencies: dict[tuple[str, str], list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: Counter = field(default_factory=Counter)  # (what, status) → count
    errors: Counter = field(default_factory=Counter)  # (what, status or reason) → count
    samples: list[str] = field(default_factory=list)  # one body per (kind, status)
    round_rates: list[float] = field(default_factory=list)  # moves/s, one per round
    move_wall: float = 0.0  # first send to last answer, summed over the rounds
    moves: int = 0
    window_total: float = 0.0

    def record(self, what: str, status: int, seconds: float, body: bytes | str = b"",
               ok: tuple[int, ...] = (200,)) -> None:  # fmt: skip
        self.statuses[(what, status)] += 1
        if status:
            self.latencies[(what, self.phases.current)].append(seconds)
        if status not in ok:
            self.error(what, status, body)

    def error(self, what: str, status: int | str, body: bytes | str = b"") -> None:
        """Count an error; the first answer of each (kind, status) is kept as a sample."""
        self.errors[(what, status)] += 1
        if self.errors[(what, status)] == 1 and len(self.samples) < 20:
            self.samples.append(f"{what} {status or 'no answer'}: {body[:300]!r}")

    def count(self, what: str) -> int:
        return sum(n for (kind, status), n in self.statuses.items() if kind == what and status)

    def table(self) -> str:
        rows = ["| measure (phase) | n | p50 | p95 | p99 | max | stack CPU, load in that phase |",
                "| --- | --: | --: | --: | --: | --: | --- |"]  # fmt: skip
        for (what, phase), values in sorted(self.latencies.items()):
            cells = [f"{len(values):,}", *(_ms(values, q) for q in (50, 95, 99)),
                     f"{max(values) * 1000:,.0f} ms", self.phases.describe(phase)]  # fmt: skip
            rows.append(f"| {what} ({phase}) | {' | '.join(cells)} |")
        return "\n".join(rows)

    def status_line(self, what: str) -> str:
        seen = sorted((status, n) for (kind, status), n in self.statuses.items() if kind == what)
        return ", ".join(f"{status or 'no answer'}: {n:,}" for status, n in seen) or "none"


def _ms(values: list[float], q: int) -> str:
    return f"{pct(values, q):,.0f} ms"
