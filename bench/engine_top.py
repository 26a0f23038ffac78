"""Time the compiled engine on the conformance positions.

    .venv/bin/python bench/engine_top.py [--positions FILE.jsonl] [--lexicon FILE]
                                         [--words FILE.gz] [--repeat N]

Without ``--lexicon`` the word list (default: the free list the conformance positions were
computed with) is compiled into a temporary file first (and the build is timed). Prints the
build time, the load time and memory, then for every mode (all moves, top only) the median /
p90 / p99 / max time per position, by number of jokers on the rack and over the whole set,
beside the native reference generator's medians (issue 19). Each position is run
``--repeat`` times, the modes interleaved, and its fastest run kept. The machine's load
average is printed first and last: figures taken on a busy machine are not comparable.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.board import Board, Rack  # noqa: E402
from engine.lexicon.automaton import Lexicon, build_lexicon_file  # noqa: E402
from engine.movegen import find_top, generate_moves  # noqa: E402

CONFORMANCE = ROOT / "tests" / "data" / "conformance"

# Medians of the native reference generator on the same positions (issue 19), ms.
NATIVE = {
    "all moves": {0: 0.090, 1: 1.38, 2: 5.5},
    "top only": {0: 0.056, 1: 0.49, 2: 0.95},
}

_LOAD_PROBE = """
import sys, time
sys.path.insert(0, {root!r})
def rss(field="VmRSS:"):
    for line in open("/proc/self/status"):
        if line.startswith(field):
            return int(line.split()[1]) / 1024
before = rss()
from engine.lexicon.automaton import Lexicon
imported = rss()
start = time.perf_counter()
lex = Lexicon.load({path!r})
elapsed = time.perf_counter() - start
after = rss()
peak = rss("VmHWM:")
print(elapsed, before, imported, after, peak)
"""


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def timed(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def row(label: str, times: list[float], native: float | None = None) -> str:
    ms = [t * 1000 for t in times]
    median = statistics.median(ms)
    ref = f"{native:>10.3f}{median / native:>8.2f}x" if native else ""
    return (
        f"{label:<22}{len(ms):>5}{median:>10.3f}{percentile(ms, 0.9):>10.3f}"
        f"{percentile(ms, 0.99):>10.3f}{max(ms):>10.3f}{ref}"
    )


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", type=Path, help="a compiled lexicon file")
    parser.add_argument("--words", type=Path, default=CONFORMANCE / "words-fr-libre.txt.gz")
    parser.add_argument("--positions", type=Path, default=CONFORMANCE / "positions.jsonl")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    for given in (args.positions, args.lexicon or args.words):
        if not given.is_file():
            print(f"bench/engine_top.py: {given} does not exist", file=sys.stderr)
            return 2
    print(f"load average (1, 5, 15 min) at start: {load_average()}")

    with tempfile.TemporaryDirectory() as tmp:
        path = args.lexicon
        if path is None:
            opener = gzip.open if args.words.suffix == ".gz" else open
            with opener(args.words, "rt", encoding="utf-8") as handle:
                words = [w for w in handle.read().split("\n") if w]
            path = Path(tmp) / "bench.lex"
            start = time.perf_counter()
            build_lexicon_file(words, path, name="bench", source=str(args.words), version="0")
            build = time.perf_counter() - start
            print(f"lexicon build: {build:.2f} s ({len(words)} words, {args.words.name})")
        else:
            print(f"lexicon: {path} (not built here)")
        size = path.stat().st_size / 2**20

        probe = subprocess.run(
            [sys.executable, "-c", _LOAD_PROBE.format(root=str(ROOT), path=str(path))],
            capture_output=True,
            text=True,
            check=True,
        )
        elapsed, before, imported, after, peak = map(float, probe.stdout.split())
        print(
            f"lexicon load: {elapsed * 1000:.1f} ms, file {size:.1f} MiB; process RSS "
            f"{before:.1f} MiB at start, {imported:.1f} after import, {after:.1f} after load "
            f"(+{after - imported:.1f}), peak {peak:.1f} MiB"
        )

        lexicon = Lexicon.load(path)
        positions = [json.loads(line) for line in args.positions.open() if line.strip()]
        results: dict[str, dict[int, list[float]]] = {"all moves": {}, "top only": {}}
        n_moves: dict[int, list[int]] = {}
        for p in positions:
            board = Board.from_lines(p["board"])
            rack = Rack(p["rack"])
            jokers = rack.jokers

            def run_all(board: Board = board, rack: Rack = rack) -> object:
                return generate_moves(board, rack, lexicon)

            def run_top(board: Board = board, rack: Rack = rack) -> object:
                return find_top(board, rack, lexicon)

            best_all = best_top = float("inf")
            for _ in range(args.repeat):  # interleaved, so a busy moment hits both modes
                best_all = min(best_all, timed(run_all, 1))
                best_top = min(best_top, timed(run_top, 1))
            results["all moves"].setdefault(jokers, []).append(best_all)
            results["top only"].setdefault(jokers, []).append(best_top)
            counted = find_top(board, rack, lexicon, count_moves=True).n_moves
            n_moves.setdefault(jokers, []).append(counted or 0)

    print()
    print(
        f"{'ms per position':<22}{'n':>5}{'median':>10}{'p90':>10}{'p99':>10}{'max':>10}"
        f"{'native':>10}{'ratio':>9}"
    )
    for mode, by_jokers in results.items():
        for jokers in sorted(by_jokers):
            native = NATIVE[mode].get(jokers)
            print(row(f"{mode}, {jokers} joker(s)", by_jokers[jokers], native))
        print(row(f"{mode}, whole set", [t for ts in by_jokers.values() for t in ts]))
    print()
    for jokers in sorted(n_moves):
        counts = n_moves[jokers]
        print(
            f"legal moves with {jokers} joker(s): median {statistics.median(counts):.0f}, "
            f"max {max(counts)}"
        )
    print(f"load average (1, 5, 15 min) at end: {load_average()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
