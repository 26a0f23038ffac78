"""Time the compiled engine on the conformance positions.

    .venv/bin/python bench/engine_top.py [--positions FILE.jsonl] [--lexicon FILE]
                                         [--words FILE.gz] [--repeat N] [--passes K]

Without ``--lexicon`` the word list (default: the free list the conformance positions were
computed with) is compiled into a temporary file first (and the build is timed). Prints the
build time, the load time and memory, then the median / p90 / p99 / max time per position,
by number of jokers on the rack and over the whole set, beside the native reference
generator's medians (issue 19), by two statistics:

* single pass: each position searched once, in file order (the positions follow games
  round by round, then joker variants of earlier rounds), top only then all moves in two
  separate passes; ``--passes K`` such passes, each statistic shown as the median over the
  passes (the medians of the passes are listed too). "top only, game order" lets the core
  keep the previous boards' cross-checks as a game does; "top only, from scratch" makes it
  forget them (``keep_boards(0)``) so every board is computed afresh;
* fastest of ``--repeat``: each position run that many times, the two modes interleaved,
  its fastest run kept (the board was just searched: its cross-checks are kept).

The machine's load average is printed first and last: figures taken on a busy machine are
not comparable.
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
from engine.board import Board, Rack
from engine.movegen import find_top
find_top(Board(), Rack("AEIMOST"), lex)  # builds the anagram set of the bingo bound
searched = rss()
peak = rss("VmHWM:")
print(elapsed, before, imported, after, searched, peak)
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


HEADER = (
    f"{'ms per position':<36}{'n':>5}{'median':>10}{'p90':>10}{'p99':>10}{'max':>10}"
    f"{'native':>10}{'ratio':>9}"
)

Summary = tuple[int, float, float, float, float]


def summary(times: list[float]) -> Summary:
    """n, median, p90, p99, max in ms."""
    ms = [t * 1000 for t in times]
    return (
        len(ms),
        statistics.median(ms),
        percentile(ms, 0.9),
        percentile(ms, 0.99),
        max(ms),
    )


def row(label: str, stats: Summary, native: float | None = None) -> str:
    n, median, p90, p99, top = stats
    ref = f"{native:>10.3f}{median / native:>8.2f}x" if native else f"{'':>19}"
    return f"{label:<36}{n:>5.0f}{median:>10.3f}{p90:>10.3f}{p99:>10.3f}{top:>10.3f}{ref}"


Positions = list[tuple[Board, Rack]]


def single_passes(
    positions: Positions, lexicon: Lexicon, passes: int
) -> dict[str, list[dict[int, list[float]]]]:
    """Each position searched once per pass, in file order, one mode per pass."""
    out: dict[str, list[dict[int, list[float]]]] = {
        "top only, game order": [],
        "top only, from scratch": [],
        "all moves": [],
    }
    for _ in range(passes):
        for mode, runs in out.items():
            search = generate_moves if mode == "all moves" else find_top
            kept = lexicon.handle.keep_boards(0 if mode.endswith("scratch") else 8)
            times: dict[int, list[float]] = {}
            try:
                for board, rack in positions:
                    start = time.perf_counter()
                    search(board, rack, lexicon)
                    times.setdefault(rack.jokers, []).append(time.perf_counter() - start)
            finally:
                lexicon.handle.keep_boards(kept)
            runs.append(times)
    return out


def fastest_runs(
    positions: Positions, lexicon: Lexicon, repeat: int
) -> tuple[dict[str, dict[int, list[float]]], dict[int, list[int]]]:
    """Each position's fastest of ``repeat`` runs per mode (interleaved), and move counts."""
    results: dict[str, dict[int, list[float]]] = {"all moves": {}, "top only": {}}
    n_moves: dict[int, list[int]] = {}
    for board, rack in positions:

        def run_all(board: Board = board, rack: Rack = rack) -> object:
            return generate_moves(board, rack, lexicon)

        def run_top(board: Board = board, rack: Rack = rack) -> object:
            return find_top(board, rack, lexicon)

        best_all = best_top = float("inf")
        for _ in range(repeat):  # interleaved, so a busy moment hits both modes
            best_all = min(best_all, timed(run_all, 1))
            best_top = min(best_top, timed(run_top, 1))
        results["all moves"].setdefault(rack.jokers, []).append(best_all)
        results["top only"].setdefault(rack.jokers, []).append(best_top)
        counted = find_top(board, rack, lexicon, count_moves=True).n_moves
        n_moves.setdefault(rack.jokers, []).append(counted or 0)
    return results, n_moves


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
    parser.add_argument("--passes", type=int, default=3)
    args = parser.parse_args(argv)
    if args.repeat < 1 or args.passes < 1:
        print("bench/engine_top.py: --repeat and --passes take 1 or more", file=sys.stderr)
        return 2
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
        elapsed, before, imported, after, searched, peak = map(float, probe.stdout.split())
        print(
            f"lexicon load: {elapsed * 1000:.1f} ms, file {size:.1f} MiB; process RSS "
            f"{before:.1f} MiB at start, {imported:.1f} after import, {after:.1f} after load "
            f"(+{after - imported:.1f}), {searched:.1f} after a first top search, "
            f"peak {peak:.1f} MiB"
        )

        lexicon = Lexicon.load(path)
        lines = [line for line in args.positions.read_text().splitlines() if line.strip()]
        positions = [
            (Board.from_lines(p["board"]), Rack(p["rack"])) for p in map(json.loads, lines)
        ]
        # untimed: the first seven-tile search builds the lexicon's anagram set once
        find_top(Board(), Rack("AEIMOST"), lexicon)
        passes = single_passes(positions, lexicon, args.passes)
        results, n_moves = fastest_runs(positions, lexicon, args.repeat)

    print()
    print(f"single pass ({args.passes} passes; each statistic the median over the passes):")
    print(HEADER + f"{'medians of the passes':>26}")
    for mode, runs in passes.items():
        native_mode = "top only" if mode.startswith("top only") else mode
        for jokers in sorted(runs[0]):
            stats = [summary(run[jokers]) for run in runs]
            middle = tuple(statistics.median(s[i] for s in stats) for i in range(5))
            each = " / ".join(f"{s[1]:.3f}" for s in stats)
            print(
                row(f"{mode}, {jokers} joker(s)", middle, NATIVE[native_mode].get(jokers))
                + f"  {each}"
            )
    print()
    print(f"fastest of {args.repeat} runs (modes interleaved):")
    print(HEADER)
    for mode, by_jokers in results.items():
        for jokers in sorted(by_jokers):
            native = NATIVE[mode].get(jokers)
            print(row(f"{mode}, {jokers} joker(s)", summary(by_jokers[jokers]), native))
        whole = [t for ts in by_jokers.values() for t in ts]
        print(row(f"{mode}, whole set", summary(whole)))
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
