"""Time the card game's engine opponents over seeded games, and size the tables they meet.

    .venv/bin/python bench/cards_engine.py --lexicon FILE [--games N] [--level strong|weak]
        [--versus N]

Plays N seeded games (2 to 6 seats in turn, seeds 1000 * seats + k, as the tests do) and
prints: the median / p90 / p99 / max CPU time of one engine decision (process time, so a
loaded machine does not inflate it; wall time per game beside it), the
turns per game, the table's size (lines × columns) and how many generator windows a position
needs (docs/cards.md, "Engine opponents"); with ``--versus N``, how many of N two-seat
games the strong level wins against the weak one.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.cards.game import CardGame  # noqa: E402
from engine.cards.match import action_of, apply, play_engine_game  # noqa: E402
from engine.cards.players import windows  # noqa: E402
from engine.lexicon.automaton import Lexicon  # noqa: E402


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _size(game: CardGame) -> int:
    if game.table.is_empty():
        return 0
    top, left, bottom, right = game.table.bounds()
    return max(bottom - top + 1, right - left + 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", required=True)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--level", default="strong", choices=("strong", "weak"))
    parser.add_argument("--versus", type=int, default=0, help="also N games strong vs weak")
    args = parser.parse_args()
    lexicon = Lexicon.load(args.lexicon)
    decisions, games, turns, sizes, n_windows = [], [], [], [], []
    for i in range(args.games):
        players = 2 + i % 5
        seed = 1000 * players + i // 5
        started = time.perf_counter()
        game = CardGame(players, seed, lexicon=lexicon, strict=True)
        while not game.over:
            sizes.append(_size(game))
            n_windows.append(len(windows(game.table)))
            t0 = time.process_time()
            action = action_of(game, game.current, args.level)
            decisions.append(time.process_time() - t0)
            apply(game, game.current, action)
        games.append(time.perf_counter() - started)
        turns.append(len(game.history))
    ms = [d * 1000 for d in decisions]
    print(f"games {args.games}, level {args.level}, decisions {len(ms)}")
    print(
        f"decision CPU ms: median {statistics.median(ms):.1f}  p90 {_percentile(ms, 0.9):.1f}  "
        f"p99 {_percentile(ms, 0.99):.1f}  max {max(ms):.1f}"
    )
    print(f"game wall s: median {statistics.median(games):.2f}  max {max(games):.2f}")
    print(f"turns per game: median {statistics.median(turns)}  max {max(turns)}")
    if args.versus:
        wins = 0
        for k in range(args.versus):
            levels = ["strong", "weak"] if k % 2 == 0 else ["weak", "strong"]
            game = play_engine_game(2, 7000 + k, lexicon, levels)
            strong = levels.index("strong")
            wins += game.end.scores[strong] > game.end.scores[1 - strong]
        print(f"strong against weak, 2 seats: strong wins {wins} of {args.versus}")
    print(f"table size (longest side): median {statistics.median(sizes)}  max {max(sizes)}")
    print(f"windows per position: median {statistics.median(n_windows)}  max {max(n_windows)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
