"""One player's lines of the rankings (issue 16, item 2): a tablet's results page and the
player's results endpoint (``GET /api/player/results/``) ask, per tablet, for one player's
place in each game. Building a game's whole standings for that (5,000 lines sorted in
Python, every game's figures read) cost 180–580 ms a request at 5,000 players × 4 games
(docs/benchmarks.md, "Stored rankings"); here a player's line is their own stored
``PlayerGameFigure`` row and their rank one count over the game's stored totals:
``1 + (players with a higher total)``, ex aequo when another has the same total. That is
the engine's rule (``totals.game_standings``: equal totals share the rank, 1, 2, 2, 4),
and the lines are the ones ``game_ranking`` builds (the checker compares the stored rows
with the recomputation after every scenario game of the tests).

A game whose stored figures are missing, stale (other settings) or not whole (a player
registered behind the services' back) is read the long way (``game_outcomes`` and
``game_ranking``, which recompute), as every other reader does."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.duplicate.totals import percent_of_top
from tournaments import adapter
from tournaments.models import Game, GameFigure, PlayerGameFigure, Registration
from tournaments.selectors.games import counted_rounds
from tournaments.selectors.outcomes import figures_key, game_outcomes
from tournaments.selectors.players import players_of
from tournaments.selectors.ranking_sql import player_places
from tournaments.selectors.rankings import game_ranking
from tournaments.selectors.slips import player_versions
from tournaments.selectors.tournament import tournament_games
from tournaments.selectors.values import PlayerInfo, RankingLine


def stored_figures(games: Sequence[Game]) -> dict[int, tuple[int, int]]:
    """(top total, rounds) of each of ``games`` whose stored figures were computed under
    its current settings (the others are missing from the answer)."""
    rows = GameFigure.objects.filter(game_id__in=[g.pk for g in games]).values_list(
        "game_id", "settings_key", "top_total", "rounds"
    )
    stored = {gid: (key, top, rounds) for gid, key, top, rounds in rows}
    out = {}
    for g in games:
        settings = adapter.totals_settings(g.tournament, adapter.variant(g.variant_code))
        if g.pk in stored and stored[g.pk][0] == figures_key(settings):
            out[g.pk] = stored[g.pk][1:]
    return out


@dataclass(frozen=True, slots=True)
class PlayerStanding:
    """One player in one game: the game's top total, the player's credited score per
    counted round, and their line of the game's ranking (None: not in the game's
    figures)."""

    game: Game
    top_total: int
    rounds: tuple[int, ...]
    line: RankingLine | None


def player_standings(
    reg: Registration, games: Sequence[Game] | None = None
) -> list[PlayerStanding]:
    """The player of ``reg`` in each of ``games`` (default: every game of the tournament,
    in order), read from the stored rows: a few indexed queries whatever the number of
    players."""
    games = tournament_games(reg.tournament_id) if games is None else list(games)
    player = reg.player_id
    figures = stored_figures(games) if games else {}
    ids = list(figures)
    mine = {
        game: (rounds, total, solos, warnings, penalties)
        for game, rounds, total, solos, warnings, penalties in PlayerGameFigure.objects.filter(
            game_id__in=ids, player_id=player
        ).values_list("game_id", "rounds", "total", "solo_rounds", "warnings", "penalties")
    }  # fmt: skip
    places = player_places(player, [i for i in ids if i in mine])
    registered = Registration.objects.filter(tournament_id=reg.tournament_id).count()
    info = players_of(reg.tournament_id, only=[player]).get(player) or PlayerInfo(
        player, f"#{player}", 0
    )
    out = []
    for game in games:
        place = places.get(game.pk)
        if place is None or place[2] != registered:
            out.append(_long_way(game, player))
            continue
        top, _rounds = figures[game.pk]
        rounds, total, solos, warnings, penalties = mine[game.pk]
        line = RankingLine(
            rank=place[0] + 1, player=info, total=total, negatif=total - top,
            percent=percent_of_top(total, top), solos=len(solos), warnings=warnings,
            penalties=penalties, ex_aequo=place[1] > 1,
        )  # fmt: skip
        out.append(PlayerStanding(game, top, tuple(rounds), line))
    return out


def _long_way(game: Game, player: int) -> PlayerStanding:
    """A game without whole stored figures: its whole ranking, as ``game_outcomes``
    recomputes it."""
    result = game_outcomes(game)
    pg = result.player(player)
    line = next((x for x in game_ranking(game).lines if x.player.player_id == player), None)
    return PlayerStanding(game, result.top_total, pg.rounds if pg else (), line)


def player_results(reg: Registration) -> list[dict[str, Any]]:
    """Per game: the counted rounds with the top and the player's current proposal, and
    the player's line of the game's ranking (``standing``, a ``RankingLine`` or None)."""
    out = []
    for mine in player_standings(reg):
        rounds = counted_rounds(mine.game)
        versions = player_versions(rounds, reg.player_id)
        scores = mine.rounds
        out.append(
            {
                "game": mine.game.number,
                "top_total": mine.top_total,
                "standing": mine.line,
                "rounds": [
                    {
                        "number": r.number,
                        "rack": r.rack,
                        "top": (r.top or {}).get("chosen") if r.top_placed_at else None,
                        "top_score": r.top_score,
                        "proposal": versions.get(r.pk),
                        "score": scores[i] if i < len(scores) else 0,
                    }
                    for i, r in enumerate(rounds)
                ],
            }
        )
    return out
