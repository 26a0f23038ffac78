"""Time the ranking documents' renderers at N players × G games, in-process.

    .venv/bin/python bench/documents_profile.py [--players 5000] [--games 4] [--rounds 20]
                                                [--repeat 3] [--kinds results,xlsx,csv]
                                                [--profile KIND]

The renderers are pure functions of plain values (docs/reports.md), so the data is made
here, without a database: N players (series 1–7 and five categories, so the sub-rankings
are printed), G games of R rounds, every player a score on every round. Prints the load
average, then the median seconds of ``--repeat`` runs per document kind and its size:

* ``results``: the whole tournament's results PDF (``results.results_pdf``);
* ``xlsx``: the whole tournament's workbook with every game's sheets
  (``tables.workbook_xlsx``);
* ``csv``: the whole ranking's CSV (``tables.ranking_csv``).

What the selectors cost to read the same data from the database is not in these figures
(the documents' reads: ``selectors.results_data``, ``selectors.game_data``).
``--profile KIND`` prints cProfile's 25 most expensive calls of one run of KIND.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournaments.settings")

import django  # noqa: E402

django.setup()

from django.utils import translation  # noqa: E402

from engine.duplicate.totals import percent_of_top  # noqa: E402
from tournaments.reports.results import results_pdf  # noqa: E402
from tournaments.reports.tables import ranking_csv, workbook_xlsx  # noqa: E402
from tournaments.selectors.values import (  # noqa: E402
    GameData,
    PlayerGameLine,
    PlayerInfo,
    PlayerMove,
    Ranking,
    RankingLine,
    ResultsData,
    TopLine,
    TournamentInfo,
    mark_ex_aequo,
)

CATEGORIES = ("Senior", "Vermeil", "Diamant", "Junior", "")


def make_data(players: int, games: int, rounds: int) -> tuple[ResultsData, list[GameData]]:
    """A tournament of ``players`` × ``games`` games of ``rounds`` rounds: tops of 40 to
    99 points, each player ``top - (player + round) % 30`` on each round."""
    info = TournamentInfo("Tournoi de mesure", "mesure")
    people = [
        PlayerInfo(p, f"Joueur Numéro {p:05d}", p, club=f"Club {p % 97}",
                   series=str(1 + p % 7), category=CATEGORIES[p % 5], licence=f"{p:07d}")
        for p in range(1, players + 1)
    ]  # fmt: skip
    datas, rankings, per_game_totals = [], [], []
    for g in range(1, games + 1):
        tops, cumulative = [], 0
        for r in range(1, rounds + 1):
            score = 40 + (g * 7 + r * 13) % 60
            cumulative += score
            tops.append(TopLine(r, "AEINRST", "ENTRAIS", "H4", score, cumulative))
        lines, totals = [], {}
        for p in people:
            moves = tuple(
                PlayerMove(t.number, "ENTRAIS", "H4", t.score - (p.player_id + t.number) % 30)
                for t in tops
            )
            total = sum(m.score for m in moves)
            totals[p.player_id] = total
            lines.append(PlayerGameLine(p, moves, total))
        datas.append(GameData(info, g, tuple(tops), tuple(lines)))
        per_game_totals.append(totals)
        rankings.append(_ranking(f"Partie {g}", cumulative, people, [totals], (g,), rounds))
    top_total = sum(r.top_total for r in rankings)
    overall = _ranking("Classement général", top_total, people, per_game_totals,
                       tuple(range(1, games + 1)), rounds * games)  # fmt: skip
    return ResultsData(info, tuple(rankings), overall if games > 1 else None), datas


def _ranking(title: str, top: int, people: list[PlayerInfo], per_game: list[dict[int, int]],
             numbers: tuple[int, ...], rounds: int) -> Ranking:  # fmt: skip
    totals = {p.player_id: sum(t[p.player_id] for t in per_game) for p in people}
    order = sorted(people, key=lambda p: -totals[p.player_id])
    lines, rank, previous = [], 0, None
    for i, p in enumerate(order, start=1):
        total = totals[p.player_id]
        if total != previous:
            rank, previous = i, total
        lines.append(
            RankingLine(rank, p, total, total - top, percent_of_top(total, top) or Decimal(0),
                        game_totals=tuple(t[p.player_id] for t in per_game)
                        if len(per_game) > 1 else ())
        )  # fmt: skip
    return Ranking(title, top, mark_ex_aequo(lines), numbers, rounds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--kinds", default="results,xlsx,csv")
    parser.add_argument("--profile", default="")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}", flush=True)
    translation.activate("fr")
    started = time.perf_counter()
    results, games = make_data(args.players, args.games, args.rounds)
    print(f"data: {args.players} players × {args.games} games × {args.rounds} rounds, "
          f"made in {time.perf_counter() - started:.1f} s", flush=True)  # fmt: skip
    kinds: dict[str, Callable[[], object]] = {
        "results": lambda: results_pdf(results),
        "xlsx": lambda: workbook_xlsx(results, games),
        "csv": lambda: ranking_csv(results),
    }
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(kinds[args.profile])
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
        return
    for kind in args.kinds.split(","):
        times, size = [], 0
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            rendered = kinds[kind]()
            times.append(time.perf_counter() - t0)
            size = len(rendered.content)  # type: ignore[attr-defined]
        print(f"{kind:8} median {statistics.median(times):6.2f} s  (runs: "
              f"{', '.join(f'{t:.2f}' for t in times)})  {size / 1024:,.0f} KiB",
              flush=True)  # fmt: skip
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
